"""The board keeper: boards that lag behind the database are brought up to date.

The database is the truth and a game's public board is a view of it. When the
reply that should have shown a move is lost (Kamen killed just after the
commit, Discord failing the interaction's answer), the game's recorded board
(`board_ply`, `board_status`) stays behind its moves; the service's runner
finds such boards at start-up, then every few seconds and soon after an answer
failed (`Table.repair_soon`), and hands them to the keeper (`repair_lagging`),
which edits each board (or posts a new one if it is gone), tells the player to
move, and lets Kamen move where it is its turn.

With several processes (shards), each repairs only the boards of the servers it
serves (its shards, `matches.shards`): every server is on one shard and every shard in
one process, so each repair is done by exactly one process, and a process that
died repairs its own at its next start.
"""

from __future__ import annotations

import contextlib
import logging
from datetime import timedelta

import discord

from bot import components, replies, rest
from bot.table import Table
from matches import GameView, Status

log = logging.getLogger(__name__)

# Kept in step: the live games and the results (a challenge's message is not a board).
REPAIRED = (Status.ACTIVE, Status.FINISHED)
# A game that changed this recently may have its answer still on the way (the reply
# posted, its message id not yet recorded): the keeper leaves it to its handler.
SETTLE = timedelta(seconds=3)


class BoardKeeper:
    """Repairs, through the table, the lagging boards the service's runner finds."""

    def __init__(self, table: Table) -> None:
        self.table = table

    async def repair_lagging(self, view: GameView) -> bool:
        """Bring a lagging board (of this process's servers) up to date: whether it was.

        Games this process changed within `SETTLE` are left to the answers on their
        way (a game changed before a restart has none), and so are boards being
        edited right now.
        """
        await self.table.languages.load()  # a server's choice made in another process
        settled = max(self.table.service.clock() - SETTLE, self.table.started)
        # A board never recorded (a game from before boards were recorded) is left as it
        # is: only a board known to show an older state of its game is repaired.
        lost_challenge = view.status is Status.CHALLENGE and view.message_id is None
        if not lost_challenge and (view.status not in REPAIRED or view.board_ply is None):
            return False
        if view.updated_at > settled or self.table.is_showing(view.id):
            return False
        try:
            with rest.work("repair"):
                await self.repair(view)
        except discord.HTTPException as error:
            log.warning("game #%s: its board could not be repaired yet: %s", view.id, error)
            return False
        return True

    async def repair(self, view: GameView) -> None:
        table = self.table
        if view.status is Status.CHALLENGE:  # its message never made it: posted again
            channel = table.client.get_partial_messageable(view.channel_id, guild_id=view.guild_id)
            locale = table.locale_of(view)
            out = replies.challenge(view, None, components.challenge_view(view, locale), locale)
            message = await channel.send(**out.send_kwargs())
            await table.shown(view, message.id)
            log.info("game #%s: its challenge was posted again", view.id)
            return
        await table.ratings_of(view)  # a rated result shows the ratings' change
        out = await table.board_now(view)
        if view.board_status is Status.CHALLENGE and view.message_id == view.channel_id:
            # An accept cut short: the game went to the thread started on its challenge.
            await self.close_challenge(view, view.message_id)
            await table.send_board(view, out, strip_old=False)
        else:
            await table.update_board(view, out)
        log.info("game #%s: its board showed %s moves played, now %s", view.id,
                 view.board_ply, view.ply)  # fmt: skip
        if view.status is not Status.ACTIVE:
            return
        if view.bot_to_move:
            table.let_bot_move(view)
        else:
            await table.ping_turn(view)

    async def close_challenge(self, view: GameView, message_id: int) -> None:
        """An accept cut short after its commit: the challenge message (the thread's
        starter, in the parent channel) says where the game went, without its buttons."""
        client = self.table.client
        try:
            thread = client.get_channel(view.channel_id) or await client.fetch_channel(
                view.channel_id
            )
        except discord.NotFound:
            return
        parent_id = getattr(thread, "parent_id", None)
        if not isinstance(parent_id, int):
            return
        parent = client.get_partial_messageable(parent_id, guild_id=view.guild_id)
        moved = replies.moved_to_thread(view, view.channel_id, self.table.locale_of(view))
        with contextlib.suppress(discord.NotFound):
            await parent.get_partial_message(message_id).edit(**moved.edit_kwargs())
