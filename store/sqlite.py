"""The SQLite backend of `Store`, on aiosqlite.

One connection per store, in autocommit mode: every method is a single
statement, so it is its own transaction and has committed when it returns
(migrations, the one multi-statement job, run at `open` under BEGIN IMMEDIATE).
WAL lets readers and the writer work at once; the busy timeout makes a second
writer, in this process or another, wait for the lock instead of failing.
A lock serialises this store's statements so that no statement ever runs while
another one's cursor is still open: each one commits before it is acknowledged.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable
from dataclasses import fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from games.base import Termination
from matches.records import FirstChoice, GuildSettings, Status, StoredGame
from matches.storage import ChannelBusy, StoreError
from store.schema import migrations

MIGRATIONS = "store.migrations.sqlite"
SYNCHRONOUS = ("NORMAL", "FULL", "EXTRA")

# The games table has one column per field of `StoredGame`, of the same name:
# this tuple is the only list of them. Fields that are not plain SQLite values
# are converted on the way in and out, below.
COLUMNS: tuple[str, ...] = tuple(field.name for field in fields(StoredGame))
# Written on creation: the store assigns the id; the version starts at 0.
_CREATED = tuple(column for column in COLUMNS if column != "id")
# Written on update: never the id or the creation time, nor the board message
# (`set_message`, which leaves the version alone); the version is bumped.
_UPDATED = tuple(c for c in COLUMNS if c not in ("id", "created_at", "message_id", "version"))

_SELECT = ", ".join(COLUMNS)
_INSERT = (
    f"INSERT INTO games ({', '.join(_CREATED)})"
    f" VALUES ({', '.join(':' + column for column in _CREATED)})"
    f" RETURNING {_SELECT}"
)
_UPDATE = (
    f"UPDATE games SET {', '.join(f'{column} = :{column}' for column in _UPDATED)},"
    " version = version + 1"
    f" WHERE id = :id AND version = :version RETURNING {_SELECT}"
)
_OPEN = "('challenge', 'active')"


class SqliteStore:
    """`Store` on one SQLite file."""

    def __init__(self, path: Path | str, *, synchronous: str = "FULL", busy_ms: int = 10_000):
        if synchronous.upper() not in SYNCHRONOUS:
            raise StoreError(f"synchronous={synchronous}: write one of {', '.join(SYNCHRONOUS)}")
        self.path = Path(path)
        self.synchronous = synchronous.upper()
        self.busy_ms = busy_ms
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    async def __aenter__(self) -> SqliteStore:
        await self.open()
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    # ------------------------------------------------------------ connection

    async def open(self) -> None:
        if self._db is not None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            db.row_factory = sqlite3.Row
            # The busy timeout first: from here on a statement waits for a lock, never fails.
            await db.execute(f"PRAGMA busy_timeout = {int(self.busy_ms)}")
            await self._enable_wal(db)
            await db.execute(f"PRAGMA synchronous = {self.synchronous}")
            await db.execute("PRAGMA foreign_keys = ON")
            await _migrate(db)
        except BaseException:
            await db.close()
            raise
        self._db = db

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
        if self._db is not None:
            db, self._db = self._db, None
            async with self._lock:
                await db.close()

    async def _fetch(self, sql: str, params: dict[str, Any] | tuple[Any, ...] = ()) -> list[Any]:
        if self._db is None:
            raise StoreError("the store is not open")
        async with self._lock:
            try:
                return list(await self._db.execute_fetchall(sql, params))
            except sqlite3.IntegrityError as error:
                if "games.channel_id" in str(error):
                    raise ChannelBusy("a game is already being played in this channel") from error
                raise

    async def schema_version(self) -> int:
        rows = await self._fetch("SELECT coalesce(max(version), 0) FROM schema_migrations")
        return int(rows[0][0])

    # ----------------------------------------------------------------- games

    async def create_game(self, game: StoredGame) -> StoredGame:
        rows = await self._fetch(_INSERT, {**_params(game), "version": 0})
        return _game(rows[0])

    async def get_game(self, game_id: int) -> StoredGame | None:
        rows = await self._fetch(f"SELECT {_SELECT} FROM games WHERE id = ?", (game_id,))
        return _game(rows[0]) if rows else None

    async def active_game_in(self, channel_id: int) -> StoredGame | None:
        sql = f"SELECT {_SELECT} FROM games WHERE channel_id = ? AND status = 'active'"
        rows = await self._fetch(sql, (channel_id,))
        return _game(rows[0]) if rows else None

    async def active_games(self, guild_id: int) -> list[StoredGame]:
        sql = f"SELECT {_SELECT} FROM games WHERE guild_id = ? AND status = 'active' ORDER BY id"
        return [_game(row) for row in await self._fetch(sql, (guild_id,))]

    async def active_counts(self) -> dict[int, int]:
        sql = "SELECT guild_id, COUNT(*) FROM games WHERE status = 'active' GROUP BY guild_id"
        return {guild_id: count for guild_id, count in await self._fetch(sql, ())}

    async def open_games_of(self, user_id: int) -> list[StoredGame]:
        sql = (
            f"SELECT {_SELECT} FROM games WHERE status IN {_OPEN}"
            " AND ? IN (challenger_id, opponent_id, first_id, second_id) ORDER BY id"
        )
        return [_game(row) for row in await self._fetch(sql, (user_id,))]

    async def update_game(self, game: StoredGame) -> StoredGame | None:
        rows = await self._fetch(_UPDATE, _params(game))
        return _game(rows[0]) if rows else None

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        await self._fetch("UPDATE games SET message_id = ? WHERE id = ?", (message_id, game_id))

    async def due(self, now: datetime, limit: int = 100) -> list[StoredGame]:
        # Two indexed halves rather than one OR, which SQLite would scan.
        sql = f"""
            SELECT {_SELECT}, deadline AS at FROM games
                WHERE deadline <= :now AND status IN {_OPEN}
            UNION
            SELECT {_SELECT}, remind_at AS at FROM games
                WHERE remind_at <= :now AND status IN {_OPEN}
            ORDER BY at, id LIMIT :limit"""
        rows = await self._fetch(sql, {"now": now.timestamp(), "limit": limit * 2})
        unique = {row["id"]: _game(row) for row in rows}
        return list(unique.values())[:limit]

    # -------------------------------------------------------------- settings

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        sql = "SELECT threads FROM guild_settings WHERE guild_id = ?"
        rows = await self._fetch(sql, (guild_id,))
        if not rows:
            return GuildSettings(guild_id)
        return GuildSettings(guild_id, threads=bool(rows[0][0]))

    async def save_guild_settings(self, settings: GuildSettings, now: datetime) -> GuildSettings:
        sql = """
            INSERT INTO guild_settings (guild_id, threads, updated_at) VALUES (?, ?, ?)
            ON CONFLICT (guild_id) DO UPDATE SET threads = excluded.threads,
                updated_at = excluded.updated_at
            RETURNING guild_id, threads"""
        rows = await self._fetch(sql, (settings.guild_id, int(settings.threads), now.timestamp()))
        return GuildSettings(rows[0][0], threads=bool(rows[0][1]))


# ------------------------------------------------------------------ migrations


async def _migrate(db: aiosqlite.Connection) -> None:
    """Apply the pending migrations in one transaction, so an upgrade is all or nothing.

    BEGIN IMMEDIATE takes the write lock before the version is read, so two
    processes starting together cannot both apply the same migration.
    """
    known = migrations(MIGRATIONS)
    await db.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
    )
    await db.execute("BEGIN IMMEDIATE")
    try:
        rows = await db.execute_fetchall("SELECT coalesce(max(version), 0) FROM schema_migrations")
        current = int(next(iter(rows))[0])
        if current > len(known):
            raise StoreError(
                f"the database has schema version {current}, newer than this Kamen knows"
                f" ({len(known)}): run a newer Kamen"
            )
        for migration in known[current:]:
            for statement in migration.statements():
                await db.execute(statement)
            await db.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.number, migration.name, datetime.now(UTC).timestamp()),
            )
        await db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            await db.execute("ROLLBACK")
        raise


# ------------------------------------------------------------------ conversion


def _seconds(moment: datetime | None) -> float | None:
    return None if moment is None else moment.timestamp()


def _moment(seconds: float | None) -> datetime | None:
    return None if seconds is None else datetime.fromtimestamp(seconds, UTC)


def _when(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def _moves_text(moves: tuple[str, ...]) -> str:
    for move in moves:
        if not move or move != "".join(move.split()):
            raise ValueError(f"a stored move cannot be empty or hold whitespace: {move!r}")
    return " ".join(moves)


def _text_or_none(value: object) -> str | None:
    return None if value is None else str(value)


def _termination(code: str | None) -> Termination | None:
    return None if code is None else Termination(code)


# How a field that is not a plain SQLite value is written, and read back.
_TO_ROW: dict[str, Callable[[Any], Any]] = {
    "status": str,
    "first_choice": str,
    "moves": _moves_text,
    "reason": _text_or_none,
    "deadline": _seconds,
    "remind_at": _seconds,
    "created_at": _seconds,
    "updated_at": _seconds,
}
_FROM_ROW: dict[str, Callable[[Any], Any]] = {
    "status": Status,
    "first_choice": FirstChoice,
    "moves": lambda text: tuple(text.split()),
    "reason": _termination,
    "deadline": _moment,
    "remind_at": _moment,
    "created_at": _when,
    "updated_at": _when,
}


def _plain(value: Any) -> Any:
    return value


def _params(game: StoredGame) -> dict[str, Any]:
    return {column: _TO_ROW.get(column, _plain)(getattr(game, column)) for column in COLUMNS}


def _game(row: sqlite3.Row) -> StoredGame:
    return StoredGame(**{column: _FROM_ROW.get(column, _plain)(row[column]) for column in COLUMNS})
