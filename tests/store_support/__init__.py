"""What the store's tests share: a game row to start from, a fresh SQLite store, and
fresh databases of both backends (`store_url`, `any_store`) for the store's contract."""

from __future__ import annotations

import asyncio
import os
import secrets
import sqlite3
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg  # type: ignore[import-untyped]  # asyncpg ships no type hints
import pytest

from matches.records import Status, StoredGame
from store import store_for
from store.kamen import KamenStore
from store.postgres import shown
from store.sqlite import SqliteStore

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def a_game(**changes: Any) -> StoredGame:
    """An active Oska game between users 100 and 200, with `changes` made to it."""
    game = StoredGame(
        guild_id=1,
        channel_id=10,
        game="oska",
        status=Status.ACTIVE,
        challenger_id=100,
        created_at=NOW,
        updated_at=NOW,
        opponent_id=200,
        first_id=100,
        second_id=200,
    )
    return replace(game, **changes)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    """A store on a fresh file of the test's own, open for the test."""
    opened = SqliteStore(tmp_path / "kamen.db")
    await opened.open()
    yield opened
    await opened.close()


# ------------------------------------------------------------- both backends

# Where the PostgreSQL cases make their databases: a server on which this user may
# CREATE DATABASE. Each test gets a fresh `kamen_test_<random>`, dropped after it.
POSTGRES_ENV = "KAMEN_TEST_POSTGRES"
POSTGRES_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
BACKENDS = ("sqlite", "postgresql")


def postgres_admin_url() -> str:
    return os.environ.get(POSTGRES_ENV, "").strip() or POSTGRES_ADMIN


@asynccontextmanager
async def fresh_postgres() -> AsyncIterator[str]:
    """The URL of a new, empty PostgreSQL database, dropped on the way out.

    Fails the test (never skips it) when no server answers: the PostgreSQL half
    of the contract is part of the suite.
    """
    admin = postgres_admin_url()
    try:
        connection = await asyncpg.connect(admin, timeout=5)
    except (OSError, TimeoutError, asyncpg.PostgresError) as error:
        pytest.fail(
            f"these tests need a PostgreSQL server: none answered at {shown(admin)} ({error})."
            " Start PostgreSQL (15 or later) on 127.0.0.1:5432 with trust authentication for"
            f" the user postgres, or set {POSTGRES_ENV} to the URL of a database on a server"
            " where that user may CREATE DATABASE.",
            pytrace=False,
        )
    name = f"kamen_test_{secrets.token_hex(6)}"
    try:
        await connection.execute(f'CREATE DATABASE "{name}"')
        try:
            yield urlunsplit(urlsplit(admin)._replace(path=f"/{name}"))
        finally:
            await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await connection.close()


@pytest.fixture(params=BACKENDS)
async def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A URL of a fresh, empty database of each backend in turn: a SQLite file, PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'kamen.db'}"
        return
    async with fresh_postgres() as url:
        yield url


@pytest.fixture
async def any_store(store_url: str) -> AsyncIterator[KamenStore]:
    """A store of each backend in turn, open for the test."""
    opened = store_for(store_url)
    await opened.open()
    yield opened
    await opened.close()


# ------------------------------------------------------------- a lock held elsewhere

HOLD = 5.0  # seconds another connection holds its lock at most


class HeldLock:
    """Another connection holding what a write of game `game_id` needs, until let go.

    On SQLite the file's one write lock (`BEGIN IMMEDIATE`, in a thread of its own),
    on PostgreSQL the game's row: an uncommitted update of its `updated_at`, which
    bumps no version. `released` says whether it has let go (on leaving, or after
    `HOLD` seconds).
    """

    def __init__(self, url: str, game_id: int) -> None:
        self.url, self.game_id = url, game_id
        self.released = False
        self._sql = "UPDATE games SET updated_at = updated_at + 1 WHERE id = "
        self._let_go = threading.Event()
        self._locked = threading.Event()
        self._thread: threading.Thread | None = None
        self._other: Any = None  # the PostgreSQL connection
        self._transaction: Any = None

    async def __aenter__(self) -> HeldLock:
        if self.url.startswith("sqlite"):
            self._thread = threading.Thread(target=self._hold, daemon=True)
            self._thread.start()
            await asyncio.to_thread(self._locked.wait)
            return self
        self._other = await asyncpg.connect(self.url)
        self._transaction = self._other.transaction()
        await self._transaction.start()
        await self._other.execute(self._sql + "$1", self.game_id)
        return self

    def _hold(self) -> None:
        db = sqlite3.connect(urlsplit(self.url).path[1:], isolation_level=None)
        try:
            db.execute("BEGIN IMMEDIATE")
            db.execute(self._sql + "?", (self.game_id,))
            self._locked.set()
            self._let_go.wait(HOLD)
            self.released = True
            db.execute("COMMIT")
        finally:
            db.close()

    async def waited_on(self) -> None:
        """Once a write of the store waits for this lock (PostgreSQL shows it waiting)."""
        if self._other is None:
            for _ in range(5):  # SQLite shows no waiter: let the write reach it
                await asyncio.sleep(0)
            return
        sql = (
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        async with asyncio.timeout(HOLD):
            while not await self._other.fetchval(sql):
                await asyncio.sleep(0.01)

    async def __aexit__(self, *_: object) -> None:
        if self._thread is not None:
            self._let_go.set()
            await asyncio.to_thread(self._thread.join)
            return
        self.released = True
        await self._transaction.commit()
        await self._other.close()
