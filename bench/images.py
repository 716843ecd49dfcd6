"""Leaderboard tables and rating charts: time and size.

    python -m bench.images [--runs N]

A 10-row leaderboard (`render.tables.table_png`) and a chart of three series
of 200 games, then 500 (`render.charts.chart_png`), are rendered `--runs` times each,
after one warm-up render: a running bot has drawn one before, so fonts,
glyphs, palettes and the table's strings are cached. The "new names" table
has names never drawn before, as a new page of a leaderboard has. The median
and 99th-percentile milliseconds and the PNG's size are printed; then the
chart of three series of 5000 games, which thinning to pixel columns keeps
fast, a tenth as many times.
Budgets: a table <= 15 ms, a chart <= 25 ms (3 x 500 games).
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import time
from collections.abc import Callable

from render.charts import ChartImage, RatingPoint, RatingSeries, chart_png
from render.tables import Column, TableImage, table_png

TABLE_MS, CHART_MS = 15.0, 25.0
NAMES = (
    "Šárka Dvořáková", "Jiří Černý", "alice", "Bořivoj Žďárský-Hrubý z Ústí", "Ondřej Růžička",
    "bob", "Zuzana Hájková", "Petr Novák", "Eliška Křížová", "ťuťu",
)  # fmt: skip


def leaderboard(rows: int = 10, suffix: str = "") -> TableImage:
    """A page of a leaderboard as the bot words it: rank, name, rating, games, results.

    `suffix` is added to every name: new names, whose strings are not cached yet.
    """
    columns = (
        Column("#", "right"),
        Column("Player"),
        Column("Rating", "right"),
        Column("Games", "right"),
        Column("W\u2013L\u2013D", "center"),
    )
    cells = tuple(
        (
            str(i + 1),
            NAMES[i % len(NAMES)] + suffix,
            f"{1720 - 37 * i}{'?' if i % 4 == 3 else ''}",
            str(40 - 3 * i),
            f"{20 - i}\u2013{8 + i}\u20132\u00bd",
        )
        for i in range(rows)
    )
    return TableImage(
        "Oska leaderboard \u00b7 Kamen Club",
        columns,
        cells,
        subtitle="Page 1 of 3 \u00b7 provisional ratings marked ?",
        highlight=frozenset({0}),
        muted=frozenset(i for i in range(rows) if i % 4 == 3),
    )


def history(games: int, seed: int = 1) -> ChartImage:
    """Three games' rating histories of `games` games each: random walks, RD shrinking."""
    rng = random.Random(seed)
    series = []
    for label in ("Oska", "Lasca", "Oware"):
        rating, rd = 1500.0, 350.0
        points = [RatingPoint(rating, rd)]
        for _ in range(games):
            rating += rng.gauss(0, 30) * math.sqrt(rd / 350)
            rd = max(50.0, rd * 0.95)
            points.append(RatingPoint(rating, rd))
        series.append(RatingSeries(label, tuple(points)))
    return ChartImage("alice \u00b7 rating history", tuple(series), "games", "No rated games yet")


def figures(render: Callable[[], bytes], runs: int) -> tuple[float, float, int]:
    """Median and 99th-percentile ms of `render`, and the size of what it made."""
    data = render()  # warm the caches
    times: list[float] = []
    for _ in range(runs):
        began = time.perf_counter()
        data = render()
        times.append((time.perf_counter() - began) * 1000)
    times.sort()
    p99 = times[min(len(times) - 1, math.ceil(len(times) * 0.99) - 1)]
    return statistics.median(times), p99, len(data)


def main() -> None:
    parser = argparse.ArgumentParser(description="table and chart image time and size")
    parser.add_argument("--runs", type=int, default=200, help="renders of each image timed")
    args = parser.parse_args()
    table, chart, long_chart = leaderboard(), history(199), history(5000)
    chart_500 = history(499)
    fresh = (leaderboard(suffix=f" {n}") for n in itertools.count())
    cases: list[tuple[str, Callable[[], bytes], float | None]] = [
        ("table 10 rows", lambda: table_png(table), TABLE_MS),
        ("table 10 new names", lambda: table_png(next(fresh)), TABLE_MS),
        ("table 10 rows light", lambda: table_png(table, theme="light"), TABLE_MS),
        ("chart 3x200", lambda: chart_png(chart), CHART_MS),
        ("chart 3x200 light", lambda: chart_png(chart, theme="light"), CHART_MS),
        ("chart 3x500", lambda: chart_png(chart_500), CHART_MS),
        ("chart 3x5000", lambda: chart_png(long_chart), None),
    ]
    print(f"{'image':<22}{'p50 ms':>8}{'p99 ms':>8}{'PNG KiB':>9}  verdict")
    for name, render, budget in cases:
        runs = args.runs if budget is not None else max(1, args.runs // 10)
        p50, p99, size = figures(render, runs)
        verdict = "-" if budget is None else ("ok" if p50 <= budget else "OVER BUDGET")
        print(f"{name:<22}{p50:>8.2f}{p99:>8.2f}{size / 1024:>9.1f}  {verdict}")


if __name__ == "__main__":
    main()
