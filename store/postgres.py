"""Kamen's store on PostgreSQL, on asyncpg: for several processes sharing one database.

The same queries as on SQLite (`store.kamen` and its tables), kept by the
server instead of by one process's lock. Two connection pools: writes go
through one, reads through the other, so a read never waits for a connection
that a stalled write holds (and PostgreSQL's MVCC never makes a read wait for a
row lock).

What SQLite gets from its single writer, PostgreSQL gets from row locks and
the checks in the statements themselves (a racing update of a game waits for
its row, then finds the version changed), and, where a transaction reads before
it writes, from the advisory lock it names (`Transaction.lock`).

A connection goes back to its pool as it came: asyncpg's default is to send a
reset query (`pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL`) on
every release, one more round trip and one more transaction on the server for
every statement Kamen runs. Kamen leaves nothing of a session behind to reset:
its locks are the transaction's (`pg_advisory_xact_lock`, let go at COMMIT or
ROLLBACK), its cursors live inside a transaction, it never LISTENs nor SETs (a
pool's settings are the connection's own, given at connect), and a temporary
table is dropped on commit. So the pools do not reset (`_kept`); asyncpg still
rolls back a transaction left open on release, which costs nothing otherwise.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg  # type: ignore[import-untyped]  # asyncpg ships no type hints

from matches.storage import StoreError
from store.database import Database, Dialect, Duplicate, Params, Row, T, Work
from store.kamen import KamenStore
from store.schema import migrate

DIALECT = Dialect("postgresql", numbered=True, rewrites=((r"\s+INDEXED BY \w+", ""),))


class PostgresDatabase(Database):
    """A PostgreSQL database: a pool of write connections and one of reads."""

    dialect = DIALECT

    def __init__(self, dsn: str, *, writers: int = 8, readers: int = 4, timeout: float = 10.0):
        if writers < 1 or readers < 1:
            raise StoreError("a PostgreSQL store needs at least one connection of each kind")
        self.dsn = dsn
        self.writers, self.readers, self.timeout = writers, readers, timeout
        self._writing: Any = None  # asyncpg.Pool
        self._reading: Any = None

    async def open(self) -> None:
        if self._writing is not None:
            return
        try:
            self._writing = await asyncpg.create_pool(
                self.dsn, min_size=1, max_size=self.writers, timeout=self.timeout, reset=_kept
            )
        except (TimeoutError, OSError, asyncpg.PostgresError) as error:
            where = shown(self.dsn)
            raise StoreError(f"cannot open the PostgreSQL database {where}: {error}") from error
        try:
            await migrate(self)
            self._reading = await asyncpg.create_pool(
                self.dsn, min_size=1, max_size=self.readers, timeout=self.timeout, reset=_kept,
                server_settings={"default_transaction_read_only": "on"},
            )  # fmt: skip
        except BaseException:
            writing, self._writing = self._writing, None
            await writing.close()
            raise

    async def close(self) -> None:
        if self._writing is None:
            return
        writing, reading = self._writing, self._reading
        self._writing = self._reading = None
        # Each pool waits for its connections to come back: writes under way finish first.
        await writing.close()
        if reading is not None:
            await reading.close()

    def _pool(self, *, writing: bool) -> Any:
        if self._writing is None:
            raise StoreError("the store is not open")
        return self._writing if writing else self._reading

    async def read(self, sql: str, params: Params | None = None) -> list[Row]:
        async with self._pool(writing=False).acquire() as db:
            return await _Transaction(db).fetch(sql, params)

    async def snapshot(self, work: Work[T]) -> T:
        async with (
            self._pool(writing=False).acquire() as db,
            db.transaction(isolation="repeatable_read", readonly=True),
        ):
            return await work(_Transaction(db))

    async def _transaction(self, work: Work[T]) -> T:
        async with self._pool(writing=True).acquire() as db, db.transaction():
            return await work(_Transaction(db))

    async def _statement(self, sql: str, params: Params | None, durable: bool = True) -> list[Row]:
        if not durable:  # for this statement's own transaction only, still one round trip
            sql += " AND set_config('synchronous_commit', 'off', true) IS NOT NULL"
        async with self._pool(writing=True).acquire() as db:
            return await _Transaction(db).fetch(sql, params)


async def _kept(db: Any) -> None:
    """A connection released to its pool keeps its session: Kamen leaves none (above)."""


class _Transaction:
    """Statements on one connection; a broken unique index raised as `Duplicate`."""

    def __init__(self, db: Any) -> None:
        self.db = db

    async def fetch(self, sql: str, params: Params | None = None) -> list[Row]:
        text, arguments = DIALECT.arguments(sql, params)
        try:
            return list(await self.db.fetch(text, *arguments))
        except asyncpg.UniqueViolationError as error:
            index = getattr(error, "constraint_name", None) or "?"
            raise Duplicate(index, str(error)) from error

    async def lock(self, name: str, *, shared: bool = False) -> None:
        kind = "pg_advisory_xact_lock_shared" if shared else "pg_advisory_xact_lock"
        await self.db.execute(f"SELECT {kind}(hashtextextended($1, 0))", name)

    async def follow_ids(self, table: str, column: str) -> None:
        await follow_ids(self.db, table, column)


class PostgresStore(KamenStore):
    """Kamen's store on a PostgreSQL database (`PostgresDatabase`, which takes the options)."""

    db: PostgresDatabase

    def __init__(self, dsn: str, **options: Any) -> None:
        super().__init__(PostgresDatabase(dsn, **options))

    @property
    def dsn(self) -> str:
        return self.db.dsn


async def follow_ids(db: Any, table: str, column: str) -> None:
    """Move the sequence of `table.column` past its largest id, never backwards."""
    sequence = await db.fetchval("SELECT pg_get_serial_sequence($1, $2)", table, column)
    await db.execute(
        f"SELECT setval($1, greatest(max({column}), max(last_value)))"
        f" FROM {table}, {sequence} HAVING max({column}) IS NOT NULL",
        sequence,
    )


def shown(dsn: str) -> str:
    """A database URL fit to print: its password hidden."""
    parts = urlsplit(dsn)
    if parts.password is None:
        return dsn
    host = parts.netloc.rpartition("@")[2]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))
