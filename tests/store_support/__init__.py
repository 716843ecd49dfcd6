"""What the store's tests share: a game row to start from, a fresh SQLite store, and
fresh databases of both backends (`store_url`, `any_store`) for the store's contract.

A fresh database starts migrated (`store_url`, `store`, `fresh_postgres(migrated=True)`):
a copy of one made once (on PostgreSQL a `CREATE DATABASE … TEMPLATE` of a database the
migrations were applied to, named by their digest; on SQLite a copy of a migrated file),
so a test does not apply the whole history again (half a second a PostgreSQL test); a
PostgreSQL one is emptied after its test and kept for the next (see `_kept`). The tests
of the migrations themselves take an empty one (`empty_url`, `fresh_postgres()`).
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import secrets
import shutil
import sqlite3
import tempfile
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
from store.schema import migrations
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
    await migrated_sqlite(tmp_path / "kamen.db")
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


def _digest() -> str:
    """A digest of the migration history: a template is made again when it changes."""
    digest = hashlib.sha256()
    for migration in migrations():
        digest.update(f"{migration.number} {migration.name}\n{migration.sql}\n".encode())
    return digest.hexdigest()[:16]


async def _admin() -> Any:
    """A connection to the PostgreSQL server's admin database; fails the test without one."""
    admin = postgres_admin_url()
    try:
        return await asyncpg.connect(admin, timeout=5)
    except (OSError, TimeoutError, asyncpg.PostgresError) as error:
        pytest.fail(
            f"these tests need a PostgreSQL server: none answered at {shown(admin)} ({error})."
            " Start PostgreSQL (15 or later) on 127.0.0.1:5432 with trust authentication for"
            f" the user postgres, or set {POSTGRES_ENV} to the URL of a database on a server"
            " where that user may CREATE DATABASE.",
            pytrace=False,
        )


def _url_of(name: str) -> str:
    return urlunsplit(urlsplit(postgres_admin_url())._replace(path=f"/{name}"))


async def _postgres_template(connection: Any) -> str:
    """The name of the migrated template database of this history, made by the first test
    process that needs it (the others wait on an advisory lock). It stays on the server,
    a few MB, for the next run of the same history."""
    name = f"kamen_template_{_digest()}"
    lock = int.from_bytes(hashlib.sha256(name.encode()).digest()[:7], "big")
    await connection.execute("SELECT pg_advisory_lock($1)", lock)
    try:
        if await connection.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name):
            return name
        building = f"{name}_{secrets.token_hex(4)}"
        await connection.execute(f'CREATE DATABASE "{building}"')
        async with store_for(_url_of(building)):
            pass  # opening applies every migration
        await connection.execute(f'ALTER DATABASE "{building}" RENAME TO "{name}"')
        return name
    finally:
        await connection.execute("SELECT pg_advisory_unlock($1)", lock)


# A migrated database a test used is emptied and kept for the next test of this process:
# making one is a copy of the template (half a second), dropping one forces a checkpoint of
# the whole server (about a second), and deleting a test's rows a few milliseconds. One whose
# shape a test changed is dropped instead. The kept ones are dropped at the end (`drop_kept`).
_kept: list[str] = []
SHAPE = """
    SELECT md5(concat_ws('|',
        (SELECT string_agg(table_name || '.' || column_name || ' ' || data_type
                           || coalesce(column_default, ''), ',' ORDER BY table_name, column_name)
           FROM information_schema.columns WHERE table_schema = 'public'),
        (SELECT string_agg(indexdef, ',' ORDER BY indexdef)
           FROM pg_indexes WHERE schemaname = 'public'),
        (SELECT string_agg(tgname, ',' ORDER BY tgname) FROM pg_trigger WHERE NOT tgisinternal),
        (SELECT string_agg(version || ' ' || name, ',' ORDER BY version) FROM schema_migrations)))
"""
_template_shape: str | None = None


async def _emptied(connection: Any, name: str) -> bool:
    """Empty `name` as the template was made (every table but the migrations' own, the
    identities restarted); False when its shape is no longer the template's."""
    global _template_shape
    await connection.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
        " WHERE datname = $1 AND pid <> pg_backend_pid()",
        name,
    )
    db = await asyncpg.connect(_url_of(name))
    try:
        shape = await db.fetchval(SHAPE)
        if _template_shape is None:
            template = await asyncpg.connect(_url_of(await _postgres_template(connection)))
            try:
                _template_shape = await template.fetchval(SHAPE)
            finally:
                await template.close()
        if shape != _template_shape:
            return False
        # DELETE, not TRUNCATE: a test leaves a few rows, and TRUNCATE makes every table's
        # files anew (0.4 s); the foreign keys are not checked while the rows go.
        tables = await db.fetch(
            "SELECT quote_ident(tablename) FROM pg_tables"
            " WHERE schemaname = 'public' AND tablename <> 'schema_migrations'"
        )
        async with db.transaction():
            await db.execute("SET LOCAL session_replication_role = replica")
            for (table,) in tables:
                await db.execute(f"DELETE FROM {table}")
            await db.execute(
                "SELECT setval(pg_get_serial_sequence(quote_ident(table_name), column_name),"
                " 1, false) FROM information_schema.columns"
                " WHERE table_schema = 'public' AND is_identity = 'YES'"
            )
        return True
    finally:
        await db.close()


@asynccontextmanager
async def fresh_postgres(*, migrated: bool = False) -> AsyncIterator[str]:
    """The URL of a new PostgreSQL database: empty (dropped on the way out), or with
    `migrated` a migrated one as the template is (emptied again on the way out).

    Fails the test (never skips it) when no server answers: the PostgreSQL half
    of the contract is part of the suite.
    """
    connection = await _admin()
    try:
        if migrated and _kept:
            name = _kept.pop()
        else:
            name = f"kamen_test_{secrets.token_hex(6)}"
            template = f' TEMPLATE "{await _postgres_template(connection)}"' if migrated else ""
            await connection.execute(f'CREATE DATABASE "{name}"{template}')
        kept = False
        try:
            yield _url_of(name)
            kept = migrated and await _emptied(connection, name)
        finally:
            if kept:
                _kept.append(name)
            else:
                await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await connection.close()


async def drop_kept() -> None:
    """Drop the migrated databases this process kept (at the end of the run)."""
    if not _kept:
        return
    connection = await _admin()
    try:
        while _kept:
            await connection.execute(f'DROP DATABASE IF EXISTS "{_kept.pop()}" WITH (FORCE)')
    finally:
        await connection.close()


_sqlite_template: Path | None = None


async def migrated_sqlite(path: Path) -> None:
    """A migrated SQLite database at `path`: a copy of a file migrated once per process."""
    global _sqlite_template
    if _sqlite_template is None:
        made = Path(tempfile.mkdtemp(prefix="kamen-template-")) / "kamen.db"
        async with SqliteStore(made):
            pass  # opening applies every migration; closing leaves one file
        _sqlite_template = made
    shutil.copyfile(_sqlite_template, path)


@pytest.fixture(params=BACKENDS)
async def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A URL of a fresh database of each backend in turn, migrated: a SQLite file,
    PostgreSQL."""
    if request.param == "sqlite":
        await migrated_sqlite(tmp_path / "kamen.db")
        yield f"sqlite:///{tmp_path / 'kamen.db'}"
        return
    async with fresh_postgres(migrated=True) as url:
        yield url


@pytest.fixture(params=BACKENDS)
async def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A URL of a fresh, empty database of each backend in turn (for the migrations)."""
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
