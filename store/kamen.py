"""Kamen's store: the tables' groups over one `Database`; `open` connects and migrates.

Where things go: a new query in the group of its tables (`store/games.py`,
`ratings.py`, ...), a new table in one new migration (`store/migrations/`) and,
if it is a group of its own, one new module here.
"""

from __future__ import annotations

from store.database import Database
from store.games import GameTables
from store.learning import LearningTables
from store.managers import ManagerTables
from store.people import PeopleTables
from store.ratings import RatingTables
from store.tournaments import TournamentTables


class KamenStore(
    GameTables, RatingTables, TournamentTables, PeopleTables, LearningTables, ManagerTables
):
    """`matches.storage.Store` on a database of either engine."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def __aenter__(self) -> KamenStore:
        await self.open()
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def open(self) -> None:
        await self.db.open()

    async def close(self) -> None:
        await self.db.close()

    async def schema_version(self) -> int:
        found = await self.db.read("SELECT coalesce(max(version), 0) FROM schema_migrations")
        return int(found[0][0])
