"""Kamen's own downtime is nobody's loss: the clocks stop while it is away, and it says so.

The bot process is killed in the middle of a game with five minutes a move,
its clock moves on six minutes (as if it had been down that long), and it is
started again on the same database.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from tests.bot_support import BotProcess, options, process_table, start_game, to_move


@pytest.mark.asyncio
async def test_six_minutes_down_across_a_five_minute_move_loses_nobody_the_game(
    tmp_path: Path,
) -> None:
    async with process_table(tmp_path) as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        thread, board = await start_game(table, "oware", time="5m")
        moved = await fake.select(ann, board, "Pick a move", [options(board)[0]])
        assert moved.type == 7 and to_move(table, board) is bob
        bot = table.bot
        assert isinstance(bot, BotProcess)
        await bot.kill()
        table.advance(timedelta(minutes=6))
        await bot.start()

        told = [m for m in fake.messages(thread) if "Kamen was away" in m.content]
        assert len(told) == 1, [m.content for m in fake.messages(thread)]
        assert told[0].content.startswith("Kamen was away for 6 minutes; the clocks were stopped")
        assert told[0] in fake.notifications(bob)  # the player whose deadline moved is told
        # Bob's move, sent the moment Kamen is back, lands: he did not lose on time.
        answer = await fake.select(bob, board, "Pick a move", [options(board)[0]])
        assert answer.type == 7 and to_move(table, board) is ann
        assert "ran out of time" not in board.text
        fake.assert_no_violations()


@pytest.mark.asyncio
async def test_a_quick_restart_says_nothing_about_downtime(tmp_path: Path) -> None:
    async with process_table(tmp_path) as table:
        fake = table.fake
        thread, board = await start_game(table, "oska", time="5m")
        bot = table.bot
        assert isinstance(bot, BotProcess)
        await bot.kill()
        await bot.start()
        assert not [m for m in fake.messages(thread) if "Kamen was away" in m.content]
        assert options(board)
