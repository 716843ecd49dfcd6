"""How long `/games` takes in a busy server: `python -m bench.listing`.

Builds (once per run, in a temporary directory) a SQLite database of `--stored`
games, `--active` of them being played in one server (real random games of the
three, 10 to 80 moves in), the rest finished there and in other servers; then
times what the command does apart from Discord's round trip, on the event loop,
with a service as it runs (its positions' cache warm from the runs before):

- before: every game being played read whole and its position replayed
  (`MatchService.active_games`, what `/games` called until issue 32 item 5),
  then the first 40 lines written;
- after: a page of 40 summaries and the count (`MatchService.active_page`),
  then the same lines (`bot.replies.games_list`).

Prints p50 and p99 in milliseconds, and the load average the machine had.
`--url postgresql://...` copies the database there (`store.copy`, the tables
emptied first: a database of its own) and times it on PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot import replies
from games.registry import GAMES as SPECS
from matches import FirstLegalMove, ManualClock, MatchService
from matches.records import GamesPage, GameSummary, Status, StoredGame
from store import open_store
from store.copy import copy
from store.games import GAMES, game_values

GUILD = 1
START = datetime(2026, 1, 1, tzinfo=UTC)


def random_moves(game: str, plies: int, chooser: random.Random) -> tuple[str, ...]:
    """A random game's first `plies` moves (fewer if it ends before)."""
    state = SPECS[game].new()
    for _ in range(plies):
        if state.outcome() is not None:
            break
        state = state.play(chooser.choice(state.legal_moves()))
    return state.moves


def games(stored: int, active: int, seed: int) -> list[StoredGame]:
    """`active` games being played in server GUILD, and finished ones up to `stored`."""
    chooser = random.Random(seed)
    # A few hundred distinct move lists, shared out: building 2,000 random games is slow.
    kinds = [(name, random_moves(name, chooser.randint(10, 80), chooser))
             for name in ("oska", "lasca", "oware") for _ in range(100)]  # fmt: skip
    found = []
    for number in range(stored):
        moment = START + timedelta(seconds=30 * number)
        playing = number >= stored - active
        name, moves = chooser.choice(kinds) if playing else ("oska", ("e1-f2", "e5-d4"))
        found.append(
            StoredGame(
                GUILD if playing or number % 4 == 0 else 2 + number % 50, 1000 + number, name,
                Status.ACTIVE if playing else Status.FINISHED, 100 + number % 997, moment,
                moment, opponent_id=5000 + number % 991, first_id=100 + number % 997,
                second_id=5000 + number % 991, moves=moves,
                result=None if playing else "1-0", message_id=9000 + number, id=number + 1,
            )
        )  # fmt: skip
    return found


async def build(path: Path, stored: int, active: int) -> None:
    store = await open_store(f"sqlite:///{path}")
    await store.close()
    columns = (*GAMES.columns, "ply")
    sql = f"INSERT INTO games ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
    with sqlite3.connect(path) as db:
        db.executemany(
            sql, [tuple(game_values(row)[c] for c in columns) for row in games(stored, active, 7)]
        )


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


async def measure(url: str, runs: int) -> None:
    store = await open_store(url)
    service = MatchService(store, bot_user_id=1, picker=FirstLegalMove(), clock=ManualClock())
    shown = replies.GAMES_LISTED
    timings: dict[str, list[float]] = {"before": [], "after": []}
    texts: dict[str, str] = {}
    try:
        for _ in range(runs):
            began = time.perf_counter()
            views = await service.active_games(GUILD)
            # The old listing wrote its lines from the views: the same text as a page of them.
            page = GamesPage(
                tuple(GameSummary(v.id, v.guild_id, v.channel_id, v.game, v.created_at,
                                  v.message_id, v.row.first_id, v.row.second_id, v.ply)
                      for v in views[:shown]),
                len(views),
            )  # fmt: skip
            texts["before"] = replies.games_list(page, GUILD, "en")
            timings["before"].append(time.perf_counter() - began)

            began = time.perf_counter()
            page = await service.active_page(GUILD, limit=shown)
            texts["after"] = replies.games_list(page, GUILD, "en")
            timings["after"].append(time.perf_counter() - began)
        assert texts["before"] == texts["after"], "the two listings differ"
        load = ", ".join(f"{each:.2f}" for each in os.getloadavg())
        print(f"{page.total} games being played in the server; load average {load}")
        for name, samples in timings.items():
            p50, p99 = percentiles(samples)
            print(f"{name:8s} p50 {p50 * 1000:7.1f} ms   p99 {p99 * 1000:7.1f} ms   ({runs} runs)")
    finally:
        await store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.listing", description=__doc__)
    parser.add_argument("--stored", type=int, default=100_000)
    parser.add_argument("--active", type=int, default=2_000)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--url", help="a PostgreSQL database of its own to time it on")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "kamen.db"
        began = time.perf_counter()
        asyncio.run(build(path, args.stored, args.active))
        print(f"built {args.stored} games, {args.active} being played in one server, in "
              f"{time.perf_counter() - began:.1f} s")  # fmt: skip
        url = f"sqlite:///{path}"
        if args.url:
            asyncio.run(copy(url, args.url, replace=True))
            url = args.url
        asyncio.run(measure(url, args.runs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
