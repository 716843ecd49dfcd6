"""Rows and the service's records: the one place that turns one into the other.

A record (a frozen dataclass of `matches`) is a table's row through its
`Shape`: a column per field, of the field's name unless renamed, each value
converted by the field's type, the same way on both engines: a time is
seconds since the epoch (UTC, a float), a flag 0 or 1, an enum its text.
Each table's group declares its shapes (`store.games.GAMES`, ...); what no
type says (a game's moves) is written there by hand.
"""

from __future__ import annotations

import enum
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import fields, is_dataclass
from datetime import UTC, datetime
from itertools import islice
from operator import attrgetter
from typing import Any, Generic, TypeVar, Union, get_args, get_origin, get_type_hints

from matches.shards import SHARD_SHIFT, Shards
from store.database import Row

R = TypeVar("R")
Convert = Callable[[Any], Any]


def when(value: float) -> datetime:
    return datetime.fromtimestamp(value, UTC)


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
    if not optional or (write is _plain and read is _plain):  # None is plain too
        return write, read
    return (lambda v: None if v is None else write(v)), (lambda v: None if v is None else read(v))


def _called(convert: Convert) -> Convert | None:
    """A converter worth calling: None for a value taken as it is."""
    return None if convert is _plain else convert


class Shape(Generic[R]):
    """How records of one class are rows of one table.

    A field that is itself a record (a rating's `Glicko`) takes a column for
    each of its fields: theirs by name, or the names `renamed` gives in order.
    A statement's parameters are named as the columns.
    """

    def __init__(
        self,
        record: type[R],
        *,
        renamed: Mapping[str, str | tuple[str, ...]] | None = None,
        special: Mapping[str, tuple[Convert, Convert]] | None = None,
    ) -> None:
        hints = get_type_hints(record)
        renamed, special = renamed or {}, special or {}
        self.record = record
        self.columns: tuple[str, ...] = ()
        # Each field: the shape of the record it holds, or its one column and converters.
        self._parts: dict[str, Shape[Any] | tuple[str, Convert, Convert]] = {}
        for field in fields(record):  # type: ignore[arg-type]
            kind, name = hints[field.name], field.name
            if isinstance(kind, type) and is_dataclass(kind):
                inner = [each.name for each in fields(kind)]
                part = Shape(kind, renamed=dict(zip(inner, renamed.get(name, inner), strict=True)))
                self.columns += part.columns
                self._parts[name] = part
            else:
                column = str(renamed.get(name, name))
                self.columns += (column,)
                self._parts[name] = (column, *(special.get(name) or _converters(kind)))
        self.select = ", ".join(self.columns)
        # A record of plain fields (most are) is read and written by position in one
        # go, its fields' order being its columns': a row is converted on every read
        # and write of the hot path (a move reads a game and writes it back).
        self._flat = not any(isinstance(part, Shape) for part in self._parts.values())
        simple = [part for part in self._parts.values() if not isinstance(part, Shape)]
        self._get = attrgetter(*self._parts) if len(self._parts) > 1 else None
        self._writes = tuple(_called(write) for _, write, _ in simple)
        self._reads = tuple(_called(read) for _, _, read in simple)

    def values(self, record: R) -> dict[str, Any]:
        """The record's row, by column."""
        if self._flat and self._get is not None:
            return {
                column: value if write is None else write(value)
                for column, write, value in zip(
                    self.columns, self._writes, self._get(record), strict=True
                )
            }
        row: dict[str, Any] = {}
        for name, part in self._parts.items():
            if isinstance(part, Shape):
                row.update(part.values(getattr(record, name)))
            else:
                column, write, _ = part
                row[column] = write(getattr(record, name))
        return row

    def read(self, row: Row, start: int = 0) -> R:
        """A row selected as `select` lists its columns (from `start`; more after them, unread)."""
        if self._flat:
            return self.record(
                *[
                    value if read is None else read(value)
                    for read, value in zip(self._reads, islice(row, start, None), strict=False)
                ]
            )
        found: dict[str, Any] = {}
        for name, part in self._parts.items():
            if isinstance(part, Shape):
                found[name] = part.read(row, start)
                start += len(part.columns)
            else:
                _, _, convert = part
                found[name] = convert(row[start])
                start += 1
        return self.record(**found)

    def insert(self, table: str, *, without: Iterable[str] = (), also: Iterable[str] = ()) -> str:
        """`INSERT` of every column but `without` (and the columns `also`), returning the row."""
        columns = [*(name for name in self.columns if name not in without), *also]
        return f"{_insert(table, columns)} RETURNING {self.select}"

    def update(self, table: str, *, without: Iterable[str] = (), also: Iterable[str] = ()) -> str:
        """`UPDATE` of every column but `without` (and the columns `also`) of the row `:id`,
        only if it is still at the `:version` read; the version grows, the row is returned.
        """
        unchanged = {"id", "version", *without}
        columns = [name for name in [*self.columns, *also] if name not in unchanged]
        return (
            f"UPDATE {table} SET {', '.join(f'{name} = :{name}' for name in columns)},"
            f" version = version + 1 WHERE id = :id AND version = :version RETURNING {self.select}"
        )

    def upsert(self, table: str, key: Sequence[str], *, also: Iterable[str] = ()) -> str:
        """`INSERT` of every column (and the columns `also`), or `UPDATE` of the row of its key."""
        columns = [*self.columns, *also]
        sets = ", ".join(f"{name} = excluded.{name}" for name in columns if name not in key)
        return (
            f"{_insert(table, columns)} ON CONFLICT ({', '.join(key)})"
            f" DO UPDATE SET {sets} RETURNING {self.select}"
        )


def _insert(table: str, columns: list[str]) -> str:
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES (:{', :'.join(columns)})"


def in_shards(shards: Shards | None, column: str = "guild_id") -> str:
    """` AND <the server in column is on one of shards>` (nothing when they are all):
    a server's shard as Discord's formula says, a direct message's shard 0."""
    if shards is None or shards.every:
        return ""
    ids = ", ".join(str(int(shard)) for shard in sorted(shards.ids))
    on = f"(coalesce({column}, 0) >> {SHARD_SHIFT}) % {int(shards.count)}"
    return f" AND {on} IN ({ids})"
