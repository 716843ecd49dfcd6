"""Build the shipped puzzles: `python -m games.ai.make_puzzles --game oska --count 250`.

Candidates come from self-play: a random opening of 0 to 6 random moves,
then the `easy` or `medium` level against `hard` (with a short budget), every
position of the game a candidate (each position once). With `--records FILE...`
they come from finished games instead: every position of the game's records in
those files (what `/<game> history` and `/kamen me export` give), each once:

    python -m games.ai.make_puzzles --game oska --records export.txt A candidate becomes a
puzzle when exactly one legal move reaches the best result class, every other
move is strictly worse, and the puzzle is not trivial (`trivial`): a single
legal move; a choice among compulsory captures that all take the same number
of pieces; an Oska win in one ply; a solution that a one-ply greedy look (the
most material at once, no reply considered) already singles out. Only the
default variant of each game.

How a position's verdict is reached: `games.ai.verify_puzzles.verdict`, the
rules every shipped puzzle is checked by (its docstring says them): the solved
table for Oska, the endgame tables alone for Oware with 12 seeds or fewer on
the board, else the C kernels' full-width search, which must prove that
exactly one move wins by force (or that exactly one does not lose by force)
at 20 plies in Oware, 16 in Lasca, and again 2 plies deeper. A search proof
costs seconds a position, so `worth_proving` first passes over most positions
a proof would refuse (a screen that may miss a puzzle, never lets a wrong one
in); even so a build finds Oware and Lasca puzzles slowly.

The file is rewritten after every game, so a long build can be stopped and
resumed: without --fresh it starts from the puzzles already there, less any
this build's filters would refuse.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from games.ai import adapters as _ADAPTERS
from games.ai import player as _PLAYER
from games.ai import search as _SEARCH
from games.ai import verify_puzzles as _VERIFY
from games.ai.verify_puzzles import Found
from games.base import GameError, GameState
from games.puzzles import Goal, Puzzle, dumps, load, path_of, puzzle_id
from games.record import parse_record
from games.registry import get

INF: int = _SEARCH.INF
MATE_ZONE: int = _SEARCH.MATE_ZONE  # a search score this high is a won game

MARGIN = {"oware": 200, "lasca": 100}  # what the greedy look counts as singling a move out
QUIESCENCE = 4
HARD_BUDGET = 0.25  # seconds for the `hard` side's moves
MAX_PLIES = 240
SCREEN = 6  # plies less deep than the proof, for `worth_proving`'s look


# ------------------------------------------------------------- the greedy look


class Minimax:
    """A plain fixed-depth alpha-beta over a search adapter (`games.ai.search.Adapter`),
    for `trivial`'s one-ply greedy look: its values are the exact minimax values of
    the depth, whatever the move order. At the horizon, `quiescence` plies of the
    adapter's tactical moves (captures) with a stand-pat where they are not forced.
    The table holds values by position and depth left, so a hit is a value of the
    same depth; the adapters key a position with what its draw rules need.
    """

    def __init__(self, game: Any, quiescence: int) -> None:
        self.game = game
        self.quiescence = quiescence
        self.table: dict[Any, tuple[int, int]] = {}
        self.best: dict[Any, Any] = {}

    def root(self, root: Any, depth: int) -> dict[Any, int]:
        _, moves = self.game.expand(root)
        return {
            move: -self.value(self.game.play(root, move), depth - 1, -INF, INF, 1) for move in moves
        }

    def value(self, pos: Any, depth: int, alpha: int, beta: int, ply: int) -> int:
        game = self.game
        terminal, moves = game.expand(pos)
        if terminal is not None:
            return _distance(terminal, ply)
        if depth <= 0:
            return self.quiesce(pos, moves, alpha, beta, ply, self.quiescence)
        position = game.key(pos)
        key = (position, depth)
        found = self.table.get(key)
        if found is not None:
            low, high = (_from_tt(bound, ply) for bound in found)
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
            alpha, beta = max(alpha, low), min(beta, high)
        hint = self.best.get(position)
        ordered = list(moves)
        if hint in ordered:
            ordered.remove(hint)
            ordered.insert(0, hint)
        start_alpha, start_beta = alpha, beta
        best, best_move = -INF, ordered[0]
        for move in ordered:
            score = -self.value(game.play(pos, move), depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best, best_move = score, move
                alpha = max(alpha, score)
                if alpha >= beta:
                    break
        self.best[position] = best_move
        low, high = found if found is not None else (-INF, INF)
        low, high = _from_tt(low, ply), _from_tt(high, ply)
        if best <= start_alpha:
            high = min(high, best)
        elif best >= start_beta:
            low = max(low, best)
        else:
            low = high = best
        self.table[key] = (_to_tt(low, ply), _to_tt(high, ply))
        return best

    def quiesce(self, pos: Any, moves: Any, alpha: int, beta: int, ply: int, left: int) -> int:
        game = self.game
        if left <= 0:
            return int(game.evaluate(pos))
        forced, tactical = game.tactics(pos, moves)
        if forced:
            best = -INF
        else:
            best = int(game.evaluate(pos))
            if best >= beta or not tactical:
                return best
            alpha = max(alpha, best)
        for move in tactical:
            child = game.play(pos, move)
            terminal, child_moves = game.expand(child)
            if terminal is not None:
                score = -_distance(terminal, ply + 1)
            else:
                score = -self.quiesce(child, child_moves, -beta, -alpha, ply + 1, left - 1)
            if score > best:
                best = score
                alpha = max(alpha, score)
                if alpha >= beta:
                    break
        return best


def _distance(terminal: int, ply: int) -> int:
    """A finished game's score `ply` plies from the root: quick wins, slow losses."""
    if terminal > 0:
        return terminal - ply
    return terminal + ply if terminal < 0 else 0


def _to_tt(value: int, ply: int) -> int:
    if value >= MATE_ZONE and value < INF:
        return value + ply
    if value <= -MATE_ZONE and value > -INF:
        return value - ply
    return value


def _from_tt(value: int, ply: int) -> int:
    if value >= MATE_ZONE and value < INF:
        return value - ply
    if value <= -MATE_ZONE and value > -INF:
        return value + ply
    return value


def search_scores(state: GameState, depth: int, quiescence: int = QUIESCENCE) -> dict[str, int]:
    """Every legal move's minimax value at `depth` (material evaluation, from the
    mover's view), deepening from 1 for the move order only."""
    game, root = _ADAPTERS.searchable(state, baseline=True)
    searcher = Minimax(game, quiescence)
    scores: dict[Any, int] = {}
    for current in range(1, depth + 1):
        scores = searcher.root(root, current)
    return {game.text(root, move): value for move, value in scores.items()}


def unique_best(scores: dict[str, int], margin: int) -> str | None:
    """The move that beats every other by at least `margin`, if there is one."""
    if len(scores) < 2:
        return None
    ranked = sorted(scores, key=scores.__getitem__, reverse=True)
    if scores[ranked[0]] - scores[ranked[1]] < margin:
        return None
    return ranked[0]


# ---------------------------------------------------------------- verdicts


def verdict(state: GameState, depth: int | None = None) -> Found | None:
    """The position's one proven solving move by `verify_puzzles.verdict`, or None
    (refused); `depth` is the search's (default verify_puzzles.DEPTH of the game)."""
    if not worth_proving(state, depth):
        return None
    try:
        return _VERIFY.verdict(state, depth)
    except _VERIFY.Refused:
        return None


def worth_proving(state: GameState, depth: int | None = None) -> bool:
    """A cheap look that skips most positions a proof would refuse (it decides
    nothing: what it lets through is proven or refused by `verify_puzzles`).

    Searched positions only (the tables and the Oska table are quick): the same
    search SCREEN plies less deep than the proof must already see a move win by
    force, or a move lose by force (a position where nothing is decided yet that
    deep is passed over, though the deeper proof might find a puzzle there)."""
    name = state.spec.name
    if name == "oska" or (name == "oware" and _VERIFY.in_tables(state)):
        return True
    if len(state.legal_moves()) < 2:
        return False
    shallow = max(1, (depth or _VERIFY.DEPTH[name]) - SCREEN)
    win = _VERIFY.SEARCH_WIN
    if _VERIFY.search_value(state, shallow, win - 1, win) >= win:
        return True
    return any(_VERIFY.loses_by_force(state, move, shallow) for move in state.legal_moves())


def trivial(state: GameState, solution: str, goal: Goal, depth: int) -> bool:
    """A puzzle the rules or a one-ply look already solve: a single legal move;
    a choice among compulsory captures that all take the same number of pieces
    (Oska, Lasca); an Oska win in one ply; a solution that the greedy one-ply
    look (most material at once, no reply) singles out (Oware, Lasca)."""
    legal = state.legal_moves()
    if len(legal) < 2:
        return True
    name = state.spec.name
    captures = name != "oware" and all("x" in move for move in legal)
    if captures and len({move.count("x") for move in legal}) == 1:
        return True
    if name == "oska":
        return goal == "win" and depth <= 1
    greedy = unique_best(search_scores(state, 1, quiescence=0), MARGIN[name])
    return greedy == solution


def theme_of(state: GameState, move: str) -> str:
    """`ends-game`, `capture` or `quiet`."""
    after = state.play(move)
    if after.outcome() is not None:
        return "ends-game"
    info = state.describe(move)
    return "capture" if info.captured else "quiet"


# -------------------------------------------------------------- self-play


def self_play(game: str, rng: random.Random, hard_budget: float) -> Iterator[GameState]:
    """The positions of one game: a random opening, then easy or medium against hard."""
    state = get(game).new()
    for _ in range(rng.randint(0, 6)):
        legal = state.legal_moves()
        if not legal:
            return
        state = state.play(rng.choice(legal))
    weak = rng.choice(("easy", "medium"))
    weak_side = rng.randint(0, 1)
    while state.legal_moves() and len(state.moves) < MAX_PLIES:
        yield state
        if int(state.to_move) == weak_side:
            move = _PLAYER.choose_move(state, weak, seed=rng.randrange(1 << 30))
        else:
            move = _PLAYER.choose_move(
                state, "hard", budget=hard_budget, seed=rng.randrange(1 << 30)
            )
        state = state.play(move)


def records_of(text: str) -> list[str]:
    """The game records in a text: one, several one after another (a `/kamen me export`
    file: its `=== ... ===` header lines are skipped), each from its `[Game` tag."""
    found: list[list[str]] = []
    for line in text.splitlines():
        if line.startswith("=== ") and line.endswith(" ==="):
            continue
        if line.startswith("[Game "):
            found.append([])
        if found:
            found[-1].append(line)
    return ["\n".join(lines) + "\n" for lines in found]


def recorded(game: str, texts: Sequence[str]) -> Iterator[Iterator[GameState]]:
    """The positions of every finished or played game of `game` in the record `texts`,
    a game at a time (a record of another game, or one that does not load, is passed)."""
    for text in texts:
        for one in records_of(text):
            try:
                found = parse_record(one)
            except GameError:
                continue
            if found.spec.name == game:
                yield _positions(found.spec.replay(found.variant, ()), found.moves)


def _positions(state: GameState, moves: Sequence[str]) -> Iterator[GameState]:
    for move in moves:
        if not state.legal_moves():
            return
        yield state
        try:
            state = state.play(move)
        except GameError:
            return


def position_key(state: GameState) -> str:
    return state.to_text()


def build(
    game: str,
    count: int,
    *,
    seed: int,
    minutes: float,
    append: bool,
    hard_budget: float = HARD_BUDGET,
    depth: int | None = None,
    log: Callable[[str], None] = print,
    records: Sequence[str] = (),
) -> list[Puzzle]:
    """Play games until the file holds `count` puzzles or `minutes` are up,
    writing the file after every game; with `records` (texts of game records),
    look through those games instead, each once."""
    name = get(game).name
    puzzles = []
    seen = set()
    for puzzle in load(name) if append else ():
        # What the filters of this build would throw out goes, too.
        state = get(name).replay(puzzle.variant, puzzle.moves)
        seen.add(position_key(state))
        if not trivial(state, puzzle.solution, puzzle.goal, puzzle.depth):
            puzzles.append(puzzle)
    rng = random.Random(seed)
    began = time.monotonic()
    games = 0
    sources = recorded(name, records) if records else None
    while len(puzzles) < count and time.monotonic() - began < 60 * minutes:
        positions: Iterator[GameState] | None = (
            self_play(name, rng, hard_budget) if sources is None else next(sources, None)
        )
        if positions is None:
            break  # every recorded game looked through
        games += 1
        added = 0
        for state in positions:
            key = position_key(state)
            if key in seen:
                continue
            seen.add(key)
            found = verdict(state, depth)
            if found is None or trivial(state, found.solution, found.goal, found.depth):
                continue
            variant = str(state.variant)
            puzzles.append(
                Puzzle(
                    id=puzzle_id(name, variant, state.moves),
                    game=name,
                    variant=variant,
                    moves=state.moves,
                    solution=found.solution,
                    goal=found.goal,
                    verified_by=found.verified_by,
                    depth=found.depth,
                    theme=theme_of(state, found.solution),
                )
            )
            added += 1
        path_of(name).parent.mkdir(exist_ok=True)
        path_of(name).write_text(dumps(puzzles), encoding="utf-8")
        log(
            f"{name}: game {games} +{added}, {len(puzzles)} puzzles, "
            f"{time.monotonic() - began:.0f} s"
        )
    return puzzles


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m games.ai.make_puzzles", description=__doc__)
    parser.add_argument("--game", required=True)
    parser.add_argument("--count", type=int, default=250)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--hard-budget", type=float, default=HARD_BUDGET)
    parser.add_argument("--depth", type=int, default=None, help="search depth D")
    parser.add_argument("--fresh", action="store_true", help="start a new file")
    parser.add_argument(
        "--records",
        nargs="+",
        type=Path,
        default=(),
        help="look through these games instead of self-play: record files (/<game> history,"
        " /kamen me export)",
    )
    args = parser.parse_args(argv)
    texts = [path.read_text(encoding="utf-8") for path in args.records]
    began = time.monotonic()
    puzzles = build(
        args.game,
        args.count,
        seed=args.seed,
        minutes=args.minutes,
        append=not args.fresh,
        hard_budget=args.hard_budget,
        depth=args.depth,
        log=lambda line: print(line, flush=True),
        records=texts,
    )
    goals = {goal: sum(p.goal == goal for p in puzzles) for goal in ("win", "save")}
    print(
        f"{args.game}: {len(puzzles)} puzzles ({goals['win']} win, {goals['save']} save) "
        f"in {time.monotonic() - began:.0f} s",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
