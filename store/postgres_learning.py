"""The PostgreSQL backend's tables for learning from games, as `store.sqlite_learning`."""

from __future__ import annotations

from datetime import datetime

from store.postgres_tables import PgParts


class PgLearning(PgParts):
    """Reviews and puzzle answers, on the store's pools."""

    async def review(self, game_id: int) -> str | None:
        rows = await self._read("SELECT review FROM game_reviews WHERE game_id = $1", game_id)
        return str(rows[0][0]) if rows else None

    async def save_review(self, game_id: int, review: str, at: datetime) -> None:
        sql = (
            "INSERT INTO game_reviews (game_id, made_at, review) VALUES ($1, $2, $3)"
            " ON CONFLICT (game_id) DO NOTHING"
        )
        await self._execute(sql, game_id, at.timestamp(), review)

    async def answer_puzzle(
        self, guild_id: int, user_id: int, puzzle: str, solved: bool, at: datetime
    ) -> bool:
        sql = (
            "INSERT INTO puzzle_answers (guild_id, user_id, puzzle, solved, at)"
            " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING 1"
        )
        return bool(
            await self._execute(sql, guild_id, user_id, puzzle, int(solved), at.timestamp())
        )

    async def puzzles_answered(self, guild_id: int, user_id: int) -> dict[str, bool]:
        sql = "SELECT puzzle, solved FROM puzzle_answers WHERE guild_id = $1 AND user_id = $2"
        rows = await self._read(sql, guild_id, user_id)
        return {str(row[0]): bool(row[1]) for row in rows}
