"""The SQLite backend of `Store`, on aiosqlite.

Two paths to the file, so that reads never wait behind writes. Writes go
through one connection and its lock: SQLite has one writer per file anyway,
and the lock keeps a transaction whole (nothing of another write runs on that
connection until it has committed). Reads go through a few other
connections, in `query_only` mode, that never take that lock: in WAL mode a
reader sees the last commit and goes on while a writer, this one or another
process, holds the write lock. A write that waits for the lock (the busy
timeout makes it wait rather than fail) therefore delays other writes, never
a read.

Each method is one transaction and has committed when it returns: a single
statement in autocommit mode, or BEGIN IMMEDIATE … COMMIT (migrations at
`open`, `create_game`'s retries). A write once started is finished even if
its caller is cancelled (a timeout, a closed interaction): it is shielded, so
the lock is never let go in the middle of a transaction.
"""

from __future__ import annotations

import asyncio
import secrets
import sqlite3
import time
from collections.abc import Awaitable, Callable
from dataclasses import fields
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from games.base import Termination
from matches.records import FirstChoice, GuildSettings, Status, StoredGame, UserSettings
from matches.storage import ChannelBusy, StoreError
from store.schema import migrations
from store.sqlite_learning import LearningTables
from store.sqlite_people import PeopleTables
from store.sqlite_ratings import RatingTables
from store.sqlite_tournaments import TournamentTables

MIGRATIONS = "store.migrations.sqlite"
SYNCHRONOUS = ("NORMAL", "FULL", "EXTRA")
# Ids are below 2**53: Discord's integer options and JavaScript's numbers hold them exactly.
ID_LIMIT = 2**53
_ID_TRIES = 8
# How long a finished game (or a closed challenge) may still have its board repaired.
BOARD_REPAIR_DAYS = 7

T = TypeVar("T")

# The games table has one column per field of `StoredGame`, of the same name:
# this tuple is the only list of them. Fields that are not plain SQLite values
# are converted on the way in and out, below. One more column, `ply`, is
# derived from `moves` and written with it.
COLUMNS: tuple[str, ...] = tuple(field.name for field in fields(StoredGame))
# Written on creation: the store draws the id; the version starts at 0.
_CREATED = (*COLUMNS, "ply")
# Written on update: never the id or the creation time, nor what the messages
# show (`set_message`, `set_board`, `set_ping`, which leave the version alone);
# the version is bumped.
_MESSAGES = ("message_id", "board_ply", "board_status", "ping_message_id")
_UPDATED = (*(c for c in COLUMNS if c not in ("id", "created_at", "version", *_MESSAGES)), "ply")

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
_CLOSED = "('finished', 'declined', 'expired', 'cancelled')"
# The partial index `games_lagging` has exactly this condition.
_LAGGING = "(message_id IS NULL OR board_ply IS NOT ply OR board_status IS NOT status)"

Work = Callable[[aiosqlite.Connection], Awaitable[T]]


class SqliteStore(PeopleTables, RatingTables, TournamentTables, LearningTables):
    """`Store` on one SQLite file: one write connection, `readers` read connections."""

    def __init__(
        self,
        path: Path | str,
        *,
        synchronous: str = "FULL",
        busy_ms: int = 10_000,
        readers: int = 2,
    ):
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
        db = await self._connect()
        opened = [db]
        try:
            await self._enable_wal(db)
            await db.execute(f"PRAGMA synchronous = {self.synchronous}")
            await _migrate(db)
            for _ in range(self.readers):
                reader = await self._connect()
                opened.append(reader)
                # A read connection cannot write, so it can never take the write lock.
                await reader.execute("PRAGMA query_only = ON")
        except BaseException:
            for connection in opened:
                await connection.close()
            raise
        self._db, self._reading = db, opened[1:]
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

    @staticmethod
    def _stored(row: sqlite3.Row) -> StoredGame:
        """A row of `games` as the service's value (for the mixins' queries)."""
        return _game(row)

    def _writer(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StoreError("the store is not open")
        return self._db

    async def _read(self, sql: str, params: dict[str, Any] | tuple[Any, ...] = ()) -> list[Any]:
        """The rows of one query, on a read connection: never behind the write lock."""
        self._writer()  # open?
        reader = await self._idle.get()
        try:
            return list(await reader.execute_fetchall(sql, params))
        finally:
            self._idle.put_nowait(reader)

    async def _write(self, work: Work[T]) -> T:
        """Run `work` on the write connection, alone, to its end even if the caller gives up."""
        db = self._writer()

        async def alone() -> T:
            async with self._lock:
                try:
                    return await work(db)
                except sqlite3.IntegrityError as error:
                    if "games.channel_id" in str(error):
                        raise ChannelBusy("a game is already being played here") from error
                    raise

        task = asyncio.ensure_future(alone())
        task.add_done_callback(_consumed)
        return await asyncio.shield(task)

    async def _execute(self, sql: str, params: dict[str, Any] | tuple[Any, ...] = ()) -> list[Any]:
        """One writing statement (autocommit: its own transaction) and the rows it returns."""

        async def statement(db: aiosqlite.Connection) -> list[Any]:
            return list(await db.execute_fetchall(sql, params))

        return await self._write(statement)

    async def schema_version(self) -> int:
        rows = await self._read("SELECT coalesce(max(version), 0) FROM schema_migrations")
        return int(rows[0][0])

    # ----------------------------------------------------------------- games

    async def create_game(self, game: StoredGame) -> StoredGame:
        params = {**_params(game), "version": 0}

        async def insert(db: aiosqlite.Connection) -> StoredGame:
            # A random id, so that nobody finds a game by counting; a clash is
            # one chance in billions, and then another id is drawn.
            for _ in range(_ID_TRIES):
                try:
                    rows = await db.execute_fetchall(_INSERT, {**params, "id": new_game_id()})
                except sqlite3.IntegrityError as error:
                    if "games.id" in str(error):
                        continue
                    raise
                return _game(next(iter(rows)))
            raise StoreError(f"no free game id in {_ID_TRIES} tries: is the random source broken?")

        return await self._write(insert)

    async def get_game(self, game_id: int) -> StoredGame | None:
        rows = await self._read(f"SELECT {_SELECT} FROM games WHERE id = ?", (game_id,))
        return _game(rows[0]) if rows else None

    async def active_game_in(self, channel_id: int) -> StoredGame | None:
        sql = f"SELECT {_SELECT} FROM games WHERE channel_id = ? AND status = 'active'"
        rows = await self._read(sql, (channel_id,))
        return _game(rows[0]) if rows else None

    async def last_finished_in(self, channel_id: int) -> StoredGame | None:
        sql = (
            f"SELECT {_SELECT} FROM games INDEXED BY games_finished_by_channel"
            " WHERE channel_id = ? AND status = 'finished' ORDER BY updated_at DESC, id LIMIT 1"
        )
        rows = await self._read(sql, (channel_id,))
        return _game(rows[0]) if rows else None

    async def open_games_in(self, channel_id: int) -> list[StoredGame]:
        sql = (
            f"SELECT {_SELECT} FROM games WHERE channel_id = ? AND status IN {_OPEN}"
            " ORDER BY created_at, id"
        )
        return [_game(row) for row in await self._read(sql, (channel_id,))]

    async def active_games(self, guild_id: int) -> list[StoredGame]:
        sql = (
            f"SELECT {_SELECT} FROM games WHERE guild_id = ? AND status = 'active'"
            " ORDER BY created_at, id"
        )
        return [_game(row) for row in await self._read(sql, (guild_id,))]

    async def active_counts(self) -> dict[int, int]:
        sql = "SELECT guild_id, COUNT(*) FROM games WHERE status = 'active' GROUP BY guild_id"
        return {guild_id: count for guild_id, count in await self._read(sql, ())}

    async def open_games_of(self, user_id: int) -> list[StoredGame]:
        sql = (
            f"SELECT {_SELECT} FROM games WHERE status IN {_OPEN}"
            " AND ? IN (challenger_id, opponent_id, first_id, second_id) ORDER BY created_at, id"
        )
        return [_game(row) for row in await self._read(sql, (user_id,))]

    async def update_game(self, game: StoredGame) -> StoredGame | None:
        return await self._write(lambda db: self._update_in(db, game))

    async def _update_in(self, db: aiosqlite.Connection, game: StoredGame) -> StoredGame | None:
        rows = list(await db.execute_fetchall(_UPDATE, _params(game)))
        return _game(rows[0]) if rows else None

    async def finished_games_of(
        self, guild_id: int, game: str, user_id: int, *, offset: int, limit: int
    ) -> list[StoredGame]:
        # Two halves, one index each (games_finished_by_first, _by_second), merged.
        sql = f"""
            SELECT {_SELECT} FROM games INDEXED BY games_finished_by_first
                WHERE guild_id = :guild AND game = :game AND first_id = :user
                    AND status = 'finished'
            UNION ALL
            SELECT {_SELECT} FROM games INDEXED BY games_finished_by_second
                WHERE guild_id = :guild AND game = :game AND second_id = :user
                    AND status = 'finished' AND first_id IS NOT :user
            ORDER BY updated_at DESC, id DESC LIMIT :limit OFFSET :offset"""
        params = {"guild": guild_id, "game": game, "user": user_id, "limit": limit,
                  "offset": offset}  # fmt: skip
        return [_game(row) for row in await self._read(sql, params)]

    async def finished_games(self, guild_id: int | None = None) -> list[StoredGame]:
        where = "" if guild_id is None else " AND guild_id = ?"
        sql = f"SELECT {_SELECT} FROM games WHERE status = 'finished'{where}"
        params = () if guild_id is None else (guild_id,)
        return [_game(row) for row in await self._read(sql, params)]

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        await self._execute("UPDATE games SET message_id = ? WHERE id = ?", (message_id, game_id))

    async def set_board(self, game_id: int, message_id: int, ply: int, status: Status) -> None:
        sql = "UPDATE games SET message_id = ?, board_ply = ?, board_status = ? WHERE id = ?"
        await self._execute(sql, (message_id, ply, str(status), game_id))

    async def set_ping(self, game_id: int, message_id: int | None) -> None:
        await self._execute(
            "UPDATE games SET ping_message_id = ? WHERE id = ?", (message_id, game_id)
        )

    async def lagging_boards(
        self, limit: int = 100, *, now: datetime | None = None
    ) -> list[StoredGame]:
        since = (now or datetime.now(UTC)) - timedelta(days=BOARD_REPAIR_DAYS)
        # Two halves of the partial index `games_lagging` rather than one OR.
        sql = f"""
            SELECT {_SELECT} FROM games WHERE {_LAGGING} AND status IN ('active', 'challenge')
            UNION ALL
            SELECT {_SELECT} FROM games
                WHERE {_LAGGING} AND status IN {_CLOSED} AND updated_at >= :since
            ORDER BY updated_at, id LIMIT :limit"""
        rows = await self._read(sql, {"since": since.timestamp(), "limit": limit})
        return [_game(row) for row in rows]

    async def shift_clocks(self, by: timedelta) -> list[StoredGame]:
        # A live clock's times left (`first_left_ms`, ...) stay: its deadline carries the credit.
        sql = f"""
            UPDATE games SET deadline = deadline + :by, remind_at = remind_at + :by,
                version = version + 1
            WHERE status = 'active' AND (deadline IS NOT NULL OR remind_at IS NOT NULL)
            RETURNING {_SELECT}"""
        rows = await self._execute(sql, {"by": by.total_seconds()})
        return sorted((_game(row) for row in rows), key=lambda game: (game.created_at, game.id))

    async def due(self, now: datetime, limit: int = 100) -> list[StoredGame]:
        # Two indexed halves rather than one OR, which SQLite would scan.
        sql = f"""
            SELECT {_SELECT}, deadline AS at FROM games
                WHERE deadline <= :now AND status IN {_OPEN}
            UNION
            SELECT {_SELECT}, remind_at AS at FROM games
                WHERE remind_at <= :now AND status IN {_OPEN}
            ORDER BY at, id LIMIT :limit"""
        rows = await self._read(sql, {"now": now.timestamp(), "limit": limit * 2})
        unique = {row["id"]: _game(row) for row in rows}
        return list(unique.values())[:limit]

    # ------------------------------------------------------------- heartbeat

    async def beat(self, now: datetime) -> None:
        sql = """
            INSERT INTO heartbeat (id, at) VALUES (1, ?)
            ON CONFLICT (id) DO UPDATE SET at = excluded.at"""
        await self._execute(sql, (_iso(now),))

    async def last_beat(self) -> datetime | None:
        rows = await self._read("SELECT at FROM heartbeat WHERE id = 1")
        return _from_iso(rows[0][0]) if rows else None

    # ---------------------------------------------------------------- claims

    async def take_claim(self, key: str, holder: str, now: datetime, until: datetime) -> bool:
        # One statement under the write lock (and SQLite's own, across processes).
        sql = """
            INSERT INTO claims (key, holder, until) VALUES (?, ?, ?)
            ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, until = excluded.until
            WHERE claims.holder = excluded.holder OR claims.until <= ?
            RETURNING key"""
        return bool(await self._execute(sql, (key, holder, until.timestamp(), now.timestamp())))

    async def drop_claim(self, key: str, holder: str) -> None:
        sql = "UPDATE claims SET until = 0 WHERE key = ? AND holder = ?"
        await self._execute(sql, (key, holder))

    # -------------------------------------------------------------- settings

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        sql = (
            "SELECT guild_id, threads, language, champion_role_id, organiser_role_id"
            " FROM guild_settings"
        )
        rows = await self._read(sql + " WHERE guild_id = ?", (guild_id,))
        return _guild_settings(rows[0]) if rows else GuildSettings(guild_id)

    async def save_guild_settings(self, settings: GuildSettings, now: datetime) -> GuildSettings:
        sql = """
            INSERT INTO guild_settings
                (guild_id, threads, language, champion_role_id, organiser_role_id, updated_at)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (guild_id) DO UPDATE SET threads = excluded.threads,
                language = excluded.language, champion_role_id = excluded.champion_role_id,
                organiser_role_id = excluded.organiser_role_id, updated_at = excluded.updated_at
            RETURNING guild_id, threads, language, champion_role_id, organiser_role_id"""
        params = (
            settings.guild_id, int(settings.threads), settings.language,
            settings.champion_role_id, settings.organiser_role_id, now.timestamp(),
        )  # fmt: skip
        rows = await self._execute(sql, params)
        return _guild_settings(rows[0])

    async def server_languages(self) -> dict[int, str]:
        sql = "SELECT guild_id, language FROM guild_settings WHERE language IS NOT NULL"
        return {guild_id: language for guild_id, language in await self._read(sql)}

    async def player_languages(self) -> dict[int, str]:
        sql = "SELECT user_id, language FROM user_settings WHERE language IS NOT NULL"
        return {user_id: language for user_id, language in await self._read(sql)}

    async def user_settings(self, user_id: int) -> UserSettings:
        sql = "SELECT pings, language FROM user_settings WHERE user_id = ?"
        rows = await self._read(sql, (user_id,))
        if not rows:
            return UserSettings(user_id)
        return UserSettings(user_id, pings=bool(rows[0][0]), language=rows[0][1])

    async def save_user_settings(self, settings: UserSettings, now: datetime) -> UserSettings:
        sql = """
            INSERT INTO user_settings (user_id, pings, language, updated_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (user_id) DO UPDATE SET pings = excluded.pings,
                language = excluded.language, updated_at = excluded.updated_at
            RETURNING user_id, pings, language"""
        params = (settings.user_id, int(settings.pings), settings.language, _iso(now))
        rows = await self._execute(sql, params)
        return UserSettings(rows[0][0], pings=bool(rows[0][1]), language=rows[0][2])


def _guild_settings(row: sqlite3.Row) -> GuildSettings:
    return GuildSettings(
        row[0], threads=bool(row[1]), language=row[2], champion_role_id=row[3],
        organiser_role_id=row[4],
    )  # fmt: skip


def new_game_id() -> int:
    """A random positive id below `ID_LIMIT` (53 bits)."""
    return secrets.randbelow(ID_LIMIT - 1) + 1


def _consumed(task: asyncio.Task[Any]) -> None:
    """A shielded write whose caller gave up: its error is logged by nobody, so take it."""
    if not task.cancelled():
        task.exception()


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


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


def _from_iso(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    # Written by hand without a zone: taken as UTC, as everything here is.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


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
    "board_status": _text_or_none,
    "first_choice": str,
    "moves": _moves_text,
    "reason": _text_or_none,
    "deadline": _seconds,
    "remind_at": _seconds,
    "created_at": _seconds,
    "updated_at": _seconds,
    "rated": int,
}
_FROM_ROW: dict[str, Callable[[Any], Any]] = {
    "status": Status,
    "board_status": lambda text: None if text is None else Status(text),
    "first_choice": FirstChoice,
    "moves": lambda text: tuple(text.split()),
    "reason": _termination,
    "deadline": _moment,
    "remind_at": _moment,
    "created_at": _when,
    "updated_at": _when,
    "rated": bool,
}


def _plain(value: Any) -> Any:
    return value


def _params(game: StoredGame) -> dict[str, Any]:
    params = {column: _TO_ROW.get(column, _plain)(getattr(game, column)) for column in COLUMNS}
    return {**params, "ply": len(game.moves)}


def _game(row: sqlite3.Row) -> StoredGame:
    return StoredGame(**{column: _FROM_ROW.get(column, _plain)(row[column]) for column in COLUMNS})
