"""What the halves of the PostgreSQL store (`store/postgres_*.py`) may ask of the store itself.

`PostgresStore` is one class made of mixins, one per group of tables, as
`SqliteStore` is; each half reads and writes through the methods declared here
and defined by `PostgresStore` (`_read`, `_write`) on its connection pool.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import asyncpg  # type: ignore[import-untyped]  # asyncpg ships no type hints

from matches.records import StoredGame

T = TypeVar("T")
Connection = Any  # asyncpg.Connection, or a pool's proxy of one: asyncpg ships no stubs
Work = Callable[[Connection], Awaitable[T]]


class PgParts:
    """The store's own methods, as its mixins see them (defined in `PostgresStore`)."""

    async def _read(self, sql: str, *args: Any) -> list[Any]:  # pragma: no cover - overridden
        raise NotImplementedError

    async def _write(self, work: Work[T]) -> T:  # pragma: no cover - overridden
        raise NotImplementedError

    async def _snapshot(self, work: Work[T]) -> T:  # pragma: no cover - overridden
        raise NotImplementedError

    async def _update_in(
        self, db: Connection, game: StoredGame
    ) -> StoredGame | None:  # pragma: no cover - overridden
        raise NotImplementedError

    async def _execute(self, sql: str, *args: Any) -> list[Any]:
        """One writing statement (its own transaction) and the rows it returns."""

        async def statement(db: Connection) -> list[Any]:
            return list(await db.fetch(sql, *args))

        return await self._write(statement)


def unique_violation(error: BaseException, constraint: str) -> bool:
    """Whether `error` is the violation of the named unique index or constraint."""
    return (
        isinstance(error, asyncpg.UniqueViolationError)
        and getattr(error, "constraint_name", None) == constraint
    )
