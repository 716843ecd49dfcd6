"""Moving up: copy a whole Kamen database from SQLite to PostgreSQL, then check the copy.

`python -m store copy sqlite:///data/kamen.db postgresql://kamen@db/kamen` brings
both databases to the latest schema, copies every table in one PostgreSQL
transaction (rows the target already holds, by primary key, are left as they
are), moves each id sequence past the ids copied, and then checks: the rows
and a checksum of each table, computed the same way from both databases, must
match. Running it again copies nothing new and checks again. Stop Kamen first:
rows written to SQLite while it copies are not in the copy (the check then
says so, and a second run takes them, unless they changed rows already copied).

The checksum is SHA-256 over the table's rows sorted by primary key, each value
written as the PostgreSQL column's type holds it (so SQLite's 1 in a REAL column
and PostgreSQL's 1.0 are one value): a row missing, added or different in any
column changes it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from graphlib import TopologicalSorter
from typing import Any, TypeVar

import asyncpg  # type: ignore[import-untyped]  # asyncpg ships no type hints

from matches.storage import StoreError
from store.database import Transaction
from store.kamen import KamenStore
from store.postgres import PostgresStore, follow_ids, shown
from store.sqlite import SqliteStore
from store.url import store_for

# Each engine's own bookkeeping, not copied.
_OWN = {"schema_migrations", "sqlite_sequence"}
# The Python type of a PostgreSQL column's values (any other: text).
_PYTHON: dict[str, Callable[[Any], Any]] = {
    "double precision": float,
    "bigint": int,
    "integer": int,
    "smallint": int,
}
S = TypeVar("S", bound=KamenStore)


@dataclass(frozen=True, slots=True)
class TableCheck:
    """One table's rows and checksum on each side."""

    table: str
    copied: int
    source_rows: int
    target_rows: int
    source_sum: str
    target_sum: str

    @property
    def matches(self) -> bool:
        return self.source_rows == self.target_rows and self.source_sum == self.target_sum


async def copy(source_url: str, target_url: str, *, replace: bool = False) -> list[TableCheck]:
    """Copy every table of `source_url` (SQLite) into `target_url` (PostgreSQL), then check.

    `replace` empties the target's tables first (in the same transaction).
    """
    source = _store(SqliteStore, source_url, "from a SQLite database (sqlite:///path)")
    if not source.path.exists():
        raise StoreError(f"{source.path}: no such SQLite database")
    target = _store(PostgresStore, target_url, "into a PostgreSQL database (postgresql://…)")
    # Opening each store brings its schema up to date (and refuses one newer than the code).
    async with source:
        await target.open()
        await target.close()
        db = await asyncpg.connect(target.dsn)
        try:
            tables = await schema(db)
            types = {table: await _column_types(db, table) for table in tables}
            rows = await source.db.snapshot(lambda tx: _read_sqlite(tx, types))
            copied: dict[str, int] = {}
            async with db.transaction():
                if replace:
                    await db.execute(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY")
                for table, (_, identities) in tables.items():
                    copied[table] = await _copy_table(db, table, types[table], rows[table])
                    for column in identities:
                        await follow_ids(db, table, column)
            checks = []
            for table, (key, _) in tables.items():
                columns = list(types[table])
                found = await db.fetch(f"SELECT {', '.join(columns)} FROM {table}")
                target_rows = _normal(found, types[table])
                source_sum = checksum(rows[table], columns, key)
                target_sum = checksum(target_rows, columns, key)
                counts = (copied[table], len(rows[table]), len(target_rows))
                checks.append(TableCheck(table, *counts, source_sum, target_sum))
            return checks
        finally:
            await db.close()


async def schema(db: Any) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """Kamen's tables as PostgreSQL has them, parents before children: each one's primary key
    and the columns it numbers itself. Read from the database, so a new table needs no word here.
    """
    names = await db.fetch(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1"
    )
    parents = await db.fetch(
        "SELECT conrelid::regclass::text, confrelid::regclass::text FROM pg_constraint"
        " WHERE contype = 'f' AND connamespace = current_schema()::regnamespace"
    )
    order = TopologicalSorter({row[0]: () for row in names if row[0] not in _OWN})
    for child, parent in parents:
        order.add(child, parent)
    found = {}
    for table in order.static_order():
        key = await db.fetch(
            "SELECT a.attname FROM pg_index i, unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)"
            " JOIN pg_attribute a ON a.attrelid = $1::regclass AND a.attnum = k.attnum"
            " WHERE i.indrelid = $1::regclass AND i.indisprimary ORDER BY k.n",
            table,
        )
        identities = await db.fetch(
            "SELECT column_name FROM information_schema.columns WHERE table_schema ="
            " current_schema() AND table_name = $1 AND is_identity = 'YES'",
            table,
        )
        found[table] = (tuple(row[0] for row in key), tuple(row[0] for row in identities))
    return found


def checksum(rows: Sequence[tuple[Any, ...]], columns: Sequence[str], key: Sequence[str]) -> str:
    """SHA-256 of rows (already in the PostgreSQL columns' types), sorted by primary key."""
    where = [columns.index(name) for name in key]
    digest = hashlib.sha256()
    for row in sorted(rows, key=lambda row: tuple(row[i] for i in where)):
        digest.update(repr(row).encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()


def report(checks: Iterable[TableCheck]) -> list[str]:
    """The check as a table to print, one line per table."""
    lines = [
        f"{'table':<20} {'copied':>7} {'sqlite':>8} {'postgres':>8}"
        f"  {'sqlite checksum':<16}  {'postgres checksum':<17}  check"
    ]
    for check in checks:
        verdict = "ok" if check.matches else "DIFFERENT"
        lines.append(
            f"{check.table:<20} {check.copied:>7} {check.source_rows:>8} {check.target_rows:>8}"
            f"  {check.source_sum[:16]:<16}  {check.target_sum[:16]:<17}  {verdict}"
        )
    return lines


# ----------------------------------------------------------------------- parts


def _store(kind: type[S], url: str, wanted: str) -> S:
    store = store_for(url)
    if not isinstance(store, kind):
        raise StoreError(f"copy {wanted}, not `{shown(url)}`")
    return store


async def _column_types(db: Any, table: str) -> dict[str, str]:
    rows = await db.fetch(
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
        table,
    )
    return {row[0]: row[1] for row in rows}


def _normal(rows: Iterable[Sequence[Any]], types: dict[str, str]) -> list[tuple[Any, ...]]:
    """Rows with each value in its PostgreSQL column's type (None stays None)."""
    converters = [_PYTHON.get(kind, str) for kind in types.values()]
    return [
        tuple(
            None if value is None else convert(value)
            for convert, value in zip(converters, row, strict=True)
        )
        for row in rows
    ]


async def _read_sqlite(
    tx: Transaction, types: dict[str, dict[str, str]]
) -> dict[str, list[tuple[Any, ...]]]:
    """Every table of the SQLite database (read in one snapshot), in PostgreSQL's types."""
    found = await tx.fetch("SELECT name FROM sqlite_master WHERE type = 'table'")
    unknown = {row[0] for row in found} - _OWN - set(types)
    if unknown:
        names = ", ".join(sorted(unknown))
        raise StoreError(f"the SQLite database has tables this copy does not know: {names}")
    rows = {}
    for table, columns in types.items():
        have = {row[1] for row in await tx.fetch(f"PRAGMA table_info({table})")}
        if have != set(columns):
            raise StoreError(
                f"table {table} has columns {sorted(have)} on SQLite"
                f" but {sorted(columns)} on PostgreSQL"
            )
        rows[table] = _normal(await tx.fetch(f"SELECT {', '.join(columns)} FROM {table}"), columns)
    return rows


async def _copy_table(
    db: Any, table: str, types: dict[str, str], rows: list[tuple[Any, ...]]
) -> int:
    """Insert the rows the target lacks (by any unique key); how many were inserted."""
    columns = list(types)
    names = ", ".join(columns)
    await db.execute(f"CREATE TEMP TABLE incoming (LIKE {table}) ON COMMIT DROP")
    await db.copy_records_to_table("incoming", records=rows, columns=columns)  # streamed
    status = await db.execute(
        f"INSERT INTO {table} ({names}) SELECT {names} FROM incoming ON CONFLICT DO NOTHING"
    )
    await db.execute("DROP TABLE incoming")
    return int(status.rsplit(" ", 1)[1])
