"""What the evaluation fits share (Texel's method): fit_lasca.py and fit_oware.py.

A result (1, a half or 0 for the side to move) is predicted as the logistic
of the evaluation, 1 / (1 + e^(-score / K)); the fits score that prediction
by its mean squared error or its cross-entropy, fit K first and then move
each weight a step at a time while the error falls. Self-play games come
from a process pool in the order of their seeds; the first 80 % of them fit,
the others check (games the fit never saw).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

S = TypeVar("S")


def predicted(score: float, scale: float) -> float:
    """The result the logistic of `score` predicts, between 0 and 1."""
    return 1.0 / (1.0 + math.exp(max(-500.0, min(500.0, -score / scale))))


def squared_error(scores: Sequence[float], results: Sequence[float], scale: float) -> float:
    """The mean squared error of the predicted results."""
    total = 0.0
    for score, result in zip(scores, results, strict=True):
        total += (result - predicted(score, scale)) ** 2
    return total / len(results)


def cross_entropy(scores: Sequence[float], results: Sequence[float], scale: float) -> float:
    """The mean cross-entropy (in nats) of the predicted results."""
    total = 0.0
    for score, result in zip(scores, results, strict=True):
        p = min(max(predicted(score, scale), 1e-12), 1 - 1e-12)
        total -= result * math.log(p) + (1 - result) * math.log(1 - p)
    return total / len(results)


def descend(
    weights: Mapping[str, int],
    steps: Mapping[str, int],
    error: Callable[[Mapping[str, int]], float],
    rounds: int,
) -> dict[str, int]:
    """Each weight of `steps` moved a step at a time, up or down, while
    `error` falls (never below 0), for `rounds` rounds or until a round moves none."""
    found = dict(weights)
    best = error(found)
    for _ in range(rounds):
        moved = False
        for name, step in steps.items():
            for sign in (1, -1):
                while (value := found[name] + sign * step) >= 0:
                    candidate = {**found, name: value}
                    value_error = error(candidate)
                    if value_error >= best:
                        break
                    found, best, moved = candidate, value_error, True
        if not moved:
            break
    return found


def self_play_games(
    play: Callable[[int], list[S]], games: int, seed: int, jobs: int
) -> list[list[S]]:
    """`play`'s samples of `games` games, game by game, in the order of their seeds."""
    seeds = range(seed * 100_000, seed * 100_000 + games)
    if jobs <= 1:
        return [play(s) for s in seeds]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(play, seeds, chunksize=4))


def split(games: Sequence[list[S]]) -> tuple[list[S], list[S]]:
    """The samples the fit sees (the first games) and those that check it."""
    cut = len(games) * 4 // 5
    return [s for game in games[:cut] for s in game], [s for game in games[cut:] for s in game]
