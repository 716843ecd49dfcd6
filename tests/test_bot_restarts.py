"""The bot process killed, reconnected, raced: games go on, nothing is played twice.

The bot runs as `python -m bot` on a SQLite file. It is SIGKILLed in the
middle of games (one waiting for a player, one while Kamen thinks) and
started again on the same file; two moves arrive at the same moment; the
gateway drops and resumes mid-game.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from pathlib import Path

import pytest

from tests.bot_support import (
    BotProcess,
    ephemeral_text,
    options,
    process_table,
    start_against_kamen,
    start_game,
    to_move,
)


@pytest.mark.asyncio
async def test_sigkill_mid_game_then_the_old_board_still_works(tmp_path: Path) -> None:
    async with process_table(tmp_path) as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        thread, board = await start_game(table, "oska")
        waiting = (await fake.slash(bob, table.games, "oware challenge", opponent=ann)).message
        assert waiting is not None
        await fake.select(ann, board, "Pick a move", [options(board)[0]])
        old_menu = board.selects[0]["custom_id"]
        first_reply = await fake.select(bob, board, "Pick a move", [options(board)[0]])
        assert first_reply.type == 7 and to_move(table, board) is ann

        bot = table.bot
        assert isinstance(bot, BotProcess)
        await bot.kill()
        took = await bot.start()
        # Back as fast as a first start, which makes the database too: it waited for nothing
        # the killed process left (measured against this machine, as loaded as it is now).
        assert took < 2 * bot.took[0] + 2

        # the board posted before the restart: its menu works, the move lands in place
        offered = options(board)
        moved = await fake.select(ann, board, "Pick a move", [offered[0]])
        assert moved.type == 7 and moved.message is board
        assert f"played {offered[0]}" in board.text and to_move(table, board) is bob
        # an older state of that board is refused politely, with the board as it is now
        stale = await fake.select(
            bob, board, old_menu, [first_reply_value(board, old_menu)], stale=True
        )
        assert ephemeral_text(stale).startswith("That board is out of date")
        # a challenge posted before the restart can still be accepted
        accepted = await fake.click(ann, waiting, "Accept")
        assert accepted.type == 7 and "being played in" in waiting.content
        # and the slash commands know the game too
        reply = await fake.slash(bob, thread, "oska move", move=options(board)[0])
        assert not reply.ephemeral and "Red played" in reply.text
        assert fake.identify_count == 2


def first_reply_value(board: object, custom_id: str) -> str:
    """A value the older menu offered (the fake checks the click against that version)."""
    for version in reversed(getattr(board, "versions", [])):
        for row in version.components:
            for item in row.get("components", []):
                if item.get("custom_id") == custom_id:
                    return str(item["options"][0]["value"])
    raise LookupError(custom_id)


@pytest.mark.asyncio
async def test_sigkill_while_kamen_thinks_then_kamen_moves_after_the_restart(
    tmp_path: Path,
) -> None:
    async with process_table(tmp_path) as table:
        fake, ann = table.fake, table.ann
        bot = table.bot
        assert isinstance(bot, BotProcess) and bot.process is not None
        pid = bot.process.pid
        _, board = await start_against_kamen(table, "oware", "8")
        versions = len(board.versions)
        # Kamen's worker (it starts with the game) is held: however slow this machine, Kamen
        # is still thinking when the bot is killed.
        await fake.wait_for(lambda: bool(ai_workers(pid)), timeout=30, what="Kamen's worker")
        held = ai_workers(pid)
        for worker in held:
            os.kill(worker, signal.SIGSTOP)
        try:
            moved = await fake.select(ann, board, "Pick a move", [options(board)[0]])
            assert moved.type == 7 and "is thinking" in board.content and board.selects == []
            await bot.kill()
        finally:
            for worker in held:  # orphaned and stopped: it would never see its bot gone
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker, signal.SIGKILL)
        assert len(board.versions) == versions + 1  # Kamen had not moved
        await bot.start()
        await fake.wait_for(
            lambda: "your move" in board.content, timeout=20, what="Kamen's move after the restart"
        )
        assert to_move(table, board) is ann and "North played" in board.text
        assert options(board)


def ai_workers(bot_pid: int) -> list[int]:
    """The process ids of the bot's AI workers (its children that multiprocessing spawned)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:  # gone meanwhile
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])  # after the name: state, then ppid
        if parent == bot_pid and b"--multiprocessing-fork" in command:
            found.append(int(entry.name))
    return found


@pytest.mark.asyncio
async def test_two_moves_at_the_same_moment_one_lands_one_is_refused(tmp_path: Path) -> None:
    async with process_table(tmp_path) as table:
        fake, ann = table.fake, table.ann
        thread, board = await start_game(table, "oware")
        first, second = options(board)[:2]
        by_menu = await fake.select(ann, board, "Pick a move", [first], wait=False)
        by_command = await fake.slash(ann, thread, "oware move", move=second, wait=False)
        answers = await asyncio.gather(by_menu.wait(), by_command.wait())
        refused = [r for r in answers if r.message is not None and r.message.ephemeral]
        landed = [r for r in answers if r not in refused]
        assert len(refused) == 1 and len(landed) == 1
        # The loser of the race is told why, and a stale click also gets the board as it is now.
        assert refused[0].text.startswith(
            (
                "It is not your turn: wait for your opponent's move.",
                "The position changed, try again.",
                "That board is out of date",
            )
        )
        history = await fake.slash(ann, thread, "oware history")
        moves_line = ephemeral_text(history).split("```")[1].strip()
        assert moves_line in (f"1. {first}", f"1. {second}")


@pytest.mark.asyncio
async def test_the_gateway_drops_and_resumes_mid_game(tmp_path: Path) -> None:
    async with process_table(tmp_path) as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        thread, board = await start_game(table, "lasca")
        await fake.select(ann, board, "Pick a move", [options(board)[0]])
        await fake.drop_gateway()
        # sent while the bot is away: Discord replays it when the bot resumes
        reply = await fake.slash(bob, thread, "lasca move", move=options(board)[0])
        assert not reply.ephemeral and "Black played" in reply.text
        await fake.wait_resumed(1)
        await fake.drop_gateway(abrupt=True)
        await fake.wait_resumed(2)
        assert reply.message is not None
        board = reply.message
        moved = await fake.select(ann, board, "Pick a move", [options(board)[0]])
        assert moved.type == 7 and to_move(table, board) is bob
        assert fake.identify_count == 1 and fake.resume_count == 2
