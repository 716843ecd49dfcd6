"""Learning from games: reviews kept, puzzles answered (migration 0016).

A review is stored once per game, as the JSON the bot made of it (the quick one,
then the deep one in its place); a player's
first answer to a puzzle on a server is kept, and only the first: it says
whether they solved it.
"""

from __future__ import annotations

from datetime import datetime

from store.database import Tables


class LearningTables(Tables):
    """Reviews and puzzle answers."""

    async def review(self, game_id: int) -> str | None:
        sql = "SELECT review FROM game_reviews WHERE game_id = :game"
        return await self._one(lambda row: str(row[0]), sql, game=game_id)

    async def save_review(
        self, game_id: int, review: str, at: datetime, *, replace: bool = False
    ) -> None:
        kept = (
            "DO UPDATE SET made_at = excluded.made_at, review = excluded.review"
            if replace
            else "DO NOTHING"
        )
        sql = (
            "INSERT INTO game_reviews (game_id, made_at, review) VALUES (:game, :at, :review)"
            f" ON CONFLICT (game_id) {kept}"
        )
        await self._execute(sql, game=game_id, at=at.timestamp(), review=review)

    async def answer_puzzle(
        self, guild_id: int, user_id: int, puzzle: str, solved: bool, at: datetime
    ) -> bool:
        sql = (
            "INSERT INTO puzzle_answers (guild_id, user_id, puzzle, solved, at)"
            " VALUES (:guild, :user, :puzzle, :solved, :at) ON CONFLICT DO NOTHING RETURNING 1"
        )
        params = {"guild": guild_id, "user": user_id, "puzzle": puzzle, "solved": int(solved)}
        return bool(await self._execute(sql, **params, at=at.timestamp()))

    async def puzzles_answered(self, guild_id: int, user_id: int) -> dict[str, bool]:
        sql = (
            "SELECT puzzle, solved FROM puzzle_answers WHERE guild_id = :guild AND user_id = :user"
        )
        found = await self.db.read(sql, {"guild": guild_id, "user": user_id})
        return {str(row[0]): bool(row[1]) for row in found}
