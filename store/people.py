"""One person's games, and forgetting them (`/kamen me export`, `/kamen me forget`).

A user's games are found through the two indexes of migration 0008 (every
player of a game is its challenger or its opponent); their ratings, rating
changes and season lines through those games, on the rating tables' own keys,
so nothing is scanned.

Forgetting (`_FORGET` lists what it writes) is one transaction holding the
user's lock, so that two forgettings of one user never draw two ids; the check
that they have nothing open is made inside it, so that no challenge slips in
between. Ratings stay consistent with the games, so `python -m store recompute`
still finds them exact, and negative ids are listed on no leaderboard or season table.
"""

from __future__ import annotations

from datetime import datetime

from matches.records import StoredGame
from store.database import Tables, Transaction
from store.games import GAME, GAMES, random_id

_TRIES = 8

# The ids of a user's games, through the indexes `games_by_challenger`, `games_by_opponent`.
_GAMES_OF = (
    "SELECT id FROM games WHERE challenger_id = :old"
    " UNION SELECT id FROM games WHERE opponent_id = :old"
)
# The pools (server and game) and seasons the user has a rated game in.
_POOLS_OF = (
    "SELECT DISTINCT guild_id, game, season_id FROM rating_changes"
    f" WHERE user_id = :old AND game_id IN ({_GAMES_OF})"
)
# Found through the user's rating changes, on the tables' primary keys.
_RATING = (
    "UPDATE ratings SET user_id = :new WHERE guild_id = :guild AND game = :game AND user_id = :old"
)
_SEASON_LINE = (
    "UPDATE season_scores SET user_id = :new"
    " WHERE season_id = :season AND game = :game AND user_id = :old"
)


def _swap(column: str) -> str:
    return f"{column} = CASE {column} WHEN :old THEN :new ELSE {column} END"


# After the ratings and season lines, which are found through the games.
_FORGET = (
    # The user's side and their opponents' side of each of their rated games.
    f"""UPDATE rating_changes SET {_swap("user_id")}, {_swap("opponent_id")}
        WHERE game_id IN ({_GAMES_OF}) AND :old IN (user_id, opponent_id)""",
    # Every id column of the game; the version grows, as for any change of a game.
    f"""UPDATE games SET {_swap("challenger_id")}, {_swap("opponent_id")}, {_swap("first_id")},
        {_swap("second_id")}, {_swap("draw_offer_by")}, {_swap("takeback_by")},
        version = version + 1
        WHERE id IN ({_GAMES_OF})""",
    "DELETE FROM user_settings WHERE user_id = :old",
    "DELETE FROM puzzle_answers WHERE user_id = :old",
    # Whom they block, and who blocks them (through `user_blocks_by_blocked`).
    "DELETE FROM user_blocks WHERE user_id = :old",
    "DELETE FROM user_blocks WHERE blocked_id = :old",
    # Their sign-ups and pairings in tournaments (through the players' indexes).
    "UPDATE tournament_players SET user_id = :new WHERE user_id = :old",
    "UPDATE tournament_pairings SET first_id = :new WHERE first_id = :old",
    "UPDATE tournament_pairings SET second_id = :new WHERE second_id = :old",
    # The tournaments they made (a server has few: read without an index). The version
    # grows, so that a write of the tournament read before cannot put the old id back.
    "UPDATE tournaments SET created_by = :new, version = version + 1 WHERE created_by = :old",
    # What managers did, by them or to them, and their suspensions (few rows: no index).
    "UPDATE audit_log SET actor_id = :new WHERE actor_id = :old",
    "UPDATE audit_log SET user_id = :new WHERE user_id = :old",
    "UPDATE suspensions SET user_id = :new WHERE user_id = :old",
    "UPDATE suspensions SET by_id = :new WHERE by_id = :old",
)


class PeopleTables(Tables):
    """A person's games, and forgetting them."""

    async def games_of_user(self, user_id: int) -> list[StoredGame]:
        # Two halves, one index each, merged in order of creation.
        sql = f"""
            SELECT {GAME} FROM games WHERE challenger_id = :user
            UNION ALL
            SELECT {GAME} FROM games WHERE opponent_id = :user AND challenger_id <> :user
            ORDER BY created_at, id"""
        return await self._all(GAMES.read, sql, user=user_id)

    async def forget_user(self, user_id: int) -> int | None:
        async def forget(tx: Transaction) -> int | None:
            await tx.lock(f"user:{user_id}")
            busy = await tx.fetch(
                f"SELECT 1 FROM games WHERE id IN ({_GAMES_OF})"
                " AND status IN ('challenge', 'active') LIMIT 1",
                {"old": user_id},
            )
            if busy:
                return None
            ids = {"old": user_id, "new": await _fresh_anonymous(tx)}
            pools = await tx.fetch(_POOLS_OF, ids)
            for guild, game in sorted({(pool[0], pool[1]) for pool in pools}):
                await tx.fetch(_RATING, {**ids, "guild": guild, "game": game})
            for season, game in sorted({(pool[2], pool[1]) for pool in pools if pool[2]}):
                await tx.fetch(_SEASON_LINE, {**ids, "season": season, "game": game})
            for sql in _FORGET:
                await tx.fetch(sql, ids)
            return ids["new"]

        return await self._write(forget)

    # ------------------------------------------------------------ blocks

    async def blocks_of(self, user_id: int) -> list[int]:
        sql = (
            "SELECT blocked_id FROM user_blocks WHERE user_id = :user"
            " ORDER BY created_at, blocked_id"
        )
        return [row[0] for row in await self.db.read(sql, {"user": user_id})]

    async def block(self, user_id: int, blocked_id: int, now: datetime, most: int) -> bool:
        async def block(tx: Transaction) -> bool:
            # The user's lock: two blocks at once never pass the limit together.
            await tx.lock(f"user:{user_id}")
            ids = {"user": user_id, "blocked": blocked_id}
            had = await tx.fetch(
                "SELECT 1 FROM user_blocks WHERE user_id = :user AND blocked_id = :blocked", ids
            )
            if had:
                return True
            [(count,)] = await tx.fetch(
                "SELECT COUNT(*) FROM user_blocks WHERE user_id = :user", {"user": user_id}
            )
            if count >= most:
                return False
            await tx.fetch(
                "INSERT INTO user_blocks (user_id, blocked_id, created_at)"
                " VALUES (:user, :blocked, :at)",
                {**ids, "at": now.timestamp()},
            )
            return True

        return await self._write(block)

    async def unblock(self, user_id: int, blocked_id: int) -> bool:
        found = await self._execute(
            "DELETE FROM user_blocks WHERE user_id = :user AND blocked_id = :blocked"
            " RETURNING blocked_id",
            user=user_id,
            blocked=blocked_id,
        )
        return bool(found)

    async def blocks(self, user_id: int, other_id: int) -> bool:
        sql = "SELECT 1 FROM user_blocks WHERE user_id = :user AND blocked_id = :other"
        return bool(await self.db.read(sql, {"user": user_id, "other": other_id}))


async def _fresh_anonymous(tx: Transaction) -> int:
    """A random negative id no game holds yet: drawn, not derived, so nothing leads back."""
    for _ in range(_TRIES):
        anonymous = -random_id()  # 53 bits, as game ids: JavaScript's numbers hold them
        taken = await tx.fetch(
            "SELECT 1 FROM games WHERE challenger_id = :id UNION ALL"
            " SELECT 1 FROM games WHERE opponent_id = :id LIMIT 1",
            {"id": anonymous},
        )
        if not taken:
            return anonymous
    raise RuntimeError(f"no free anonymous id in {_TRIES} tries: is the random source broken?")
