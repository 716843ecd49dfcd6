"""The PostgreSQL backend of `Store`, on asyncpg: for several processes sharing one database.

The same contract as `store.sqlite`, kept by the server instead of by one
process's lock. Two connection pools: writes go through one, reads through the
other, so a read never waits for a connection that a stalled write holds (and
PostgreSQL's MVCC never makes a read wait for a row lock). Each method is one
transaction and has committed when it returns; a write once started is finished
even if its caller is cancelled (it is shielded, as on SQLite).

What SQLite gets from its single writer, PostgreSQL gets from row locks and
checks in the statements themselves: a game's update lands only on the version
it read (`WHERE id = $n AND version = $m`: a racing update waits for the row,
then finds the version changed), a result is written once (`WHERE score IS
NULL`), one active game per channel and one running season per server are
unique indexes. Rating a finished game reads and writes a server's pool of
ratings, so it holds that pool's advisory lock to its commit; rebuilding ratings
takes every pool at once.

The values are SQLite's: the schema (store/migrations/postgres/) has the same
tables and columns, times in seconds as DOUBLE PRECISION, so rows convert to the
service's values with the SQLite store's own functions.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg  # type: ignore[import-untyped]  # asyncpg ships no type hints

from matches.records import GuildSettings, Status, StoredGame, UserSettings
from matches.storage import ChannelBusy, StoreError
from store.postgres_learning import PgLearning
from store.postgres_people import PgPeople
from store.postgres_ratings import PgRatings
from store.postgres_tables import Connection, T, Work, unique_violation
from store.postgres_tournaments import PgTournaments
from store.schema import migrations
from store.sqlite import (
    BOARD_REPAIR_DAYS,
    COLUMNS,
    _consumed,
    _from_iso,
    _game,
    _guild_settings,
    _iso,
    _params,
    new_game_id,
)

MIGRATIONS = "store.migrations.postgres"
_ID_TRIES = 8
# The advisory lock every process takes to migrate: one at a time applies them.
MIGRATION_LOCK = 0x4B616D656E  # "Kamen"

_CREATED = (*COLUMNS, "ply")
_MESSAGES = ("message_id", "board_ply", "board_status", "ping_message_id")
_UPDATED = (*(c for c in COLUMNS if c not in ("id", "created_at", "version", *_MESSAGES)), "ply")
_SELECT = ", ".join(COLUMNS)
_INSERT = (
    f"INSERT INTO games ({', '.join(_CREATED)})"
    f" VALUES ({', '.join(f'${n}' for n in range(1, len(_CREATED) + 1))})"
    f" RETURNING {_SELECT}"
)
_UPDATE = (
    f"UPDATE games SET {', '.join(f'{c} = ${n}' for n, c in enumerate(_UPDATED, 1))},"
    f" version = version + 1 WHERE id = ${len(_UPDATED) + 1} AND version = ${len(_UPDATED) + 2}"
    f" RETURNING {_SELECT}"
)
_OPEN = "('challenge', 'active')"
_CLOSED = "('finished', 'declined', 'expired', 'cancelled')"
# The partial index `games_lagging` has exactly this condition.
_LAGGING = (
    "(message_id IS NULL OR board_ply IS DISTINCT FROM ply OR board_status IS DISTINCT FROM status)"
)


class PostgresStore(PgPeople, PgRatings, PgTournaments, PgLearning):
    """`Store` on a PostgreSQL database: a pool of write connections and one of reads."""

    def __init__(self, dsn: str, *, writers: int = 8, readers: int = 4, timeout: float = 10.0):
        if writers < 1 or readers < 1:
            raise StoreError("a PostgreSQL store needs at least one connection of each kind")
        self.dsn = dsn
        self.writers, self.readers, self.timeout = writers, readers, timeout
        self._writing: Any = None  # asyncpg.Pool
        self._reading: Any = None

    async def __aenter__(self) -> PostgresStore:
        await self.open()
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    # ------------------------------------------------------------ connection

    async def open(self) -> None:
        if self._writing is not None:
            return
        try:
            writing = await asyncpg.create_pool(
                self.dsn, min_size=1, max_size=self.writers, timeout=self.timeout
            )
        except (TimeoutError, OSError, asyncpg.PostgresError) as error:
            where = shown(self.dsn)
            raise StoreError(f"cannot open the PostgreSQL database {where}: {error}") from error
        try:
            async with writing.acquire() as db:
                await _migrate(db)
            reading = await asyncpg.create_pool(
                self.dsn, min_size=1, max_size=self.readers, timeout=self.timeout,
                server_settings={"default_transaction_read_only": "on"},
            )  # fmt: skip
        except BaseException:
            await writing.close()
            raise
        self._writing, self._reading = writing, reading

    async def close(self) -> None:
        if self._writing is None:
            return
        writing, reading = self._writing, self._reading
        self._writing = self._reading = None
        # Each pool waits for its connections to come back: writes under way finish first.
        await writing.close()
        await reading.close()

    def _pools(self) -> tuple[Any, Any]:
        if self._writing is None:
            raise StoreError("the store is not open")
        return self._writing, self._reading

    async def _read(self, sql: str, *args: Any) -> list[Any]:
        """The rows of one query, on a read connection."""
        _, reading = self._pools()
        async with reading.acquire() as db:
            return list(await db.fetch(sql, *args))

    async def _snapshot(self, work: Work[T]) -> T:
        """Several reads seen at one moment (one repeatable-read transaction)."""
        _, reading = self._pools()
        async with (
            reading.acquire() as db,
            db.transaction(isolation="repeatable_read", readonly=True),
        ):
            return await work(db)

    async def _write(self, work: Work[T]) -> T:
        """Run `work` on a write connection, to its end even if the caller gives up."""
        writing, _ = self._pools()

        async def alone() -> T:
            async with writing.acquire() as db:
                try:
                    return await work(db)
                except asyncpg.UniqueViolationError as error:
                    if unique_violation(error, "games_one_active_per_channel"):
                        raise ChannelBusy("a game is already being played here") from error
                    raise

        task = asyncio.ensure_future(alone())
        task.add_done_callback(_consumed)
        return await asyncio.shield(task)

    async def schema_version(self) -> int:
        rows = await self._read("SELECT coalesce(max(version), 0) FROM schema_migrations")
        return int(rows[0][0])

    # ----------------------------------------------------------------- games

    async def create_game(self, game: StoredGame) -> StoredGame:
        params = {**_params(game), "version": 0}

        async def insert(db: Connection) -> StoredGame:
            for _ in range(_ID_TRIES):
                drawn = {**params, "id": new_game_id()}
                values = [drawn[column] for column in _CREATED]
                try:
                    row = await db.fetchrow(_INSERT, *values)
                except asyncpg.UniqueViolationError as error:
                    if unique_violation(error, "games_pkey"):
                        continue
                    raise
                return _game(row)
            raise StoreError(f"no free game id in {_ID_TRIES} tries: is the random source broken?")

        return await self._write(insert)

    async def get_game(self, game_id: int) -> StoredGame | None:
        rows = await self._read(f"SELECT {_SELECT} FROM games WHERE id = $1", game_id)
        return _game(rows[0]) if rows else None

    async def active_game_in(self, channel_id: int) -> StoredGame | None:
        sql = f"SELECT {_SELECT} FROM games WHERE channel_id = $1 AND status = 'active'"
        rows = await self._read(sql, channel_id)
        return _game(rows[0]) if rows else None

    async def last_finished_in(self, channel_id: int) -> StoredGame | None:
        sql = (
            f"SELECT {_SELECT} FROM games WHERE channel_id = $1 AND status = 'finished'"
            " ORDER BY updated_at DESC, id LIMIT 1"
        )
        rows = await self._read(sql, channel_id)
        return _game(rows[0]) if rows else None

    async def open_games_in(self, channel_id: int) -> list[StoredGame]:
        sql = (
            f"SELECT {_SELECT} FROM games WHERE channel_id = $1 AND status IN {_OPEN}"
            " ORDER BY created_at, id"
        )
        return [_game(row) for row in await self._read(sql, channel_id)]

    async def active_games(self, guild_id: int) -> list[StoredGame]:
        sql = (
            f"SELECT {_SELECT} FROM games WHERE guild_id = $1 AND status = 'active'"
            " ORDER BY created_at, id"
        )
        return [_game(row) for row in await self._read(sql, guild_id)]

    async def active_counts(self) -> dict[int, int]:
        sql = "SELECT guild_id, count(*) FROM games WHERE status = 'active' GROUP BY guild_id"
        return {row[0]: int(row[1]) for row in await self._read(sql)}

    async def open_games_of(self, user_id: int) -> list[StoredGame]:
        sql = (
            f"SELECT {_SELECT} FROM games WHERE status IN {_OPEN}"
            " AND $1 IN (challenger_id, opponent_id, first_id, second_id) ORDER BY created_at, id"
        )
        return [_game(row) for row in await self._read(sql, user_id)]

    async def update_game(self, game: StoredGame) -> StoredGame | None:
        return await self._write(lambda db: self._update_in(db, game))

    async def _update_in(self, db: Connection, game: StoredGame) -> StoredGame | None:
        params = _params(game)
        values = [params[column] for column in _UPDATED]
        row = await db.fetchrow(_UPDATE, *values, game.id, game.version)
        return None if row is None else _game(row)

    async def finished_games_of(
        self, guild_id: int, game: str, user_id: int, *, offset: int, limit: int
    ) -> list[StoredGame]:
        # Two halves, one index each (games_finished_by_first, _by_second), merged.
        sql = f"""
            SELECT {_SELECT} FROM games
                WHERE guild_id = $1 AND game = $2 AND first_id = $3 AND status = 'finished'
            UNION ALL
            SELECT {_SELECT} FROM games
                WHERE guild_id = $1 AND game = $2 AND second_id = $3 AND status = 'finished'
                    AND first_id IS DISTINCT FROM $3
            ORDER BY updated_at DESC, id DESC LIMIT $4 OFFSET $5"""
        rows = await self._read(sql, guild_id, game, user_id, limit, offset)
        return [_game(row) for row in rows]

    async def finished_games(self, guild_id: int | None = None) -> list[StoredGame]:
        if guild_id is None:
            sql = f"SELECT {_SELECT} FROM games WHERE status = 'finished'"
            return [_game(row) for row in await self._read(sql)]
        sql = f"SELECT {_SELECT} FROM games WHERE status = 'finished' AND guild_id = $1"
        return [_game(row) for row in await self._read(sql, guild_id)]

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        await self._execute("UPDATE games SET message_id = $1 WHERE id = $2", message_id, game_id)

    async def set_board(self, game_id: int, message_id: int, ply: int, status: Status) -> None:
        sql = "UPDATE games SET message_id = $1, board_ply = $2, board_status = $3 WHERE id = $4"
        await self._execute(sql, message_id, ply, str(status), game_id)

    async def set_ping(self, game_id: int, message_id: int | None) -> None:
        sql = "UPDATE games SET ping_message_id = $1 WHERE id = $2"
        await self._execute(sql, message_id, game_id)

    async def lagging_boards(
        self, limit: int = 100, *, now: datetime | None = None
    ) -> list[StoredGame]:
        since = (now or datetime.now(UTC)) - timedelta(days=BOARD_REPAIR_DAYS)
        # Two halves of the partial index `games_lagging` rather than one OR.
        sql = f"""
            SELECT {_SELECT} FROM games WHERE {_LAGGING} AND status IN ('active', 'challenge')
            UNION ALL
            SELECT {_SELECT} FROM games
                WHERE {_LAGGING} AND status IN {_CLOSED} AND updated_at >= $1
            ORDER BY updated_at, id LIMIT $2"""
        return [_game(row) for row in await self._read(sql, since.timestamp(), limit)]

    async def shift_clocks(self, by: timedelta) -> list[StoredGame]:
        # A live clock's times left (`first_left_ms`, ...) stay: its deadline carries the credit.
        sql = f"""
            UPDATE games SET deadline = deadline + $1, remind_at = remind_at + $1,
                version = version + 1
            WHERE status = 'active' AND (deadline IS NOT NULL OR remind_at IS NOT NULL)
            RETURNING {_SELECT}"""
        rows = await self._execute(sql, by.total_seconds())
        return sorted((_game(row) for row in rows), key=lambda game: (game.created_at, game.id))

    async def due(self, now: datetime, limit: int = 100) -> list[StoredGame]:
        sql = f"""
            SELECT {_SELECT}, deadline AS at FROM games
                WHERE deadline <= $1 AND status IN {_OPEN}
            UNION
            SELECT {_SELECT}, remind_at AS at FROM games
                WHERE remind_at <= $1 AND status IN {_OPEN}
            ORDER BY at, id LIMIT $2"""
        rows = await self._read(sql, now.timestamp(), limit * 2)
        unique = {row["id"]: _game(row) for row in rows}
        return list(unique.values())[:limit]

    # ------------------------------------------------------------- heartbeat

    async def beat(self, now: datetime) -> None:
        sql = """
            INSERT INTO heartbeat (id, at) VALUES (1, $1)
            ON CONFLICT (id) DO UPDATE SET at = excluded.at"""
        await self._execute(sql, _iso(now))

    async def last_beat(self) -> datetime | None:
        rows = await self._read("SELECT at FROM heartbeat WHERE id = 1")
        return _from_iso(rows[0][0]) if rows else None

    # ---------------------------------------------------------------- claims

    async def take_claim(self, key: str, holder: str, now: datetime, until: datetime) -> bool:
        async def take(db: Connection) -> bool:
            async with db.transaction():
                await db.execute(
                    "INSERT INTO claims (key, holder, until) VALUES ($1, '', 0)"
                    " ON CONFLICT (key) DO NOTHING",
                    key,
                )
                # Another process taking it right now holds the row: this one passes.
                row = await db.fetchrow(
                    "SELECT holder, until FROM claims WHERE key = $1 FOR UPDATE SKIP LOCKED", key
                )
                if row is None or (row["holder"] != holder and row["until"] > now.timestamp()):
                    return False
                await db.execute(
                    "UPDATE claims SET holder = $2, until = $3 WHERE key = $1",
                    key, holder, until.timestamp(),
                )  # fmt: skip
                return True

        return await self._write(take)

    async def drop_claim(self, key: str, holder: str) -> None:
        sql = "UPDATE claims SET until = 0 WHERE key = $1 AND holder = $2"
        await self._execute(sql, key, holder)

    # -------------------------------------------------------------- settings

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        sql = (
            "SELECT guild_id, threads, language, champion_role_id, organiser_role_id"
            " FROM guild_settings WHERE guild_id = $1"
        )
        rows = await self._read(sql, guild_id)
        return _guild_settings(rows[0]) if rows else GuildSettings(guild_id)

    async def save_guild_settings(self, settings: GuildSettings, now: datetime) -> GuildSettings:
        sql = """
            INSERT INTO guild_settings
                (guild_id, threads, language, champion_role_id, organiser_role_id, updated_at)
            VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (guild_id) DO UPDATE SET threads = excluded.threads,
                language = excluded.language, champion_role_id = excluded.champion_role_id,
                organiser_role_id = excluded.organiser_role_id, updated_at = excluded.updated_at
            RETURNING guild_id, threads, language, champion_role_id, organiser_role_id"""
        rows = await self._execute(
            sql, settings.guild_id, int(settings.threads), settings.language,
            settings.champion_role_id, settings.organiser_role_id, now.timestamp(),
        )  # fmt: skip
        return _guild_settings(rows[0])

    async def server_languages(self) -> dict[int, str]:
        sql = "SELECT guild_id, language FROM guild_settings WHERE language IS NOT NULL"
        return {row[0]: row[1] for row in await self._read(sql)}

    async def player_languages(self) -> dict[int, str]:
        sql = "SELECT user_id, language FROM user_settings WHERE language IS NOT NULL"
        return {row[0]: row[1] for row in await self._read(sql)}

    async def user_settings(self, user_id: int) -> UserSettings:
        sql = "SELECT pings, language FROM user_settings WHERE user_id = $1"
        rows = await self._read(sql, user_id)
        if not rows:
            return UserSettings(user_id)
        return UserSettings(user_id, pings=bool(rows[0][0]), language=rows[0][1])

    async def save_user_settings(self, settings: UserSettings, now: datetime) -> UserSettings:
        sql = """
            INSERT INTO user_settings (user_id, pings, language, updated_at)
            VALUES ($1, $2, $3, $4)
            ON CONFLICT (user_id) DO UPDATE SET pings = excluded.pings,
                language = excluded.language, updated_at = excluded.updated_at
            RETURNING user_id, pings, language"""
        rows = await self._execute(
            sql, settings.user_id, int(settings.pings), settings.language, _iso(now)
        )
        return UserSettings(rows[0][0], pings=bool(rows[0][1]), language=rows[0][2])


# ------------------------------------------------------------------ migrations


async def _migrate(db: Connection) -> None:
    """Apply the pending migrations in one transaction, so an upgrade is all or nothing.

    The advisory lock is taken before anything is read, so two processes starting
    together apply each migration once: the second waits, then finds nothing to do.
    """
    known = migrations(MIGRATIONS)
    async with db.transaction():
        await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY,"
            " name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
        )
        current = int(await db.fetchval("SELECT coalesce(max(version), 0) FROM schema_migrations"))
        if current > len(known):
            raise StoreError(
                f"the database has schema version {current}, newer than this Kamen knows"
                f" ({len(known)}): run a newer Kamen"
            )
        for migration in known[current:]:
            await db.execute(migration.sql)  # the whole file: PostgreSQL splits it itself
            await db.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                migration.number, migration.name, datetime.now(UTC).timestamp(),
            )  # fmt: skip


def shown(dsn: str) -> str:
    """A database URL fit to print: its password hidden."""
    parts = urlsplit(dsn)
    if parts.password is None:
        return dsn
    host = parts.netloc.rpartition("@")[2]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))
