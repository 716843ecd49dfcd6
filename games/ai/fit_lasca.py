"""Fitting the Lasca evaluation's weights to the results of self-play (Texel's method).

    python -m games.ai.fit_lasca [--games N] [--jobs J] [--seed S] [--rounds R]

Plays N games (default 1,800) of a fixed-depth search against itself (depth 4
or 5 by turns of a coin, 3 % of its moves random, 2 to 8 random opening plies)
with today's evaluation, and keeps every position whose side to move owes no
capture, with the game's result from that side's view (1, a half or 0). The
fit predicts a result as the logistic of the evaluation, 1 / (1 + e^(-score / K)):
K is fitted first, then each weight in turn is moved by its step while the
mean squared error falls, for R rounds (default 8) or until none moves. The
games are split: the first 80 % fit, the others check (the error on games the
fit never saw). Prints the weights changed and both errors; `WEIGHTS` in
lasca_eval.py takes them by hand, after bench.tune_lasca and
`bench.ai --baseline` have measured them in play.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.ai import lasca_eval, texel
from games.ai.adapters import searchable
from games.ai.lasca_eval import Weights
from games.ai.search_player import deepen
from games.base import Side
from games.registry import GAMES

QUIESCENCE = 6
MAX_PLIES = 300
RANDOM_MOVES = 0.03
SCALES = (150, 200, 250, 300, 350, 400, 500)  # the K tried, in score units
STEPS: dict[str, int] = {
    "officer": 20,
    "held": 5,
    "liberation_near": 10,
    "liberation_deep": 5,
    "buried": 10,
    "advance": 2,
    "step": 2,
    "tempo": 5,
    "home": 4,
    "threat": 10,
    "unit": 5,
    "reserve": 10,
    "rank5": 5,
    "rank6": 5,
    "edge": 4,
    "centre": 5,
    "trade": 5,
    "backed": 4,
    "officer_step": 2,
}
"""The weights the fit moves and by how much a step; a soldier stays 100, the unit."""


@dataclass(frozen=True, slots=True)
class Sample:
    """A position without a capture due and how its game ended for the side to move."""

    board: tuple[str, ...]
    side: int
    result: float


def self_play(seed: int) -> list[Sample]:
    """One game of the fixed-depth search against itself, from random opening plies."""
    rng = random.Random(seed)
    state = GAMES["lasca"].new("")
    for _ in range(rng.randint(2, 8)):
        state = state.play(rng.choice(state.legal_moves()))
    seen: list[tuple[tuple[str, ...], int]] = []
    while (legal := state.legal_moves()) and len(seen) < MAX_PLIES:
        game, pos = searchable(state)
        if "x" not in legal[0]:
            seen.append((pos.board, pos.side))
        if len(legal) == 1:
            move = legal[0]
        elif rng.random() < RANDOM_MOVES:
            move = rng.choice(legal)
        else:
            depth = rng.choice((4, 5))
            move = deepen(game, pos, None, rng, quiescence=QUIESCENCE, max_depth=depth).move
        state = state.play(move)
    outcome = state.outcome()
    winner = None if outcome is None else outcome.winner
    white = 0.5 if winner is None else 1.0 if winner is Side.FIRST else 0.0
    return [Sample(board, side, white if side == 0 else 1 - white) for board, side in seen]


def samples(games: int, seed: int, jobs: int) -> list[list[Sample]]:
    """The samples of `games` games, game by game, in the order of their seeds."""
    return texel.self_play_games(self_play, games, seed, jobs)


def _scores(weights: Weights, data: Sequence[Sample]) -> list[int]:
    value = lasca_eval.evaluation(weights)
    return [value(sample.board, sample.side) for sample in data]


def _results(data: Sequence[Sample]) -> list[float]:
    return [sample.result for sample in data]


def error(weights: Weights, data: Sequence[Sample], scale: float) -> float:
    """The mean squared error of the results predicted from the evaluation."""
    return texel.squared_error(_scores(weights, data), _results(data), scale)


def fit_scale(weights: Weights, data: Sequence[Sample], scales: Iterable[int] = SCALES) -> int:
    """The K of the least error for `weights` (the positions evaluated once)."""
    scores, results = _scores(weights, data), _results(data)
    return min(scales, key=lambda scale: texel.squared_error(scores, results, scale))


def fit(weights: Weights, data: Sequence[Sample], scale: float, rounds: int = 8) -> Weights:
    """Each weight of STEPS moved a step at a time, up or down, while the error falls
    (never below 0), for `rounds` rounds or until a round moves none."""
    found = texel.descend(
        {name: getattr(weights, name) for name in STEPS},
        STEPS,
        lambda values: error(dataclasses.replace(weights, **values), data, scale),
        rounds,
    )
    return dataclasses.replace(weights, **found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1800)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    train, check = texel.split(samples(args.games, args.seed, args.jobs))
    start = lasca_eval.WEIGHTS
    scale = fit_scale(start, train)
    found = fit(start, train, scale, args.rounds)
    changes = {
        f.name: getattr(found, f.name)
        for f in dataclasses.fields(found)
        if getattr(found, f.name) != getattr(start, f.name)
    }
    before, after = error(start, train, scale), error(found, train, scale)
    checked = (error(start, check, scale), error(found, check, scale))
    print(f"positions={len(train)} checked={len(check)} K={scale}")
    print(f"fit_error={before:.5f}->{after:.5f} check_error={checked[0]:.5f}->{checked[1]:.5f}")
    print("changes=" + (",".join(f"{k}={v}" for k, v in changes.items()) or "-"))


if __name__ == "__main__":
    main()
