"""Board images and replay GIFs: time and size, per game.

    python -m bench.render [--rounds N] [--seed S]

For each game a seeded random game is played (60 moves, or a whole Oska game,
which never lasts that long); every position of it is rendered with its last
move highlighted, as the service does after a move (`last_move` given), and
the median time to render and encode one board and the PNG sizes are printed.
Then the replay GIF of that game is built a few times. Caches are warmed
first: a running bot has drawn its boards before.
Budgets (DESIGN.md §6): a board <= 5 ms and <= 40 KiB; a 60-move replay
<= 1 s and <= 2 MiB.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import render
from games.base import GameState, MoveInfo
from games.registry import GAMES

BOARD_MS, BOARD_KIB = 5.0, 40
REPLAY_S, REPLAY_KIB = 1.0, 2048
MOVES = 60


def sample_game(name: str, seed: int) -> GameState:
    """A random game of `MOVES` moves, or the longest of a few when none lasts that long."""
    spec = GAMES[name]
    longest = spec.new()
    for attempt in range(20):
        rng = random.Random(seed + attempt)
        state = spec.new()
        while (legal := state.legal_moves()) and len(state.moves) < MOVES:
            state = state.play(rng.choice(legal))
        if len(state.moves) >= MOVES:
            return state
        if len(state.moves) > len(longest.moves):
            longest = state
    return longest


def positions(name: str, game: GameState) -> list[tuple[GameState, MoveInfo | None]]:
    """Every position of the game with its last move described (a pass keeps the one before)."""
    state = GAMES[name].start(game.variant)
    out: list[tuple[GameState, MoveInfo | None]] = [(state, None)]
    for move in game.moves:
        info = state.describe(move)
        state = state.play(move)
        out.append((state, info if info.path else out[-1][1]))
    return out


def board_figures(name: str, game: GameState, rounds: int) -> tuple[float, float, int, int]:
    """Median and 95th-percentile ms per board, median and largest PNG in bytes."""
    shots = positions(name, game)
    for state, info in shots:  # warm the caches
        render.board(state, last_move=info)
    times: list[float] = []
    sizes: list[int] = []
    for _ in range(rounds):
        for state, info in shots:
            began = time.perf_counter()
            data = render.board(state, last_move=info)
            times.append((time.perf_counter() - began) * 1000)
            sizes.append(len(data))
    times.sort()
    p95 = times[int(len(times) * 0.95)]
    return statistics.median(times), p95, int(statistics.median(sizes)), max(sizes)


def replay_figures(game: GameState, builds: int) -> tuple[float, float, int]:
    """Seconds for the first build and the median of the next ones, and the GIF's bytes."""
    began = time.perf_counter()
    data = render.replay(game)
    first = time.perf_counter() - began
    times = []
    for _ in range(builds):
        began = time.perf_counter()
        data = render.replay(game)
        times.append(time.perf_counter() - began)
    return first, statistics.median(times), len(data)


def main() -> None:
    parser = argparse.ArgumentParser(description="board image and replay GIF time and size")
    parser.add_argument("--rounds", type=int, default=10, help="renders of every position")
    parser.add_argument("--builds", type=int, default=5, help="replay builds timed")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"{'game':<7}{'moves':>6}{'board ms':>10}{'p95 ms':>8}{'PNG KiB':>9}{'max KiB':>9}"
        f"{'GIF s':>8}{'first s':>9}{'GIF KiB':>9}  verdict"
    )
    for name in GAMES:
        game = sample_game(name, args.seed)
        median_ms, p95_ms, png, largest = board_figures(name, game, args.rounds)
        first, gif_s, gif = replay_figures(game, args.builds)
        ok = (
            median_ms <= BOARD_MS
            and largest <= BOARD_KIB * 1024
            and gif_s <= REPLAY_S
            and gif <= REPLAY_KIB * 1024
        )
        print(
            f"{name:<7}{len(game.moves):>6}{median_ms:>10.2f}{p95_ms:>8.2f}{png / 1024:>9.1f}"
            f"{largest / 1024:>9.1f}{gif_s:>8.3f}{first:>9.3f}{gif / 1024:>9.0f}  "
            f"{'ok' if ok else 'OVER BUDGET'}"
        )


if __name__ == "__main__":
    main()
