"""Every interaction is answered within Discord's 3 s, however slow the store is.

SQLite has one writer per file: while another connection (a backup, a second
process) holds the write lock, a move waits for it. It used to answer only
after the wait, and past 3 s Discord voided the interaction ("This
interaction failed") while the move was committed. Now the answer defers by
itself and shows the move when it lands; reads do not wait at all.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import bot_support
from tests.bot_support import SharedBot, options, start_game, to_move
from tests.fake_discord import Message, Reply

# One bot process for the module, a server of its own for each test (tests/bot_support).
pytestmark = pytest.mark.asyncio(loop_scope="module")


shared = bot_support.module_bot


@contextlib.contextmanager
def write_locked(path: Path, seconds: float) -> Iterator[None]:
    """Another connection holds the file's write lock for `seconds` from now."""
    taken = threading.Event()

    def hold() -> None:
        db = sqlite3.connect(path, isolation_level=None, timeout=30)
        try:
            db.execute("BEGIN IMMEDIATE")
            taken.set()
            threading.Event().wait(seconds)
            db.execute("COMMIT")
        finally:
            db.close()

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    assert taken.wait(10), "the write lock was not taken"
    try:
        yield
    finally:
        holder.join()


async def test_moves_behind_a_four_second_write_lock_are_answered_in_time_and_shown(
    shared: SharedBot,
) -> None:
    async with shared.table() as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        thread, board = await start_game(table, "oware")
        first = options(board)[0]
        with write_locked(table.tmp / "kamen.db", 4.0):
            picked = await fake.select(ann, board, "Pick a move", [first])
            # A read waits for nobody: the list of games answers at once, not deferred.
            listed = await fake.slash(table.carol, table.games, "games")
            assert listed.type == 4 and "#" in listed.text
        assert picked.type == 6  # deferred while the move waited for the lock
        await fake.wait_for(lambda: to_move(table, board) is bob, what="the move on the board")
        assert f"played {first}" in board.text

        reply = options(board)[0]
        with write_locked(table.tmp / "kamen.db", 4.0):
            typed = await fake.slash(bob, thread, "oware move", move=reply)
        assert typed.type == 5  # "Kamen is thinking…", then the board in its place
        await fake.wait_for(
            lambda: typed.message is not None and "played" in typed.message.text,
            what="the deferred answer showing the move",
        )
        assert typed.message is not None and not typed.message.loading
        assert to_move(table, typed.message) is ann and options(typed.message)
        # No interaction answered late, none failed: the fake holds the bot to Discord's 3 s.
        assert table.new_violations() == []


async def test_a_click_refused_after_its_deferral_is_told_privately(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        _, board = await start_game(table, "oware")
        first, second = options(board)[:2]
        with write_locked(table.tmp / "kamen.db", 3.0):
            # Two picks on the same board wait for the lock; whichever lands first stands,
            # the other is out of date by then: both deferred, the loser told privately.
            one = await fake.select(ann, board, "Pick a move", [first], wait=False)
            two = await fake.select(ann, board, "Pick a move", [second], wait=False)
            await one.wait()
            await two.wait()
        assert one.type == 6 and two.type == 6

        def private(reply: Reply) -> list[Message]:  # the winner's public one is Bob's ping
            return [m for m in reply.followups if m.ephemeral]

        await fake.wait_for(
            lambda: len(private(one)) + len(private(two)) == 1, what="one private refusal"
        )
        lost, won = (one, second) if private(one) else (two, first)
        [note] = private(lost)
        assert note.ephemeral and note.text.startswith("The position changed, try again")
        assert note.attachments  # with the board as it is now
        await fake.wait_for(lambda: to_move(table, board) is bob, what="the first pick shown")
        assert f"played {won}" in board.text
        assert table.new_violations() == []
