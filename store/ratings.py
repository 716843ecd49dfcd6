"""Ratings, rating changes, seasons and season tables: the community's numbers.

A rated game's end (`finish_rated`) is one transaction. Two games of the same
pool (server and game) ending at once would both read a player's standing
before either wrote it, so the transaction holds the pool's lock from before
that read to its commit (on SQLite the file's one write lock is that lock;
PostgreSQL takes it per pool, so games of other pools go on side by side).
A rebuild (`replace_ratings`) holds the lock every rating takes shared,
exclusively, so no game is rated while ratings are replaced.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from matches.glicko2 import PROVISIONAL_RD
from matches.ratings import RatedGame, RatingChange, RatingInputs, Season, SeasonScore, Standing
from matches.records import StoredGame
from matches.shards import Shards
from matches.storage import Rater
from store.database import Duplicate, Params, Tables, Transaction
from store.games import update_in
from store.rows import R, Shape, in_shards

SEASONS = Shape(Season)
SCORES = Shape(SeasonScore)
# A rating is Glicko's three numbers, columns of their own.
STANDINGS = Shape(Standing)
CHANGES = Shape(
    RatingChange,
    renamed={
        "before": ("rating_before", "rd_before", "vol_before"),
        "after": ("rating_after", "rd_after", "vol_after"),
        "opponent": ("opponent_rating", "opponent_rd", "opponent_vol"),
    },
)

# What a rebuild reads and writes: every rating, rating change and season line.
_Rebuilt = tuple[list[Standing], list[RatingChange], list[SeasonScore]]
# Forgotten players carry negative ids and are listed nowhere.
_LISTED = "user_id > 0"
_RATINGS = "ratings"  # the lock every rating takes shared and a rebuild takes alone
STANDING, CHANGE = STANDINGS.select, CHANGES.select
SEASON, SCORE = SEASONS.select, SCORES.select

_PUT_STANDING = STANDINGS.upsert("ratings", ["guild_id", "game", "user_id"])
_PUT_SCORE = SCORES.upsert("season_scores", ["season_id", "game", "user_id"])
_NEW_CHANGE = CHANGES.insert("rating_changes", without=["seq"])
_OLD_CHANGE = CHANGES.insert("rating_changes")
_STANDING_OF = (
    f"SELECT {STANDING} FROM ratings WHERE guild_id = :guild AND game = :game AND user_id = :user"
)
_NEW_SEASON = SEASONS.insert("seasons", without=["ended_at", "announced", "id"])
# A server's seasons' lines, for a rebuild of one server.
_SCORES_OF = " WHERE season_id IN (SELECT id FROM seasons WHERE guild_id = :guild)"
# A player's season line, or rating changes, in one season's table of one game.
_OF = " WHERE season_id = :season AND game = :game AND user_id = :user"


class RatingTables(Tables):
    """Ratings, rating changes, seasons and season tables."""

    async def finish_rated(self, game: StoredGame, rate: Rater) -> RatedGame | None:
        if game.players is None:
            raise ValueError("a rated game has two players")

        async def finish(tx: Transaction) -> RatedGame | None:
            await tx.lock(_RATINGS, shared=True)
            saved = await update_in(tx, game)
            if saved is None:
                return None  # nothing was written: the transaction commits nothing
            await tx.lock(f"ratings:{saved.guild_id}:{saved.game}")
            rated = rate(saved, await _inputs(tx, saved))
            changes = [await _insert_change(tx, change) for change in rated.changes]
            await _put(tx, rated.standings, rated.season_scores or ())
            return RatedGame(rated.standings, (changes[0], changes[1]), rated.season_scores)

        return await self._write(finish)

    # -------------------------------------------------------------- ratings

    async def standing(self, guild_id: int, game: str, user_id: int) -> Standing | None:
        return await self._one(
            STANDINGS.read, _STANDING_OF, guild=guild_id, game=game, user=user_id
        )

    async def leaderboard(
        self,
        guild_id: int,
        game: str,
        *,
        provisional: bool | None = None,
        offset: int,
        limit: int,
    ) -> list[Standing]:
        kind = "" if provisional is None else f" AND rd {'>' if provisional else '<='} :rd"
        sql = (
            f"SELECT {STANDING} FROM ratings INDEXED BY ratings_ranked"
            f" WHERE guild_id = :guild AND game = :game AND {_LISTED}{kind}"
            " ORDER BY rating DESC, user_id LIMIT :limit OFFSET :offset"
        )
        params = {"guild": guild_id, "game": game, "rd": PROVISIONAL_RD}
        return await self._all(STANDINGS.read, sql, **params, limit=limit, offset=offset)

    async def leaderboard_sizes(self, guild_id: int, game: str) -> tuple[int, int]:
        sql = (
            "SELECT count(*) FILTER (WHERE rd <= :rd), count(*) FILTER (WHERE rd > :rd)"
            " FROM ratings INDEXED BY ratings_by_rd"
            f" WHERE guild_id = :guild AND game = :game AND {_LISTED}"
        )
        found = await self.db.read(sql, {"rd": PROVISIONAL_RD, "guild": guild_id, "game": game})
        return int(found[0][0]), int(found[0][1])

    async def rank(self, guild_id: int, game: str, user_id: int) -> int | None:
        mine = await self.standing(guild_id, game, user_id)
        if mine is None or user_id <= 0:
            return None
        sql = (
            "SELECT count(*) FROM ratings INDEXED BY ratings_ranked"
            " WHERE guild_id = :guild AND game = :game"
            f" AND {_LISTED} AND (rating > :rating OR (rating = :rating AND user_id < :user))"
        )
        params = {"guild": guild_id, "game": game, "rating": mine.rating, "user": user_id}
        return int((await self.db.read(sql, params))[0][0]) + 1

    async def rating_changes(
        self, guild_id: int, game: str, user_id: int, *, limit: int | None = None
    ) -> list[RatingChange]:
        sql = (
            f"SELECT {CHANGE} FROM rating_changes"
            " WHERE guild_id = :guild AND game = :game AND user_id = :user"
            " ORDER BY seq DESC LIMIT :limit"
        )
        params = {"guild": guild_id, "game": game, "user": user_id, "limit": limit}
        return (await self._all(CHANGES.read, sql, **params))[::-1]

    async def changes_of_game(self, game_id: int) -> list[RatingChange]:
        sql = f"SELECT {CHANGE} FROM rating_changes WHERE game_id = :game ORDER BY seq"
        return await self._all(CHANGES.read, sql, game=game_id)

    # --------------------------------------------------------------- seasons

    async def start_season(self, season: Season) -> Season | None:
        try:
            found = await self._execute(_NEW_SEASON, **SEASONS.values(season))
        except Duplicate as error:
            if error.index == "seasons_one_running":
                return None
            raise
        return SEASONS.read(found[0])

    async def end_season(self, season_id: int, at: datetime) -> Season | None:
        sql = (
            "UPDATE seasons SET ended_at = :at WHERE id = :id AND ended_at IS NULL"
            f" RETURNING {SEASON}"
        )
        found = await self._execute(sql, at=at.timestamp(), id=season_id)
        return SEASONS.read(found[0]) if found else None

    async def claim_announcement(self, season_id: int, now: datetime, until: datetime) -> bool:
        sql = (
            "UPDATE seasons SET announcing_until = :until WHERE id = :id AND announced = 0"
            " AND (announcing_until IS NULL OR announcing_until <= :now) RETURNING id"
        )
        return bool(
            await self._execute(sql, until=until.timestamp(), id=season_id, now=now.timestamp())
        )

    async def set_announced(self, season_id: int) -> None:
        await self._execute("UPDATE seasons SET announced = 1 WHERE id = :id", id=season_id)

    async def running_season(self, guild_id: int) -> Season | None:
        sql = f"SELECT {SEASON} FROM seasons WHERE guild_id = :guild AND ended_at IS NULL"
        return await self._one(SEASONS.read, sql, guild=guild_id)

    async def season(self, guild_id: int, season_id: int) -> Season | None:
        sql = f"SELECT {SEASON} FROM seasons WHERE guild_id = :guild AND id = :id"
        return await self._one(SEASONS.read, sql, guild=guild_id, id=season_id)

    async def seasons(self, guild_id: int | None = None) -> list[Season]:
        where = "" if guild_id is None else " WHERE guild_id = :guild"
        sql = f"SELECT {SEASON} FROM seasons{where} ORDER BY started_at DESC, id DESC"
        return await self._all(SEASONS.read, sql, guild=guild_id)

    async def seasons_due(self, now: datetime, shards: Shards | None = None) -> list[Season]:
        served = in_shards(shards)
        sql = f"""
            SELECT {SEASON} FROM seasons WHERE ended_at IS NULL AND ends_at <= :now{served}
            UNION
            SELECT {SEASON} FROM seasons
                WHERE ended_at IS NOT NULL AND announced = 0{served}
            ORDER BY id"""
        return await self._all(SEASONS.read, sql, now=now.timestamp())

    async def season_table(
        self, season_id: int, game: str, *, offset: int = 0, limit: int | None = None
    ) -> list[SeasonScore]:
        sql = (
            f"SELECT {SCORE} FROM season_scores"
            f" WHERE season_id = :season AND game = :game AND {_LISTED}"
            " ORDER BY points DESC, coalesce(performance, 0) DESC, user_id"
            " LIMIT :limit OFFSET :offset"
        )
        params = {"season": season_id, "game": game, "offset": offset, "limit": limit}
        return await self._all(SCORES.read, sql, **params)

    async def season_size(self, season_id: int, game: str) -> int:
        sql = (
            "SELECT count(*) FROM season_scores"
            f" WHERE season_id = :season AND game = :game AND {_LISTED}"
        )
        return int((await self.db.read(sql, {"season": season_id, "game": game}))[0][0])

    async def season_games(self, season_id: int) -> list[str]:
        sql = (
            'SELECT DISTINCT game COLLATE "C" AS game FROM season_scores'
            " WHERE season_id = :season ORDER BY 1"
        )
        return await self._all(lambda row: str(row[0]), sql, season=season_id)

    # -------------------------------------------------------------- rebuilds

    async def all_ratings(self, guild_id: int | None = None) -> _Rebuilt:
        where, scores_where = _where(guild_id)

        async def read(tx: Transaction) -> _Rebuilt:
            params = {"guild": guild_id}
            standings = (
                f"SELECT {STANDING} FROM ratings{where}"
                ' ORDER BY guild_id, game COLLATE "C", user_id'
            )
            changes = f"SELECT {CHANGE} FROM rating_changes{where} ORDER BY seq"
            scores = (
                f"SELECT {SCORE} FROM season_scores{scores_where}"
                ' ORDER BY season_id, game COLLATE "C", user_id'
            )
            return (
                [STANDINGS.read(row) for row in await tx.fetch(standings, params)],
                [CHANGES.read(row) for row in await tx.fetch(changes, params)],
                [SCORES.read(row) for row in await tx.fetch(scores, params)],
            )

        return await self.db.snapshot(read)

    async def replace_ratings(
        self,
        guild_id: int | None,
        standings: list[Standing],
        changes: list[RatingChange],
        scores: list[SeasonScore],
    ) -> None:

        async def replace(tx: Transaction) -> None:
            await tx.lock(_RATINGS)
            await replace_in(tx, guild_id, standings, changes, scores)

        await self._write(replace)


def _where(guild_id: int | None) -> tuple[str, str]:
    """The conditions of a rebuild: every server, or one (`:guild`)."""
    if guild_id is None:
        return "", ""
    return " WHERE guild_id = :guild", _SCORES_OF


# ------------------------------------------------------------ in a transaction


async def lock_all_ratings(tx: Transaction) -> None:
    """Hold the lock every rating takes shared, alone: no game is rated meanwhile."""
    await tx.lock(_RATINGS)


async def replace_in(
    tx: Transaction,
    guild_id: int | None,
    standings: list[Standing],
    changes: list[RatingChange],
    scores: list[SeasonScore],
) -> None:
    """`replace_ratings` inside a transaction of its caller's, which holds `lock_all_ratings`."""
    where, scores_where = _where(guild_id)
    params = {"guild": guild_id}
    await tx.fetch(f"DELETE FROM ratings{where}", params)
    await tx.fetch(f"DELETE FROM rating_changes{where}", params)
    await tx.fetch(f"DELETE FROM season_scores{scores_where}", params)
    for change in changes:
        await tx.fetch(_OLD_CHANGE, CHANGES.values(change))
    await tx.follow_ids("rating_changes", "seq")
    await _put(tx, standings, scores)


async def _put(
    tx: Transaction, standings: Iterable[Standing], scores: Iterable[SeasonScore]
) -> None:
    """Write standings and season lines over those of their keys."""
    for standing in standings:
        await tx.fetch(_PUT_STANDING, STANDINGS.values(standing))
    for line in scores:
        await tx.fetch(_PUT_SCORE, SCORES.values(line))


async def seasons_and_changes_in(
    tx: Transaction, guild_id: int
) -> tuple[list[Season], list[RatingChange]]:
    """A server's seasons (latest first) and rating changes (by seq), inside a transaction."""
    params = {"guild": guild_id}
    seasons = await tx.fetch(
        f"SELECT {SEASON} FROM seasons WHERE guild_id = :guild ORDER BY started_at DESC, id DESC",
        params,
    )
    changes = await tx.fetch(
        f"SELECT {CHANGE} FROM rating_changes WHERE guild_id = :guild ORDER BY seq", params
    )
    return [SEASONS.read(row) for row in seasons], [CHANGES.read(row) for row in changes]


async def _inputs(tx: Transaction, game: StoredGame) -> RatingInputs:
    """What rating `game` needs to read, inside its transaction."""
    players = game.players
    assert players is not None
    pool = {"guild": game.guild_id, "game": game.game}
    standings = [
        await _first(tx, STANDINGS, _STANDING_OF, {**pool, "user": user})
        or Standing(game.guild_id, game.game, user)
        for user in players
    ]
    # The season the game's end falls in, as `Season.running_at` and a rebuild decide it.
    season = await _first(
        tx,
        SEASONS,
        f"SELECT {SEASON} FROM seasons WHERE guild_id = :guild AND started_at <= :at"
        " AND (ended_at IS NULL OR ended_at >= :at) AND (ends_at IS NULL OR ends_at > :at)"
        " ORDER BY started_at DESC LIMIT 1",
        {"guild": game.guild_id, "at": game.updated_at.timestamp()},
    )
    if season is None or not season.running_at(game.updated_at):
        return RatingInputs((standings[0], standings[1]))
    scores, results = [], []
    for user in players:
        params = {"season": season.id, "game": game.game, "user": user}
        score = await _first(tx, SCORES, f"SELECT {SCORE} FROM season_scores{_OF}", params)
        scores.append(score)
        found = await tx.fetch(f"SELECT {CHANGE} FROM rating_changes{_OF} ORDER BY seq", params)
        results.append([CHANGES.read(row) for row in found])
    return RatingInputs(
        (standings[0], standings[1]), season, (scores[0], scores[1]), (results[0], results[1])
    )


async def _first(tx: Transaction, shape: Shape[R], sql: str, params: Params) -> R | None:
    found = await tx.fetch(sql, params)
    return shape.read(found[0]) if found else None


async def _insert_change(tx: Transaction, change: RatingChange) -> RatingChange:
    return CHANGES.read((await tx.fetch(_NEW_CHANGE, CHANGES.values(change)))[0])
