"""Reads never wait behind writes: another connection's write lock stalls writes, not reads.

SQLite has one writer per file, so a write waits while someone else holds the
write lock (a slow disk, a backup, another process). In WAL mode readers go on
meanwhile, and the store must let them: its reads may not queue behind its
own stalled write.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from dataclasses import replace
from pathlib import Path

from matches.records import GuildSettings
from store.sqlite import SqliteStore
from tests.store_support import NOW, a_game

HOLD = 2.0  # seconds the other connection keeps the write lock at most


class WriteLock:
    """Another connection inside `BEGIN IMMEDIATE` with an uncommitted update, in a thread.

    It lets go when told to, or after `HOLD` seconds; `released` says whether it has.
    """

    def __init__(self, path: Path, game_id: int) -> None:
        self.path, self.game_id = path, game_id
        self.locked = threading.Event()
        self.let_go = threading.Event()
        self.released = False
        self._thread = threading.Thread(target=self._hold, daemon=True)

    def _hold(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None)
        try:
            db.execute("BEGIN IMMEDIATE")
            db.execute("UPDATE games SET updated_at = updated_at + 1 WHERE id = ?", (self.game_id,))
            self.locked.set()
            self.let_go.wait(HOLD)
            self.released = True
            db.execute("COMMIT")
        finally:
            db.close()

    async def __aenter__(self) -> WriteLock:
        self._thread.start()
        await asyncio.to_thread(self.locked.wait)
        return self

    async def __aexit__(self, *_: object) -> None:
        self.let_go.set()
        await asyncio.to_thread(self._thread.join)


async def test_reads_return_while_a_write_waits_for_the_lock(store: SqliteStore) -> None:
    slow = await store.create_game(a_game(channel_id=10))
    other = await store.create_game(a_game(channel_id=11))
    await store.save_guild_settings(GuildSettings(1, threads=False), NOW)
    async with WriteLock(store.path, slow.id) as lock:
        # A move in the slow game: the store's own write, now waiting for the lock.
        writing = asyncio.ensure_future(store.update_game(replace(slow, moves=("a1-b2",))))
        for _ in range(5):  # let it reach SQLite
            await asyncio.sleep(0)
        assert not writing.done()
        game = await store.get_game(other.id)
        games = await store.active_games(1)
        settings = await store.guild_settings(1)
        # The reads came back before the other connection let go of the lock.
        assert not lock.released
        assert game == other
        assert {g.id for g in games} == {slow.id, other.id}
        assert settings == GuildSettings(1, threads=False)
    # Once the lock is gone, the waiting write lands (the other's update bumped no version).
    saved = await writing
    assert saved is not None and saved.moves == ("a1-b2",) and saved.version == 1


async def test_the_other_reads_of_the_service_do_not_wait_either(store: SqliteStore) -> None:
    slow = await store.create_game(a_game(channel_id=10))
    other = await store.create_game(a_game(channel_id=11))
    async with WriteLock(store.path, slow.id) as lock:
        writing = asyncio.ensure_future(store.update_game(replace(slow, moves=("a1-b2",))))
        for _ in range(5):
            await asyncio.sleep(0)
        assert await store.active_game_in(11) == other
        assert await store.active_counts() == {1: 2}
        assert {g.id for g in await store.open_games_of(100)} == {slow.id, other.id}
        assert await store.due(NOW) == []
        assert await store.schema_version() > 0
        assert not lock.released
    assert await writing is not None
