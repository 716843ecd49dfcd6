"""Strength of the computer opponents, in games played against reference players.

    python -m bench.ai [--games N] [--budget S] [--oska-games N] [--jobs J]
                       [--only oware,lasca,oska] [--seed N] [--baseline]
                       [--no-tables]

Oware and Lasca: `hard` (S seconds a move, default 1) against the baseline
(alpha-beta to depth 4 on material alone) and against a greedy player (the
move with the best material right after it), N games each (default 100),
sides swapped every other game; each pair of games starts from the same few
random opening plies, so that the games differ. Prints wins, draws and losses
of `hard`, the mean time per move of both players, and `hard`'s nodes per
second. Target: `hard` wins at least 90 % against the baseline.

Oska: `max` against every other level and the baseline, in every variant,
sides swapped. For each position `max` faced the table gives its value;
`lost from non-lost` counts games `max` lost after facing a position the
table says is won or drawn. Target: 0.

With `--baseline`: only Oware and Lasca, today's `hard` against the frozen
copy of the search before issue 17 (bench/baseline_ai/, its `hard`), both at
S seconds a move, N games a game, sides swapped, each pair from the same
random opening plies. Prints wins, draws and losses of today's `hard`, its
score ((wins + draws / 2) / games) and the mean seconds and depth a move of
both. Target: a score of at least 70 %. Today's `hard` plays Oware from the
endgame tables; `--no-tables` leaves them out, to measure the search alone.

Games run in J worker processes (default: the CPU count); the times are
wall-clock, so a busy machine lowers the nodes per second.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from bench import baseline_ai
from bench.random_plies import random_plies
from games.ai import oware_tables
from games.ai.oska_game import masks, pending_of, rules_of
from games.ai.oska_solver import value
from games.ai.player import think, warm_up
from games.ai.reference import baseline_move, greedy_move
from games.base import GameState, Side
from games.registry import GAMES

OPENING_PLIES = {"oware": 2, "lasca": 2, "oska": 0}
FROZEN = "old-hard"  # the frozen copy's `hard` (bench/baseline_ai/)
SCORE_TARGET = 70.0
MAX_PLIES = 1000


@dataclass
class Tally:
    """One side's moves, seconds and nodes over a game (or many)."""

    moves: int = 0
    seconds: float = 0.0
    nodes: int = 0
    search_seconds: float = 0.0
    depths: int = 0  # the depths reached, summed over the searched moves
    searched: int = 0

    def add(self, other: Tally) -> None:
        self.moves += other.moves
        self.seconds += other.seconds
        self.nodes += other.nodes
        self.search_seconds += other.search_seconds
        self.depths += other.depths
        self.searched += other.searched


@dataclass
class GameRecord:
    """A finished game: who won, and what each player spent."""

    winner: Side | None
    plies: int
    tallies: tuple[Tally, Tally]
    # Oska: the solved value of every position `max` was to move in, its view.
    faced: list[int] = field(default_factory=list)


def move_of(player: str, state: GameState, budget: float, seed: int, tally: Tally) -> str:
    """One move of `player`: a level name, `baseline`, `greedy` or FROZEN."""
    began = time.perf_counter()
    depth = 0
    if player == FROZEN:
        old = baseline_ai.think(state, "hard", budget=budget, seed=seed)
        move, nodes, depth = old.move, old.nodes, old.depth
    elif player == "baseline":
        result = baseline_move(state, seed=seed)
        move, nodes = result.move, result.nodes
    elif player == "greedy":
        move, nodes = greedy_move(state, seed=seed), 0
    else:
        result = think(state, player, budget=budget, seed=seed)
        move, nodes, depth = result.move, result.nodes, result.depth
    spent = time.perf_counter() - began
    tally.moves += 1
    tally.seconds += spent
    if nodes:
        tally.nodes += nodes
        tally.search_seconds += spent
        tally.depths += depth
        tally.searched += 1
    return move


def _no_tables() -> bool:
    return False


def without_tables() -> None:
    """A worker initializer: the Oware endgame tables count as absent."""
    oware_tables.present = _no_tables  # type: ignore[assignment]


def oska_value(state: GameState) -> int:
    mode, elimination = rules_of(state.variant)
    return value(*masks(state), mode, elimination, pending_of(state))  # type: ignore[arg-type]


def play_game(
    game: str, variant: str, players: tuple[str, str], budget: float, opening: int, seed: int
) -> GameRecord:
    """One game from `opening` random plies (drawn from `seed`), `players[0]` first."""
    rng = random.Random(seed)
    state = random_plies(GAMES[game].new(variant), opening, rng)
    tallies = (Tally(), Tally())
    faced: list[int] = []
    plies = 0
    while state.legal_moves() and plies < MAX_PLIES:
        side = int(state.to_move)
        if game == "oska" and players[side] == "max":
            faced.append(oska_value(state))
        move = move_of(players[side], state, budget, seed * 1000 + plies, tallies[side])
        state = state.play(move)
        plies += 1
    outcome = state.outcome()
    return GameRecord(outcome.winner if outcome else None, plies, tallies, faced)


@dataclass
class Match:
    """`player` against `opponent`, `games` games with sides swapped."""

    game: str
    variant: str
    player: str
    opponent: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    mine: Tally = field(default_factory=Tally)
    theirs: Tally = field(default_factory=Tally)
    non_lost: int = 0  # Oska: games where `max` faced a won or drawn position
    lost_from_non_lost: int = 0

    def add(self, record: GameRecord, player_side: Side) -> None:
        if record.winner is None:
            self.draws += 1
        elif record.winner == player_side:
            self.wins += 1
        else:
            self.losses += 1
        self.mine.add(record.tallies[player_side])
        self.theirs.add(record.tallies[1 - player_side])
        if record.faced and max(record.faced) >= 0:
            self.non_lost += 1
            if record.winner is not None and record.winner != player_side:
                self.lost_from_non_lost += 1


def run_match(
    pool: ProcessPoolExecutor,
    game: str,
    variant: str,
    player: str,
    opponent: str,
    games: int,
    budget: float,
    seed: int,
) -> Match:
    match = Match(game, variant, player, opponent)
    futures = []
    for index in range(games):
        side = Side(index % 2)
        players = (player, opponent) if side is Side.FIRST else (opponent, player)
        # Both games of a pair open with the same random plies.
        opening_seed = seed * 100_000 + index // 2
        futures.append(
            (
                side,
                pool.submit(
                    play_game, game, variant, players, budget, OPENING_PLIES[game], opening_seed
                ),
            )
        )
    for side, future in futures:
        match.add(future.result(), side)
    return match


def _per_move(tally: Tally) -> str:
    return f"{tally.seconds / tally.moves:.3f}" if tally.moves else "-"


def _nodes_per_second(tally: Tally) -> str:
    return f"{tally.nodes / tally.search_seconds:,.0f}" if tally.search_seconds else "-"


def search_report(matches: Iterable[Match], budget: float) -> None:
    print(f"{'game':<7}{'hard vs':<10}{'W':>5}{'D':>5}{'L':>5}{'win %':>8}"
          f"{'hard s/move':>13}{'opp s/move':>12}{'nodes/s':>10}  target")  # fmt: skip
    for m in matches:
        played = m.wins + m.draws + m.losses
        rate = 100 * m.wins / played if played else 0.0
        target = ("ok" if rate >= 90 else "BELOW 90 %") if m.opponent == "baseline" else ""
        print(
            f"{m.game:<7}{m.opponent:<10}{m.wins:>5}{m.draws:>5}{m.losses:>5}{rate:>7.1f}%"
            f"{_per_move(m.mine):>13}{_per_move(m.theirs):>12}{_nodes_per_second(m.mine):>10}"
            f"  {target}"
        )
    print(f"(hard at {budget:g} s a move)")


def _depth(tally: Tally) -> str:
    return f"{tally.depths / tally.searched:.1f}" if tally.searched else "-"


def baseline_report(matches: Iterable[Match], budget: float) -> None:
    print(f"{'game':<7}{'W':>5}{'D':>5}{'L':>5}{'score':>8}{'new s/move':>12}"
          f"{'old s/move':>12}{'new depth':>11}{'old depth':>11}  target")  # fmt: skip
    for m in matches:
        played = m.wins + m.draws + m.losses
        score = 100 * (m.wins + m.draws / 2) / played if played else 0.0
        target = "ok" if score >= SCORE_TARGET else f"BELOW {SCORE_TARGET:g} %"
        print(
            f"{m.game:<7}{m.wins:>5}{m.draws:>5}{m.losses:>5}{score:>7.1f}%"
            f"{_per_move(m.mine):>12}{_per_move(m.theirs):>12}"
            f"{_depth(m.mine):>11}{_depth(m.theirs):>11}  {target}"
        )
    print(f"(both at {budget:g} s a move; W\u2013D\u2013L of today's hard)")


def oska_report(matches: Iterable[Match]) -> None:
    print(f"{'variant':<34}{'max vs':<10}{'W':>5}{'D':>5}{'L':>5}"
          f"{'non-lost':>10}{'lost from non-lost':>20}")  # fmt: skip
    total = 0
    for m in matches:
        total += m.lost_from_non_lost
        variant = m.variant or "default"
        print(
            f"{variant:<34}{m.opponent:<10}{m.wins:>5}{m.draws:>5}{m.losses:>5}"
            f"{m.non_lost:>10}{m.lost_from_non_lost:>20}"
        )
    print(f"max lost a theoretically non-lost game {total} times (target 0)")


def main() -> None:
    parser = argparse.ArgumentParser(description="strength of the computer opponents")
    parser.add_argument("--games", type=int, default=100, help="Oware and Lasca, per match")
    parser.add_argument("--budget", type=float, default=1.0, help="seconds a move for hard")
    parser.add_argument("--oska-games", type=int, default=20, help="per variant and opponent")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", default="oware,lasca,oska", help="comma-separated games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--baseline", action="store_true", help="hard against the frozen copy of the old search"
    )
    parser.add_argument(
        "--no-tables", action="store_true", help="with --baseline: no Oware endgame tables"
    )
    args = parser.parse_args()
    only = [name.strip() for name in args.only.split(",") if name.strip()]
    began = time.perf_counter()
    if args.baseline:
        initializer = without_tables if args.no_tables else None
        with ProcessPoolExecutor(args.jobs, initializer=initializer) as pool:
            tables = "without" if args.no_tables else "with"
            print(f"hard ({tables} the Oware endgame tables) against the old hard "
                  f"(bench/baseline_ai), {args.games} games each, sides swapped, "
                  f"{args.jobs} jobs")  # fmt: skip
            found = []
            for name in ("oware", "lasca"):
                if name in only:
                    found.append(
                        run_match(
                            pool, name, "", "hard", FROZEN, args.games, args.budget, args.seed
                        )
                    )
                    baseline_report(found[-1:], args.budget)
            if len(found) > 1:
                print()
                print("summary")
                baseline_report(found, args.budget)
        print(f"total {time.perf_counter() - began:.0f} s")
        return
    with ProcessPoolExecutor(args.jobs, initializer=warm_up) as pool:
        search_games = [name for name in ("oware", "lasca") if name in only]
        if search_games:
            print(f"hard against the baseline (depth 4, material) and greedy, "
                  f"{args.games} games each, sides swapped, {args.jobs} jobs")  # fmt: skip
            matches = []
            for name in search_games:
                for opponent in ("baseline", "greedy"):
                    matches.append(
                        run_match(
                            pool, name, "", "hard", opponent, args.games, args.budget, args.seed
                        )
                    )
                    search_report(matches[-1:], args.budget)
            print()
            print("summary")
            search_report(matches, args.budget)
            print()
        if "oska" in only:
            print(f"Oska: max against every level and the baseline, "
                  f"{args.oska_games} games per variant and opponent, sides swapped")  # fmt: skip
            n = args.oska_games
            oska = [
                run_match(pool, "oska", str(variant), "max", opponent, n, 0, args.seed)
                for variant in GAMES["oska"].all_variants()
                for opponent in ("easy", "medium", "hard", "baseline")
            ]
            oska_report(oska)
    print(f"total {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
