"""The SQLite backend's ratings and seasons: the tables of migration 0007.

`RatingTables` is the half of `SqliteStore` that keeps the community's
numbers; it uses the store's read connections and its one write connection
(`_read`, `_write`), like the games half. A rated game's end is one
transaction: the game's version-checked update, then its players' standings,
rating changes and season lines, all committed together or not at all.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from typing import Any

import aiosqlite

from matches.glicko2 import PROVISIONAL_RD, Glicko
from matches.ratings import RatedGame, RatingChange, RatingInputs, Season, SeasonScore, Standing
from matches.records import StoredGame
from matches.storage import Rater
from store.sqlite_tables import StoreParts

_STANDING = (
    "guild_id, game, user_id, rating, rd, volatility, games, wins, draws, losses,"
    " streak, best_streak, best_win, best_win_game, last_at"
)
_CHANGE = (
    "seq, game_id, guild_id, game, user_id, opponent_id, score, at,"
    " rating_before, rd_before, vol_before, rating_after, rd_after, vol_after,"
    " opponent_rating, opponent_rd, opponent_vol, season_id"
)
_SCORE = "season_id, game, user_id, points, games, wins, draws, losses, performance"
_SEASON = "id, guild_id, name, started_at, ends_at, ended_at, channel_id, announced"
# Forgotten players carry negative ids and are listed nowhere.
_LISTED = "user_id > 0"


class RatingTables(StoreParts):
    """Ratings, rating changes, seasons and season tables on SQLite."""

    async def finish_rated(self, game: StoredGame, rate: Rater) -> RatedGame | None:
        players = game.players
        if players is None:
            raise ValueError("a rated game has two players")

        async def finish(db: aiosqlite.Connection) -> RatedGame | None:
            await db.execute("BEGIN IMMEDIATE")
            try:
                saved = await self._update_in(db, game)
                if saved is None:
                    await db.execute("ROLLBACK")
                    return None
                read = await _inputs(db, saved)
                rated = rate(saved, read)
                changes = tuple([await _insert_change(db, change) for change in rated.changes])
                for standing in rated.standings:
                    await _put_standing(db, standing)
                for line in rated.season_scores or ():
                    await _put_score(db, line)
                await db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    await db.execute("ROLLBACK")
                raise
            return RatedGame(rated.standings, (changes[0], changes[1]), rated.season_scores)

        return await self._write(finish)

    # -------------------------------------------------------------- ratings

    async def standing(self, guild_id: int, game: str, user_id: int) -> Standing | None:
        sql = f"SELECT {_STANDING} FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?"
        rows = await self._read(sql, (guild_id, game, user_id))
        return _standing(rows[0]) if rows else None

    async def leaderboard(
        self, guild_id: int, game: str, *, provisional: bool, offset: int, limit: int
    ) -> list[Standing]:
        sql = (
            f"SELECT {_STANDING} FROM ratings INDEXED BY ratings_ranked"
            f" WHERE guild_id = ? AND game = ? AND {_LISTED}"
            f" AND rd {'>' if provisional else '<='} ?"
            " ORDER BY rating DESC, user_id LIMIT ? OFFSET ?"
        )
        rows = await self._read(sql, (guild_id, game, PROVISIONAL_RD, limit, offset))
        return [_standing(row) for row in rows]

    async def leaderboard_sizes(self, guild_id: int, game: str) -> tuple[int, int]:
        sql = (
            "SELECT coalesce(sum(rd <= :rd), 0), coalesce(sum(rd > :rd), 0)"
            " FROM ratings INDEXED BY ratings_by_rd"
            f" WHERE guild_id = :guild AND game = :game AND {_LISTED}"
        )
        rows = await self._read(sql, {"rd": PROVISIONAL_RD, "guild": guild_id, "game": game})
        return int(rows[0][0]), int(rows[0][1])

    async def rank(self, guild_id: int, game: str, user_id: int) -> int | None:
        mine = await self.standing(guild_id, game, user_id)
        if mine is None or mine.provisional or user_id <= 0:
            return None
        sql = (
            "SELECT count(*) FROM ratings INDEXED BY ratings_ranked"
            " WHERE guild_id = ? AND game = ? AND rd <= ?"
            f" AND {_LISTED} AND (rating > ? OR (rating = ? AND user_id < ?))"
        )
        params = (guild_id, game, PROVISIONAL_RD, mine.rating, mine.rating, user_id)
        rows = await self._read(sql, params)
        return int(rows[0][0]) + 1

    async def rating_changes(
        self, guild_id: int, game: str, user_id: int, *, limit: int | None = None
    ) -> list[RatingChange]:
        sql = (
            f"SELECT {_CHANGE} FROM rating_changes WHERE guild_id = ? AND game = ? AND user_id = ?"
            " ORDER BY seq DESC LIMIT ?"
        )
        rows = await self._read(sql, (guild_id, game, user_id, -1 if limit is None else limit))
        return [_change(row) for row in reversed(rows)]

    async def changes_of_game(self, game_id: int) -> list[RatingChange]:
        sql = f"SELECT {_CHANGE} FROM rating_changes WHERE game_id = ? ORDER BY seq"
        return [_change(row) for row in await self._read(sql, (game_id,))]

    # --------------------------------------------------------------- seasons

    async def start_season(self, season: Season) -> Season | None:
        sql = (
            "INSERT INTO seasons (guild_id, name, started_at, ends_at, channel_id)"
            f" VALUES (?, ?, ?, ?, ?) RETURNING {_SEASON}"
        )
        params = (
            season.guild_id, season.name, season.started_at.timestamp(),
            _seconds(season.ends_at), season.channel_id,
        )  # fmt: skip

        async def insert(db: aiosqlite.Connection) -> Season | None:
            try:
                rows = await db.execute_fetchall(sql, params)
            except sqlite3.IntegrityError as error:
                if "seasons.guild_id" in str(error):
                    return None
                raise
            return _season(next(iter(rows)))

        return await self._write(insert)

    async def end_season(self, season_id: int, at: datetime) -> Season | None:
        sql = (
            f"UPDATE seasons SET ended_at = ? WHERE id = ? AND ended_at IS NULL RETURNING {_SEASON}"
        )
        rows = await self._execute_rows(sql, (at.timestamp(), season_id))
        return _season(rows[0]) if rows else None

    async def claim_announcement(self, season_id: int, now: datetime, until: datetime) -> bool:
        sql = (
            "UPDATE seasons SET announcing_until = ? WHERE id = ? AND announced = 0"
            " AND (announcing_until IS NULL OR announcing_until <= ?) RETURNING id"
        )
        params = (until.timestamp(), season_id, now.timestamp())
        return bool(await self._execute_rows(sql, params))

    async def set_announced(self, season_id: int) -> None:
        await self._execute_rows("UPDATE seasons SET announced = 1 WHERE id = ?", (season_id,))

    async def running_season(self, guild_id: int) -> Season | None:
        sql = f"SELECT {_SEASON} FROM seasons WHERE guild_id = ? AND ended_at IS NULL"
        rows = await self._read(sql, (guild_id,))
        return _season(rows[0]) if rows else None

    async def season(self, guild_id: int, season_id: int) -> Season | None:
        sql = f"SELECT {_SEASON} FROM seasons WHERE guild_id = ? AND id = ?"
        rows = await self._read(sql, (guild_id, season_id))
        return _season(rows[0]) if rows else None

    async def seasons(self, guild_id: int | None = None) -> list[Season]:
        where = "" if guild_id is None else " WHERE guild_id = ?"
        sql = f"SELECT {_SEASON} FROM seasons{where} ORDER BY started_at DESC, id DESC"
        params = () if guild_id is None else (guild_id,)
        return [_season(row) for row in await self._read(sql, params)]

    async def seasons_due(self, now: datetime) -> list[Season]:
        sql = f"""
            SELECT {_SEASON} FROM seasons WHERE ended_at IS NULL AND ends_at <= :now
            UNION
            SELECT {_SEASON} FROM seasons WHERE ended_at IS NOT NULL AND announced = 0
            ORDER BY id"""
        return [_season(row) for row in await self._read(sql, {"now": now.timestamp()})]

    async def season_table(
        self, season_id: int, game: str, *, offset: int = 0, limit: int | None = None
    ) -> list[SeasonScore]:
        sql = (
            f"SELECT {_SCORE} FROM season_scores WHERE season_id = ? AND game = ? AND {_LISTED}"
            " ORDER BY points DESC, coalesce(performance, 0) DESC, user_id LIMIT ? OFFSET ?"
        )
        params = (season_id, game, -1 if limit is None else limit, offset)
        return [_score(row) for row in await self._read(sql, params)]

    async def season_size(self, season_id: int, game: str) -> int:
        sql = f"SELECT count(*) FROM season_scores WHERE season_id = ? AND game = ? AND {_LISTED}"
        return int((await self._read(sql, (season_id, game)))[0][0])

    async def season_games(self, season_id: int) -> list[str]:
        sql = "SELECT DISTINCT game FROM season_scores WHERE season_id = ? ORDER BY game"
        return [row[0] for row in await self._read(sql, (season_id,))]

    # -------------------------------------------------------------- rebuilds

    async def all_ratings(
        self, guild_id: int | None = None
    ) -> tuple[list[Standing], list[RatingChange], list[SeasonScore]]:
        where, params = ("", ()) if guild_id is None else (" WHERE guild_id = ?", (guild_id,))
        standings = await self._read(
            f"SELECT {_STANDING} FROM ratings{where} ORDER BY guild_id, game, user_id", params
        )
        changes = await self._read(
            f"SELECT {_CHANGE} FROM rating_changes{where} ORDER BY seq", params
        )
        scores_where = (
            "" if guild_id is None
            else " WHERE season_id IN (SELECT id FROM seasons WHERE guild_id = ?)"
        )  # fmt: skip
        scores = await self._read(
            f"SELECT {_SCORE} FROM season_scores{scores_where} ORDER BY season_id, game, user_id",
            params,
        )
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
        where, params = ("", ()) if guild_id is None else (" WHERE guild_id = ?", (guild_id,))
        scores_where = (
            "" if guild_id is None
            else " WHERE season_id IN (SELECT id FROM seasons WHERE guild_id = ?)"
        )  # fmt: skip

        async def replace(db: aiosqlite.Connection) -> None:
            await db.execute("BEGIN IMMEDIATE")
            try:
                await db.execute(f"DELETE FROM ratings{where}", params)
                await db.execute(f"DELETE FROM rating_changes{where}", params)
                await db.execute(f"DELETE FROM season_scores{scores_where}", params)
                for change in changes:
                    await _insert_change(db, change, keep_seq=True)
                for standing in standings:
                    await _put_standing(db, standing)
                for line in scores:
                    await _put_score(db, line)
                await db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    await db.execute("ROLLBACK")
                raise

        await self._write(replace)

    async def _execute_rows(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        async def statement(db: aiosqlite.Connection) -> list[Any]:
            return list(await db.execute_fetchall(sql, params))

        return await self._write(statement)


# ------------------------------------------------------------ in a transaction


async def _inputs(db: aiosqlite.Connection, game: StoredGame) -> RatingInputs:
    """What rating `game` needs to read, on the write connection inside its transaction."""
    players = game.players
    assert players is not None
    standings = []
    for user in players:
        rows = await db.execute_fetchall(
            f"SELECT {_STANDING} FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?",
            (game.guild_id, game.game, user),
        )
        found = next(iter(rows), None)
        standings.append(
            _standing(found) if found is not None else Standing(game.guild_id, game.game, user)
        )
    # The season the game's end falls in, as `Season.running_at` and a rebuild decide it.
    rows = await db.execute_fetchall(
        f"SELECT {_SEASON} FROM seasons WHERE guild_id = :guild AND started_at <= :at"
        " AND (ended_at IS NULL OR ended_at >= :at) AND (ends_at IS NULL OR ends_at > :at)"
        " ORDER BY started_at DESC LIMIT 1",
        {"guild": game.guild_id, "at": game.updated_at.timestamp()},
    )
    found = next(iter(rows), None)
    season = _season(found) if found is not None else None
    if season is None or not season.running_at(game.updated_at):
        return RatingInputs((standings[0], standings[1]))
    scores: list[SeasonScore | None] = []
    results: list[list[RatingChange]] = []
    for user in players:
        rows = await db.execute_fetchall(
            f"SELECT {_SCORE} FROM season_scores WHERE season_id = ? AND game = ? AND user_id = ?",
            (season.id, game.game, user),
        )
        found = next(iter(rows), None)
        scores.append(_score(found) if found is not None else None)
        rows = await db.execute_fetchall(
            f"SELECT {_CHANGE} FROM rating_changes WHERE season_id = ? AND game = ?"
            " AND user_id = ? ORDER BY seq",
            (season.id, game.game, user),
        )
        results.append([_change(row) for row in rows])
    return RatingInputs(
        (standings[0], standings[1]), season, (scores[0], scores[1]), (results[0], results[1])
    )


async def _insert_change(
    db: aiosqlite.Connection, change: RatingChange, *, keep_seq: bool = False
) -> RatingChange:
    columns = _CHANGE if keep_seq else _CHANGE.removeprefix("seq, ")
    values = _change_values(change)
    if not keep_seq:
        values = values[1:]
    sql = (
        f"INSERT INTO rating_changes ({columns}) VALUES ({', '.join('?' * len(values))})"
        f" RETURNING {_CHANGE}"
    )
    rows = await db.execute_fetchall(sql, values)
    return _change(next(iter(rows)))


async def _put_standing(db: aiosqlite.Connection, standing: Standing) -> None:
    g = standing.glicko
    values = (
        standing.guild_id, standing.game, standing.user_id, g.rating, g.rd, g.volatility,
        standing.games, standing.wins, standing.draws, standing.losses, standing.streak,
        standing.best_streak, standing.best_win, standing.best_win_game,
        _seconds(standing.last_at),
    )  # fmt: skip
    await db.execute(
        f"INSERT OR REPLACE INTO ratings ({_STANDING}) VALUES ({', '.join('?' * len(values))})",
        values,
    )


async def _put_score(db: aiosqlite.Connection, line: SeasonScore) -> None:
    values = (
        line.season_id, line.game, line.user_id, line.points, line.games, line.wins,
        line.draws, line.losses, line.performance,
    )  # fmt: skip
    await db.execute(
        f"INSERT OR REPLACE INTO season_scores ({_SCORE}) VALUES ({', '.join('?' * len(values))})",
        values,
    )


# ------------------------------------------------------------------ conversion


def _seconds(moment: datetime | None) -> float | None:
    return None if moment is None else moment.timestamp()


def _moment(seconds: float | None) -> datetime | None:
    return None if seconds is None else datetime.fromtimestamp(seconds, UTC)


def _standing(row: Any) -> Standing:
    return Standing(
        row[0], row[1], row[2], Glicko(row[3], row[4], row[5]), row[6], row[7], row[8], row[9],
        row[10], row[11], row[12], row[13], _moment(row[14]),
    )  # fmt: skip


def _change_values(change: RatingChange) -> tuple[Any, ...]:
    b, a, o = change.before, change.after, change.opponent
    return (
        change.seq, change.game_id, change.guild_id, change.game, change.user_id,
        change.opponent_id, change.score, change.at.timestamp(),
        b.rating, b.rd, b.volatility, a.rating, a.rd, a.volatility,
        o.rating, o.rd, o.volatility, change.season_id,
    )  # fmt: skip


def _change(row: Any) -> RatingChange:
    return RatingChange(
        row[1], row[2], row[3], row[4], row[5], row[6], datetime.fromtimestamp(row[7], UTC),
        Glicko(row[8], row[9], row[10]), Glicko(row[11], row[12], row[13]),
        Glicko(row[14], row[15], row[16]), row[17], row[0],
    )  # fmt: skip


def _score(row: Any) -> SeasonScore:
    return SeasonScore(*row)


def _season(row: Any) -> Season:
    return Season(
        row[1], row[2], datetime.fromtimestamp(row[3], UTC), _moment(row[4]), _moment(row[5]),
        row[6], bool(row[7]), row[0],
    )  # fmt: skip
