"""Playing feels first-party (issue 15), through the fake Discord with a real bot process:
taps per move counted where that is the point."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot_support import (
    last_board,
    options,
    play_button,
    process_table,
    start_game,
    to_move,
)

# Short openings that leave the player to move exactly one legal move (a capture).
FORCED = {"oska": ["a1-b2", "a5-b4", "b2-c3"], "lasca": ["a3-b4"]}


@pytest.mark.asyncio
@pytest.mark.parametrize("game", sorted(FORCED))
async def test_a_forced_move_is_one_tap_on_a_play_button(tmp_path: Path, game: str) -> None:
    async with process_table(tmp_path) as table:
        fake = table.fake
        thread, board = await start_game(table, game)
        for move in FORCED[game]:
            mover = to_move(table, board)
            reply = await fake.slash(mover, thread, f"{game} move", move=move)
            assert not reply.ephemeral, reply.text
            board = last_board(table, thread)
        [forced] = options(board)
        button = play_button(board)
        assert button is not None and button["label"] == f"Play {forced}"
        assert not [s for s in board.selects if s["custom_id"].startswith("kamen:move:")]
        mover = to_move(table, board)
        # The other player's tap is refused privately, the board untouched.
        waiting = table.ann if mover is table.bob else table.bob
        refused = await fake.click(waiting, board, button["custom_id"])
        assert refused.ephemeral and "not your turn" in refused.text.lower(), refused.text
        assert play_button(board) == button
        taps = 0
        reply = await fake.click(mover, board, button["custom_id"])
        taps += 1
        assert reply.type == 7 and reply.message is board  # the board, edited in place
        assert f"played {forced}" in board.text
        assert taps == 1  # was 2: open a menu of one, pick its only move
