"""Tournament pairings: the time to pair a large field, per format.

    python -m bench.tournaments [--players N] [--rounds R] [--runs K] [--seed S]

Swiss: N players (default 1,000) with random ratings play R rounds (default 5),
each paired by `swiss_round` and given random results (a win, a draw or a loss
for the first side, equally likely); the next round is then paired K times
(default 5) and the median and slowest times printed. Target (issue 14): a
round under 1 s. Arena: the same field all free at once, as when an arena
opens, with random scores and last opponents, paired K times; same target.
One function per measurement, each returning its times, so that more can join.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import replace

from matches.pairings import (
    FIRST,
    SECOND,
    ArenaPlayer,
    Pairing,
    SwissPlayer,
    arena_pairs,
    swiss_round,
)

PAIRING_S = 1.0


def played(
    field: list[SwissPlayer], pairing: list[Pairing], rng: random.Random
) -> list[SwissPlayer]:
    """The field after a round with random results; a bye scores 1."""
    by_id = {player.id: player for player in field}
    for game in pairing:
        a = by_id[game.first]
        if game.second is None:
            by_id[a.id] = replace(a, score=a.score + 1, had_bye=True)
            continue
        b, result = by_id[game.second], rng.choice((1.0, 0.5, 0.0))
        by_id[a.id] = replace(
            a, score=a.score + result, opponents=(*a.opponents, b.id), colours=(*a.colours, FIRST)
        )
        by_id[b.id] = replace(
            b,
            score=b.score + 1 - result,
            opponents=(*b.opponents, a.id),
            colours=(*b.colours, SECOND),
        )
    return list(by_id.values())


def swiss_field(players: int, rounds: int, seed: int) -> list[SwissPlayer]:
    """A Swiss field after `rounds` rounds paired by `swiss_round`, with random results."""
    rng = random.Random(seed)
    field = [
        SwissPlayer(i, 0.0, float(rng.randrange(1000, 2400)), (), (), False)
        for i in range(1, players + 1)
    ]
    for number in range(1, rounds + 1):
        field = played(field, swiss_round(field, number), rng)
    return field


def arena_pool(players: int, seed: int) -> list[ArenaPlayer]:
    """A whole arena free at once, with random scores, last opponents and sides."""
    rng = random.Random(seed)
    return [
        ArenaPlayer(
            i,
            rng.randrange(0, 30),
            rng.randrange(1, players + 1),
            tuple(rng.choice((FIRST, SECOND)) for _ in range(rng.randrange(0, 8))),
        )
        for i in range(1, players + 1)
    ]


def timed(pair: Callable[[], list[Pairing]], runs: int) -> list[float]:
    """Seconds for each of `runs` calls."""
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        pair()
        times.append(time.perf_counter() - began)
    return times


def swiss_seconds(players: int, rounds: int, runs: int, seed: int) -> list[float]:
    """Pairing the round after `rounds` rounds of a Swiss of `players`."""
    field = swiss_field(players, rounds, seed)
    return timed(lambda: swiss_round(field, rounds + 1), runs)


def arena_seconds(players: int, runs: int, seed: int) -> list[float]:
    """Pairing an arena whose `players` are all free."""
    pool = arena_pool(players, seed)
    return timed(lambda: arena_pairs(pool), runs)


def main() -> None:
    parser = argparse.ArgumentParser(description="time to pair a large tournament field")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5, help="Swiss rounds played before")
    parser.add_argument("--runs", type=int, default=5, help="pairings timed")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    measurements = {
        f"Swiss round {args.rounds + 1}": swiss_seconds(
            args.players, args.rounds, args.runs, args.seed
        ),
        "arena, all free": arena_seconds(args.players, args.runs, args.seed),
    }
    print(f"{'pairing':<18}{'players':>8}{'p50 s':>8}{'max s':>8}  verdict")
    for name, times in measurements.items():
        median = statistics.median(times)
        print(
            f"{name:<18}{args.players:>8}{median:>8.3f}{max(times):>8.3f}  "
            f"{'ok' if median <= PAIRING_S else 'OVER BUDGET'}"
        )


if __name__ == "__main__":
    main()
