"""After any race, the public board shows how the game stands in the database.

A move and the opponent's confirmed resignation, sent at the same moment, are
both answered by edits of the same board; the earlier commit's edit could land
last and leave a live board with a working menu over a resigned game.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot_support import options, process_table, settle, start_game


@pytest.mark.asyncio
async def test_a_move_racing_a_resignation_leaves_the_final_board(tmp_path: Path) -> None:
    async with process_table(tmp_path) as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        for delay in (0.05, 0.3, 0.8):
            _, board = await start_game(table, "oware")
            asked = await fake.click(bob, board, "Resign")
            assert asked.message is not None
            moved = await fake.select(ann, board, "Pick a move", [options(board)[0]], wait=False)
            # The move's answer (its edit of the board) is slow to land: the resignation,
            # committed after the move, edits the board first.
            fake.fail("POST", rf"/interactions/{moved.record.id}/", None, delay=delay)
            resigned = await fake.click(bob, asked.message, "Yes, resign", wait=False)
            await moved.wait()
            await resigned.wait()
            # Resigning does not depend on the position: it always lands.
            assert resigned.message is not None and "You resigned" in resigned.message.content
            await settle(fake)
            assert "Game over" in board.content and "resigned" in board.text
            assert options(board) == []  # the game's own buttons, no move's
            # (Review too when the move landed first: a game without a move has nothing to review)
            labels = [b["label"] for b in board.buttons if b["label"] != "Review"]
            assert labels == ["Rematch", "Replay", "Record"]
        assert table.new_violations() == []


@pytest.mark.asyncio
async def test_rematch_pressed_twice_at_once_posts_one_challenge(tmp_path: Path) -> None:
    async with process_table(tmp_path) as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        thread, board = await start_game(table, "oska", time="1h")
        asked = await fake.click(bob, board, "Resign")
        assert asked.message is not None
        await fake.click(bob, asked.message, "Yes, resign")
        await settle(fake)
        # Ann's double click: both presses reach the bot before either is answered.
        presses = [await fake.click(ann, board, "Rematch", wait=False) for _ in range(2)]
        for press in presses:
            await press.wait()
        posted = [press for press in presses if not press.ephemeral]
        [refused] = [press for press in presses if press.ephemeral]
        assert len(posted) == 1 and posted[0].message is not None
        number = str(posted[0].message.embeds[0]["title"]).rsplit("#", 1)[1]
        assert f"You already made this same challenge (game #{number})" in refused.text
        await settle(fake)
        challenges = [m for m in fake.messages(thread) if "moves first" in m.text]
        assert [m.id for m in challenges] == [posted[0].message.id]
        assert table.new_violations() == []
