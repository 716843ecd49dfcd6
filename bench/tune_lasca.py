"""Lasca evaluation weights against each other, in quick self-play matches.

    python -m bench.tune_lasca [--games N] [--budget S | --depth D] [--jobs J]
                               [--seed N] [--opening P] [--base W] CANDIDATE ...

Each CANDIDATE is a list of weight changes from `WEIGHTS` (games/ai/lasca_eval.py),
e.g. `officer=280,threat=50`; `--base` changes the reference the same way
(default: `WEIGHTS` itself). Every candidate plays N games (default 40)
against the reference, both searching like `hard` (deepening, quiescence 6,
reductions) for S seconds a move (default 0.1) or to the fixed depth D,
sides swapped every other game, each pair from the same P random opening
plies (default 4). Prints wins, draws and losses of the candidate, its score
((wins + draws / 2) / games) and the nodes per second of both.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor

from games.ai import lasca_eval, lasca_game, search_player
from games.ai.lasca_eval import Weights
from games.ai.search import Table
from games.registry import GAMES

QUIESCENCE = 6
MAX_PLIES = 400


def weights_of(changes: str, base: Weights = lasca_eval.WEIGHTS) -> Weights:
    """`base` with the changes `name=value,...` (integers)."""
    fields = {}
    for change in filter(None, (part.strip() for part in changes.split(","))):
        name, _, number = change.partition("=")
        fields[name.strip()] = int(number)
    return dataclasses.replace(base, **fields)


def _evaluate(weights: Weights) -> lasca_game.Evaluation:
    value = lasca_eval.evaluation(weights)

    def evaluate(pos: lasca_game.LascaPos) -> int:
        return value(pos.board, pos.side)

    return evaluate


def play_game(
    players: tuple[Weights, Weights], budget: float, depth: int, opening: int, seed: int
) -> tuple[int | None, tuple[int, int], tuple[float, float]]:
    """One game, `players[0]` White: the winner (0, 1 or None) and each side's
    nodes and seconds."""
    rng = random.Random(seed)
    games = [lasca_game.LascaGame(False, _evaluate(weights)) for weights in players]
    tables: tuple[Table, Table] = ({}, {})
    nodes, seconds = [0, 0], [0.0, 0.0]
    pos = lasca_game.from_state(GAMES["lasca"].new(""))  # type: ignore[arg-type]
    for _ in range(opening):
        moves = list(lasca_game.moves_of(pos, False))
        if not moves:
            break
        pos = lasca_game.play(pos, rng.choice(moves), False)
    for _ in range(MAX_PLIES):
        table = lasca_game.moves_of(pos, False)
        over = lasca_game.finished(pos, table)
        if over is not None:
            if over == 0:
                return None, (nodes[0], nodes[1]), (seconds[0], seconds[1])
            return 1 - pos.side, (nodes[0], nodes[1]), (seconds[0], seconds[1])
        side = pos.side
        began = time.perf_counter()
        deadline = began + budget if not depth else None
        result = search_player.deepen(
            games[side],
            pos,
            deadline,
            rng,
            quiescence=QUIESCENCE,
            max_depth=depth or search_player.MAX_DEPTH,
            table=tables[side],
            reductions=True,
        )
        seconds[side] += time.perf_counter() - began
        nodes[side] += result.nodes
        if len(tables[side]) > search_player.TABLE_LIMIT:
            tables[side].clear()
        pos = lasca_game.play(pos, result.move, False)
    return None, (nodes[0], nodes[1]), (seconds[0], seconds[1])


def match(
    pool: ProcessPoolExecutor,
    candidate: Weights,
    base: Weights,
    games: int,
    budget: float,
    depth: int,
    opening: int,
    seed: int,
) -> None:
    futures = []
    for index in range(games):
        side = index % 2
        players = (candidate, base) if side == 0 else (base, candidate)
        game_seed = seed * 100_000 + index // 2
        futures.append((side, pool.submit(play_game, players, budget, depth, opening, game_seed)))
    wins = draws = losses = 0
    mine, theirs = [0, 0.0], [0, 0.0]
    for side, future in futures:
        winner, nodes, seconds = future.result()
        if winner is None:
            draws += 1
        elif winner == side:
            wins += 1
        else:
            losses += 1
        mine[0] += nodes[side]
        mine[1] += seconds[side]
        theirs[0] += nodes[1 - side]
        theirs[1] += seconds[1 - side]
    score = 100 * (wins + draws / 2) / games
    rate = f"{mine[0] / mine[1]:>9,.0f} {theirs[0] / theirs[1]:>9,.0f}" if mine[1] else ""
    print(f"{wins:>4}{draws:>4}{losses:>4}{score:>7.1f}%  {rate}  {changes_of(candidate, base)}")


def changes_of(weights: Weights, base: Weights) -> str:
    fields = dataclasses.fields(weights)
    changed = [
        f"{f.name}={getattr(weights, f.name)}"
        for f in fields
        if getattr(weights, f.name) != getattr(base, f.name)
    ]
    return ",".join(changed) or "(the reference)"


def main() -> None:
    parser = argparse.ArgumentParser(description="Lasca evaluation weights in self-play")
    parser.add_argument("candidates", nargs="+", help="weight changes, e.g. officer=280")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--budget", type=float, default=0.1, help="seconds a move")
    parser.add_argument("--depth", type=int, default=0, help="a fixed depth instead")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opening", type=int, default=4, help="random opening plies")
    parser.add_argument("--base", default="", help="weight changes of the reference")
    args = parser.parse_args()
    base = weights_of(args.base)
    how = f"depth {args.depth}" if args.depth else f"{args.budget:g} s a move"
    print(f"candidates against {changes_of(base, lasca_eval.WEIGHTS)}, {args.games} games, {how}")
    print(f"{'W':>4}{'D':>4}{'L':>4}{'score':>8}  {'nodes/s':>9} {'ref n/s':>9}  candidate")
    began = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        for text in args.candidates:
            candidate = weights_of(text, base)
            match(
                pool, candidate, base, args.games, args.budget, args.depth, args.opening, args.seed
            )
    print(f"total {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
