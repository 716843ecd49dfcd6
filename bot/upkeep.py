"""Kamen's own upkeep around the games, told in Discord: downtime given back, gone channels.

At start-up, before the sweeper looks at any deadline, the service's runner
gives the time Kamen was away back to every running clock
(`Runner.credit_downtime`, by one process alone when several share the
database) and each game so helped is told here. While it runs, the runner
writes a heartbeat every few seconds, which is what the next start-up measures
the downtime by.

When a game's channel or thread is deleted, the game ends as abandoned and
its players are told where they can still be reached.
"""

from __future__ import annotations

import logging
from datetime import timedelta

import discord

import words
from bot import replies
from bot.languages import Languages
from matches import GameView, MatchService

log = logging.getLogger(__name__)


class Upkeep:
    """The downtime credit and the end of games whose channel is gone, told in Discord."""

    def __init__(self, client: discord.Client, service: MatchService, languages: Languages) -> None:
        self.client = client
        self.service = service
        self.languages = languages

    async def tell_downtime(self, credited: list[tuple[GameView, timedelta]]) -> None:
        """Say in each game whose clock got back the time Kamen was away that it did."""
        for view, away in credited:
            try:
                await self._tell_downtime(view, away)
            except discord.HTTPException as error:
                log.warning("could not tell game #%s about the downtime: %s", view.id, error)

    async def _tell_downtime(self, view: GameView, away: timedelta) -> None:
        minutes = max(1, round(away.total_seconds() / 60))
        locale = self.languages.server(view.guild_id)
        text = words.say(
            "bot.downtime",
            locale,
            minutes=minutes,
            title=replies.title(view, locale),
            id=view.id,
            player=replies.mention(view.to_move_id),
        )
        channel = self.client.get_partial_messageable(view.channel_id, guild_id=view.guild_id)
        # The player to move is told: their deadline moved.
        await channel.send(text, allowed_mentions=replies.mentions_of(view.to_move_id))

    async def channel_gone(self, channel_id: int, parent_id: int | None) -> None:
        """End the games of a deleted channel or thread and tell their players."""
        for view in await self.service.abandon_channel(channel_id):
            if view.players is None:
                continue  # a challenge: cancelled, nobody was playing yet
            try:
                await self._tell_abandoned(view, parent_id)
            except discord.HTTPException as error:
                log.warning("could not tell the players of game #%s: %s", view.id, error)

    async def _tell_abandoned(self, view: GameView, parent_id: int | None) -> None:
        players = sorted({user for user in view.players or () if user != view.bot_id})
        locale = self.languages.server(view.guild_id)
        text = words.say(
            "bot.abandoned",
            locale,
            players=" ".join(replies.mention(user) for user in players),
            title=replies.title(view, locale),
            id=view.id,
            game=replies.command_name(view, locale),
        )
        allowed = replies.mentions_of(*players)
        if parent_id is not None:
            parent = self.client.get_partial_messageable(parent_id, guild_id=view.guild_id)
            try:
                await parent.send(text, allowed_mentions=allowed)
                return
            except (discord.NotFound, discord.Forbidden):
                pass  # the parent is gone too, or closed to Kamen: each player hears it alone
        for user_id in players:
            user = await self.client.fetch_user(user_id)
            await user.send(text, allowed_mentions=allowed)
