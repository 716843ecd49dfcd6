"""Kamen's own upkeep around the games: the heartbeat, downtime given back, gone channels.

At start-up, before the sweeper looks at any deadline, the time Kamen was
away is given back to every running clock (`MatchService.credit_downtime`)
and each game so helped is told. While it runs, the service's runner writes
a heartbeat every few seconds, which is what the next start-up measures the
downtime by.
When a game's channel or thread is deleted, the game ends as abandoned and
its players are told where they can still be reached.

With several processes on one database the heartbeat is Kamen's, not a
process's: while any process beats, the clocks run (a process that restarts
while another beats gives nothing back). The credit after Kamen was away is
given by one process alone, the one that claims it (`Claims`, a row taken
under a database lock): two processes starting together after an outage would
otherwise both read the old heartbeat and give the time back twice. The others
wait for its heartbeat; if the claiming process dies before giving the time
back, its claim lapses after `CREDIT_HOLD` and another process gives it.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

import discord

import words
from bot import replies
from bot.languages import Languages
from matches import GameView, MatchService
from matches.upkeep import DOWNTIME

log = logging.getLogger(__name__)

CREDIT = "downtime-credit"  # the claim on giving the time back
CREDIT_HOLD = 2 * DOWNTIME  # how long a claim on the credit holds if its process dies
CREDIT_POLL = 1.0  # seconds between looks while another process gives the time back


class Upkeep:
    """The downtime credit and the end of games whose channel is gone, told in Discord."""

    def __init__(self, client: discord.Client, service: MatchService, languages: Languages) -> None:
        self.client = client
        self.service = service
        self.languages = languages

    async def credit_downtime(self) -> None:
        """Give the time Kamen was away back to the clocks, and say so in each game:
        this process, if it claims the credit; else once the process that did is done."""
        claims = self.service.claims
        waited = False
        while not await claims.take(CREDIT, CREDIT_HOLD):
            if await self.service.beating():
                return  # the process holding the claim gave the time back
            if not waited:
                log.info("Kamen was away: another process is giving the time back")
                waited = True
            await asyncio.sleep(CREDIT_POLL)
        try:
            credited = await self.service.credit_downtime()
        finally:
            await claims.drop(CREDIT)
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
