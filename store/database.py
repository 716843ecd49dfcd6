"""What Kamen's queries need of a database, and the few ways the two engines differ.

Every query of the store is written once, in SQL both engines speak, with
named parameters (`:game_id`). A `Database` runs it on its engine: SQLite
(`store.sqlite`) or PostgreSQL (`store.postgres`). What truly differs is said
here and in those two modules, nowhere else:

- placeholders: SQLite takes `:name` as written; PostgreSQL gets `$1, $2, …`
  (`Dialect.prepare`, once per statement);
- index hints: SQLite's `INDEXED BY name` (its planner needs them on a few
  queries) mean nothing to PostgreSQL, which plans them well on its own: its
  dialect drops them;
- collation: `COLLATE "C"` (order by bytes) is SQLite's `BINARY`;
- locks: a SQLite transaction holds the file's one write lock from its first
  statement (`BEGIN IMMEDIATE`), so a named lock (`Transaction.lock`) is
  already held; PostgreSQL takes an advisory lock for the transaction;
- ids a table numbers itself: after rows written with their own
  (`Transaction.follow_ids`), PostgreSQL's sequence moves past them, SQLite's
  AUTOINCREMENT does so by itself;
- errors: a write that breaks a unique index raises `Duplicate` with the
  index's name, whatever the engine said.

Each method of a `Database` is one transaction and has committed when it
returns; a write once started is finished even if its caller is cancelled
(a timeout, a closed interaction): it is shielded, so a lock is never let go
in the middle of a transaction.
"""

from __future__ import annotations

import asyncio
import re
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol, TypeVar

from matches.storage import ChannelBusy, RematchExists

T = TypeVar("T")
# A row as both drivers give it (sqlite3.Row, asyncpg.Record): by position and by name.
Row = Any
Params = Mapping[str, Any]
# The index that keeps one active game per channel or thread (migration 0001).
ONE_ACTIVE_PER_CHANNEL = "games_one_active_per_channel"
# The index that keeps one live rematch per game (migration 0019).
ONE_REMATCH = "games_one_rematch"
# `LIMIT :limit` with no limit: both engines take a number, neither the same "none".
NO_LIMIT = 2**62

_NAMED = re.compile(r"'[^']*'|::|:([A-Za-z_]\w*)")


class Duplicate(Exception):
    """A write broke a unique index or primary key: `index` is its name (PostgreSQL's)."""

    def __init__(self, index: str, message: str = "") -> None:
        super().__init__(message or index)
        self.index = index


class Transaction(Protocol):
    """Statements inside one transaction (or a snapshot, for reads)."""

    async def fetch(self, sql: str, params: Params | None = None) -> list[Row]:
        """Run one statement; the rows it returns (none for most writes)."""

    async def lock(self, name: str, *, shared: bool = False) -> None:
        """Hold the named lock to the end of the transaction (shared: with other sharers)."""

    async def follow_ids(self, table: str, column: str) -> None:
        """After rows written with their own ids: the next id drawn comes after them all."""


Work = Callable[[Transaction], Awaitable[T]]


@dataclass(frozen=True, slots=True)
class Dialect:
    """How one engine spells what the queries write once."""

    name: str  # "sqlite" or "postgresql": also the engine's name in migrations
    numbered: bool  # placeholders $1, $2, … instead of :name
    rewrites: tuple[tuple[str, str], ...] = ()  # (pattern, replacement), in order

    def prepare(self, sql: str) -> tuple[str, tuple[str, ...]]:
        """The statement as this engine takes it, and its parameters' names in order."""
        return _prepare(self, sql)

    def arguments(self, sql: str, params: Params | None) -> tuple[str, tuple[Any, ...]]:
        """The statement and its arguments by position (for numbered placeholders)."""
        text, names = self.prepare(sql)
        given = params or {}
        return text, tuple(given[name] for name in names)


@lru_cache(maxsize=2048)
def _prepare(dialect: Dialect, sql: str) -> tuple[str, tuple[str, ...]]:
    for pattern, replacement in dialect.rewrites:
        sql = re.sub(pattern, replacement, sql)
    if not dialect.numbered:
        return sql, ()
    names: list[str] = []

    def number(match: re.Match[str]) -> str:
        name = match.group(1)
        if name is None:  # a string literal or a cast: as it is
            return match.group(0)
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    return _NAMED.sub(number, sql), tuple(names)


class Database(ABC):
    """One database, on one engine: reads, snapshots, writes, migrations at `open`."""

    dialect: Dialect

    @abstractmethod
    async def open(self) -> None:
        """Connect, and bring the schema up to date (`store.schema.migrate`)."""

    @abstractmethod
    async def close(self) -> None:
        """Let the writes and reads under way finish, then disconnect."""

    @abstractmethod
    async def read(self, sql: str, params: Params | None = None) -> list[Row]:
        """The rows of one query; never waits behind a write."""

    @abstractmethod
    async def snapshot(self, work: Work[T]) -> T:
        """Several reads that see the database at one moment."""

    @abstractmethod
    async def _transaction(self, work: Work[T]) -> T:
        """`work` in one write transaction, committed if it returns, rolled back if it raises."""

    @abstractmethod
    async def _statement(self, sql: str, params: Params | None, durable: bool = True) -> list[Row]:
        """One writing statement, its own transaction (see `execute` for `durable`)."""

    async def write(self, work: Work[T]) -> T:
        """Run `work` in one write transaction, to its end even if the caller gives up."""
        return await _shielded(self._transaction(work))

    async def execute(
        self, sql: str, params: Params | None = None, *, durable: bool = True
    ) -> list[Row]:
        """One writing statement (its own transaction) and the rows it returns.

        Not `durable`: committed without waiting for the disk (SQLite's
        `synchronous=NORMAL` for it, PostgreSQL's `synchronous_commit=off`), for what
        may be lost with the machine but not with the process: the commit is in the
        database's log when this returns, and a later durable commit makes it durable
        too. The statement ends with its `WHERE` clause (PostgreSQL adds to it).
        """
        return await _shielded(self._statement(sql, params, durable))


class Tables:
    """A group of the store's tables: its queries, on the store's database."""

    db: Database

    async def _all(self, read: Callable[[Row], T], sql: str, /, **params: Any) -> list[T]:
        """Each row of a query, read as a record (`LIMIT :limit` of None: no limit)."""
        if "limit" in params and params["limit"] is None:
            params["limit"] = NO_LIMIT
        return [read(row) for row in await self.db.read(sql, params)]

    async def _one(self, read: Callable[[Row], T], sql: str, /, **params: Any) -> T | None:
        """The first row of a query, read as a record; None if there is none."""
        found = await self.db.read(sql, params)
        return read(found[0]) if found else None

    async def _write(self, work: Work[T]) -> T:
        with _second_game_refused():
            return await self.db.write(work)

    async def _execute(self, sql: str, /, **params: Any) -> list[Row]:
        with _second_game_refused():
            return await self.db.execute(sql, params)


@contextmanager
def _second_game_refused() -> Iterator[None]:
    """A second active game in a channel, or a second live rematch of a game, is the
    service's own error, `ChannelBusy` or `RematchExists`."""
    try:
        yield
    except Duplicate as error:
        if error.index == ONE_ACTIVE_PER_CHANNEL:
            raise ChannelBusy("a game is already being played here") from error
        if error.index == ONE_REMATCH:
            raise RematchExists("this game's rematch is already asked for") from error
        raise


async def _shielded(work: Awaitable[T]) -> T:
    task = asyncio.ensure_future(work)
    task.add_done_callback(_consumed)
    return await asyncio.shield(task)


def _consumed(task: asyncio.Task[Any]) -> None:
    """A shielded write whose caller gave up: its error is logged by nobody, so take it."""
    if not task.cancelled():
        task.exception()
