"""After any race, the public board shows how the game stands in the database.

A move and the opponent's confirmed resignation, sent at the same moment, are
both answered by edits of the same board; the earlier commit's edit could land
last and leave a live board with a working menu over a resigned game. Kamen's
move is thought about one position and written only on that one: a takeback
meanwhile makes Kamen think again. Rematch pressed twice posts one challenge.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.bot_support import (
    BotProcess,
    Table,
    options,
    process_table,
    settle,
    start_against_kamen,
    start_game,
    to_move,
)
from tests.test_bot_restarts import ai_workers


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


@pytest.mark.asyncio
async def test_a_takeback_while_kamen_thinks_leaves_the_board_with_its_menu(
    tmp_path: Path,
) -> None:
    async with process_table(tmp_path) as table:
        fake, ann = table.fake, table.ann
        bot = table.bot
        assert isinstance(bot, BotProcess) and bot.process is not None
        # Level 2 grants takebacks and searches in Kamen's worker (level 1 answers at once).
        thread, board = await start_against_kamen(table, "oware", "2")
        # Kamen's worker is held: Kamen is still thinking about Ann's first move while she
        # takes it back and plays another.
        pid = bot.process.pid
        await fake.wait_for(lambda: bool(ai_workers(pid)), timeout=30, what="Kamen's worker")
        held = ai_workers(pid)
        for worker in held:
            os.kill(worker, signal.SIGSTOP)
        try:
            await fake.select(ann, board, "Pick a move", ["C"])
            assert "is thinking" in board.content and options(board) == []
            # Once the bot has recorded that board, it has set Kamen thinking.
            await fake.wait_for(lambda: board_ply(table) == 1, what="Kamen set thinking")
            taken = await fake.slash(ann, thread, "oware takeback")
            assert not taken.ephemeral and taken.text.endswith("took back C.")  # hers alone
            await fake.wait_for(lambda: "D" in options(board), what="Ann's menu again")
            await fake.select(ann, board, "Pick a move", ["D"])
            assert "is thinking" in board.content and options(board) == []
        finally:
            for worker in held:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker, signal.SIGCONT)
        await fake.wait_for(
            lambda: "your move" in board.content, timeout=20, what="Kamen's move on the board"
        )
        await settle(fake)
        first, reply = game_moves(table)  # her second move stands, and Kamen answered it
        assert first == "D" and f"North played {reply}." in board.text
        assert to_move(table, board) is ann
        assert options(board)  # Ann's menu, for the position as it is
        assert table.new_violations() == []


def game_moves(table: Table) -> list[str]:
    """The moves of the (one) game, as the database holds them."""
    db = sqlite3.connect(urlsplit(table.database_url).path[1:])
    try:
        [(moves,)] = db.execute("SELECT moves FROM games").fetchall()
        return str(moves).split()
    finally:
        db.close()


def board_ply(table: Table) -> int | None:
    """The number of moves the board of the (one) game shows, as the bot recorded it."""
    db = sqlite3.connect(urlsplit(table.database_url).path[1:])
    try:
        [(ply,)] = db.execute("SELECT board_ply FROM games").fetchall()
        return None if ply is None else int(ply)
    finally:
        db.close()
