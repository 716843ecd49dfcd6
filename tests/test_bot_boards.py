"""The public board catches up with the database, whatever became of the reply.

A move is committed before it is answered. When the answer is lost (Discord
fails the interaction's callback; Kamen is killed between the commit and the
reply), the board used to show the old position for ever and the opponent
was never told. The board keeper repairs it, at start-up and on its timer.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot_support import (
    BotProcess,
    Table,
    game_thread,
    last_board,
    options,
    process_table,
    start_against_kamen,
    start_game,
    to_move,
)
from tests.fake_discord import Fault

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


async def killed_when(table: Table, fault: Fault) -> None:
    """SIGKILL the bot the moment Discord has received the request `fault` holds up."""
    await table.fake.wait_for(lambda: fault.hits >= 1, timeout=20, what="the held request")
    bot = table.bot
    assert isinstance(bot, BotProcess)
    await bot.kill()
    table.fake.clear_faults()
    await bot.start()


@pytest.mark.asyncio
async def test_a_kill_between_the_commit_and_the_reply_is_repaired_at_the_restart(
    tmp_path: Path,
) -> None:
    async with process_table(tmp_path) as table:
        fake, bob = table.fake, table.bob
        thread, board = await start_game(table, "oware")
        first = options(board)[0]
        # The move is committed; its answer is on its way when the bot dies.
        held = fake.fail("POST", r"/callback$", 500, delay=30)
        await fake.select(table.ann, board, "Pick a move", [first], wait=False)
        await killed_when(table, held)
        await fake.wait_for(
            lambda: to_move(table, board) is bob, timeout=20, what="the board after the restart"
        )
        assert f"played {first}" in board.text and options(board)
        await fake.wait_for(
            lambda: any(
                "your move in" in m.content for m in fake.notifications(bob, channel=thread)
            ),
            what="Bob told it is his turn",
        )


@pytest.mark.asyncio
async def test_kamens_move_cut_short_by_a_kill_is_shown_after_the_restart(tmp_path: Path) -> None:
    async with process_table(tmp_path) as table:
        fake, ann = table.fake, table.ann
        _, board = await start_against_kamen(table, "oware", "1")
        # Kamen's move is committed; the edit that shows it (through Ann's click's token) is
        # on its way when the bot dies. The restarted bot has no token: it edits the board
        # through the channel.
        held = fake.fail(
            "PATCH", r"^/webhooks/\{app_id\}/\{token\}/messages/\{message_id\}$", 500, delay=30
        )
        await fake.select(ann, board, "Pick a move", [options(board)[0]])
        await killed_when(table, held)
        await fake.wait_for(
            lambda: "your move" in board.content, timeout=20, what="Kamen's move on the board"
        )
        assert to_move(table, board) is ann and "North played" in board.text and options(board)


@pytest.mark.asyncio
async def test_an_accept_cut_short_by_a_kill_is_finished_after_the_restart(tmp_path: Path) -> None:
    async with process_table(tmp_path) as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        reply = await fake.slash(ann, table.games, "oware challenge", opponent=bob, first="me")
        challenge = reply.message
        assert challenge is not None
        # The thread is made and the game committed; the answer is on its way when the bot dies.
        held = fake.fail("POST", r"/callback$", 500, delay=30)
        await fake.click(bob, challenge, "Accept", wait=False)
        await killed_when(table, held)
        thread = await game_thread(table, challenge)
        await fake.wait_for(
            lambda: any(options(m) for m in fake.messages(thread)), timeout=20, what="the board"
        )
        board = last_board(table, thread)
        assert to_move(table, board) is ann
        await fake.wait_for(lambda: not challenge.buttons, what="the challenge closed")
        assert "being played in" in challenge.content
        await fake.wait_for(
            lambda: any(
                "your move in" in m.content for m in fake.notifications(ann, channel=thread)
            ),
            what="Ann told to begin",
        )


@pytest.mark.asyncio
async def test_a_challenge_whose_message_was_lost_is_posted_again(tmp_path: Path) -> None:
    async with process_table(tmp_path, QUICK_REPAIR) as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        # Every answer to the command fails: the challenge is saved, its message never shown.
        fake.fail("POST", r"/callback$", 403, times=None)
        await fake.slash(ann, table.games, "oware challenge", opponent=bob, wait=False)
        await fake.wait_for(
            lambda: any("challenges" in m.content for m in fake.notifications(bob)),
            timeout=20,
            what="the challenge posted again",
        )
        fake.clear_faults()
        [posted] = [m for m in fake.notifications(bob) if "challenges" in m.content]
        accepted = await fake.click(bob, posted, "Accept")
        assert accepted.type == 7
        await game_thread(table, posted)
