"""Announcing what the service's sweeper did: expired challenges, reminders, losses on time.

The service keeps the deadlines and decides (the `sweeper` of `matches.runner`);
this says it in the game's channel. Each event is announced on its own: one
that fails (a deleted channel) is logged and the others still go out.
"""

from __future__ import annotations

import logging

import discord

import words
from bot import replies, rest
from bot.table import Table
from games.record import move_number
from matches import SweepEvent, SweepKind
from matches.live_clocks import clock_text

log = logging.getLogger(__name__)


class Sweeper:
    """Turns `SweepEvent`s into messages."""

    def __init__(self, table: Table) -> None:
        self.table = table

    async def announce(self, event: SweepEvent) -> None:
        try:
            with rest.work("sweeper"):
                await self._announce(event)
        except discord.HTTPException as error:  # the board repair shows it later
            log.warning("could not announce %s of game #%s: %s", event.kind, event.view.id, error)

    async def _announce(self, event: SweepEvent) -> None:
        view = event.view
        client = self.table.client
        channel = client.get_partial_messageable(view.channel_id, guild_id=view.guild_id)
        locale = self.table.locale_of(view)
        if event.kind is SweepKind.EXPIRED:
            if view.message_id is not None:
                out = replies.closed_challenge(view, locale)
                try:
                    await channel.get_partial_message(view.message_id).edit(**out.edit_kwargs())
                    return
                except discord.NotFound:
                    pass
            await channel.send(
                replies.closed_challenge(view, locale).content,
                allowed_mentions=replies.MENTION_USERS,
            )
        elif event.kind is SweepKind.REMINDER and view.has_live_clock:
            mover = view.to_move
            now = self.table.service.clock()
            left = view.clock_left(mover, now) if mover is not None else None
            text = words.say(
                "bot.reminder.low-time",
                locale,
                player=replies.mention(event.user_id),
                left=clock_text(left) if left is not None else "0:00",
                number=move_number(view.ply)[0],
                title=replies.title(view, locale),
                id=view.id,
            )
            await self.table.post(view, text, replies.MENTION_USERS)
        elif event.kind is SweepKind.REMINDER:
            deadline = int(view.deadline.timestamp()) if view.deadline else None
            text = words.say(
                "bot.reminder.deadline" if deadline else "bot.reminder",
                locale,
                player=replies.mention(event.user_id),
                deadline=deadline,
                number=move_number(view.ply)[0],
                title=replies.title(view, locale),
                id=view.id,
            )
            await self.table.post(view, text, replies.MENTION_USERS)
        else:
            await self.table.update_board(view, await self.table.board(view))
            await self.table.announce_end(view, new_message=False)
