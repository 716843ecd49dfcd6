"""A move's time in the store: Kamen's store against SQLAlchemy Core, on both databases.

    python -m bench.store_move [--moves N] [--postgres URL] [--only sqlite|postgresql]

A move is one `update_game`: the game's row written back with one more move,
checked against the version it read (`WHERE id = … AND version = …`), the new
row returned. The same N moves (default 300) of one game are written, one
after the other, through

- Kamen's store (`store.open_store`), the code the bot runs;
- SQLAlchemy Core 2 on its async drivers (the same aiosqlite and asyncpg), the
  statement built from a `Table` (`update(...).where(...).returning(...)`), and
  the same statement as `text()`, each in its own `engine.begin()` transaction,
  as the store does;

on SQLite (synchronous=FULL, as the bot runs by default) and on PostgreSQL (a
database made for the run on `--postgres`, dropped after). Prints the median
and 90th percentile of a move, in microseconds, and this process's CPU time a
move (its threads included, the database server's not): the part of a move's
cost that is Kamen's own code and its driver, which a busy machine does not
inflate the way it does the wall time. SQLAlchemy is not a dependency
of Kamen: its rows are printed only where it is installed
(`pip install 'sqlalchemy[asyncio]'`).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import secrets
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg  # type: ignore[import-untyped]  # asyncpg ships no type hints

from matches.records import Status, StoredGame
from store import open_store

POSTGRES_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
MOVES = ("a1-b2", "g5-f4")
Timing = Callable[[StoredGame], Awaitable[None]]
Measured = tuple[list[float], float]  # each move's wall time, and the CPU time of them all


def a_game() -> StoredGame:
    now = datetime.now(UTC)
    return StoredGame(
        guild_id=1, channel_id=secrets.randbelow(2**40) + 1, game="oska", status=Status.ACTIVE,
        challenger_id=100, created_at=now, updated_at=now, opponent_id=200, first_id=100,
        second_id=200,
    )  # fmt: skip


def percentiles(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered) * 1e6, ordered[int(len(ordered) * 0.9)] * 1e6


async def kamen(url: str, moves: int) -> Measured:
    """Each move through the store the bot runs."""
    store = await open_store(url)
    try:
        game = await store.create_game(a_game())
        times = []
        cpu = time.process_time()
        for n in range(moves):
            moved = replace(game, moves=(*game.moves, MOVES[n % 2]), updated_at=datetime.now(UTC))
            start = time.perf_counter()
            saved = await store.update_game(moved)
            times.append(time.perf_counter() - start)
            assert saved is not None
            game = saved
        return times, time.process_time() - cpu
    finally:
        await store.close()


async def alchemy(url: str, moves: int, *, core: bool) -> Measured:
    """Each move through SQLAlchemy Core on the same database (its schema made by Kamen)."""
    import sqlalchemy as sa
    from sqlalchemy.ext.asyncio import create_async_engine

    store = await open_store(url)
    game = await store.create_game(a_game())
    await store.close()
    driver = url.replace("sqlite:///", "sqlite+aiosqlite:///").replace(
        "postgresql://", "postgresql+asyncpg://"
    )
    engine = create_async_engine(driver)
    metadata = sa.MetaData()
    games = sa.Table(
        "games", metadata, sa.Column("id", sa.BigInteger, primary_key=True),
        sa.Column("moves", sa.Text), sa.Column("ply", sa.BigInteger),
        sa.Column("updated_at", sa.Float), sa.Column("version", sa.BigInteger),
    )  # fmt: skip
    if core:
        statement: Any = (
            sa.update(games)
            .where(games.c.id == sa.bindparam("gid"), games.c.version == sa.bindparam("seen"))
            .values(
                moves=sa.bindparam("m"),
                ply=sa.bindparam("p"),
                updated_at=sa.bindparam("u"),
                version=games.c.version + 1,
            )
            .returning(games.c.id, games.c.version)
        )
    else:
        statement = sa.text(
            "UPDATE games SET moves = :m, ply = :p, updated_at = :u, version = version + 1"
            " WHERE id = :gid AND version = :seen RETURNING id, version"
        )
    try:
        if url.startswith("sqlite"):
            async with engine.begin() as connection:
                await connection.exec_driver_sql("PRAGMA synchronous = FULL")
        version, played = game.version, list(game.moves)
        times = []
        cpu = time.process_time()
        for n in range(moves):
            played.append(MOVES[n % 2])
            params = {"m": " ".join(played), "p": len(played), "gid": game.id, "seen": version,
                      "u": datetime.now(UTC).timestamp()}  # fmt: skip
            start = time.perf_counter()
            async with engine.begin() as connection:
                row = (await connection.execute(statement, params)).one()
            times.append(time.perf_counter() - start)
            version = row[1]
        return times, time.process_time() - cpu
    finally:
        await engine.dispose()


@asynccontextmanager
async def fresh_postgres(admin: str) -> AsyncIterator[str]:
    connection = await asyncpg.connect(admin, timeout=5)
    name = f"kamen_bench_{secrets.token_hex(6)}"
    await connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(urlsplit(admin)._replace(path=f"/{name}"))
    finally:
        await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await connection.close()


async def run(moves: int, admin: str, only: str | None) -> None:
    with_alchemy = importlib.util.find_spec("sqlalchemy") is not None
    print(
        f"{'database':<11} {'through':<22} {'moves':>5} {'median µs':>10} {'p90 µs':>8}"
        f" {'CPU µs':>7}"
    )
    for backend in ("sqlite", "postgresql"):
        if only and backend != only:
            continue
        ways: list[tuple[str, Callable[[str], Awaitable[Measured]]]] = [
            ("Kamen's store", lambda url: kamen(url, moves))
        ]
        if with_alchemy:
            ways.append(("SQLAlchemy Core", lambda url: alchemy(url, moves, core=True)))
            ways.append(("SQLAlchemy text()", lambda url: alchemy(url, moves, core=False)))
        for name, way in ways:
            if backend == "sqlite":
                with tempfile.TemporaryDirectory() as folder:
                    times, cpu = await way(f"sqlite:///{Path(folder) / 'kamen.db'}")
            else:
                async with fresh_postgres(admin) as url:
                    times, cpu = await way(url)
            median, p90 = percentiles(times)
            print(
                f"{backend:<11} {name:<22} {len(times):>5} {median:>10.0f} {p90:>8.0f}"
                f" {cpu / len(times) * 1e6:>7.0f}"
            )
    if not with_alchemy:
        print("(SQLAlchemy is not installed: pip install 'sqlalchemy[asyncio]' for its rows)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--postgres", default=POSTGRES_ADMIN, help="a server's admin URL")
    parser.add_argument("--only", choices=("sqlite", "postgresql"))
    args = parser.parse_args()
    asyncio.run(run(args.moves, args.postgres, args.only))


if __name__ == "__main__":
    main()
