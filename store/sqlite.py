"""Kamen's store on one SQLite file, on aiosqlite.

Two paths to the file, so that reads never wait behind writes. Writes go
through one connection and its lock: SQLite has one writer per file anyway,
and the lock keeps a transaction whole (nothing of another write runs on that
connection until it has committed). Reads go through a few other
connections, in `query_only` mode, that never take that lock: in WAL mode a
reader sees the last commit and goes on while a writer, this one or another
process, holds the write lock. A write that waits for the lock (the busy
timeout makes it wait rather than fail) therefore delays other writes, never
a read.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from pathlib import Path
from typing import Any

import aiosqlite

from matches.storage import StoreError
from store.database import Database, Dialect, Duplicate, Params, Row, T, Work
from store.kamen import KamenStore
from store.schema import migrate

SYNCHRONOUS = ("NORMAL", "FULL", "EXTRA")
# The oldest SQLite whose SQL the queries speak (IS DISTINCT FROM came in 3.39).
OLDEST = (3, 39, 0)
DIALECT = Dialect("sqlite", numbered=False, rewrites=((r'COLLATE "C"', "COLLATE BINARY"),))
# SQLite names a broken unique index by its columns; the queries know it by its name.
_UNIQUE = {
    "games.id": "games_pkey",
    "games.channel_id": "games_one_active_per_channel",
    "games.rematch_of": "games_one_rematch",
    "seasons.guild_id": "seasons_one_running",
}
_UNIQUE_FAILED = re.compile(r"UNIQUE constraint failed: (.+)$")


class SqliteDatabase(Database):
    """One SQLite file: one write connection, `readers` read connections."""

    dialect = DIALECT

    def __init__(
        self, path: Path | str, *, synchronous: str = "FULL", busy_ms: int = 10_000,
        readers: int = 2,
    ) -> None:  # fmt: skip
        if synchronous.upper() not in SYNCHRONOUS:
            raise StoreError(f"synchronous={synchronous}: write one of {', '.join(SYNCHRONOUS)}")
        if readers < 1:
            raise StoreError(f"readers={readers}: a store needs at least one read connection")
        self.path = Path(path)
        self.synchronous = synchronous.upper()
        self.busy_ms = busy_ms
        self.readers = readers
        self._db: aiosqlite.Connection | None = None  # the write connection
        self._lock = asyncio.Lock()  # the write connection's, and only its
        self._reading: list[aiosqlite.Connection] = []
        self._idle: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()

    async def open(self) -> None:
        if self._db is not None:
            return
        if sqlite3.sqlite_version_info < OLDEST:
            oldest = ".".join(map(str, OLDEST))
            raise StoreError(
                f"this Python's SQLite is {sqlite3.sqlite_version}; Kamen needs {oldest} or"
                " newer: install a newer Python (3.11 builds from 2023 on bring one)"
            )
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = await self._connect()
        opened = [db]
        try:
            await self._enable_wal(db)
            await db.execute(f"PRAGMA synchronous = {self.synchronous}")
            self._db = db
            await migrate(self)
            for _ in range(self.readers):
                reader = await self._connect()
                opened.append(reader)
                # A read connection cannot write, so it can never take the write lock.
                await reader.execute("PRAGMA query_only = ON")
        except BaseException:
            self._db = None
            for connection in opened:
                await connection.close()
            raise
        self._reading = opened[1:]
        self._idle = asyncio.Queue()
        for reader in self._reading:
            self._idle.put_nowait(reader)

    async def _connect(self) -> aiosqlite.Connection:
        db = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            db.row_factory = sqlite3.Row
            # The busy timeout first: from here on a statement waits for a lock, never fails.
            await db.execute(f"PRAGMA busy_timeout = {int(self.busy_ms)}")
            await db.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            await db.close()
            raise
        return db

    async def _enable_wal(self, db: aiosqlite.Connection) -> None:
        """Switch the file to WAL (once: the mode is stored in the file).

        The switch needs the file to itself, and SQLite refuses it at once,
        without waiting out the busy timeout, while another connection is
        reading: so wait here, up to the same timeout.
        """
        deadline = time.monotonic() + self.busy_ms / 1000
        while True:
            try:
                mode = await db.execute_fetchall("PRAGMA journal_mode = WAL")
                break
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.01)
        if next(iter(mode))[0].lower() != "wal":
            raise StoreError(f"{self.path}: the database refused WAL mode")

    async def close(self) -> None:
        if self._db is None:
            return
        db, self._db = self._db, None
        async with self._lock:  # the write under way finishes first
            await db.close()
        for _ in self._reading:  # and so does every read
            await (await self._idle.get()).close()
        self._reading = []

    def _writer(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StoreError("the store is not open")
        return self._db

    async def read(self, sql: str, params: Params | None = None) -> list[Row]:
        self._writer()  # open?
        reader = await self._idle.get()
        try:
            return await _Transaction(reader).fetch(sql, params)
        finally:
            self._idle.put_nowait(reader)

    async def snapshot(self, work: Work[T]) -> T:
        self._writer()
        reader = await self._idle.get()
        try:
            await reader.execute("BEGIN")
            try:
                return await work(_Transaction(reader))
            finally:
                await reader.execute("COMMIT")
        finally:
            self._idle.put_nowait(reader)

    async def _transaction(self, work: Work[T]) -> T:
        db = self._writer()
        async with self._lock:
            await db.execute("BEGIN IMMEDIATE")
            try:
                done = await work(_Transaction(db))
            except BaseException:
                if db.in_transaction:
                    await db.execute("ROLLBACK")
                raise
            await db.execute("COMMIT")
            return done

    async def _statement(self, sql: str, params: Params | None, durable: bool = True) -> list[Row]:
        db = self._writer()
        async with self._lock:
            if durable or self.synchronous == "NORMAL":
                return await _Transaction(db).fetch(sql, params)
            # In WAL mode NORMAL commits without a sync: the next sync (a durable
            # commit's, a checkpoint's) takes this commit to the disk with it.
            await db.execute("PRAGMA synchronous = NORMAL")
            try:
                return await _Transaction(db).fetch(sql, params)
            finally:
                await db.execute(f"PRAGMA synchronous = {self.synchronous}")


class _Transaction:
    """Statements on one connection; a broken unique index raised as `Duplicate`."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    async def fetch(self, sql: str, params: Params | None = None) -> list[Row]:
        text, _ = DIALECT.prepare(sql)
        try:
            return list(await self.db.execute_fetchall(text, params or {}))
        except sqlite3.IntegrityError as error:
            failed = _UNIQUE_FAILED.search(str(error))
            if failed is None:
                raise
            raise Duplicate(_UNIQUE.get(failed.group(1), failed.group(1)), str(error)) from error

    async def lock(self, name: str, *, shared: bool = False) -> None:
        """Held already: the transaction holds the file's one write lock."""

    async def follow_ids(self, table: str, column: str) -> None:
        """Nothing to do: AUTOINCREMENT goes on past the largest id there ever was."""


class SqliteStore(KamenStore):
    """Kamen's store on one SQLite file (`SqliteDatabase`, which takes the options)."""

    db: SqliteDatabase

    def __init__(self, path: Path | str, **options: Any) -> None:
        super().__init__(SqliteDatabase(path, **options))

    @property
    def path(self) -> Path:
        return self.db.path
