"""What the halves of the SQLite store (`store/sqlite_*.py`) may ask of the store itself.

`SqliteStore` is one class made of mixins, one per group of tables (games in
`store/sqlite.py`, ratings and seasons in `sqlite_ratings`, people in
`sqlite_people`); each half reads on the read connections and writes on the one
write connection through the methods declared here and defined by `SqliteStore`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import aiosqlite

from matches.records import StoredGame

T = TypeVar("T")
Work = Callable[[aiosqlite.Connection], Awaitable[T]]


class StoreParts:
    """The store's own methods, as its mixins see them (defined in `SqliteStore`)."""

    async def _read(
        self, sql: str, params: dict[str, Any] | tuple[Any, ...] = ()
    ) -> list[Any]:  # pragma: no cover - overridden
        raise NotImplementedError

    async def _write(self, work: Work[T]) -> T:  # pragma: no cover - overridden
        raise NotImplementedError

    async def _execute(
        self, sql: str, params: dict[str, Any] | tuple[Any, ...] = ()
    ) -> list[Any]:  # pragma: no cover - overridden
        raise NotImplementedError

    async def _update_in(
        self, db: aiosqlite.Connection, game: StoredGame
    ) -> StoredGame | None:  # pragma: no cover - overridden
        raise NotImplementedError

    @staticmethod
    def _stored(row: sqlite3.Row) -> StoredGame:  # pragma: no cover - overridden
        raise NotImplementedError
