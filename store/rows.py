"""Rows and the service's records: the one place that turns one into the other.

A record (a frozen dataclass of `matches`) is a table's row through its
`Shape`: a column per field, of the field's name unless renamed, each value
converted by the field's type, the same way on both engines: a time is
seconds since the epoch (UTC, a float), a flag 0 or 1, an enum its text.
Each table's group declares its shapes (`store.games.GAMES`, ...); what no type
says (a game's moves, a rating's three numbers) is written there by hand.
"""

from __future__ import annotations

import enum
import types
from collections.abc import Callable, Iterable, Mapping
from dataclasses import fields
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar, Union, get_args, get_origin, get_type_hints

from matches.shards import SHARD_SHIFT, Shards
from store.database import Row

R = TypeVar("R")
Convert = Callable[[Any], Any]


def when(value: float) -> datetime:
    return datetime.fromtimestamp(value, UTC)


def seconds(at: datetime | None) -> float | None:
    return None if at is None else at.timestamp()


def iso(at: datetime) -> str:
    return at.astimezone(UTC).isoformat()


def from_iso(text: str) -> datetime:
    at = datetime.fromisoformat(text)
    # Written by hand without a zone: taken as UTC, as everything here is.
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _plain(value: Any) -> Any:
    return value


def _converters(kind: Any) -> tuple[Convert, Convert]:
    """How a value of the type `kind` is written, and read back."""
    optional = get_origin(kind) in (Union, types.UnionType) and type(None) in get_args(kind)
    if optional:
        (kind,) = [arg for arg in get_args(kind) if arg is not type(None)]
    write: Convert
    read: Convert
    if kind is datetime:
        write, read = datetime.timestamp, when
    elif kind is bool:
        write, read = int, bool
    elif kind is float:
        write, read = float, _plain
    elif isinstance(kind, type) and issubclass(kind, enum.Enum):
        write, read = (lambda member: member.value), kind
    else:
        write, read = _plain, _plain
    if not optional:
        return write, read
    return (lambda v: None if v is None else write(v)), (lambda v: None if v is None else read(v))


class Shape(Generic[R]):
    """How records of one class are rows of one table."""

    def __init__(
        self,
        record: type[R],
        *,
        renamed: Mapping[str, str] | None = None,
        special: Mapping[str, tuple[Convert, Convert]] | None = None,
    ) -> None:
        hints = get_type_hints(record)
        self.record = record
        self.fields = tuple(field.name for field in fields(record))  # type: ignore[arg-type]
        self.columns = tuple((renamed or {}).get(name, name) for name in self.fields)
        self.select = ", ".join(self.columns)
        special = special or {}
        converters = {name: special.get(name) or _converters(hints[name]) for name in self.fields}
        self._write = {name: converters[name][0] for name in self.fields}
        self._read = tuple(converters[name][1] for name in self.fields)

    def values(self, record: R) -> dict[str, Any]:
        """The record's row, by field name (the parameters' names in its statements)."""
        return {name: write(getattr(record, name)) for name, write in self._write.items()}

    def read(self, row: Row) -> R:
        """A row selected as `select` lists its columns (and more after them, unread)."""
        reads = zip(self.fields, self._read, strict=True)
        return self.record(**{name: read(row[i]) for i, (name, read) in enumerate(reads)})

    def insert(self, table: str, *, without: Iterable[str] = (), also: Iterable[str] = ()) -> str:
        """`INSERT` of every field but `without` (and the columns `also`), returning the row."""
        names = [name for name in self.fields if name not in without]
        columns = [*map(self.column, names), *also]
        values = [*names, *also]
        return (
            f"INSERT INTO {table} ({', '.join(columns)})"
            f" VALUES ({', '.join(':' + name for name in values)}) RETURNING {self.select}"
        )

    def assign(self, names: Iterable[str]) -> str:
        """`column = :field, …` of an `UPDATE`."""
        return ", ".join(f"{self.column(name)} = :{name}" for name in names)

    def upsert(self, table: str, key: Iterable[str], *, also: Iterable[str] = ()) -> str:
        """`INSERT` of every field (and the columns `also`), or `UPDATE` of the row with its key."""
        return upsert(table, [*self.columns, *also], key, returning=self.select)

    def column(self, name: str) -> str:
        return self.columns[self.fields.index(name)]


def upsert(table: str, columns: Iterable[str], key: Iterable[str], *, returning: str = "") -> str:
    """Insert a row, or update every column of the row that has its key; `:column` parameters."""
    columns, key = list(columns), list(key)
    sets = ", ".join(f"{name} = excluded.{name}" for name in columns if name not in key)
    return (
        f"INSERT INTO {table} ({', '.join(columns)})"
        f" VALUES ({', '.join(':' + name for name in columns)})"
        f" ON CONFLICT ({', '.join(key)}) DO UPDATE SET {sets}"
        + (f" RETURNING {returning}" if returning else "")
    )


def names(columns: str) -> list[str]:
    return [name.strip() for name in columns.split(",")]


def in_shards(shards: Shards | None, column: str = "guild_id") -> str:
    """` AND <the server in column is on one of shards>` (nothing when they are all):
    a server's shard as Discord's formula says, a direct message's shard 0."""
    if shards is None or shards.every:
        return ""
    ids = ", ".join(str(int(shard)) for shard in sorted(shards.ids))
    on = f"(coalesce({column}, 0) >> {SHARD_SHIFT}) % {int(shards.count)}"
    return f" AND {on} IN ({ids})"
