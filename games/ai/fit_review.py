"""Fitting the review's expected-score curve to the results of self-play.

    python -m games.ai.fit_review --game oware [--games N] [--jobs J] [--seed S] [--depth D]

Plays N games (default 300) of the full-width kernel search (`games.ai.full_width`)
against itself at the quick review's depth (`review.QUICK`, or D), 2 to 6 random
opening plies and `RANDOM_MOVES` of the other moves random, so the games differ and
both sides err. Every position reached (but those whose value is a forced result)
is kept with its search value for the side to move, in hundredths of a seed or a
soldier as the review counts them, and the game's result from that side's view
(1, a half, 0). The fit is the one constant K of

    expected score = 1 / (1 + e^(-points / K))

that makes the results likeliest (the least cross-entropy, K searched on a log
scale). The games are split: the first 75 % fit, the others check it: the
cross-entropy on games the fit never saw against that of always saying a half
(ln 2 = 0.693), and, by bands of the predicted score, the mean predicted and
the mean result. `review.CURVE` takes K by hand.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from games.ai import full_width, review
from games.base import GameState
from games.registry import get

RANDOM_MOVES = 0.1
MAX_PLIES = 400
Sample = tuple[int, float]  # points for the side to move, its result


def play(game: str, seed: int, depth: int) -> list[Sample]:
    """One self-play game's positions: (points for the side to move, its result)."""
    rng = random.Random(seed)
    state: GameState = get(game).new("")
    seen: list[tuple[int, int]] = []  # points, side to move
    for ply in range(MAX_PLIES):
        if state.outcome() is not None:
            break
        legal = list(state.legal_moves())
        values = {m: full_width.move_value(state, m, depth) for m in legal}
        top = max(values.values())
        if abs(top) < full_width.SEARCH_WIN:
            seen.append((review.kernel_points(game, top), int(state.to_move)))
        if ply < rng.randint(2, 6) or rng.random() < RANDOM_MOVES:
            move = rng.choice(legal)
        else:
            move = rng.choice([m for m in legal if values[m] == top])
        state = state.play(move)
    outcome = state.outcome()
    if outcome is None:
        return []  # too long: no result to learn from
    winner = None if outcome.winner is None else int(outcome.winner)
    return [(points, 0.5 if winner is None else float(winner == side)) for points, side in seen]


def expected(points: float, scale: float) -> float:
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, points / scale))))


def cross_entropy(samples: Sequence[Sample], scale: float) -> float:
    total = 0.0
    for points, result in samples:
        p = min(1 - 1e-9, max(1e-9, expected(points, scale)))
        total -= result * math.log(p) + (1 - result) * math.log(1 - p)
    return total / max(1, len(samples))


def fit(samples: Sequence[Sample]) -> float:
    """The K of least cross-entropy, by golden-section search on log K in [10, 10^5]."""
    low, high = math.log(10), math.log(100_000)
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        a, b = high - ratio * (high - low), low + ratio * (high - low)
        if cross_entropy(samples, math.exp(a)) < cross_entropy(samples, math.exp(b)):
            high = b
        else:
            low = a
    return math.exp((low + high) / 2)


def bands(samples: Sequence[Sample], scale: float) -> list[tuple[str, int, float, float]]:
    """By bands of the predicted score: the band, the count, mean predicted, mean result."""
    edges = (0.0, 0.1, 0.25, 0.4, 0.6, 0.75, 0.9, 1.0001)
    rows = []
    for low, high in itertools.pairwise(edges):
        inside = [(expected(p, scale), r) for p, r in samples if low <= expected(p, scale) < high]
        if inside:
            mean_p = sum(p for p, _ in inside) / len(inside)
            mean_r = sum(r for _, r in inside) / len(inside)
            rows.append((f"{low:.2f}-{min(high, 1):.2f}", len(inside), mean_p, mean_r))
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=full_width.GAMES, required=True)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--depth", type=int, help="default: the quick review's")
    args = parser.parse_args(argv)
    depth = args.depth or review.QUICK[args.game].first
    started = time.perf_counter()
    seeds = [args.seed * 1_000_003 + n for n in range(args.games)]
    with ProcessPoolExecutor(args.jobs) as pool:
        games = list(pool.map(play, [args.game] * args.games, seeds, [depth] * args.games))
    split = len(games) * 3 // 4
    train = [s for g in games[:split] for s in g]
    check = [s for g in games[split:] for s in g]
    scale = fit(train)
    took = time.perf_counter() - started
    done = sum(1 for g in games if g)
    print(f"{args.game} at depth {depth}: {len(games)} games ({done} finished),")
    print(f"  {len(train)} positions fit,")
    print(f"  {len(check)} check, {took:.0f} s")
    print(f"K = {scale:.0f} (points of a 73 % expected score)")
    for name, part in (("fit", train), ("check", check)):
        print(f"cross-entropy {name}: {cross_entropy(part, scale):.4f} (a half always: 0.6931)")
    print(f"K fitted on the check games alone: {fit(check):.0f}")
    print("check games, by predicted band: band, positions, mean predicted, mean result")
    for band, count, mean_p, mean_r in bands(check, scale):
        print(f"  {band}  {count:6d}  {mean_p:.3f}  {mean_r:.3f}")


if __name__ == "__main__":
    main()
