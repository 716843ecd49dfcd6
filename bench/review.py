"""Time to review a game (games/ai/review.py) of each game at the default budget.

    python -m bench.review [--plies N] [--games G] [--budget S] [--seed N]

For each game (and Oska under capture=huff-opponent, which the solved table
does not hold), G games of N plies (default 40) are played by the `medium`
level against itself, seeded, then reviewed at the budget (default the
review's own: a cap per position, the depth is fixed). Prints per game the
seconds of a whole review (mean wall-clock and CPU, and the slowest), the seconds a ply in the
slowest review, the search depth the positions reached, where the scores came from and the marks.
One process: the figures are what one worker of the pool spends.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from games.ai.player import choose_move
from games.ai.review import BUDGET, DEPTHS, MARKS, review_game
from games.registry import get

CASES = (("oska", ""), ("oska", "capture=huff-opponent"), ("oware", ""), ("lasca", ""))


def played_game(game: str, variant: str, plies: int, seed: int) -> list[str]:
    """Up to `plies` moves of `medium` against itself (fewer if the game ends)."""
    state = get(game).new(variant)
    moves: list[str] = []
    while state.outcome() is None and len(moves) < plies:
        move = choose_move(state, "medium", seed=seed + len(moves))
        moves.append(move)
        state = state.play(move)
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--budget", type=float, default=BUDGET)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"budget {args.budget:g} s a position at most; depth oware {DEPTHS['oware']}, "
        f"lasca {DEPTHS['lasca']}, oska (search) {DEPTHS['oska']}"
    )
    print(
        f"{'game':<32}{'plies':>6}{'review s':>10}{'cpu s':>8}{'slowest':>9}{'s/ply':>10}"
        f"{'depths':>10}  sources / marks"
    )
    for game, variant in CASES:
        totals: list[float] = []
        cpus: list[float] = []
        worst = 0.0
        plies = 0
        depths: Counter[int] = Counter()
        sources: Counter[str] = Counter()
        marks: Counter[str] = Counter()
        for index in range(args.games):
            moves = played_game(game, variant, args.plies, args.seed + 1000 * index)
            began, cpu = time.perf_counter(), time.process_time()
            review = review_game(game, variant, moves, budget=args.budget)
            totals.append(time.perf_counter() - began)
            cpus.append(time.process_time() - cpu)
            plies += len(moves)
            for entry in review.plies:
                sources[entry.source] += 1
                if entry.source == "search":
                    depths[entry.depth] += 1
                if entry.mark is not None:
                    marks[entry.mark] += 1
            worst = max(worst, totals[-1] / max(1, len(moves)))
        name = f"{game} {variant}".strip()
        depth_text = "-".join(str(d) for d in (min(depths), max(depths))) if depths else "table"
        source_text = " ".join(f"{k} {v}" for k, v in sorted(sources.items()))
        mark_text = " ".join(f"{mark} {marks[mark]}" for mark in MARKS)
        print(
            f"{name:<32}{plies / args.games:>6.0f}{sum(totals) / len(totals):>10.2f}"
            f"{sum(cpus) / len(cpus):>8.2f}"
            f"{max(totals):>9.2f}{worst:>10.3f}{depth_text:>10}  {source_text} / {mark_text}"
        )


if __name__ == "__main__":
    main()
