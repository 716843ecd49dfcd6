"""Today's `hard` or `max` against its frozen self of 7 December 2026, at equal time.

    python -m bench.strength --game oware|lasca --opponent hard|max [--games N]
                             [--scale F] [--jobs J] [--seed S] [--variant TEXT]
                             [--opening P]

Issue 31 moved the timed search of Oware and Lasca into the C kernels. This
plays the level named by --opponent (games/ai/player.think) against the same
level of the frozen copy (bench/frozen_31/, the Python search of that day),
both at the level's own budget times F (hard 1 s, max 2 s; F = 0.1 gives 0.1
and 0.2 s a move), N games (default 60), sides swapped: each pair of games
opens with the same P random plies (default 4), one game with each side
first. Both players keep their tables from one move to the next in their
worker, as in play; no pondering.

Prints, as the games end and at the close: wins, draws and losses of today's
level, its score ((wins + draws / 2) / games) with two standard errors of the
per-game results, the mean depth each side finished a searched move at
(moves from the Oware endgame tables and forced moves are not searched), the
mean seconds a move, and the load average before and after (the machine is
shared: a busy one slows both sides alike, as their times are wall-clock).
Target: a score of at least 70 %.

Measured on 7 December 2026 at commit 1b1b18a (2 shared cores, the four
runs at once, load average 0.5 at the start, 5 to 8 after), `--games 60
--scale 0.1 --jobs 2`, default rules; W-D-L of today's level, mean depth
today / frozen, the load average at the end:

    oware hard (0.1 s)  52-3-5   89.2 % +- 7.6   depth 13.1 / 9.6   load 7.7
    oware max  (0.2 s)  53-3-4   90.8 % +- 6.9   depth 13.7 / 11.5  load 6.0
    lasca hard (0.1 s)  45-11-4  84.2 % +- 7.7   depth  9.3 / 6.9   load 8.0
    lasca max  (0.2 s)  43-9-8   79.2 % +- 9.3   depth 10.6 / 8.0   load 5.3

(an earlier run of the same kernels, load 9 to 11: 92.5, 88.3, 82.5 and 83.3 %),
and the same at `--scale 0.3` (the kernels of aa80e16, both games):

    oware hard (0.3 s)  54-3-3   92.5 % +- 6.2   depth 12.8 / 9.4   load 12.0
    oware max  (0.6 s)  46-6-8   81.7 % +- 9.2   depth 17.0 / 12.9  load  4.9
    lasca hard (0.3 s)  47-10-3  86.7 % +- 7.1   depth  9.4 / 6.8   load  9.8
    lasca max  (0.6 s)  43-8-9   78.3 % +- 9.6   depth 11.2 / 8.6   load  3.3

The margin narrows with more time (each ply costs more), so at the levels'
own budgets (1 and 2 s) it may be smaller than at these scales.
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field

from bench import frozen_31
from bench.random_plies import random_plies
from games.ai.levels import level_of
from games.ai.player import think
from games.base import Side
from games.registry import GAMES

MAX_PLIES = 1000
TARGET = 70.0


@dataclass
class Moves:
    """One player's moves in a game (or many): how many, how long, how deep."""

    moves: int = 0
    seconds: float = 0.0
    depths: int = 0
    searched: int = 0

    def add(self, other: Moves) -> None:
        self.moves += other.moves
        self.seconds += other.seconds
        self.depths += other.depths
        self.searched += other.searched

    def depth(self) -> str:
        return f"{self.depths / self.searched:.1f}" if self.searched else "-"

    def per_move(self) -> str:
        return f"{self.seconds / self.moves:.3f} s" if self.moves else "-"


@dataclass
class Game:
    """A finished game: today's level's result (1, 0.5, 0) and each side's moves."""

    result: float
    plies: int
    new: Moves = field(default_factory=Moves)
    old: Moves = field(default_factory=Moves)


def play_game(
    game: str, variant: str, level: str, budget: float, opening: int, seed: int, new_side: int
) -> Game:
    """One game from `opening` random plies drawn from `seed`; today's level plays `new_side`."""
    rng = random.Random(seed)
    state = random_plies(GAMES[game].new(variant), opening, rng)
    new, old = Moves(), Moves()
    plies = 0
    while state.legal_moves() and plies < MAX_PLIES:
        mover = new if int(state.to_move) == new_side else old
        began = time.perf_counter()
        if mover is new:
            found = think(state, level, budget=budget, seed=seed * 1000 + plies)
            move, nodes, depth = found.move, found.nodes, found.depth
        else:
            past = frozen_31.think(state, level, budget=budget, seed=seed * 1000 + plies)
            move, nodes, depth = past.move, past.nodes, past.depth
        mover.moves += 1
        mover.seconds += time.perf_counter() - began
        if nodes:
            mover.depths += depth
            mover.searched += 1
        state = state.play(move)
        plies += 1
    outcome = state.outcome()
    winner = outcome.winner if outcome else None
    score = 0.5 if winner is None else 1.0 if winner == Side(new_side) else 0.0
    return Game(score, plies, new, old)


@dataclass
class Tally:
    results: list[float] = field(default_factory=list)
    plies: int = 0
    new: Moves = field(default_factory=Moves)
    old: Moves = field(default_factory=Moves)

    def add(self, game: Game) -> None:
        self.results.append(game.result)
        self.plies += game.plies
        self.new.add(game.new)
        self.old.add(game.old)

    def line(self) -> str:
        n = len(self.results)
        wins = self.results.count(1.0)
        draws = self.results.count(0.5)
        losses = n - wins - draws
        score = sum(self.results) / n
        spread = math.sqrt(sum((r - score) ** 2 for r in self.results) / max(n - 1, 1))
        error = 2 * spread / math.sqrt(n)
        return (
            f"{n} games: W-D-L {wins}-{draws}-{losses}, score {100 * score:.1f} % "
            f"± {100 * error:.1f} (2 s.e.); depth new {self.new.depth()} "
            f"old {self.old.depth()}; a move new {self.new.per_move()} old {self.old.per_move()}; "
            f"{self.plies / n:.0f} plies a game"
        )


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def play_match(play: Callable[[int, int], Game], games: int, jobs: int, seed: int) -> Tally:
    """`games` games of `play(opening seed, the new player's side)` in `jobs` processes
    (`play` a module function or a partial of one), sides swapped, both games of a pair from
    the same opening; a line of the tally every ten games."""
    tally = Tally()
    with ProcessPoolExecutor(jobs) as pool:
        futures = [
            pool.submit(play, seed * 100_000 + index // 2, index % 2) for index in range(games)
        ]
        for done in as_completed(futures):
            tally.add(done.result())
            if len(tally.results) % 10 == 0 and len(tally.results) < games:
                print(f"  {tally.line()}; load {load()}", flush=True)
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("oware", "lasca"), required=True)
    parser.add_argument("--opponent", choices=("hard", "max"), required=True)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--scale", type=float, default=0.1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--variant", default="")
    parser.add_argument("--opening", type=int, default=4)
    args = parser.parse_args()
    level = args.opponent
    budget = level_of(level).budget * args.scale
    print(
        f"{args.game} {args.variant or '(default rules)'}: today's {level} against the frozen "
        f"{level} (bench/frozen_31), {budget:.3f} s a move each, {args.games} games, sides "
        f"swapped, pairs from {args.opening} shared random plies; load {load()}",
        flush=True,
    )
    play = functools.partial(play_game, args.game, args.variant, level, budget, args.opening)
    tally = play_match(play, args.games, args.jobs, args.seed)
    verdict = "ok" if 100 * sum(tally.results) / len(tally.results) >= TARGET else "BELOW 70 %"
    print(f"{tally.line()} [{verdict}]; load {load()}", flush=True)


if __name__ == "__main__":
    main()
