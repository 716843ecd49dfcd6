"""Ratings of the computer levels, on Kamen's engine scale, and the steps of the ladder.

    python -m bench.levels [--games N] [--scale F] [--jobs J]
                           [--only oware,lasca,oska] [--seed N] [--wide] [--old]

The anchor: fixed reference programs whose strength does not depend on the
machine, a uniformly random mover (`random`) and plain full-width alpha-beta
on material alone, no capture search, to 1, 2 and 4 plies (`ab1`, `ab2`,
`ab4`; games.ai.reference.baseline_move, `ab4` is bench/ai.py's baseline).
The scale is fixed by `ab4` = 1000 in every game: level "5 ≈ 1300" means
a level expected to score about 85 % against that program (a rating 300
above). It is not the players' rating scale (no rated person has played
these programs), so the bot says "Kamen's engine scale" with the number.

For each game these pairs play N games each (default 10), sides swapped,
each pair of games from the same random opening plies:
- the references' chain: random-ab1, ab1-ab2, ab2-ab4;
- the links to the levels: ab2-1, ab4-1, ab4-3, ab4-5;
- the levels' steps, every pair of neighbours in games.ai.levels.LEVELS
  (1-2, 2-3, ...); with `--wide`, every pair two
  apart too (more games for the fit, most of them one-sided).
`hard` and `max` think for their own budget times F (default 1; a smaller F
makes a quicker, rougher measurement of them, whose strength grows with
time); the fixed-depth levels search their depths within their whole budget,
as in the bot. With `--old`, Oware and Lasca add the `hard` of before issue 17
(bench/baseline_ai/, shown as `old-hard`) against levels 3 (medium) and 7 (hard).

Prints every pair's wins, draws and losses (of the first named, the weaker
one), then each step of the ladder with the stronger level's score (wins
and half the draws, of the games; the target is 70-80 %), then the ratings:
a Bradley-Terry fit on the Elo scale (a player rated 400 above another is
expected to score 10 to 1 against it), `ab4` at 1000, each pair counting one
virtual draw so that a pair won every time still gives a finite gap, with a
rough +/- (two standard errors of the fit), for games.ai.levels.Level.ratings.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import time
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass

from bench import baseline_ai
from games.ai.levels import ANCHOR_DEPTH, ANCHOR_RATING, LEVELS, level_of
from games.ai.player import choose_move, warm_up
from games.ai.reference import baseline_move
from games.base import GameState, Side
from games.registry import GAMES

RANDOM = "random"
REFERENCES = {"ab1": 1, "ab2": 2, "ab4": 4}  # material alpha-beta: its depth in plies
OLD = "old-hard"
ANCHOR_PLAYER = f"ab{ANCHOR_DEPTH}"
ANCHOR = float(ANCHOR_RATING)  # the rating of ANCHOR_PLAYER
LINKS = (("ab2", "1"), ("ab4", "1"), ("ab4", "3"), ("ab4", "5"))
ELO = 400 / math.log(10)  # Elo points per unit of the logistic's argument
OPENING_PLIES = {"oware": 2, "lasca": 2, "oska": 0}
MAX_PLIES = 1000


def pairs(old: bool, wide: bool = False) -> list[tuple[str, str]]:
    """The pairs to play, the weaker first: the references' chain, their
    links to the levels, the levels' neighbours; with `wide` those two apart
    too, with `old` OLD against levels 3 and 7."""
    chain = (RANDOM, *REFERENCES)
    found = [(chain[i], chain[i + 1]) for i in range(len(chain) - 1)]
    found += [link for link in LINKS if link[1] in LEVELS]
    for gap in (1, 2) if wide else (1,):
        found += [(LEVELS[i], LEVELS[i + gap]) for i in range(len(LEVELS) - gap)]
    if old:
        found += [("3", OLD), (OLD, "7")]
    return found


def move_of(player: str, state: GameState, scale: float, seed: int) -> str:
    if player == RANDOM:
        return random.Random(seed).choice(state.legal_moves())
    if player in REFERENCES:
        return baseline_move(state, REFERENCES[player], seed=seed).move
    if player == OLD:
        budget = level_of("hard").budget * scale
        return baseline_ai.think(state, "hard", budget=budget, seed=seed).move
    level = level_of(player, state.spec.name)
    # A fixed-depth level's budget is only a cap: kept whole, it plays as in the bot.
    budget = level.budget * (scale if level.depth is None else 1)
    return choose_move(state, player, budget=budget, seed=seed)


def play_game(game: str, players: tuple[str, str], scale: float, seed: int) -> float:
    """One game, `players[0]` first, from random opening plies drawn from
    `seed`: the score of `players[0]` (1, 0.5 or 0)."""
    rng = random.Random(seed)
    state = GAMES[game].new()
    for _ in range(OPENING_PLIES[game]):
        state = state.play(rng.choice(state.legal_moves()))
    plies = 0
    while (legal := state.legal_moves()) and plies < MAX_PLIES:
        player = players[int(state.to_move)]
        move = move_of(player, state, scale, seed * 1000 + plies) if len(legal) > 1 else legal[0]
        state = state.play(move)
        plies += 1
    outcome = state.outcome()
    if outcome is None or outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner == Side.FIRST else 0.0


@dataclass
class PairResult:
    """Games between two players, from the first one's side."""

    first: str
    second: str
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def add(self, score: float) -> None:
        if score == 1:
            self.wins += 1
        elif score == 0:
            self.losses += 1
        else:
            self.draws += 1

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """The first player's points, with the virtual draw."""
        return self.wins + 0.5 * self.draws + 0.5

    @property
    def step(self) -> float:
        """The second (stronger) player's share of the points, without the virtual draw."""
        return (self.losses + 0.5 * self.draws) / self.games if self.games else 0.5


def fit(
    results: list[PairResult], anchor: str = ANCHOR_PLAYER, rating: float = ANCHOR
) -> dict[str, tuple[float, float]]:
    """Bradley-Terry ratings (Elo scale, `anchor` at `rating`) and two
    standard errors each, from the pairs' results with one virtual draw a pair."""
    players = sorted({r.first for r in results} | {r.second for r in results})
    strength = dict.fromkeys(players, 1.0)
    for _ in range(2000):  # the minorization-maximization iteration (Hunter 2004)
        new = {}
        for player in players:
            points, weight = 0.0, 0.0
            for r in results:
                if player not in (r.first, r.second):
                    continue
                other = r.second if player == r.first else r.first
                games = r.games + 1
                points += r.score if player == r.first else games - r.score
                weight += games / (strength[player] + strength[other])
            new[player] = points / weight if weight else strength[player]
        norm = new[anchor]
        new = {p: s / norm for p, s in new.items()}
        change = max(abs(math.log(new[p] / strength[p])) for p in players)
        strength = new
        if change < 1e-9:
            break
    ratings = {p: rating + ELO * math.log(strength[p]) for p in players}
    errors = {}
    for player in players:
        info = 0.0  # the Fisher information of the player's own rating, others fixed
        for r in results:
            if player not in (r.first, r.second):
                continue
            other = r.second if player == r.first else r.first
            expected = strength[player] / (strength[player] + strength[other])
            info += (r.games + 1) * expected * (1 - expected)
        errors[player] = 2 * ELO / math.sqrt(info) if info and player != anchor else 0.0
    return {p: (ratings[p], errors[p]) for p in players}


def measure(
    pool: ProcessPoolExecutor,
    game: str,
    games: int,
    scale: float,
    seed: int,
    old: bool,
    wide: bool = False,
) -> list[PairResult]:
    pending: list[tuple[PairResult, bool, Future[float]]] = []
    results = []
    for number, (weaker, stronger) in enumerate(pairs(old, wide)):
        result = PairResult(weaker, stronger)
        results.append(result)
        for index in range(games):
            swapped = index % 2 == 1
            players = (stronger, weaker) if swapped else (weaker, stronger)
            opening = seed * 100_000 + number * 1000 + index // 2
            future = pool.submit(play_game, game, players, scale, opening)
            pending.append((result, swapped, future))
    for result, swapped, future in pending:
        score = future.result()
        result.add(1 - score if swapped else score)
    return results


def report(game: str, results: list[PairResult]) -> None:
    print(f"{game}:")
    for r in results:
        print(f"  {r.first:>11} vs {r.second:<11} {r.wins:>3} {r.draws:>3} {r.losses:>3}")
    print("  steps (W D L of the stronger, its score):")
    for r in results:
        if r.first in LEVELS and LEVELS.index(r.second) == LEVELS.index(r.first) + 1:
            wdl = f"{r.losses:>3} {r.draws:>3} {r.wins:>3}"
            print(f"  {r.second:>11} over {r.first:<11} {wdl}  {100 * r.step:5.1f} %")
    rated = fit(results)
    for player in sorted(rated, key=lambda p: rated[p][0]):
        rating, error = rated[player]
        print(f"  {player:<11} {rating:>6.0f}  +/- {error:.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description="ratings of the computer levels")
    parser.add_argument("--games", type=int, default=10, help="per pair of players")
    parser.add_argument("--scale", type=float, default=1.0, help="times each level's budget")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", default="oware,lasca,oska", help="comma-separated games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--wide", action="store_true", help="levels two apart play too")
    parser.add_argument("--old", action="store_true", help="rate the old hard too")
    args = parser.parse_args()
    only = [name.strip() for name in args.only.split(",") if name.strip()]
    began = time.perf_counter()
    print(f"levels against each other, {args.games} games a pair, budgets x{args.scale:g}, "
          f"W D L of the first named, {ANCHOR_PLAYER} = {ANCHOR:g}, "
          f"load average {os.getloadavg()[0]:.2f}")  # fmt: skip
    with ProcessPoolExecutor(args.jobs, initializer=warm_up) as pool:
        for game in only:
            old = args.old and game in ("oware", "lasca")
            results = measure(pool, game, args.games, args.scale, args.seed, old, args.wide)
            report(game, results)
    print(f"total {time.perf_counter() - began:.0f} s, load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
