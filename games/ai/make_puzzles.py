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

How each game's verdict is reached (`verdict`):

- Oska (`table`): the solved table gives every move's exact value. Classes:
  win > draw > loss. `win`: the one winning move; `save`: the one drawing
  move where every other loses. `depth`: the plies of the forced win (perfect
  play both sides), 0 for a save.
- Oware (`endgame-table`, when `games.ai.oware_tables` is there and holds the
  position after every move, 12 seeds or fewer on the board): each move's
  final score by the tables (the seeds the mover ends with, stores counted),
  classes win (more than 24 seeds in all) > draw (24 each) > loss. `depth` 0.
- Oware and Lasca otherwise (`search`): every root move gets its minimax
  value at depth D from a plain full-width alpha-beta (`Minimax`: no
  reductions, a table of values by position and depth left, deepening 1, 2,
  ... D only to order the moves), with the material evaluation (Oware: the
  store difference, Lasca: the free pieces by rank; 100 a seed or soldier)
  and QUIESCENCE plies of captures past the horizon; a game ending inside
  the horizon scores as won, lost or drawn. The solution must beat every
  other move by at least MARGIN (two seeds; one soldier) at depth D and
  again at depth D + 2 (a cheaper look at D - 2 throws out most candidates
  first). `win`: the solution wins the game inside the horizon, or gains at
  least MARGIN over the material balance of the position; `save`: it keeps
  the balance (loses less than MARGIN) where every other move loses at
  least MARGIN more. `depth`: D (SEARCH_DEPTH of the game, or --depth). A
  search proves what happens within its horizon only: a win of material is
  one that holds D and D + 2 plies deep, not a proof to the end of the game.

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
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from games.ai import adapters as _ADAPTERS
from games.ai import oska_player as _OSKA_PLAYER
from games.ai import oware_tables as _OWARE_TABLES
from games.ai import player as _PLAYER
from games.ai import search as _SEARCH
from games.ai.oska_solver import WIN as OSKA_WIN  # a win in 0 plies
from games.base import GameError, GameState
from games.oska import OskaState
from games.puzzles import Goal, Puzzle, Verifier, dumps, load, path_of, puzzle_id
from games.record import parse_record
from games.registry import get

INF: int = _SEARCH.INF
MATE_ZONE: int = _SEARCH.MATE_ZONE  # a search score this high is a won game

SEARCH_DEPTH = {"oware": 10, "lasca": 8}
MARGIN = {"oware": 200, "lasca": 100}
QUIESCENCE = 4
HARD_BUDGET = 0.25  # seconds for the `hard` side's moves
MAX_PLIES = 240


@dataclass(frozen=True, slots=True)
class Found:
    """What a verifier says of a position: its one solving move and how."""

    solution: str
    goal: Goal
    verified_by: Verifier
    depth: int


# ------------------------------------------------------------------ Oska


def oska_verdict(state: OskaState) -> Found | None:
    """The one move of the solved table's best result class, or None."""
    values: dict[str, int] = _OSKA_PLAYER.move_values(state)
    if len(values) < 2:
        return None
    best = max((v > 0) - (v < 0) for v in values.values())
    top = [move for move, v in values.items() if (v > 0) - (v < 0) == best]
    if best < 0 or len(top) != 1:
        return None
    move = top[0]
    if best > 0:
        return Found(move, "win", "table", OSKA_WIN - values[move])
    return Found(move, "save", "table", 0)


# ----------------------------------------------------------------- search


class Minimax:
    """A plain fixed-depth alpha-beta over a search adapter (`games.ai.search.Adapter`):
    its values are the exact minimax values of the depth, whatever the move order.

    Kept here rather than borrowed from `games.ai.search` (which prunes and
    reduces for speed, and may change): a puzzle's proof must mean the same
    thing when a test re-runs it. At the horizon, QUIESCENCE plies of the
    adapter's tactical moves (captures) with a stand-pat where they are not
    forced. The table holds values by position and depth left, so a hit is a
    value of the same depth; the adapters key a position with what its
    draw rules need.
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


def balance(state: GameState) -> int:
    """The material balance of the position, from the mover's view."""
    game, root = _ADAPTERS.searchable(state, baseline=True)
    return int(game.evaluate(root))


def unique_best(scores: dict[str, int], margin: int) -> str | None:
    """The move that beats every other by at least `margin`, if there is one."""
    if len(scores) < 2:
        return None
    ranked = sorted(scores, key=scores.__getitem__, reverse=True)
    if scores[ranked[0]] - scores[ranked[1]] < margin:
        return None
    return ranked[0]


def search_verdict(state: GameState, depth: int, *, confirm: bool = True) -> Found | None:
    """The search's verdict at `depth` (and, with `confirm`, at depth + 2 too)."""
    name = state.spec.name
    margin = MARGIN[name]
    screen = depth - 2  # a cheaper first look, to throw out most positions early
    if screen >= 2 and unique_best(search_scores(state, screen), margin) is None:
        return None
    scores = search_scores(state, depth)
    move = unique_best(scores, margin)
    if move is None:
        return None
    if confirm and unique_best(search_scores(state, depth + 2), margin) != move:
        return None
    value = scores[move]
    if value <= -MATE_ZONE:
        return None
    gain = value - balance(state)
    if value >= MATE_ZONE or gain >= margin:
        return Found(move, "win", "search", depth)
    if gain > -margin:
        return Found(move, "save", "search", depth)
    return None


# ------------------------------------------------------- Oware endgames


@cache
def _oware_tables() -> Any | None:
    """Oware's endgame tables, when the package has them (looked for once)."""
    return _OWARE_TABLES if _OWARE_TABLES.present() else None


def oware_table_verdict(state: GameState, tables: Any) -> Found | None:
    """The one move of the best exact result class by the endgame tables, or
    None (also when the tables do not know a position after some move)."""
    mover = int(state.to_move)
    classes: dict[str, int] = {}
    for move in state.legal_moves():
        after = state.play(move)
        outcome = after.outcome()
        if outcome is not None:
            mine = None if outcome.winner is None else int(outcome.winner) == mover
            classes[move] = 0 if mine is None else 1 if mine else -1
            continue
        pits: tuple[int, ...] = after.pits  # type: ignore[attr-defined]
        stores: tuple[int, int] = after.stores  # type: ignore[attr-defined]
        side = int(after.to_move)
        ordered = pits[6:] + pits[:6] if side else pits
        taken = tables.lookup(ordered, str(after.variant))
        if taken is None:
            return None
        theirs = stores[side] + taken  # `side` is the opponent of the mover
        mine_total = 48 - theirs
        classes[move] = (mine_total > 24) - (theirs > 24)
    if len(classes) < 2:
        return None
    best = max(classes.values())
    top = [move for move, found in classes.items() if found == best]
    if best < 0 or len(top) != 1:
        return None
    return Found(top[0], "win" if best > 0 else "save", "endgame-table", 0)


# ---------------------------------------------------------------- verdicts


def verdict(state: GameState, depth: int | None = None) -> Found | None:
    """The position's one solving move by the game's verifier, or None; `depth`
    is the search's (default SEARCH_DEPTH of the game)."""
    name = state.spec.name
    if name == "oska":
        assert isinstance(state, OskaState)
        return oska_verdict(state)
    if name == "oware":
        tables = _oware_tables()
        if tables is not None:
            found = oware_table_verdict(state, tables)
            if found is not None:
                return found
    return search_verdict(state, depth or SEARCH_DEPTH[name])


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
