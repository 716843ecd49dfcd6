"""The SQLite backend's tables for learning from games: reviews kept, puzzles answered.

`LearningTables` is the part of `SqliteStore` behind `/<game> review` and
`/puzzle` (migration 0016). A review is stored once per game, as the JSON the
bot made of it; a player's first answer to a puzzle on a server is kept, and
only the first: it says whether they solved it.
"""

from __future__ import annotations

from datetime import datetime

from store.sqlite_tables import StoreParts


class LearningTables(StoreParts):
    """Reviews and puzzle answers, on the store's connections."""

    async def review(self, game_id: int) -> str | None:
        rows = await self._read("SELECT review FROM game_reviews WHERE game_id = ?", (game_id,))
        return str(rows[0][0]) if rows else None

    async def save_review(self, game_id: int, review: str, at: datetime) -> None:
        sql = (
            "INSERT INTO game_reviews (game_id, made_at, review) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id) DO NOTHING"
        )
        await self._execute(sql, (game_id, at.timestamp(), review))

    async def answer_puzzle(
        self, guild_id: int, user_id: int, puzzle: str, solved: bool, at: datetime
    ) -> bool:
        sql = (
            "INSERT INTO puzzle_answers (guild_id, user_id, puzzle, solved, at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING 1"
        )
        params = (guild_id, user_id, puzzle, int(solved), at.timestamp())
        return bool(await self._execute(sql, params))

    async def puzzles_answered(self, guild_id: int, user_id: int) -> dict[str, bool]:
        sql = "SELECT puzzle, solved FROM puzzle_answers WHERE guild_id = ? AND user_id = ?"
        rows = await self._read(sql, (guild_id, user_id))
        return {str(row[0]): bool(row[1]) for row in rows}
