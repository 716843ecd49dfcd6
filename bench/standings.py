"""Tournament standings after one more result: `python -m bench.standings`.

A Swiss tournament of `--players` players (1,000) and `--rounds` rounds (9)
with random results is paired by score (neighbours in the standings, a bye
for the last when the count is odd); all its games but the last `--updates`
(200) are applied, then each of those is applied and the standings read
again, timed one by one (p50 and p99). A full recompute of the whole
tournament is timed too. Then the same for an arena of as many players and
games, whose performance tie-break is the costly one.
Last, the same results through the tournament service on a SQLite file
(`--no-service` skips it): each result written as a game's end writes it, then
the standings read back as the bot shows them (the pairings read, the new
results applied to the standings the service keeps).
Budget (issue 14): <= 50 ms per update.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from matches import MatchService
from matches.glicko2 import Glicko
from matches.standings import Played, Standings, compute
from matches.tournament_records import Format, Stage, StoredPairing, Tournament
from store import open_store

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


async def service_figures(
    format: Format, games: list[Played], players: int, updates: int
) -> tuple[float, float]:
    """p50 and p99 ms of a result written and the standings read, through the service."""
    with tempfile.TemporaryDirectory() as folder:
        store = await open_store(f"sqlite:///{Path(folder) / 'bench.db'}")
        try:
            service = MatchService(store, bot_user_id=1)
            began = datetime(2026, 1, 1, tzinfo=UTC)
            signup = await store.create_tournament(
                Tournament(1, 2, "Bench", "oska", format, 3, began,
                           rounds=max(g.round for g in games) or None)
            )  # fmt: skip
            for player in range(1, players + 1):
                await store.join_tournament(signup.id, player, began)
            joined = await store.tournament(signup.id)  # the players joined it: a new version
            assert joined is not None
            made = dataclasses.replace(joined, stage=Stage.RUNNING, started_at=began)
            moments = [began + timedelta(seconds=i) for i in range(len(games))]
            rows = [
                StoredPairing(made.id, g.round, g.first, g.second,
                              score=g.score if i < len(games) - updates else None,
                              ended_at=moments[i] if i < len(games) - updates else None)
                for i, g in enumerate(games)
            ]  # fmt: skip
            written = await store.update_tournament(made, rows)
            assert written is not None
            stored = written[1]
            await service.tournaments.standings(made.id)  # as shown before the first result
            times = []
            for i in range(len(games) - updates, len(games)):
                start = time.perf_counter()
                await store.record_result(stored[i].id, games[i].score or 0.0, moments[i])
                await service.tournaments.standings(made.id)
                times.append((time.perf_counter() - start) * 1000)
            times.sort()
            return statistics.median(times), times[int(len(times) * 0.99)]
        finally:
            await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description="standings update and recompute time")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--updates", type=int, default=200, help="results timed one by one")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-service", action="store_true", help="skip the service's figures")
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
    if args.no_service:
        return
    print(f"\nthrough the service (SQLite file): {args.updates} results written and shown")
    print(f"{'format':<8}{'players':>8}{'games':>7}{'update p50':>12}{'p99 ms':>8}  verdict")
    for format, played in ((Format.SWISS, games), (Format.ARENA, arena_games)):
        p50, p99 = asyncio.run(service_figures(format, played, args.players, args.updates))
        print(
            f"{format:<8}{args.players:>8}{len(played):>7}{p50:>12.2f}{p99:>8.2f}  "
            f"{'ok' if p99 <= UPDATE_MS else 'OVER BUDGET'}"
        )


if __name__ == "__main__":
    main()
