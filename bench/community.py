"""How long `/leaderboard` and `/profile` take in a big server: `python -m bench.community`.

Builds (once per run, in a temporary directory) a SQLite database of one
server with `--players` players and `--games` rated Oska games between them,
rated by the real code (`matches.recompute.rate_all`) and written as a
rebuild writes them; then times what the commands do apart from Discord's
round trip: the service's reads and the text, and the image (`image:True`,
the profile's chart). Prints p50 and p99 in milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from matches.community import Community
from matches.recompute import rate_all
from matches.records import Status, StoredGame
from render.charts import ChartImage, RatingPoint, RatingSeries, chart_png
from render.tables import Column, TableImage, table_png
from store import open_store
from store.games import GAMES, game_values

GUILD = 1
START = datetime(2026, 1, 1, tzinfo=UTC)


def games(players: int, count: int, seed: int) -> list[StoredGame]:
    """`count` finished rated games between `players` players, a few minutes apart."""
    chooser = random.Random(seed)
    found = []
    for number in range(count):
        one, two = chooser.sample(range(1, players + 1), 2)
        moment = START + timedelta(minutes=3 * number)
        found.append(
            StoredGame(
                GUILD, 1000 + number, "oska", Status.FINISHED, one, moment, moment,
                opponent_id=two, first_id=one, second_id=two, moves=("e1-f2", "e5-d4"),
                result=chooser.choice(("1-0", "0-1", "1-0", "0-1", "1/2-1/2")),
                message_id=5000 + number, id=number + 1,
            )
        )  # fmt: skip
    return found


async def build(path: Path, players: int, count: int) -> None:
    store = await open_store(f"sqlite:///{path}")
    await store.close()
    rows = games(players, count, 7)
    columns = (*GAMES.columns, "ply")
    sql = f"INSERT INTO games ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
    with sqlite3.connect(path) as db:
        db.executemany(sql, [tuple(game_values(row)[c] for c in columns) for row in rows])
    rated = rate_all(rows, [], [])
    store = await open_store(f"sqlite:///{path}")
    try:
        await store.replace_ratings(GUILD, rated.standings, rated.changes, rated.scores)
    finally:
        await store.close()


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


async def measure(path: Path, players: int, runs: int) -> None:
    store = await open_store(f"sqlite:///{path}")
    community = Community(store)
    chooser = random.Random(3)
    try:
        sizes = await store.leaderboard_sizes(GUILD, "oska")
        pages = -(-(sizes[0] + sizes[1]) // 10)
        timings: dict[str, list[float]] = {name: [] for name in ("leaderboard", "profile")}
        for _ in range(runs):
            began = time.perf_counter()
            board = await community.leaderboard(GUILD, "oska", chooser.randrange(pages))
            rows = tuple(
                (str(line.rank or "-"), f"player {line.standing.user_id}",
                 str(round(line.standing.rating)), str(round(line.standing.rd)),
                 str(line.standing.games),
                 f"{line.standing.wins}-{line.standing.draws}-{line.standing.losses}")
                for line in board.lines
            )  # fmt: skip
            header = ("#", "Player", "Rating", "RD", "Games", "W-D-L")
            table_png(TableImage("Oska leaderboard", tuple(Column(h) for h in header), rows))
            timings["leaderboard"].append(time.perf_counter() - began)

            began = time.perf_counter()
            profile = await community.profile(GUILD, chooser.randrange(1, players + 1))
            series = tuple(
                RatingSeries(
                    game.game,
                    tuple(RatingPoint(c.after.rating, c.after.rd) for c in game.history),
                )
                for game in profile.games
            )
            chart_png(ChartImage("rating history", series, "games", "none"))
            timings["profile"].append(time.perf_counter() - began)
        print(f"{sizes[0]} established and {sizes[1]} provisional players, {pages} pages")
        for name, samples in timings.items():
            p50, p99 = percentiles(samples)
            print(f"{name:12s} p50 {p50 * 1000:6.1f} ms   p99 {p99 * 1000:6.1f} ms   ({runs} runs)")
    finally:
        await store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.community", description=__doc__)
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "kamen.db"
        began = time.perf_counter()
        asyncio.run(build(path, args.players, args.games))
        print(f"built {args.games} rated games, {args.players} players in "
              f"{time.perf_counter() - began:.1f} s")  # fmt: skip
        asyncio.run(measure(path, args.players, args.runs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
