"""A move's trips to the database, as the bot makes them: statements, commits and time.

    python -m bench.move_commits [--moves N] [--rate R] [--postgres URL] [--only ENGINE]

Each move is what the bot's handler of a board's menu asks of the service, in its
order: the move itself (`move`, with the board's move number), the game read again
before its board is edited in place (`view`), the board recorded as shown
(`board_shown`), the player to move's choice of pings (`pings_on`), the game read
again before the ping (`view`), the ping recorded (`ping_sent`). Two people play
`--games` Oska games (default 8), moves taken in turn from each, `--rate` moves a
second (0: one after the other, as fast as the store goes), with the runner's
write-behind pass running as the bot runs it (where the service has one).

Counted through the store's `Database` (the same in every version of Kamen since the
store's split): the statements sent (a read, each statement of a transaction and its
BEGIN and COMMIT), the statements of the move itself (its read and write), the
commits (a write transaction or a lone writing statement) and of them those synced to
the disk (all but `execute(durable=False)`: fsyncs under SQLite's FULL); on
PostgreSQL also the server's own count of committed transactions in the database
(`pg_stat_database.xact_commit`: the reads, and asyncpg's reset query when a pool
runs one on every release). Printed per move, with the median and 90th percentile of
a move's time through the service (the `move` call) and of the whole sequence, and
this process's CPU time a move (the database server's not; with `--rate`, the pauses
between moves cost none).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]  # asyncpg ships no type hints

from bench.store_move import POSTGRES_ADMIN, fresh_postgres
from matches import GameView, MatchService, Status
from store import open_store
from store.kamen import KamenStore

GUILD = 1
PLAYERS = (100, 200)
FLUSH_EVERY = 1.0  # as the runner's write-behind pass, where there is none to import


@dataclass
class Counts:
    statements: int = 0
    commits: int = 0
    transactions: int = 0  # write transactions (BEGIN … COMMIT)
    light: int = 0  # commits that do not wait for the disk (`Database.execute(durable=False)`)

    def minus(self, other: Counts) -> Counts:
        return Counts(
            self.statements - other.statements,
            self.commits - other.commits,
            self.transactions - other.transactions,
            self.light - other.light,
        )

    def copy(self) -> Counts:
        return self.minus(Counts())


@dataclass
class Result:
    moves: int = 0
    sequence: list[float] = field(default_factory=list)
    move: list[float] = field(default_factory=list)
    counts: Counts = field(default_factory=Counts)
    in_move: Counts = field(default_factory=Counts)
    xact_commit: int | None = None
    cpu: float = 0.0  # this process's CPU time for all the moves (its threads too)


def counting(db: Any, counts: Counts, postgres: bool) -> None:
    """Wrap the store's database so that it counts what it sends."""
    begin_end = 2  # BEGIN (IMMEDIATE) and COMMIT, on either engine
    read, snapshot = db.read, db.snapshot
    transaction, statement = db._transaction, db._statement

    class Counted:
        def __init__(self, tx: Any) -> None:
            self.tx = tx

        async def fetch(self, sql: str, params: Any = None) -> Any:
            counts.statements += 1
            return await self.tx.fetch(sql, params)

        async def lock(self, name: str, *, shared: bool = False) -> None:
            if postgres:
                counts.statements += 1
            await self.tx.lock(name, shared=shared)

        async def follow_ids(self, table: str, column: str) -> None:
            counts.statements += 2
            await self.tx.follow_ids(table, column)

    async def counted_read(sql: str, params: Any = None) -> Any:
        counts.statements += 1
        return await read(sql, params)

    async def counted_snapshot(work: Any) -> Any:
        counts.statements += begin_end
        return await snapshot(lambda tx: work(Counted(tx)))

    async def counted_transaction(work: Any) -> Any:
        counts.statements += begin_end
        counts.commits += 1
        counts.transactions += 1
        return await transaction(lambda tx: work(Counted(tx)))

    async def counted_statement(sql: str, params: Any = None, durable: bool = True) -> Any:
        counts.statements += 1
        counts.commits += 1
        if not durable:
            counts.light += 1
            return await statement(sql, params, durable)
        return await statement(sql, params)  # as every version of the store takes it

    db.read, db.snapshot = counted_read, counted_snapshot
    db._transaction, db._statement = counted_transaction, counted_statement


async def xact_commit(url: str) -> int:
    """The server's count of transactions committed in the database of `url`, less this
    query's own."""
    connection = await asyncpg.connect(url)
    try:
        await asyncio.sleep(0.5)  # the backends of a closed pool report their counts as they end
        found = await connection.fetchval(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
        )
        return int(found) - 1
    finally:
        await connection.close()


async def flusher(service: MatchService) -> None:
    """What the runner does between its passes: the bookkeeping written behind, in one go."""
    flush = getattr(service, "write_behind", None)
    if flush is None:
        return
    while True:
        await asyncio.sleep(FLUSH_EVERY)
        await flush()


async def started(service: MatchService, channel: int) -> GameView:
    offered = await service.challenge(
        guild_id=GUILD, channel_id=channel, challenger_id=PLAYERS[0], game="oska",
        opponent_id=PLAYERS[1], first="challenger",
    )  # fmt: skip
    return await service.accept(offered.id, PLAYERS[1])


async def play(url: str, moves: int, games: int, rate: float, postgres: bool) -> Result:
    """The moves, counted; on PostgreSQL the server's count is read with the store closed
    (a backend reports its counts when it ends), less an open and close of the store."""
    store = await open_store(url)
    service = MatchService(store, rng=random.Random(1))
    views = [await started(service, 1000 + channel) for channel in range(games)]
    await store.close()
    if postgres:
        before = await xact_commit(url)
        await (await open_store(url)).close()
        opening = await xact_commit(url) - before
    before = await xact_commit(url) if postgres else 0
    store = await open_store(url)
    service = MatchService(store, rng=random.Random(1))
    counts = Counts()
    result = Result()
    try:
        chooser = random.Random(7)
        assert isinstance(store, KamenStore)
        counting(store.db, counts, postgres)
        channel = 2000
        flushing = asyncio.create_task(flusher(service))
        start = time.perf_counter()
        cpu = time.process_time()
        message = 10**15
        for n in range(moves):
            if rate > 0:
                await asyncio.sleep(max(0.0, start + n / rate - time.perf_counter()))
            index = n % len(views)
            view = views[index]
            if view.status is not Status.ACTIVE:  # a new game in its place, not counted
                channel += 1
                seen = counts.copy()
                view = await started(service, channel)
                counts.statements, counts.commits = seen.statements, seen.commits
                counts.transactions, counts.light = seen.transactions, seen.light
            user = view.to_move_id
            assert user is not None
            move = chooser.choice(view.state.legal_moves())
            began = time.perf_counter()
            seen = counts.copy()
            moved = await service.move(
                user, move, game_id=view.id, expected_ply=view.ply, guild_id=GUILD
            )
            result.move.append(time.perf_counter() - began)
            moving = counts.minus(seen)
            result.in_move.statements += moving.statements
            result.in_move.commits += moving.commits
            result.in_move.transactions += moving.transactions
            view = moved.view
            now = await service.view(game_id=view.id)  # the board's edit: the game as it is
            await service.board_shown(view.id, view.message_id or 10**14 + n, now.ply, now.status)
            if view.status is Status.ACTIVE and view.to_move_id is not None:
                await service.pings_on(view.to_move_id)
                await service.view(game_id=view.id)  # the ping: the game as it is
                message += 1
                await service.ping_sent(view.id, message)
            result.sequence.append(time.perf_counter() - began)
            result.moves += 1
            views[index] = view
        flushing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await flushing
        flush = getattr(service, "write_behind", None)
        if flush is not None:
            await flush()  # what the runner writes when it stops
        result.cpu = time.process_time() - cpu
        result.counts = counts
    finally:
        await store.close()
    if postgres:
        result.xact_commit = await xact_commit(url) - before - opening
    return result


@contextlib.asynccontextmanager
async def database(engine: str, admin: str) -> AsyncIterator[str]:
    if engine == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{Path(folder) / 'kamen.db'}"
    else:
        async with fresh_postgres(admin) as url:
            yield url


def ms(times: list[float], share: float) -> float:
    ordered = sorted(times)
    if share == 0.5:
        return statistics.median(ordered) * 1e3
    return ordered[int(len(ordered) * share)] * 1e3


async def run(moves: int, games: int, rate: float, admin: str, only: str | None) -> None:
    print(
        f"{'database':<11} {'moves':>5} {'rate/s':>6} {'stmts':>6} {'commits':>7}"
        f" {'synced':>6} {'in move':>7} {'server xacts':>12} {'move p50':>8} {'p90':>6}"
        f" {'all p50':>7} {'p90':>6} {'CPU µs':>6}  (per move; times in ms)"
    )
    for engine in ("sqlite", "postgresql"):
        if only and engine != only:
            continue
        async with database(engine, admin) as url:
            done = await play(url, moves, games, rate, engine == "postgresql")
        n = done.moves
        server = "-" if done.xact_commit is None else f"{done.xact_commit / n:.2f}"
        print(
            f"{engine:<11} {n:>5} {rate:>6g} {done.counts.statements / n:>6.2f}"
            f" {done.counts.commits / n:>7.2f}"
            f" {(done.counts.commits - done.counts.light) / n:>6.2f}"
            f" {done.in_move.statements / n:>7.2f}"
            f" {server:>12} {ms(done.move, 0.5):>8.2f} {ms(done.move, 0.9):>6.2f}"
            f" {ms(done.sequence, 0.5):>7.2f} {ms(done.sequence, 0.9):>6.2f}"
            f" {done.cpu / n * 1e6:>6.0f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--rate", type=float, default=0.0, help="moves a second (0: at once)")
    parser.add_argument("--postgres", default=POSTGRES_ADMIN, help="a server's admin URL")
    parser.add_argument("--only", choices=("sqlite", "postgresql"))
    args = parser.parse_args()
    asyncio.run(run(args.moves, args.games, args.rate, args.postgres, args.only))


if __name__ == "__main__":
    main()
