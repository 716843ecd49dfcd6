"""The PostgreSQL backend's ratings and seasons, as `store.sqlite_ratings` on SQLite.

A rated game's end is one transaction: the game's version-checked update, then
its players' standings, rating changes and season lines. Two games of the same
pool (server and game) ending at once would both read a player's standing
before either wrote it, so the transaction holds the pool's advisory lock from
before that read to its commit; games of other pools go on side by side. A
rebuild (`replace_ratings`) holds the lock every rating takes in shared mode,
exclusively, so no game is rated while the ratings are replaced.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from matches.glicko2 import PROVISIONAL_RD
from matches.ratings import RatedGame, RatingChange, RatingInputs, Season, SeasonScore, Standing
from matches.records import StoredGame
from matches.storage import Rater
from store.postgres_tables import Connection, PgParts, unique_violation
from store.sqlite_ratings import (
    _CHANGE,
    _SCORE,
    _SEASON,
    _STANDING,
    _change,
    _change_values,
    _score,
    _season,
    _seconds,
    _standing,
)

# Taken shared by every rating, exclusively by a rebuild of them.
RATINGS_LOCK = 0x4B616D656E01
_LISTED = "user_id > 0"
_STANDING_KEY = ("guild_id", "game", "user_id")
_SCORE_KEY = ("season_id", "game", "user_id")


def _upsert(table: str, columns: str, key: tuple[str, ...]) -> str:
    names = [name.strip() for name in columns.split(",")]
    values = ", ".join(f"${n}" for n in range(1, len(names) + 1))
    sets = ", ".join(f"{name} = excluded.{name}" for name in names if name not in key)
    return (
        f"INSERT INTO {table} ({columns}) VALUES ({values})"
        f" ON CONFLICT ({', '.join(key)}) DO UPDATE SET {sets}"
    )


_PUT_STANDING = _upsert("ratings", _STANDING, _STANDING_KEY)
_PUT_SCORE = _upsert("season_scores", _SCORE, _SCORE_KEY)


class PgRatings(PgParts):
    """Ratings, rating changes, seasons and season tables on PostgreSQL."""

    async def finish_rated(self, game: StoredGame, rate: Rater) -> RatedGame | None:
        if game.players is None:
            raise ValueError("a rated game has two players")

        async def finish(db: Connection) -> RatedGame | None:
            async with db.transaction():
                await db.execute("SELECT pg_advisory_xact_lock_shared($1)", RATINGS_LOCK)
                saved = await self._update_in(db, game)
                if saved is None:
                    return None  # nothing was written: the transaction commits nothing
                await db.execute(
                    "SELECT pg_advisory_xact_lock(hashtextextended($1, $2))",
                    f"ratings:{saved.game}", saved.guild_id,
                )  # fmt: skip
                read = await _inputs(db, saved)
                rated = rate(saved, read)
                changes = [await _insert_change(db, change) for change in rated.changes]
                for standing in rated.standings:
                    await _put_standing(db, standing)
                for line in rated.season_scores or ():
                    await _put_score(db, line)
            return RatedGame(rated.standings, (changes[0], changes[1]), rated.season_scores)

        return await self._write(finish)

    # -------------------------------------------------------------- ratings

    async def standing(self, guild_id: int, game: str, user_id: int) -> Standing | None:
        sql = f"SELECT {_STANDING} FROM ratings WHERE guild_id = $1 AND game = $2 AND user_id = $3"
        rows = await self._read(sql, guild_id, game, user_id)
        return _standing(rows[0]) if rows else None

    async def leaderboard(
        self, guild_id: int, game: str, *, provisional: bool, offset: int, limit: int
    ) -> list[Standing]:
        sql = (
            f"SELECT {_STANDING} FROM ratings WHERE guild_id = $1 AND game = $2 AND {_LISTED}"
            f" AND rd {'>' if provisional else '<='} $3"
            " ORDER BY rating DESC, user_id LIMIT $4 OFFSET $5"
        )
        rows = await self._read(sql, guild_id, game, PROVISIONAL_RD, limit, offset)
        return [_standing(row) for row in rows]

    async def leaderboard_sizes(self, guild_id: int, game: str) -> tuple[int, int]:
        sql = (
            "SELECT count(*) FILTER (WHERE rd <= $1), count(*) FILTER (WHERE rd > $1)"
            f" FROM ratings WHERE guild_id = $2 AND game = $3 AND {_LISTED}"
        )
        rows = await self._read(sql, PROVISIONAL_RD, guild_id, game)
        return int(rows[0][0]), int(rows[0][1])

    async def rank(self, guild_id: int, game: str, user_id: int) -> int | None:
        mine = await self.standing(guild_id, game, user_id)
        if mine is None or mine.provisional or user_id <= 0:
            return None
        sql = (
            "SELECT count(*) FROM ratings WHERE guild_id = $1 AND game = $2 AND rd <= $3"
            f" AND {_LISTED} AND (rating > $4 OR (rating = $4 AND user_id < $5))"
        )
        rows = await self._read(sql, guild_id, game, PROVISIONAL_RD, mine.rating, user_id)
        return int(rows[0][0]) + 1

    async def rating_changes(
        self, guild_id: int, game: str, user_id: int, *, limit: int | None = None
    ) -> list[RatingChange]:
        sql = (
            f"SELECT {_CHANGE} FROM rating_changes"
            " WHERE guild_id = $1 AND game = $2 AND user_id = $3 ORDER BY seq DESC LIMIT $4"
        )
        rows = await self._read(sql, guild_id, game, user_id, limit)
        return [_change(row) for row in reversed(rows)]

    async def changes_of_game(self, game_id: int) -> list[RatingChange]:
        sql = f"SELECT {_CHANGE} FROM rating_changes WHERE game_id = $1 ORDER BY seq"
        return [_change(row) for row in await self._read(sql, game_id)]

    # --------------------------------------------------------------- seasons

    async def start_season(self, season: Season) -> Season | None:
        sql = (
            "INSERT INTO seasons (guild_id, name, started_at, ends_at, channel_id)"
            f" VALUES ($1, $2, $3, $4, $5) RETURNING {_SEASON}"
        )

        async def insert(db: Connection) -> Season | None:
            try:
                row = await db.fetchrow(
                    sql, season.guild_id, season.name, season.started_at.timestamp(),
                    _seconds(season.ends_at), season.channel_id,
                )  # fmt: skip
            except Exception as error:
                if unique_violation(error, "seasons_one_running"):
                    return None
                raise
            return _season(row)

        return await self._write(insert)

    async def end_season(self, season_id: int, at: datetime) -> Season | None:
        sql = (
            "UPDATE seasons SET ended_at = $1 WHERE id = $2 AND ended_at IS NULL"
            f" RETURNING {_SEASON}"
        )
        rows = await self._execute(sql, at.timestamp(), season_id)
        return _season(rows[0]) if rows else None

    async def claim_announcement(self, season_id: int, now: datetime, until: datetime) -> bool:
        sql = (
            "UPDATE seasons SET announcing_until = $1 WHERE id = $2 AND announced = 0"
            " AND (announcing_until IS NULL OR announcing_until <= $3) RETURNING id"
        )
        return bool(await self._execute(sql, until.timestamp(), season_id, now.timestamp()))

    async def set_announced(self, season_id: int) -> None:
        await self._execute("UPDATE seasons SET announced = 1 WHERE id = $1", season_id)

    async def running_season(self, guild_id: int) -> Season | None:
        sql = f"SELECT {_SEASON} FROM seasons WHERE guild_id = $1 AND ended_at IS NULL"
        rows = await self._read(sql, guild_id)
        return _season(rows[0]) if rows else None

    async def season(self, guild_id: int, season_id: int) -> Season | None:
        sql = f"SELECT {_SEASON} FROM seasons WHERE guild_id = $1 AND id = $2"
        rows = await self._read(sql, guild_id, season_id)
        return _season(rows[0]) if rows else None

    async def seasons(self, guild_id: int | None = None) -> list[Season]:
        order = " ORDER BY started_at DESC, id DESC"
        if guild_id is None:
            rows = await self._read(f"SELECT {_SEASON} FROM seasons{order}")
        else:
            sql = f"SELECT {_SEASON} FROM seasons WHERE guild_id = $1{order}"
            rows = await self._read(sql, guild_id)
        return [_season(row) for row in rows]

    async def seasons_due(self, now: datetime) -> list[Season]:
        sql = f"""
            SELECT {_SEASON} FROM seasons WHERE ended_at IS NULL AND ends_at <= $1
            UNION
            SELECT {_SEASON} FROM seasons WHERE ended_at IS NOT NULL AND announced = 0
            ORDER BY id"""
        return [_season(row) for row in await self._read(sql, now.timestamp())]

    async def season_table(
        self, season_id: int, game: str, *, offset: int = 0, limit: int | None = None
    ) -> list[SeasonScore]:
        sql = (
            f"SELECT {_SCORE} FROM season_scores WHERE season_id = $1 AND game = $2 AND {_LISTED}"
            " ORDER BY points DESC, coalesce(performance, 0) DESC, user_id LIMIT $3 OFFSET $4"
        )
        return [_score(row) for row in await self._read(sql, season_id, game, limit, offset)]

    async def season_size(self, season_id: int, game: str) -> int:
        sql = f"SELECT count(*) FROM season_scores WHERE season_id = $1 AND game = $2 AND {_LISTED}"
        return int((await self._read(sql, season_id, game))[0][0])

    async def season_games(self, season_id: int) -> list[str]:
        sql = (
            'SELECT DISTINCT game COLLATE "C" AS game FROM season_scores WHERE season_id = $1'
            " ORDER BY 1"
        )
        return [row[0] for row in await self._read(sql, season_id)]

    # -------------------------------------------------------------- rebuilds

    async def all_ratings(
        self, guild_id: int | None = None
    ) -> tuple[list[Standing], list[RatingChange], list[SeasonScore]]:
        where, scores_where, params = _where(guild_id)

        async def read(db: Connection) -> tuple[list[Any], list[Any], list[Any]]:
            standings = await db.fetch(
                f"SELECT {_STANDING} FROM ratings{where}"
                ' ORDER BY guild_id, game COLLATE "C", user_id',
                *params,
            )
            changes = await db.fetch(
                f"SELECT {_CHANGE} FROM rating_changes{where} ORDER BY seq", *params
            )
            scores = await db.fetch(
                f"SELECT {_SCORE} FROM season_scores{scores_where}"
                ' ORDER BY season_id, game COLLATE "C", user_id',
                *params,
            )
            return standings, changes, scores

        standings, changes, scores = await self._snapshot(read)
        return (
            [_standing(row) for row in standings],
            [_change(row) for row in changes],
            [_score(row) for row in scores],
        )

    async def replace_ratings(
        self,
        guild_id: int | None,
        standings: list[Standing],
        changes: list[RatingChange],
        scores: list[SeasonScore],
    ) -> None:
        where, scores_where, params = _where(guild_id)

        async def replace(db: Connection) -> None:
            async with db.transaction():
                await db.execute("SELECT pg_advisory_xact_lock($1)", RATINGS_LOCK)
                await db.execute(f"DELETE FROM ratings{where}", *params)
                await db.execute(f"DELETE FROM rating_changes{where}", *params)
                await db.execute(f"DELETE FROM season_scores{scores_where}", *params)
                for change in changes:
                    await _insert_change(db, change, keep_seq=True)
                await _follow_sequence(db)
                for standing in standings:
                    await _put_standing(db, standing)
                for line in scores:
                    await _put_score(db, line)

        await self._write(replace)


def _where(guild_id: int | None) -> tuple[str, str, tuple[int, ...]]:
    if guild_id is None:
        return "", "", ()
    scores_where = " WHERE season_id IN (SELECT id FROM seasons WHERE guild_id = $1)"
    return " WHERE guild_id = $1", scores_where, (guild_id,)


# ------------------------------------------------------------ in a transaction


async def _inputs(db: Connection, game: StoredGame) -> RatingInputs:
    """What rating `game` needs to read, inside its transaction (as on SQLite)."""
    players = game.players
    assert players is not None
    standings = []
    for user in players:
        found = await db.fetchrow(
            f"SELECT {_STANDING} FROM ratings WHERE guild_id = $1 AND game = $2 AND user_id = $3",
            game.guild_id, game.game, user,
        )  # fmt: skip
        standings.append(
            _standing(found) if found is not None else Standing(game.guild_id, game.game, user)
        )
    found = await db.fetchrow(
        f"SELECT {_SEASON} FROM seasons WHERE guild_id = $1 AND started_at <= $2"
        " AND (ended_at IS NULL OR ended_at >= $2) AND (ends_at IS NULL OR ends_at > $2)"
        " ORDER BY started_at DESC LIMIT 1",
        game.guild_id, game.updated_at.timestamp(),
    )  # fmt: skip
    season = _season(found) if found is not None else None
    if season is None or not season.running_at(game.updated_at):
        return RatingInputs((standings[0], standings[1]))
    scores: list[SeasonScore | None] = []
    results: list[list[RatingChange]] = []
    for user in players:
        found = await db.fetchrow(
            f"SELECT {_SCORE} FROM season_scores"
            " WHERE season_id = $1 AND game = $2 AND user_id = $3",
            season.id, game.game, user,
        )  # fmt: skip
        scores.append(_score(found) if found is not None else None)
        rows = await db.fetch(
            f"SELECT {_CHANGE} FROM rating_changes WHERE season_id = $1 AND game = $2"
            " AND user_id = $3 ORDER BY seq",
            season.id, game.game, user,
        )  # fmt: skip
        results.append([_change(row) for row in rows])
    return RatingInputs(
        (standings[0], standings[1]), season, (scores[0], scores[1]), (results[0], results[1])
    )


async def _insert_change(
    db: Connection, change: RatingChange, *, keep_seq: bool = False
) -> RatingChange:
    columns = _CHANGE if keep_seq else _CHANGE.removeprefix("seq, ")
    values = _change_values(change)
    if not keep_seq:
        values = values[1:]
    placeholders = ", ".join(f"${n}" for n in range(1, len(values) + 1))
    sql = f"INSERT INTO rating_changes ({columns}) VALUES ({placeholders}) RETURNING {_CHANGE}"
    return _change(await db.fetchrow(sql, *values))


async def _follow_sequence(db: Connection) -> None:
    """After rows written with their own `seq`: the next one drawn comes after them all.

    Never backwards (SQLite's AUTOINCREMENT never gives a number twice either).
    """
    await db.execute(
        "SELECT setval('rating_changes_seq_seq', greatest(max(seq), max(last_value)))"
        " FROM rating_changes, rating_changes_seq_seq HAVING max(seq) IS NOT NULL"
    )


async def _put_standing(db: Connection, standing: Standing) -> None:
    g = standing.glicko
    await db.execute(
        _PUT_STANDING,
        standing.guild_id, standing.game, standing.user_id, g.rating, g.rd, g.volatility,
        standing.games, standing.wins, standing.draws, standing.losses, standing.streak,
        standing.best_streak, standing.best_win, standing.best_win_game,
        _seconds(standing.last_at),
    )  # fmt: skip


async def _put_score(db: Connection, line: SeasonScore) -> None:
    await db.execute(
        _PUT_SCORE,
        line.season_id, line.game, line.user_id, line.points, line.games, line.wins,
        line.draws, line.losses, line.performance,
    )  # fmt: skip
