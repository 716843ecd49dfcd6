"""Board images and replay GIFs: time and size, per game.

    python -m bench.render [--rounds N] [--seed S]

For each game a seeded random game is played (60 moves, or a whole Oska game,
which never lasts that long); every position of it is rendered with its last
move highlighted, as the service does after a move (`last_move` given), and
the median time to render and encode one board and the PNG sizes are printed;
then the same boards with the hints of the player to move (`hints=True`) and
with a piece picked (`selected`, the first legal move's origin). Then the
replay GIF of that game is built a few times, and how long it plays is
printed; last, the replay of a 150-move Oware game (capped at 30 s of play).
Caches are warmed first: a running bot has drawn its boards before.
Budgets (DESIGN.md §6): a board <= 5 ms and <= 40 KiB; a 60-move replay
<= 1 s and <= 2 MiB.

A second table puts each board beside the same board drawn the naive way
(`bench.naive`: plain `ImageDraw` on RGB, nothing kept, Pillow's default PNG),
timed alternately position by position so the machine's load falls on both
alike, and beside the review's better-move board of the same position
(`render.review.better_move_board`, the first legal move played and the last
one better, given the last move as the plain board is, so that neither replays
the game), in the CPU time of the thread (the wall clock of a loaded machine
adds waits for a core) and, for our boards, the wall clock too. Goals (issue
32): a board <= 0.25x the naive one, a review board <= 2x a plain one. `cold`
is a board drawn with the painters' patches and captions forgotten first, as a
position never drawn before is. The load average is printed with it.

    python -m bench.render --encodings

measures instead the PNG encoder's settings (`render.draw.png`) on the frames
of every position: zlib's level and strategy, Pillow's `optimize`, with the
median milliseconds to encode a frame and the median and largest PNG.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import statistics
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image

import render
from bench import naive
from games.base import GameState, MoveInfo
from games.registry import GAMES
from render import lasca, oska, oware
from render.review import BoardLabels, better_move_board

BOARD_MS, BOARD_KIB = 5.0, 40
NAIVE_RATIO, REVIEW_RATIO = 0.25, 2.0
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


Draw = Callable[[GameState, MoveInfo | None], bytes]


def plain(state: GameState, info: MoveInfo | None) -> bytes:
    return render.board(state, last_move=info)


def hinted(state: GameState, info: MoveInfo | None) -> bytes:
    return render.board(state, last_move=info, hints=True)


def picked(state: GameState, info: MoveInfo | None) -> bytes:
    legal = state.legal_moves()
    path = state.describe(legal[0]).path if legal else ()
    selected = path[0] if path else None
    return render.board(state, last_move=info, hints=True, selected=selected)


def board_figures(
    name: str,
    game: GameState,
    rounds: int,
    draw: Draw = plain,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[float, float, int, int]:
    """Median and 95th-percentile ms per board by `clock`, median and largest PNG in bytes."""
    shots = positions(name, game)
    for state, info in shots:  # warm the caches
        draw(state, info)
    times: list[float] = []
    sizes: list[int] = []
    for _ in range(rounds):
        for state, info in shots:
            began = clock()
            data = draw(state, info)
            times.append((clock() - began) * 1000)
            sizes.append(len(data))
    times.sort()
    p95 = times[int(len(times) * 0.95)]
    return statistics.median(times), p95, int(statistics.median(sizes)), max(sizes)


def review_board(state: GameState, info: MoveInfo | None) -> bytes | None:
    """The review's board of `state`: its first legal move played, its last one better."""
    legal = state.legal_moves()
    if len(legal) < 2:
        return None
    labels = BoardLabels(f"Played: {legal[0]}", f"Better: {legal[-1]}")
    players = ("Ann", "Bob")
    return better_move_board(state, legal[0], legal[-1], labels, players=players, last_move=info)


def forget_patches() -> None:
    """Empty the painters' caches of patches and captions (`render.compose`): what a board
    costs the first time its position is drawn. The kits, sprites and fonts stay."""
    for module in (oska, lasca, oware):
        module._patch.cache_clear()
        module._caption.cache_clear()


def cold(state: GameState, info: MoveInfo | None) -> bytes:
    forget_patches()
    return render.board(state, last_move=info)


@dataclass(frozen=True)
class SideBySide:
    """Medians in ms of one game's boards: the thread's CPU time, and the wall clock."""

    board: float
    naive: float
    review: float
    board_wall: float
    review_wall: float
    naive_bytes: int


def side_by_side(name: str, game: GameState, rounds: int) -> SideBySide:
    """A board, the naive board and the review board of every position, timed in turn.

    The three are timed one after the other for each position, so that a change
    of load falls on all of them alike; the CPU time of the thread (Pillow's work
    included) leaves out the waits for a core a loaded machine adds to the wall
    clock, which fall on a longer task more than in proportion.
    """
    shots = positions(name, game)
    for state, info in shots:  # warm the caches (the naive side keeps none but fonts)
        plain(state, info)
        naive.board(state, info)
        review_board(state, info)
    times: dict[str, list[float]] = {kind: [] for kind in ("ours", "theirs", "review")}
    walls: dict[str, list[float]] = {kind: [] for kind in ("ours", "review")}
    sizes: list[int] = []
    for _ in range(rounds):
        for state, info in shots:
            cpu, wall = time.thread_time(), time.perf_counter()
            plain(state, info)
            times["ours"].append((time.thread_time() - cpu) * 1000)
            walls["ours"].append((time.perf_counter() - wall) * 1000)
            cpu = time.thread_time()
            sizes.append(len(naive.board(state, info)))
            times["theirs"].append((time.thread_time() - cpu) * 1000)
            cpu, wall = time.thread_time(), time.perf_counter()
            if review_board(state, info) is not None:
                times["review"].append((time.thread_time() - cpu) * 1000)
                walls["review"].append((time.perf_counter() - wall) * 1000)
    median = statistics.median
    return SideBySide(
        median(times["ours"]),
        median(times["theirs"]),
        median(times["review"]),
        median(walls["ours"]),
        median(walls["review"]),
        int(median(sizes)),
    )


ENCODINGS: tuple[tuple[str, dict[str, int | bool]], ...] = (
    *((f"level {level}", {"compress_level": level}) for level in (0, 1, 2, 3, 4, 6, 9)),
    *(
        (f"level {level} {name}", {"compress_level": level, "compress_type": strategy})
        for level in (1, 3)
        for name, strategy in (("filtered", zlib.Z_FILTERED), ("rle", zlib.Z_RLE))
    ),
    ("optimize", {"optimize": True}),
)


def encodings(rounds: int, seed: int) -> None:
    """Time and size of each of `ENCODINGS` on the frames of each game's sample."""
    print(f"{'game':<7}{'encoding':<20}{'ms':>7}{'KiB':>7}{'max KiB':>9}")
    for name in GAMES:
        frames = [
            render.frame(state, last_move=info)
            for state, info in positions(name, sample_game(name, seed))
        ]
        for label, options in ENCODINGS:
            times: list[float] = []
            sizes: list[int] = []
            for _ in range(rounds):
                for image in frames:
                    out = io.BytesIO()
                    began = time.perf_counter()
                    image.save(out, "PNG", **options)
                    times.append((time.perf_counter() - began) * 1000)
                    sizes.append(out.tell())
            print(
                f"{name:<7}{label:<20}{statistics.median(times):>7.2f}"
                f"{statistics.median(sizes) / 1024:>7.1f}{max(sizes) / 1024:>9.1f}"
            )
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def plays_for(data: bytes) -> float:
    """How long a GIF plays once through, in seconds."""
    gif = Image.open(io.BytesIO(data))
    total = 0
    for index in range(getattr(gif, "n_frames", 1)):
        gif.seek(index)
        total += int(gif.info.get("duration", 0))
    return total / 1000


def long_oware(seed: int, plies: int = 150) -> GameState:
    """The first `plies` moves of the first seeded random Oware game that lasts that long."""
    for attempt in range(200):
        rng = random.Random(seed + attempt)
        state = GAMES["oware"].new()
        while (legal := state.legal_moves()) and len(state.moves) < plies:
            state = state.play(rng.choice(legal))
        if len(state.moves) == plies:
            return state
    raise LookupError(f"no random Oware game of {plies} moves")


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
    parser.add_argument("--encodings", action="store_true", help="compare PNG encoder settings")
    args = parser.parse_args()
    if args.encodings:
        encodings(args.rounds, args.seed)
        return
    print(
        f"{'game':<7}{'moves':>6}{'board ms':>10}{'p95 ms':>8}{'hints ms':>10}{'picked ms':>11}"
        f"{'PNG KiB':>9}{'max KiB':>9}{'GIF s':>8}{'first s':>9}{'GIF KiB':>9}{'plays s':>9}"
        "  verdict"
    )
    for name in GAMES:
        game = sample_game(name, args.seed)
        median_ms, p95_ms, png, largest = board_figures(name, game, args.rounds)
        hints_ms, _, _, hints_largest = board_figures(name, game, args.rounds, hinted)
        picked_ms, _, _, picked_largest = board_figures(name, game, args.rounds, picked)
        first, gif_s, gif = replay_figures(game, args.builds)
        plays = plays_for(render.replay(game))
        ok = (
            max(median_ms, hints_ms, picked_ms) <= BOARD_MS
            and max(largest, hints_largest, picked_largest) <= BOARD_KIB * 1024
            and gif_s <= REPLAY_S
            and gif <= REPLAY_KIB * 1024
        )
        print(
            f"{name:<7}{len(game.moves):>6}{median_ms:>10.2f}{p95_ms:>8.2f}{hints_ms:>10.2f}"
            f"{picked_ms:>11.2f}{png / 1024:>9.1f}{largest / 1024:>9.1f}{gif_s:>8.3f}"
            f"{first:>9.3f}{gif / 1024:>9.0f}{plays:>9.1f}  {'ok' if ok else 'OVER BUDGET'}"
        )
    print(f"\nside by side, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("CPU ms (the thread's), and wall-clock ms of the board and the review board")
    print(
        f"{'game':<7}{'board':>8}{'naive':>8}{'ratio':>7}{'review':>8}{'÷ board':>9}"
        f"{'cold':>7}{'board wall':>12}{'review wall':>13}{'naive KiB':>11}  verdict"
    )
    for name in GAMES:
        game = sample_game(name, args.seed)
        figures = side_by_side(name, game, args.rounds)
        cold_ms = board_figures(name, game, max(1, args.rounds // 2), cold, time.thread_time)[0]
        ours, review = figures.board, figures.review
        ok = ours <= NAIVE_RATIO * figures.naive and review <= REVIEW_RATIO * ours
        print(
            f"{name:<7}{ours:>8.2f}{figures.naive:>8.2f}{ours / figures.naive:>7.2f}"
            f"{review:>8.2f}{review / ours:>9.1f}{cold_ms:>7.2f}{figures.board_wall:>12.2f}"
            f"{figures.review_wall:>13.2f}{figures.naive_bytes / 1024:>11.1f}"
            f"  {'ok' if ok else 'OVER GOAL'}"
        )
    long = long_oware(args.seed)
    began = time.perf_counter()
    data = render.replay(long)
    took = time.perf_counter() - began
    print(
        f"oware replay of {len(long.moves)} moves: built in {took:.2f} s, "
        f"{len(data) / 1024:.0f} KiB, plays {plays_for(data):.1f} s"
    )


if __name__ == "__main__":
    main()
