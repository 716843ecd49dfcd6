"""Random-playout speed of every engine, in moves per second.

    python -m bench.engines [--seconds S] [--seed N]

A playout asks the state for its legal moves, picks one at random and plays
it, until the game ends; then it starts again. The figure counts moves played.
Budgets (DESIGN.md §6): Oska >= 100k, Oware >= 50k, Lasca >= 20k moves/s.
"""

from __future__ import annotations

import argparse
import random
import time

from games.registry import GAMES

BUDGETS = {"oska": 100_000, "oware": 50_000, "lasca": 20_000}


def playout_speed(name: str, seconds: float, seed: int) -> tuple[float, int]:
    """Moves per second and games finished over about `seconds` of playouts."""
    spec = GAMES[name]
    rng = random.Random(seed)
    start = spec.new()
    moves = games = 0
    began = time.perf_counter()
    deadline = began + seconds
    while time.perf_counter() < deadline:
        state = start
        while legal := state.legal_moves():
            state = state.play(rng.choice(legal))
            moves += 1
        games += 1
    return moves / (time.perf_counter() - began), games


def main() -> None:
    parser = argparse.ArgumentParser(description="random-playout speed of every engine")
    parser.add_argument("--seconds", type=float, default=3.0, help="per game (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'game':<8}{'moves/s':>12}{'budget':>10}{'games':>8}  verdict")
    for name in GAMES:
        speed, games = playout_speed(name, args.seconds, args.seed)
        budget = BUDGETS[name]
        verdict = "ok" if speed >= budget else "BELOW BUDGET"
        print(f"{name:<8}{speed:>12,.0f}{budget:>10,}{games:>8}  {verdict}")


if __name__ == "__main__":
    main()
