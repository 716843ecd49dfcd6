"""The search kernels in C against their Python functions: the same search, how much faster.

    python -m bench.kernels [--positions N] [--seed N] [--lasca-depth D] [--oware-depth D]

For Lasca and Oware, `hard`'s search (quiescence, reductions) runs to a fixed
depth from N positions of seeded random games (default 8), once with the
compiled kernel (games/ai/lasca_kernel.c, oware_kernel.c) and once with the
Python functions it replaces, each with a fresh table. A fixed depth visits the
same nodes either way and chooses the same moves (printed, and the run fails
when they differ); the figures are the seconds and nodes per second of each,
and the speed-up. Needs the kernels built (`pip install -e .` with a C compiler).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from bench.random_plies import random_plies
from games.ai import lasca_eval, lasca_game, lasca_kernel, oware_eval, oware_game, oware_kernel
from games.ai.search import Searcher
from games.base import GameState
from games.registry import GAMES

QUIESCENCE = 6


@contextmanager
def python_kernel(module: Any, names: tuple[str, ...]) -> Iterator[None]:
    """The module's kernel functions swapped for their Python versions."""
    kept = {name: getattr(module, name) for name in names}
    for name in names:
        setattr(module, name, getattr(module, f"python_{name}"))
    try:
        yield
    finally:
        for name, function in kept.items():
            setattr(module, name, function)


def positions(game: str, count: int, seed: int) -> list[GameState]:
    """Positions 6 to 40 random plies into seeded random games, each with a choice."""
    rng = random.Random(seed)
    found: list[GameState] = []
    while len(found) < count:
        state = random_plies(GAMES[game].new(), rng.randrange(6, 40), rng)
        if len(state.legal_moves()) > 1:
            found.append(state)
    return found


def lasca_search(state: GameState, depth: int, compiled: bool) -> tuple[str, int]:
    if compiled:
        evaluate: lasca_game.Evaluation = lasca_eval.evaluate
    else:
        value = lasca_eval.python_evaluation(lasca_eval.WEIGHTS)

        def evaluate(pos: lasca_game.LascaPos) -> int:
            return value(pos.board, pos.side)

    game = lasca_game.LascaGame(False, evaluate)
    root = lasca_game.from_state(state)  # type: ignore[arg-type]
    searcher = Searcher(game, quiescence=QUIESCENCE, reductions=True)
    result = searcher.iterate(root, list(game.expand(root)[1]), depth)
    return result.move, searcher.nodes


def oware_search(state: GameState, depth: int, compiled: bool) -> tuple[str, int]:
    evaluate = oware_eval.evaluate if compiled else oware_eval.python_evaluate
    game, root = oware_game.searchable(state, evaluate)  # type: ignore[arg-type]
    searcher = Searcher(game, quiescence=QUIESCENCE, reductions=True)
    result = searcher.iterate(root, list(game.expand(root)[1]), depth)
    return result.move, searcher.nodes


def timed(
    search: Callable[[GameState, int, bool], tuple[str, int]],
    states: list[GameState],
    depth: int,
    compiled: bool,
) -> tuple[list[str], int, float]:
    began = time.perf_counter()
    moves, nodes = [], 0
    for state in states:
        move, visited = search(state, depth, compiled)
        moves.append(move)
        nodes += visited
    return moves, nodes, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description="the C search kernels against the Python")
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--lasca-depth", type=int, default=8)
    parser.add_argument("--oware-depth", type=int, default=10)
    args = parser.parse_args()
    if not (lasca_kernel.COMPILED and oware_kernel.COMPILED):
        raise SystemExit("the kernels are not built: pip install -e . where a C compiler is")
    runs = (
        ("lasca", lasca_search, args.lasca_depth, lasca_kernel, ("generate", "apply")),
        ("oware", oware_search, args.oware_depth, oware_kernel,
         ("legal", "by_capture", "capturing", "play")),
    )  # fmt: skip
    print(f"{args.positions} positions a game (seed {args.seed}), hard's search to a fixed depth")
    print(f"{'game':<7}{'depth':>6}{'nodes':>10}{'Python s':>10}{'C s':>8}"
          f"{'Python n/s':>12}{'C n/s':>10}{'speed-up':>10}")  # fmt: skip
    for game, search, depth, module, names in runs:
        states = positions(game, args.positions, args.seed)
        with python_kernel(module, names):
            slow_moves, slow_nodes, slow = timed(search, states, depth, compiled=False)
        moves, nodes, fast = timed(search, states, depth, compiled=True)
        if (moves, nodes) != (slow_moves, slow_nodes):
            raise SystemExit(f"{game}: the kernels searched differently: {moves} {slow_moves}")
        print(
            f"{game:<7}{depth:>6}{nodes:>10,}{slow:>10.2f}{fast:>8.2f}"
            f"{nodes / slow:>12,.0f}{nodes / fast:>10,.0f}{slow / fast:>9.1f}x"
        )
    print("(the same moves and nodes with either: checked)")


if __name__ == "__main__":
    main()
