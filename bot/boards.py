"""The board keeper: boards that lag behind the database are brought up to date.

The database is the truth and a game's public board is a view of it. When the
reply that should have shown a move is lost (Kamen killed just after the
commit, Discord failing the interaction's answer), the game's recorded board
(`board_ply`, `board_status`) stays behind its moves; the keeper, run at
start-up and then every few seconds, edits that board (or posts a new one if
it is gone), tells the player to move, and lets Kamen move where it is its turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta

import discord

from bot.table import Table
from matches import GameView, Status

log = logging.getLogger(__name__)

# Kept in step: the live games and the results (a challenge's message is not a board).
REPAIRED = (Status.ACTIVE, Status.FINISHED)
# A game that changed this recently may have its answer still on the way (the reply
# posted, its message id not yet recorded): the keeper leaves it to its handler.
SETTLE = timedelta(seconds=3)
RETRY_AFTER = 3.5  # seconds from a failed answer to the first repair


class BoardKeeper:
    """Repairs the boards of `service.lagging_boards()` through the table."""

    def __init__(self, table: Table) -> None:
        self.table = table

    async def repair_all(self) -> int:
        """Bring every lagging board up to date; how many were repaired."""
        repaired = 0
        service = self.table.service
        settled = service.clock() - SETTLE
        for view in await service.lagging_boards():
            # A board never recorded (a game from before boards were recorded) is left as it
            # is: only a board known to show an older state of its game is repaired.
            if view.status not in REPAIRED or view.board_ply is None:
                continue
            if view.updated_at > settled:
                continue
            try:
                await self.repair(view)
                repaired += 1
            except discord.HTTPException as error:
                log.warning("game #%s: its board could not be repaired yet: %s", view.id, error)
        return repaired

    async def repair(self, view: GameView) -> None:
        table = self.table
        await table.update_board(view, table.board(view))
        log.info("game #%s: its board showed move %s, now %s", view.id, view.board_ply, view.ply)
        if view.status is not Status.ACTIVE:
            return
        if view.bot_to_move:
            table.let_bot_move(view)
        else:
            await table.ping_turn(view)

    async def run_forever(self, interval: float) -> None:
        """Repair now, then every `interval` seconds, and soon after an answer failed
        (`Table.repair_soon`); a failed pass is logged, not fatal."""
        lagging = self.table.lagging
        while True:
            lagging.clear()
            try:
                await self.repair_all()
            except Exception:
                log.exception("repairing the boards failed; trying again in %s s", interval)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(lagging.wait(), interval)
                await asyncio.sleep(RETRY_AFTER)  # Discord's trouble may last a moment
