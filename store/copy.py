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
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass
from graphlib import TopologicalSorter
from typing import Any

import asyncpg  # type: ignore[import-untyped]  # asyncpg ships no type hints

from matches.storage import StoreError
from store.postgres import PostgresStore, follow_ids, shown
from store.sqlite import SqliteStore
from store.url import store_for

# Each engine's own bookkeeping, not copied.
_OWN = {"schema_migrations", "sqlite_sequence"}
_CHUNK = 5_000


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

    `replace` empties the target's tables first (in the same transaction). Each table
    goes over in batches of `_CHUNK` rows in primary-key order, each written before
    the next is read, and both checksums are taken as the rows stream past: the
    memory used does not grow with the database.
    """
    source, target = _sqlite_store(source_url), _postgres_store(target_url)
    # Opening each store brings its schema up to date (and refuses one newer than the code).
    for store in (source, target):
        await store.open()
        await store.close()
    db = await asyncpg.connect(target.dsn)
    try:
        tables = await schema(db)
        types = {table: await _column_types(db, table) for table in tables}
        copied: dict[str, int] = {}
        sums: dict[str, Checksum] = {}
        with closing(_open_sqlite(source.path, types)) as read:
            async with db.transaction():
                if replace:
                    await db.execute(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY")
                for table, (key, identities) in tables.items():
                    sums[table] = Checksum(types[table])
                    batches = _sqlite_batches(read, table, types[table], key, sums[table])
                    copied[table] = await _copy_table(db, table, types[table], batches)
                    for column in identities:
                        await follow_ids(db, table, column)
            read.execute("COMMIT")
        checks = []
        for table, (key, _) in tables.items():
            found = await _postgres_checksum(db, table, types[table], key)
            source_sum = sums[table]
            counts = (copied[table], source_sum.rows, found.rows)
            checks.append(TableCheck(table, *counts, source_sum.hexdigest(), found.hexdigest()))
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


class Checksum:
    """SHA-256 of a table's rows, fed in primary-key order, and how many there were;
    each value taken in its PostgreSQL column's type (`types`) first, None as None."""

    def __init__(self, types: dict[str, str]) -> None:
        self._converters = [_converter(kind) for kind in types.values()]
        self._digest = hashlib.sha256()
        self.rows = 0

    def add(self, rows: Iterable[Sequence[Any]]) -> list[tuple[Any, ...]]:
        """Sum `rows`; they are returned in the columns' types."""
        normal = [
            tuple(
                None if value is None else convert(value)
                for convert, value in zip(self._converters, row, strict=True)
            )
            for row in rows
        ]
        for row in normal:
            self._digest.update(f"{row!r}\n".encode())
        self.rows += len(normal)
        return normal

    def hexdigest(self) -> str:
        return self._digest.hexdigest()


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


def _sqlite_store(url: str) -> SqliteStore:
    store = store_for(url)
    if not isinstance(store, SqliteStore):
        raise StoreError(f"copy from a SQLite database (sqlite:///path), not `{shown(url)}`")
    if not store.path.exists():
        raise StoreError(f"{store.path}: no such SQLite database")
    return store


def _postgres_store(url: str) -> PostgresStore:
    store = store_for(url)
    if not isinstance(store, PostgresStore):
        raise StoreError(f"copy into a PostgreSQL database (postgresql://…), not `{url}`")
    return store


async def _column_types(db: Any, table: str) -> dict[str, str]:
    rows = await db.fetch(
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
        table,
    )
    return {row[0]: row[1] for row in rows}


def _converter(kind: str) -> Callable[[Any], Any]:
    if kind == "double precision":
        return float
    if kind in ("bigint", "integer", "smallint"):
        return int
    return str


def _open_sqlite(path: Any, types: dict[str, dict[str, str]]) -> sqlite3.Connection:
    """The SQLite file, read-only, in one read transaction (one moment) that the caller ends;
    its tables and columns checked against PostgreSQL's."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        db.execute("BEGIN")
        found = {
            row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        } - _OWN
        unknown = found - set(types)
        if unknown:
            names = ", ".join(sorted(unknown))
            raise StoreError(f"the SQLite database has tables this copy does not know: {names}")
        for table in types:
            have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            if have != set(types[table]):
                raise StoreError(
                    f"table {table} has columns {sorted(have)} on SQLite"
                    f" but {sorted(types[table])} on PostgreSQL"
                )
    except BaseException:
        db.close()
        raise
    return db


def _sqlite_batches(
    db: sqlite3.Connection,
    table: str,
    types: dict[str, str],
    key: Sequence[str],
    checksum: Checksum,
) -> Iterator[list[tuple[Any, ...]]]:
    """The table's rows in primary-key order, `_CHUNK` at a time, each batch added to
    `checksum` as it is read. SQLite orders text by its bytes (UTF-8), as Python does."""
    columns = ", ".join(types)
    cursor = db.execute(f"SELECT {columns} FROM {table} ORDER BY {', '.join(key)}")
    while batch := cursor.fetchmany(_CHUNK):
        yield checksum.add(batch)


async def _postgres_checksum(
    db: Any, table: str, types: dict[str, str], key: Sequence[str]
) -> Checksum:
    """The table's checksum on PostgreSQL, read through a server-side cursor in primary-key
    order (text by its bytes, "C", as SQLite and Python order it)."""
    order = ", ".join(
        f'{column} COLLATE "C"' if types[column] == "text" else column for column in key
    )
    found = Checksum(types)
    async with db.transaction():
        query = f"SELECT {', '.join(types)} FROM {table} ORDER BY {order}"
        async for record in db.cursor(query, prefetch=_CHUNK):
            found.add([record])
    return found


async def _copy_table(
    db: Any, table: str, types: dict[str, str], batches: Iterable[list[tuple[Any, ...]]]
) -> int:
    """Insert the rows the target lacks (by any unique key), a batch at a time; how many
    were inserted."""
    columns = list(types)
    names = ", ".join(columns)
    await db.execute(f"CREATE TEMP TABLE incoming (LIKE {table}) ON COMMIT DROP")
    inserted = 0
    for batch in batches:
        await db.copy_records_to_table("incoming", records=batch, columns=columns)
        status = await db.execute(
            f"INSERT INTO {table} ({names}) SELECT {names} FROM incoming ON CONFLICT DO NOTHING"
        )
        await db.execute("TRUNCATE incoming")
        inserted += int(status.rsplit(" ", 1)[1])
    await db.execute("DROP TABLE incoming")
    return inserted
