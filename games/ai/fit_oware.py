"""Fitting the Oware evaluation's weights to the results of self-play (Texel's method).

    python -m games.ai.fit_oware [--games N] [--jobs J] [--seed S] [--rounds R]

Plays N games (default 2,000) of a fixed-depth search against itself (depth
4, 5 or 6 by chance, 3 % of its moves random, 2 to 8 random opening plies,
default rules) with today's evaluation, and keeps every position where the
side to move has no capture, with the game's result from that side's view
(1, a half or 0). The evaluation is a sum of features by the weights
(oware_eval.features, oware_eval.WEIGHTS), so each position's features are
counted once. The fit predicts a result as the logistic of the evaluation
(texel.py): K is fitted first, then each weight but the store's (100, the
unit) moves by its step while the cross-entropy falls, for R rounds
(default 8) or until none moves. The first 80 % of the games fit, the others
check. Prints both errors, before and after, on both parts, and the weights
found; `WEIGHTS` in oware_eval.py takes them by hand, after
bench.oware_weights has measured them in play.

Measured on 7 December 2026 (commit b500976, `--games 4000 --jobs 2`, 95 s
on 2 shared cores): 213,219 positions fit, 53,788 check, K = 500;
cross-entropy fit 0.55206 -> 0.53386, check 0.55134 -> 0.53619; squared
error fit 0.16588 -> 0.15874, check 0.16670 -> 0.16073; weights (100, 12,
22, 8, 40, 10) -> (100, 0, 30, 130, 20, 0), today's WEIGHTS.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from games.ai import oware_eval, oware_game, oware_kernel, texel
from games.ai.search_player import deepen
from games.oware import OwareState
from games.registry import GAMES

QUIESCENCE = 6
MAX_PLIES = 400
RANDOM_MOVES = 0.03
DEPTHS = (4, 5, 6)
NAMES = ("store", "row_seed", "target", "playable", "kroo", "tempo")
"""oware_eval.WEIGHTS's, in order."""
SCALES = (100, 150, 200, 250, 300, 400, 500, 700)  # the K tried, in score units
STEPS: dict[str, int] = {"row_seed": 2, "target": 2, "playable": 2, "kroo": 5, "tempo": 2}
"""The weights the fit moves and by how much a step; a seed in the store stays 100."""

Weights = Mapping[str, int]


def named(weights: Sequence[int]) -> dict[str, int]:
    """Weights in WEIGHTS's order, by name."""
    return dict(zip(NAMES, weights, strict=True))


def ordered(weights: Weights) -> tuple[int, ...]:
    """Weights by name, in WEIGHTS's order (for oware_eval and the C search)."""
    return tuple(weights[name] for name in NAMES)


@dataclass(frozen=True, slots=True)
class Sample:
    """A position's features (oware_eval.features) where the side to move has
    no capture, and how its game ended for that side."""

    features: tuple[int, ...]
    result: float


def self_play(seed: int) -> list[Sample]:
    """One game of the fixed-depth search against itself, from random opening plies."""
    rng = random.Random(seed)
    state = GAMES["oware"].new("")
    for _ in range(rng.randint(2, 8)):
        state = state.play(rng.choice(state.legal_moves()))
    assert isinstance(state, OwareState)
    game, pos = oware_game.searchable(
        state, oware_eval.evaluate, tables=False, weights=oware_eval.WEIGHTS
    )
    seen: list[tuple[tuple[int, ...], int]] = []
    plies = 0
    while (moves := list(game.expand(pos)[1])) and plies < MAX_PLIES:
        if not oware_kernel.capturing(pos.pits, moves):
            seen.append((oware_eval.features(pos), pos.side))
        if len(moves) == 1:
            move = moves[0]
        elif rng.random() < RANDOM_MOVES:
            move = rng.choice(moves)
        else:
            move = _searched(game, pos, moves, rng, rng.choice(DEPTHS))
        pos = game.play(pos, move)
        plies += 1
    if moves:  # too long: the larger store wins
        south, north = pos.stores
        winner = None if south == north else 0 if south > north else 1
    else:
        winner = game.rules.winner(pos)
    first = 0.5 if winner is None else 1.0 if winner == 0 else 0.0
    return [Sample(features, first if side == 0 else 1 - first) for features, side in seen]


def _searched(
    game: oware_game.OwareGame,
    pos: oware_game.OwarePos,
    legal: Sequence[int],
    rng: random.Random,
    depth: int,
) -> int:
    """The move of a `depth`-ply search (in C without a table where it was built)."""
    moves = list(legal)
    rng.shuffle(moves)  # the seed decides among equally good moves
    found = game.think(
        pos, moves, max_depth=depth, quiescence=QUIESCENCE, reductions=False, table=0, deadline=None
    )
    if found is not None:
        return found[0]
    text = deepen(game, pos, None, rng, quiescence=QUIESCENCE, max_depth=depth).move
    return next(move for move in moves if game.text(pos, move) == text)


def samples(games: int, seed: int, jobs: int) -> list[list[Sample]]:
    """The samples of `games` games, game by game, in the order of their seeds."""
    return texel.self_play_games(self_play, games, seed, jobs)


def _scores(weights: Weights, data: Sequence[Sample]) -> list[int]:
    w = ordered(weights)
    return [sum(a * b for a, b in zip(w, sample.features, strict=True)) for sample in data]


def error(weights: Weights, data: Sequence[Sample], scale: float) -> float:
    """The cross-entropy of the results predicted from the evaluation."""
    return texel.cross_entropy(_scores(weights, data), [s.result for s in data], scale)


def squared_error(weights: Weights, data: Sequence[Sample], scale: float) -> float:
    """The mean squared error of the results predicted from the evaluation."""
    return texel.squared_error(_scores(weights, data), [s.result for s in data], scale)


def fit_scale(weights: Weights, data: Sequence[Sample], scales: Iterable[int] = SCALES) -> int:
    """The K of the least cross-entropy for `weights` (the positions evaluated once)."""
    scores, results = _scores(weights, data), [s.result for s in data]
    return min(scales, key=lambda scale: texel.cross_entropy(scores, results, scale))


def fit(weights: Weights, data: Sequence[Sample], scale: float, rounds: int = 8) -> dict[str, int]:
    """Each weight of STEPS moved a step at a time, up or down, while the
    cross-entropy falls (never below 0), for `rounds` rounds or until a round moves none."""
    return texel.descend(weights, STEPS, lambda found: error(found, data, scale), rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    train, check = texel.split(samples(args.games, args.seed, args.jobs))
    start = named(oware_eval.WEIGHTS)
    scale = fit_scale(start, train)
    found = fit(start, train, scale, args.rounds)
    print(f"positions={len(train)} checked={len(check)} K={scale}")
    for label, measure in (("cross_entropy", error), ("squared_error", squared_error)):
        print(
            f"{label}: fit {measure(start, train, scale):.5f}->{measure(found, train, scale):.5f}"
            f" check {measure(start, check, scale):.5f}->{measure(found, check, scale):.5f}"
        )
    print(f"weights={ordered(start)}->{ordered(found)} ({', '.join(NAMES)})")


if __name__ == "__main__":
    main()
