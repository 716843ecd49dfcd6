"""Tournament standings after one more result: `python -m bench.standings`.

A Swiss tournament of `--players` players (1,000) and `--rounds` rounds (9)
with random results is paired by score (neighbours in the standings, a bye
for the last when the count is odd); all its games but the last `--updates`
(200) are applied, then each of those is applied and the standings read
again, timed one by one (p50 and p99). A full recompute of the whole
tournament is timed too. Then the same for an arena of as many players and
games, whose performance tie-break is the costly one.
Budget (issue 14): <= 50 ms per update.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from matches.glicko2 import Glicko
from matches.standings import Played, Standings, compute
from matches.tournament_records import Format

UPDATE_MS = 50.0


def swiss(players: int, rounds: int, seed: int) -> list[Played]:
    """A Swiss tournament's games, each round paired down the standings of the one before."""
    rng = random.Random(seed)
    points = dict.fromkeys(range(1, players + 1), 0.0)
    games: list[Played] = []
    for number in range(1, rounds + 1):
        order = sorted(points, key=lambda player: (-points[player], rng.random()))
        if len(order) % 2:
            bye = order.pop()
            games.append(Played(bye, None, 1.0, number))
            points[bye] += 1.0
        for first, second in zip(order[::2], order[1::2], strict=True):
            score = rng.choice((1.0, 0.5, 0.0))
            games.append(Played(first, second, score, number))
            points[first] += score
            points[second] += 1.0 - score
    return games


def arena(players: int, count: int, seed: int) -> tuple[list[Played], dict[int, Glicko]]:
    """`count` arena games between random players, and everyone's starting rating."""
    rng = random.Random(seed)
    ratings = {player: Glicko(rng.gauss(1500, 250), 80) for player in range(1, players + 1)}
    games = []
    for _ in range(count):
        first, second = rng.sample(range(1, players + 1), 2)
        games.append(Played(first, second, rng.choice((1.0, 0.5, 0.0)), 0))
    return games, ratings


def figures(
    format: Format, games: list[Played], updates: int, ratings: dict[int, Glicko] | None = None
) -> tuple[float, float, float]:
    """p50 and p99 ms of one update (apply and read), and ms of a full recompute."""
    standings = Standings(format, ratings=ratings)
    for game in games[:-updates]:
        standings.apply(game)
    standings.lines()  # the standings shown before the first timed result
    times = []
    for game in games[-updates:]:
        began = time.perf_counter()
        standings.apply(game)
        standings.lines()
        times.append((time.perf_counter() - began) * 1000)
    times.sort()
    full = []
    for _ in range(5):
        began = time.perf_counter()
        compute(format, games, ratings=ratings)
        full.append((time.perf_counter() - began) * 1000)
    return statistics.median(times), times[int(len(times) * 0.99)], statistics.median(full)


def main() -> None:
    parser = argparse.ArgumentParser(description="standings update and recompute time")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--updates", type=int, default=200, help="results timed one by one")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = swiss(args.players, args.rounds, args.seed)
    arena_games, ratings = arena(args.players, len(games), args.seed)
    print(f"{'format':<8}{'players':>8}{'games':>7}{'update p50':>12}{'p99 ms':>8}"
          f"{'recompute ms':>14}  verdict")  # fmt: skip
    for format, played, rated in (
        (Format.SWISS, games, None),
        (Format.ARENA, arena_games, ratings),
    ):
        p50, p99, full = figures(format, played, args.updates, rated)
        print(
            f"{format:<8}{args.players:>8}{len(played):>7}{p50:>12.2f}{p99:>8.2f}{full:>14.1f}  "
            f"{'ok' if p99 <= UPDATE_MS else 'OVER BUDGET'}"
        )


if __name__ == "__main__":
    main()
