"""The games, and what runs beside them: the heartbeat, claims, server and player settings.

A game's write lands only on the version it read (`WHERE id = :id AND version
= :version`); what its messages show (`set_message`, `set_board`, `set_ping`,
`write_marks`) is written apart and leaves the version alone, so posting a
board never makes a concurrent move stale. A game's write may carry it too
(`update_game`'s `marks`): then the move and its bookkeeping are one statement.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

from matches.marks import MARKED, Marks
from matches.records import (
    GamesPage,
    GameSummary,
    GuildSettings,
    Status,
    StoredGame,
    UserSettings,
)
from matches.shards import Shards
from matches.storage import StoreError
from store.database import Duplicate, Tables, Transaction
from store.rows import Shape, from_iso, in_shards, iso, when


def _moves_text(moves: tuple[str, ...]) -> str:
    for move in moves:
        if not move or move != "".join(move.split()):
            raise ValueError(f"a stored move cannot be empty or hold whitespace: {move!r}")
    return " ".join(moves)


def _times_text(times: tuple[int | None, ...]) -> str:
    return " ".join("-" if time is None else str(int(time)) for time in times)


def _times(text: str) -> tuple[int | None, ...]:
    return tuple(None if word == "-" else int(word) for word in text.split())


# `moves` is the truth of a game: its canonical moves, separated by single spaces. One
# more column, `ply`, is derived from them and written with them (`game_values`).
# `reached_ms` likewise: a time (or `-`) per position.
GAMES = Shape(
    StoredGame,
    special={
        "moves": (_moves_text, lambda text: tuple(text.split())),
        "reached_ms": (_times_text, _times),
    },
)
GAME = GAMES.select
# The channels where games may start: their ids, separated by single spaces.
GUILD_SETTINGS = Shape(
    GuildSettings,
    special={
        "game_channels": (
            lambda ids: " ".join(str(int(i)) for i in ids),
            lambda text: tuple(int(i) for i in text.split()),
        )
    },
)
USER_SETTINGS = Shape(UserSettings)
# A game being played as `/games` lists it: columns of its row, never its moves.
SUMMARIES = Shape(GameSummary)


def game_values(game: StoredGame) -> dict[str, Any]:
    """A game's row, by column, `ply` included."""
    return {**GAMES.values(game), "ply": len(game.moves)}


# Ids are below 2**53: Discord's integer options and JavaScript's numbers hold them exactly.
ID_LIMIT = 2**53
_ID_TRIES = 8
# How long a finished game (or a closed challenge) may still have its board repaired.
BOARD_REPAIR_DAYS = 7

# Written on creation with the id the store draws, version 0, and `ply`.
_INSERT = GAMES.insert("games", also=["ply"])
# Written on update: never the id or the creation time, nor what the messages show
# (unless marks tell it: `_update_marked`); the version is bumped.
_MESSAGES = MARKED
_UPDATE = GAMES.update("games", without=["created_at", *_MESSAGES], also=["ply"])


@lru_cache(maxsize=16)
def _update_marked(marked: frozenset[str]) -> str:
    """`_UPDATE` that also writes the message columns `marked`."""
    without = [name for name in _MESSAGES if name not in marked]
    return GAMES.update("games", without=["created_at", *without], also=["ply"])


@lru_cache(maxsize=16)
def _marking(marked: frozenset[str]) -> str:
    """The message columns `marked` of the game `:id`, its version left alone."""
    sets = ", ".join(f"{name} = :{name}" for name in _MESSAGES if name in marked)
    return f"UPDATE games SET {sets} WHERE id = :id"


def _told(value: int | Status | None) -> int | str | None:
    return value.value if isinstance(value, Status) else value


_OPEN = "('challenge', 'active')"
_CLOSED = "('finished', 'declined', 'expired', 'cancelled')"
# The partial index `games_lagging` has exactly this condition.
_LAGGING = (
    "(message_id IS NULL OR board_ply IS DISTINCT FROM ply OR board_status IS DISTINCT FROM status)"
)
# A server's and a player's settings keep when they were last saved (a player's as ISO text).
_SAVE_GUILD = GUILD_SETTINGS.upsert("guild_settings", ["guild_id"], also=["updated_at"])
_SAVE_USER = USER_SETTINGS.upsert("user_settings", ["user_id"], also=["updated_at"])


def _numbers(numbers: list[int]) -> str:
    """A list of whole numbers written into a statement (`IN (...)`), checked as numbers."""
    return ", ".join(str(int(number)) for number in numbers) or "NULL"


def random_id() -> int:
    """A random positive id below `ID_LIMIT` (53 bits): a game's, or negated a forgotten user's."""
    return secrets.randbelow(ID_LIMIT - 1) + 1


async def update_in(tx: Transaction, game: StoredGame) -> StoredGame | None:
    """`update_game` inside a transaction of its caller's."""
    found = await tx.fetch(_UPDATE, game_values(game))
    return GAMES.read(found[0]) if found else None


class GameTables(Tables):
    """Games, the heartbeat, claims and settings."""

    async def create_game(self, game: StoredGame) -> StoredGame:
        values = {**game_values(game), "version": 0}
        del values["id"]
        # A random id, so that nobody finds a game by counting; a clash is one
        # chance in billions, and then another id is drawn.
        for _ in range(_ID_TRIES):
            try:
                found = await self._execute(_INSERT, **values, id=random_id())
            except Duplicate as error:
                if error.index == "games_pkey":
                    continue
                raise
            return GAMES.read(found[0])
        raise StoreError(f"no free game id in {_ID_TRIES} tries: is the random source broken?")

    async def get_game(self, game_id: int) -> StoredGame | None:
        return await self._one(GAMES.read, f"SELECT {GAME} FROM games WHERE id = :id", id=game_id)

    async def live_rematch(self, game_id: int) -> StoredGame | None:
        sql = f"SELECT {GAME} FROM games WHERE rematch_of = :game AND status IN {_OPEN}"
        return await self._one(GAMES.read, sql, game=game_id)

    async def active_game_in(self, channel_id: int) -> StoredGame | None:
        sql = f"SELECT {GAME} FROM games WHERE channel_id = :channel AND status = 'active'"
        return await self._one(GAMES.read, sql, channel=channel_id)

    async def last_finished_in(self, channel_id: int) -> StoredGame | None:
        sql = (
            f"SELECT {GAME} FROM games INDEXED BY games_finished_by_channel"
            " WHERE channel_id = :channel AND status = 'finished'"
            " ORDER BY updated_at DESC, id LIMIT 1"
        )
        return await self._one(GAMES.read, sql, channel=channel_id)

    async def open_games_in(self, channel_id: int) -> list[StoredGame]:
        return await self._games(f"channel_id = :channel AND status IN {_OPEN}", channel=channel_id)

    async def active_games(self, guild_id: int) -> list[StoredGame]:
        return await self._games("guild_id = :guild AND status = 'active'", guild=guild_id)

    async def active_page(self, guild_id: int, *, limit: int, offset: int = 0) -> GamesPage:
        # The page is `limit` entries of the partial index `games_active_by_guild` (guild,
        # created_at, id) and their rows; the count reads an index alone (no row read).
        sql = (
            f"SELECT {SUMMARIES.select} FROM games"
            " WHERE guild_id = :guild AND status = 'active'"
            " ORDER BY created_at, id LIMIT :limit OFFSET :offset"
        )
        count = "SELECT count(*) FROM games WHERE guild_id = :guild AND status = 'active'"
        found = await self._all(
            SUMMARIES.read, sql, guild=guild_id, limit=limit, offset=max(0, offset)
        )
        total = await self.db.read(count, {"guild": guild_id})
        return GamesPage(tuple(found), int(total[0][0]), max(0, offset))

    async def active_counts(self) -> dict[int, int]:
        sql = "SELECT guild_id, count(*) FROM games WHERE status = 'active' GROUP BY guild_id"
        return {row[0]: int(row[1]) for row in await self.db.read(sql)}

    async def open_games_of(self, user_id: int) -> list[StoredGame]:
        where = f"status IN {_OPEN} AND :user IN (challenger_id, opponent_id, first_id, second_id)"
        return await self._games(where, user=user_id)

    async def _games(self, where: str, /, **params: Any) -> list[StoredGame]:
        """The games `where` holds for, oldest first."""
        sql = f"SELECT {GAME} FROM games WHERE {where} ORDER BY created_at, id"
        return await self._all(GAMES.read, sql, **params)

    async def update_game(self, game: StoredGame, marks: Marks | None = None) -> StoredGame | None:
        if marks is None or not marks.told:
            found = await self._execute(_UPDATE, **game_values(game))
        else:
            sql = _update_marked(marks.columns)
            found = await self._execute(sql, **game_values(marks.on(game)))
        return GAMES.read(found[0]) if found else None

    async def write_marks(self, marks: Mapping[int, Marks], *, durable: bool = True) -> None:
        def statement(game_id: int, told: Marks) -> tuple[str, dict[str, Any]]:
            values = {name: _told(value) for name, value in told.told}
            return _marking(told.columns), {**values, "id": game_id}

        writes = [statement(game_id, told) for game_id, told in marks.items() if told.told]
        if len(writes) == 1:  # one statement: no transaction around it
            sql, values = writes[0]
            await self.db.execute(sql, values, durable=durable)
            return

        async def written(tx: Transaction) -> None:
            for sql, values in writes:
                await tx.fetch(sql, values)

        if writes:
            await self._write(written)

    async def finished_games_of(
        self, guild_id: int, game: str, user_id: int, *, offset: int, limit: int
    ) -> list[StoredGame]:
        # Two halves, one index each (games_finished_by_first, _by_second), merged.
        sql = f"""
            SELECT {GAME} FROM games INDEXED BY games_finished_by_first
                WHERE guild_id = :guild AND game = :game AND first_id = :user
                    AND status = 'finished'
            UNION ALL
            SELECT {GAME} FROM games INDEXED BY games_finished_by_second
                WHERE guild_id = :guild AND game = :game AND second_id = :user
                    AND status = 'finished' AND first_id IS DISTINCT FROM :user
            ORDER BY updated_at DESC, id DESC LIMIT :limit OFFSET :offset"""
        return await self._all(
            GAMES.read, sql, guild=guild_id, game=game, user=user_id, limit=limit, offset=offset
        )

    async def finished_games(self, guild_id: int | None = None) -> list[StoredGame]:
        sql = f"SELECT {GAME} FROM games WHERE status = 'finished'"
        if guild_id is None:
            return await self._all(GAMES.read, sql)
        return await self._all(GAMES.read, sql + " AND guild_id = :guild", guild=guild_id)

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        sql = "UPDATE games SET message_id = :message WHERE id = :id"
        await self._execute(sql, message=message_id, id=game_id)

    async def set_board(self, game_id: int, message_id: int, ply: int, status: Status) -> None:
        sql = (
            "UPDATE games SET message_id = :message, board_ply = :ply, board_status = :status"
            " WHERE id = :id"
        )
        await self._execute(sql, message=message_id, ply=ply, status=str(status), id=game_id)

    async def set_ping(self, game_id: int, message_id: int | None) -> None:
        sql = "UPDATE games SET ping_message_id = :message WHERE id = :id"
        await self._execute(sql, message=message_id, id=game_id)

    async def lagging_boards(
        self, limit: int = 100, *, now: datetime | None = None, shards: Shards | None = None
    ) -> list[StoredGame]:
        since = (now or datetime.now(UTC)) - timedelta(days=BOARD_REPAIR_DAYS)
        served = in_shards(shards)
        # Two halves of the partial index `games_lagging` rather than one OR.
        sql = f"""
            SELECT {GAME} FROM games
                WHERE {_LAGGING} AND status IN ('active', 'challenge'){served}
            UNION ALL
            SELECT {GAME} FROM games
                WHERE {_LAGGING} AND status IN {_CLOSED} AND updated_at >= :since{served}
            ORDER BY updated_at, id LIMIT :limit"""
        return await self._all(GAMES.read, sql, since=since.timestamp(), limit=limit)

    async def shift_clocks(
        self, by: timedelta, *, shards: Shards | None = None
    ) -> list[StoredGame]:
        # A live clock's times left (`first_left_ms`, ...) stay: its deadline carries the credit.
        sql = f"""
            UPDATE games SET deadline = deadline + :by, remind_at = remind_at + :by,
                version = version + 1
            WHERE status = 'active' AND (deadline IS NOT NULL OR remind_at IS NOT NULL)
                {in_shards(shards)}
            RETURNING {GAME}"""
        found = await self._execute(sql, by=by.total_seconds())
        return sorted(map(GAMES.read, found), key=lambda game: (game.created_at, game.id))

    async def due(
        self, now: datetime, limit: int = 100, *, shards: Shards | None = None
    ) -> list[StoredGame]:
        served = in_shards(shards)
        # Two indexed halves rather than one OR, which SQLite would scan.
        sql = f"""
            SELECT {GAME}, deadline AS at FROM games
                WHERE deadline <= :now AND status IN {_OPEN}{served}
            UNION
            SELECT {GAME}, remind_at AS at FROM games
                WHERE remind_at <= :now AND status IN {_OPEN}{served}
            ORDER BY at, id LIMIT :limit"""
        found = await self.db.read(sql, {"now": now.timestamp(), "limit": limit * 2})
        unique = {row["id"]: GAMES.read(row) for row in found}
        return list(unique.values())[:limit]

    # ---------------------------------------------------------- shard leases

    async def take_shard(
        self, shard: int, count: int, holder: str, now: datetime, until: datetime
    ) -> tuple[str, datetime | None]:
        # One statement, as a claim is taken: of two processes at once, one gets it.
        sql = """
            INSERT INTO shard_leases (shard, shard_count, holder, until)
                VALUES (:shard, :count, :holder, :until)
            ON CONFLICT (shard) DO UPDATE SET shard_count = excluded.shard_count,
                holder = excluded.holder, until = excluded.until
            WHERE shard_leases.holder = excluded.holder OR shard_leases.until <= :now
            RETURNING holder, beat"""
        params = {"shard": shard, "count": count, "holder": holder, "now": now.timestamp()}
        found = await self._execute(sql, **params, until=until.timestamp())
        if not found:
            sql = "SELECT holder, beat FROM shard_leases WHERE shard = :shard"
            found = await self.db.read(sql, {"shard": shard})
        return found[0][0], None if found[0][1] is None else when(found[0][1])

    async def renew_shards(
        self, shards: list[int], holder: str, now: datetime, until: datetime
    ) -> list[int]:
        sql = f"""
            UPDATE shard_leases SET until = :until, beat = :now
            WHERE holder = :holder AND shard IN ({_numbers(shards)}) RETURNING shard"""
        found = await self._execute(
            sql, until=until.timestamp(), now=now.timestamp(), holder=holder
        )
        return sorted(row[0] for row in found)

    async def drop_shards(self, shards: list[int], holder: str) -> None:
        sql = (
            "UPDATE shard_leases SET until = 0"
            f" WHERE holder = :holder AND shard IN ({_numbers(shards)})"
        )
        await self._execute(sql, holder=holder)

    async def live_shard_counts(self, now: datetime) -> set[int]:
        sql = "SELECT DISTINCT shard_count FROM shard_leases WHERE until > :now"
        return {row[0] for row in await self.db.read(sql, {"now": now.timestamp()})}

    async def last_beat(self) -> datetime | None:
        # Any shard's last beat; before the leases, the one heartbeat row's.
        found = await self.db.read("SELECT max(beat) FROM shard_leases")
        if found[0][0] is not None:
            return when(found[0][0])
        found = await self.db.read("SELECT at FROM heartbeat WHERE id = 1")
        return from_iso(found[0][0]) if found else None

    # ---------------------------------------------------------------- claims

    async def take_claim(self, key: str, holder: str, now: datetime, until: datetime) -> bool:
        # One statement: taken if free, lapsed or already this holder's. Of two processes
        # taking it at once, the second waits for the first's row, then finds it held.
        sql = """
            INSERT INTO claims (key, holder, until) VALUES (:key, :holder, :until)
            ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, until = excluded.until
            WHERE claims.holder = excluded.holder OR claims.until <= :now
            RETURNING key"""
        taken = await self._execute(
            sql, key=key, holder=holder, until=until.timestamp(), now=now.timestamp()
        )
        return bool(taken)

    async def drop_claim(self, key: str, holder: str) -> None:
        sql = "UPDATE claims SET until = 0 WHERE key = :key AND holder = :holder"
        await self._execute(sql, key=key, holder=holder)

    async def release_claim(self, key: str) -> None:
        await self._execute("DELETE FROM claims WHERE key = :key", key=key)

    # -------------------------------------------------------------- postings

    async def begin_posting(self, key: str, after: int) -> tuple[int, int | None]:
        sql = """
            INSERT INTO postings (key, after) VALUES (:key, :after)
            ON CONFLICT (key) DO UPDATE SET after = postings.after
            RETURNING after, message_id"""
        found = await self._execute(sql, key=key, after=after)
        return found[0][0], found[0][1]

    async def end_posting(self, key: str, message_id: int) -> None:
        sql = "UPDATE postings SET message_id = :message WHERE key = :key"
        await self._execute(sql, message=message_id, key=key)

    # -------------------------------------------------------------- settings

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        sql = f"SELECT {GUILD_SETTINGS.select} FROM guild_settings WHERE guild_id = :guild"
        return await self._one(GUILD_SETTINGS.read, sql, guild=guild_id) or GuildSettings(guild_id)

    async def save_guild_settings(self, settings: GuildSettings, now: datetime) -> GuildSettings:
        values = GUILD_SETTINGS.values(settings)
        found = await self._execute(_SAVE_GUILD, **values, updated_at=now.timestamp())
        return GUILD_SETTINGS.read(found[0])

    async def server_languages(self) -> dict[int, str]:
        sql = "SELECT guild_id, language FROM guild_settings WHERE language IS NOT NULL"
        return {row[0]: row[1] for row in await self.db.read(sql)}

    async def player_languages(self) -> dict[int, str]:
        sql = "SELECT user_id, language FROM user_settings WHERE language IS NOT NULL"
        return {row[0]: row[1] for row in await self.db.read(sql)}

    async def user_settings(self, user_id: int) -> UserSettings:
        sql = f"SELECT {USER_SETTINGS.select} FROM user_settings WHERE user_id = :user"
        return await self._one(USER_SETTINGS.read, sql, user=user_id) or UserSettings(user_id)

    async def save_user_settings(self, settings: UserSettings, now: datetime) -> UserSettings:
        values = USER_SETTINGS.values(settings)
        found = await self._execute(_SAVE_USER, **values, updated_at=iso(now))
        return USER_SETTINGS.read(found[0])
