"""How often `hard` and `max` stop before their time is up, and how much time they keep.

    python -m bench.settled [--positions N] [--scale F] [--seed S]

A timed search stops early when the position is settled (the same best move
and no fall of the score for several depths) and the next depth would not
finish before the deadline (games.ai.search.another_iteration; the C kernels
follow the same rule). This searches N positions of Oware and Lasca (default
40 each: random middlegame positions, 6 to 40 random plies from the start,
none forced nor settled by Oware's endgame tables) at `hard` and `max`, each
at its own budget times F (default 1), and prints per game and level: the
share of moves that stopped before 85 % of their budget (a search that runs
to its deadline stops at about 90 %: the player keeps a margin), the mean
share of the budget used, and the mean depth finished. The figures are
wall-clock shares, so a busy machine shifts them less than it shifts times.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics

from games.ai.adapters import adapter_for
from games.ai.levels import level_of
from games.ai.player import think
from games.base import GameState
from games.registry import GAMES

EARLY = 0.85  # a search that stopped before this share of its budget stopped early


def positions(game: str, count: int, seed: int) -> list[GameState]:
    """`count` middlegame positions where the level must search (no instant answer)."""
    rng = random.Random(seed)
    found: list[GameState] = []
    while len(found) < count:
        state = GAMES[game].new()
        for _ in range(rng.randint(6, 40)):
            legal = state.legal_moves()
            if not legal:
                break
            state = state.play(rng.choice(legal))
        if len(state.legal_moves()) > 1 and not _tables_settle(state):
            found.append(state)
    return found


def _tables_settle(state: GameState) -> bool:
    """Whether `hard` plays the position from a table without searching (Oware's endgames)."""
    solved = adapter_for(state.spec).solved
    return solved is not None and solved(state, level_of("hard"), random.Random(1)) is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{args.positions} positions a game, budgets x{args.scale:g}, "
          f"load average {os.getloadavg()[0]:.2f}")  # fmt: skip
    for game in ("oware", "lasca"):
        states = positions(game, args.positions, args.seed)
        for level in ("hard", "max"):
            budget = level_of(level, game).budget * args.scale
            used, depths = [], []
            for number, state in enumerate(states):
                result = think(state, level, budget=budget, seed=number)
                used.append(result.elapsed / budget)
                depths.append(result.depth)
            early = sum(share < EARLY for share in used) / len(used)
            print(f"  {game} {level:<4} {budget:.2f} s: stopped early {100 * early:5.1f} %,"
                  f" budget used {100 * statistics.mean(used):5.1f} %,"
                  f" depth {statistics.mean(depths):.1f}")  # fmt: skip
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
