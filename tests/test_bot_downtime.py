"""Kamen's own downtime is nobody's loss: the clocks stop while it is away, and it says so.

The bot process is killed in the middle of a game with five minutes a move,
its clock moves on six minutes (as if it had been down that long), and it is
started again on the same database.
"""

from __future__ import annotations

import asyncio
import socket
import urllib.error
import urllib.request
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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.asyncio
async def test_health_checks_polled_during_the_restart_do_not_hide_the_downtime(
    tmp_path: Path,
) -> None:
    port = free_port()
    async with process_table(tmp_path, {"HEALTH_PORT": str(port)}) as table:
        fake = table.fake
        thread, board = await start_game(table, "oware", time="5m")
        bot = table.bot
        assert isinstance(bot, BotProcess)
        await bot.kill()
        table.advance(timedelta(minutes=6))

        answers: list[int] = []

        async def poll() -> None:  # a container's health check, as often as it likes
            while True:
                answers.append(await asyncio.to_thread(healthz, port))
                await asyncio.sleep(0.02)

        fake.fail("GET", r"^/users/@me$", None, delay=1.5)  # a slow login: polled meanwhile
        poller = asyncio.create_task(poll())
        try:
            await bot.start()
            await fake.wait_for(lambda: 200 in answers, what="a healthy answer")
        finally:
            poller.cancel()
        told = [m for m in fake.messages(thread) if "Kamen was away" in m.content]
        assert len(told) == 1 and "6 minutes" in told[0].content
        assert options(board)


def healthz(port: int) -> int:
    """The status /healthz answers (0 while nothing listens)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0
