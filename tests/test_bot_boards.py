"""The public board catches up with the database, whatever became of the reply.

A move is committed before it is answered. When the answer is lost (Discord
fails the interaction's callback; Kamen is killed between the commit and the
reply), the board used to show the old position for ever and the opponent
was never told. The board keeper repairs it, at start-up and on its timer.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot_support import options, process_table, start_game, to_move

QUICK_REPAIR = {"KAMEN_REPAIR_INTERVAL": "0.5"}


@pytest.mark.asyncio
@pytest.mark.parametrize("status", [500, 429, 403, 404])
async def test_a_move_whose_answer_discord_failed_reaches_the_board_and_the_opponent(
    tmp_path: Path, status: int
) -> None:
    async with process_table(tmp_path, QUICK_REPAIR) as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        _, board = await start_game(table, "oware")
        first = options(board)[0]
        # Every answer to this interaction fails (its retries too): the move is committed,
        # but its reply never edits the board.
        fake.fail("POST", r"/callback$", status, times=None)
        await fake.select(ann, board, "Pick a move", [first], wait=False)
        await fake.wait_for(
            lambda: to_move(table, board) is bob, timeout=20, what="the repaired board"
        )
        fake.clear_faults()
        assert options(board) and "Move 1" in board.text
        await fake.wait_for(
            lambda: any("your move in" in m.content for m in fake.notifications(bob)),
            timeout=10,
            what="Bob told it is his turn",
        )
        moved = await fake.select(bob, board, "Pick a move", [options(board)[0]])
        assert moved.type == 7 and to_move(table, board) is ann
