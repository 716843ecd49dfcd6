"""The PostgreSQL backend's answers about one person, as `store.sqlite_people` on SQLite.

Forgetting is one transaction: the user's id becomes one fresh negative number
in every row that holds it and their settings are deleted. It holds the user's
advisory lock, so that two forgettings of one user never draw two ids; the
check that they have nothing open is made inside the transaction, as on SQLite.
"""

from __future__ import annotations

import secrets

from matches.records import StoredGame
from store.postgres_tables import Connection, PgParts
from store.sqlite import COLUMNS, _game
from store.sqlite_people import ANONYMOUS_LIMIT

_TRIES = 8
_SELECT = ", ".join(COLUMNS)
# $1 is the user's id, $2 the anonymous one.
_GAMES_OF = (
    "SELECT id FROM games WHERE challenger_id = $1"
    " UNION SELECT id FROM games WHERE opponent_id = $1"
)
_POOLS_OF = (
    "SELECT DISTINCT guild_id, game, season_id FROM rating_changes"
    f" WHERE user_id = $1 AND game_id IN ({_GAMES_OF})"
)
_RATING = "UPDATE ratings SET user_id = $2 WHERE guild_id = $3 AND game = $4 AND user_id = $1"
_SEASON_LINE = (
    "UPDATE season_scores SET user_id = $2 WHERE season_id = $3 AND game = $4 AND user_id = $1"
)


def _swap(column: str) -> str:
    return f"{column} = CASE {column} WHEN $1 THEN $2 ELSE {column} END"


_FORGET = (
    f"""UPDATE rating_changes SET {_swap("user_id")}, {_swap("opponent_id")}
        WHERE game_id IN ({_GAMES_OF}) AND $1 IN (user_id, opponent_id)""",
    f"""UPDATE games SET {_swap("challenger_id")}, {_swap("opponent_id")}, {_swap("first_id")},
        {_swap("second_id")}, {_swap("draw_offer_by")}, version = version + 1
        WHERE id IN ({_GAMES_OF})""",
    "UPDATE tournament_players SET user_id = $2 WHERE user_id = $1",
    "UPDATE tournament_pairings SET first_id = $2 WHERE first_id = $1",
    "UPDATE tournament_pairings SET second_id = $2 WHERE second_id = $1",
)


class PgPeople(PgParts):
    """A person's games, and forgetting them, on PostgreSQL."""

    async def games_of_user(self, user_id: int) -> list[StoredGame]:
        sql = f"""
            SELECT {_SELECT} FROM games WHERE challenger_id = $1
            UNION ALL
            SELECT {_SELECT} FROM games WHERE opponent_id = $1 AND challenger_id <> $1
            ORDER BY created_at, id"""
        return [_game(row) for row in await self._read(sql, user_id)]

    async def forget_user(self, user_id: int) -> int | None:
        async def forget(db: Connection) -> int | None:
            async with db.transaction():
                await db.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
                                 f"user:{user_id}")  # fmt: skip
                busy = await db.fetchval(
                    f"SELECT 1 FROM games WHERE id IN ({_GAMES_OF})"
                    " AND status IN ('challenge', 'active') LIMIT 1",
                    user_id,
                )
                if busy is not None:
                    return None
                anonymous = await _fresh_anonymous(db)
                pools = await db.fetch(_POOLS_OF, user_id)
                for guild, game in sorted({(pool[0], pool[1]) for pool in pools}):
                    await db.execute(_RATING, user_id, anonymous, guild, game)
                for season, game in sorted({(pool[2], pool[1]) for pool in pools if pool[2]}):
                    await db.execute(_SEASON_LINE, user_id, anonymous, season, game)
                for sql in _FORGET:
                    await db.execute(sql, user_id, anonymous)
                await db.execute("DELETE FROM user_settings WHERE user_id = $1", user_id)
                await db.execute("DELETE FROM puzzle_answers WHERE user_id = $1", user_id)
            return anonymous

        return await self._write(forget)


async def _fresh_anonymous(db: Connection) -> int:
    """A random negative id no game holds yet: drawn, not derived, so nothing leads back."""
    for _ in range(_TRIES):
        anonymous = -(secrets.randbelow(ANONYMOUS_LIMIT - 1) + 1)
        taken = await db.fetchval(
            "SELECT 1 FROM games WHERE challenger_id = $1 UNION ALL"
            " SELECT 1 FROM games WHERE opponent_id = $1 LIMIT 1",
            anonymous,
        )
        if taken is None:
            return anonymous
    raise RuntimeError(f"no free anonymous id in {_TRIES} tries: is the random source broken?")
