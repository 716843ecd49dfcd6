"""Time to review a game (games/ai/review.py) of each game, quick and deep.

    python -m bench.review [--plies N] [--games G] [--seed N] [--only GAME]

For each game (and Oska under capture=huff-opponent, which the solved table
does not hold), G games (default 1) are played by the `medium` level against
itself, seeded, up to N plies (default the issue's games: Oska 16, Oware 89,
Lasca 159), then reviewed quick and deep (`deep=True`: what the service makes
after the quick one), one after the other. Prints per game and kind the seconds
of a whole review (wall-clock and CPU, mean and slowest), the seconds a ply,
the search depths the positions reached, where the scores came from and the
marks, and the load average. One process: the figures are what one worker of
the pool spends (the service spreads a review over the workers).
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter

from games.ai.player import choose_move
from games.ai.review import MARKS, QUICK, Review, deepens, review_game
from games.registry import get

CASES = (("oska", ""), ("oska", "capture=huff-opponent"), ("oware", ""), ("lasca", ""))
PLIES = {"oska": 16, "oware": 89, "lasca": 159}


def played_game(game: str, variant: str, plies: int, seed: int) -> list[str]:
    """Up to `plies` moves of `medium` against itself (fewer if the game ends)."""
    state = get(game).new(variant)
    moves: list[str] = []
    while state.outcome() is None and len(moves) < plies:
        move = choose_move(state, "medium", seed=seed + len(moves))
        moves.append(move)
        state = state.play(move)
    return moves


def summary(reviews: list[Review]) -> str:
    depths: Counter[int] = Counter()
    sources: Counter[str] = Counter()
    marks: Counter[str] = Counter()
    for review in reviews:
        for entry in review.plies:
            sources[entry.source] += 1
            if entry.source == "search":
                depths[entry.depth] += 1
            if entry.mark is not None:
                marks[entry.mark] += 1
    depth_text = " ".join(f"{d}:{n}" for d, n in sorted(depths.items())) or "table"
    source_text = " ".join(f"{k} {v}" for k, v in sorted(sources.items()))
    mark_text = " ".join(f"{mark} {marks[mark]}" for mark in MARKS)
    return f"depth:plies {depth_text} / {source_text} / {mark_text}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", help="one game's name")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()}; quick depths {QUICK}")
    print(f"{'game':<28}{'kind':>6}{'plies':>6}{'wall s':>8}{'cpu s':>8}{'slowest':>9}{'s/ply':>8}")
    for game, variant in CASES:
        if args.only and game != args.only:
            continue
        kinds = ("quick", "deep") if deepens(game) else ("quick",)
        games = [
            played_game(game, variant, args.plies or PLIES[game], args.seed + 1000 * index)
            for index in range(args.games)
        ]
        for kind in kinds:
            walls, cpus, reviews = [], [], []
            for moves in games:
                began, cpu = time.perf_counter(), time.process_time()
                reviews.append(review_game(game, variant, moves, deep=kind == "deep"))
                walls.append(time.perf_counter() - began)
                cpus.append(time.process_time() - cpu)
            plies = sum(len(moves) for moves in games)
            name = f"{game} {variant}".strip()
            print(
                f"{name:<28}{kind:>6}{plies / len(games):>6.0f}{sum(walls) / len(walls):>8.2f}"
                f"{sum(cpus) / len(cpus):>8.2f}{max(walls):>9.2f}{sum(walls) / plies:>8.3f}"
                f"  {summary(reviews)}"
            )
    print(f"load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
