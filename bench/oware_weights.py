"""Oware's `hard` (or `max`) with other evaluation weights against today's, at equal time.

    python -m bench.oware_weights --weights S,R,T,P,K,M [--against S,R,T,P,K,M]
                                  [--opponent hard|max] [--games N] [--scale F]
                                  [--jobs J] [--seed S] [--opening P]

Both players are today's level (games/ai/player.think, the search in C),
one with the evaluation weights --weights (oware_eval.WEIGHTS's order:
store, row seed, target, playable, kroo, tempo, e.g. from
games.ai.fit_oware), the other with --against (default oware_eval.WEIGHTS),
at the level's budget times F (default 0.1), N games (default 60), sides
swapped: each pair of games opens with the same P random plies (default 4),
one game with each side first. The kernel keeps one table in a worker for
both; its keys are salted with the weights, so neither reads the other's.

Prints, as the games end and at the close, as bench.strength does: wins,
draws and losses of --weights ("new"), its score with two standard errors,
the mean depth and seconds a move, and the load average.

Measured on 7 December 2026 (2 shared cores, nice 5), the fitted weights
(100, 0, 30, 130, 20, 0) against the earlier (100, 12, 22, 8, 40, 10),
`--games 60 --jobs 2`; W-D-L of the fitted ones, the load average at the end:

    hard 0.1 s --seed 31  39-7-14  70.8 % +- 11.0  depth 17.6 / 17.3  load 3.3
    hard 0.1 s --seed 32  35-8-17  65.0 % +- 11.5  depth 19.0 / 19.3  load 2.4
    hard 0.3 s --seed 33  44-3-13  75.8 % +- 10.8  depth 16.9 / 17.2  load 2.6
"""

from __future__ import annotations

import argparse
import functools
import random
import time

from bench.random_plies import random_plies
from bench.strength import MAX_PLIES, Game, Moves, load, play_match
from games.ai import oware_eval
from games.ai.levels import level_of
from games.ai.player import think
from games.base import Side
from games.registry import GAMES


def play_game(
    new_weights: tuple[int, ...],
    old_weights: tuple[int, ...],
    level: str,
    budget: float,
    opening: int,
    seed: int,
    new_side: int,
) -> Game:
    """One game from `opening` random plies drawn from `seed`; `new_weights` play `new_side`."""
    rng = random.Random(seed)
    state = random_plies(GAMES["oware"].new(""), opening, rng)
    new, old = Moves(), Moves()
    plies = 0
    kept = oware_eval.WEIGHTS
    try:
        while state.legal_moves() and plies < MAX_PLIES:
            mover = new if int(state.to_move) == new_side else old
            # The adapter reads the module's weights at each move (games/ai/adapters.py).
            oware_eval.WEIGHTS = new_weights if mover is new else old_weights
            began = time.perf_counter()
            found = think(state, level, budget=budget, seed=seed * 1000 + plies)
            mover.moves += 1
            mover.seconds += time.perf_counter() - began
            if found.nodes:
                mover.depths += found.depth
                mover.searched += 1
            state = state.play(found.move)
            plies += 1
    finally:
        oware_eval.WEIGHTS = kept
    outcome = state.outcome()
    winner = outcome.winner if outcome else None
    score = 0.5 if winner is None else 1.0 if winner == Side(new_side) else 0.0
    return Game(score, plies, new, old)


def weights_of(text: str) -> tuple[int, ...]:
    found = tuple(int(part) for part in text.split(","))
    if len(found) != len(oware_eval.WEIGHTS):
        raise argparse.ArgumentTypeError(f"{len(oware_eval.WEIGHTS)} integers, by commas")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", type=weights_of, required=True)
    parser.add_argument("--against", type=weights_of, default=oware_eval.WEIGHTS)
    parser.add_argument("--opponent", choices=("hard", "max"), default="hard")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--scale", type=float, default=0.1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--opening", type=int, default=4)
    args = parser.parse_args()
    level = args.opponent
    budget = level_of(level).budget * args.scale
    print(
        f"oware (default rules): {level} with weights {args.weights} against {args.against}, "
        f"{budget:.3f} s a move each, {args.games} games, sides swapped, pairs from "
        f"{args.opening} shared random plies; load {load()}",
        flush=True,
    )
    play = functools.partial(play_game, args.weights, args.against, level, budget, args.opening)
    tally = play_match(play, args.games, args.jobs, args.seed)
    print(f"{tally.line()}; load {load()}", flush=True)


if __name__ == "__main__":
    main()
