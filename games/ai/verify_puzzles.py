"""Prove puzzles: a puzzle ships only when exactly one move wins (or saves) by a proof.

    python -m games.ai.verify_puzzles                      # every shipped puzzle (about 6 min)
    python -m games.ai.verify_puzzles --game lasca         # one game's
    python -m games.ai.verify_puzzles --sample 20 --seed 1 # a seeded sample per game
    python -m games.ai.verify_puzzles --prune              # and drop the refused from the files

It prints each refused puzzle with the reason, then the count kept and refused
per game and the time taken. The builder (`games.ai.make_puzzles`) keeps a
position only by the same rules (`verdict`), so new puzzles are built proven.

The rules, by what holds the position:

- Oska (`table`): the solved table gives every move's exact value; exactly
  one move reaches the best result class (win > draw > loss) and it is not a
  loss. `win`: the one winning move; `save`: the one drawing move where
  every other loses. `depth`: the plies of the forced win (perfect play), 0
  for a save.
- Oware with 12 seeds or fewer on the board (`endgame-table`): the endgame
  tables decide, and nothing else: each move's final seeds for the mover
  (stores and share-out counted) from the tables' bounds of the position after
  it, the least and the most it can be whatever came before (`_table_values`);
  win (more than 24) > draw (24) > loss. Kept only when exactly one move is
  sure of the best class any move is sure of, not a loss, and every other move
  cannot reach it even at its best. A position the tables hold where they do
  not prove a single solving move is refused, never searched instead. `depth` 0.
- Oware above 12 seeds and Lasca (`search`): the C kernels' plain full-width
  alpha-beta (`search` in games/ai/oware_kernel.c and lasca_kernel.c: every
  legal move, no reductions, no pruning but alpha-beta's; a game's end scored
  exactly, by the game's own repetition and quiet-move rules; material only
  at the horizon) to DEPTH plies from the position (20 in Oware, 16 in
  Lasca), the move included. A move *wins by force* when the search proves
  a won end of the game within the horizon whatever the opponent plays; it
  *loses by force* when the opponent has such a win. `win`: exactly one move
  wins by force and no other does; `save`: no move wins, exactly one move
  does not lose by force and every other does (a position that loses in
  every line is refused). The same verdict must come again from a second
  search CONFIRM (2) plies deeper. `depth`: DEPTH. A win of material alone
  is no proof and makes no puzzle.

A search proof holds for its horizon: "no other move wins by force" means none
within DEPTH + CONFIRM plies, not that none wins in a longer game.
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from games.ai import oska_player as _OSKA_PLAYER
from games.ai import oware_tables as _OWARE_TABLES
from games.ai.full_width import SEARCH_WIN as SEARCH_WIN  # the puzzle builder reads it here
from games.ai.full_width import search_value as search_value
from games.ai.oska_solver import WIN as OSKA_WIN  # a win in 0 plies
from games.base import GameState
from games.oska import OskaState
from games.puzzles import Goal, Puzzle, Verifier, dumps, load, path_of, position
from games.registry import GAMES

DEPTH = {"oware": 20, "lasca": 16}
"""Plies the proving search looks ahead from the puzzle's position, its move included."""
CONFIRM = 2
"""A second search this many plies deeper must give the same verdict."""
TABLE_SEEDS = 12
"""Oware positions with this many seeds on the board or fewer are the tables'."""


@dataclass(frozen=True, slots=True)
class Found:
    """What a verifier says of a position: its one solving move and how."""

    solution: str
    goal: Goal
    verified_by: Verifier
    depth: int


class Refused(Exception):
    """A position with no proven single solving move; the message says why."""


# ------------------------------------------------------------------ Oska


def oska_verdict(state: OskaState) -> Found:
    """The one move of the solved table's best result class; raises Refused."""
    values: dict[str, int] = _OSKA_PLAYER.move_values(state)
    if len(values) < 2:
        raise Refused("a single legal move")
    best = max((v > 0) - (v < 0) for v in values.values())
    top = [move for move, v in values.items() if (v > 0) - (v < 0) == best]
    if best < 0:
        raise Refused("every move loses (table)")
    if len(top) != 1:
        raise Refused(f"{len(top)} moves {'win' if best else 'draw'} (table)")
    move = top[0]
    if best > 0:
        return Found(move, "win", "table", OSKA_WIN - values[move])
    return Found(move, "save", "table", 0)


# ----------------------------------------------------------- Oware tables


def in_tables(state: GameState) -> bool:
    """Whether the Oware endgame tables hold the position (and its variant)."""
    pits: tuple[int, ...] = state.pits  # type: ignore[attr-defined]
    return (
        sum(pits) <= TABLE_SEEDS
        and _OWARE_TABLES.present()
        and _OWARE_TABLES.grandslam_of(str(state.variant)) is not None
    )


def _table_values(state: GameState) -> dict[str, tuple[int, int]]:
    """Each legal move's final seeds for the mover (its store, what it captures
    and the share-out at the end) by the endgame tables, as the least and the
    most they can be whatever came before (`oware_tables.bounds`: under the
    repetition rule a value can depend on the positions passed). For a position
    `in_tables`; the one place the verifier reads the tables."""
    mover = int(state.to_move)
    values: dict[str, tuple[int, int]] = {}
    for move in state.legal_moves():
        after = state.play(move)
        outcome = after.outcome()
        if outcome is not None:
            score = outcome.score
            if score is None:  # twenty-five: the winner has more than 24
                won = outcome.winner is not None and int(outcome.winner) == mover
                final = 25 if won else 23
            else:
                final = score[mover]
            values[move] = (final, final)
            continue
        pits: tuple[int, ...] = after.pits  # type: ignore[attr-defined]
        stores: tuple[int, int] = after.stores  # type: ignore[attr-defined]
        side = int(after.to_move)  # the mover's opponent
        ordered = pits[6:] + pits[:6] if side else pits
        found = _OWARE_TABLES.bounds(ordered, str(after.variant))
        if found is None:
            raise Refused(f"the tables do not hold the position after {move}")
        low, high = found  # what the opponent takes of the seeds on the board
        values[move] = (48 - (stores[side] + high), 48 - (stores[side] + low))
    return values


def _class(final: int) -> int:
    """Won (1), drawn (0) or lost (-1), by the mover's final seeds."""
    return (final > 24) - (final < 24)


def oware_table_verdict(state: GameState) -> Found:
    """The tables' one solving move of a position they hold; raises Refused when
    they do not prove that exactly one move wins (or saves) whatever came before:
    the solution's worst result must be the best any move can be sure of, and
    every other move's best result worse than that."""
    values = _table_values(state)
    if len(values) < 2:
        raise Refused("a single legal move")
    sure = {move: _class(low) for move, (low, _) in values.items()}
    best = max(sure.values())
    if best < 0:
        raise Refused("no move is sure to draw or win (tables)")
    top = [move for move, found in sure.items() if found == best]
    if len(top) != 1:
        raise Refused(f"{len(top)} moves {'win' if best else 'draw'} (tables)")
    unsettled = sorted(
        move for move, (_, high) in values.items() if move != top[0] and _class(high) >= best
    )
    if unsettled:
        raise Refused(f"the tables do not settle {', '.join(unsettled)} (tables)")
    return Found(top[0], "win" if best > 0 else "save", "endgame-table", 0)


# ----------------------------------------------------------------- search


def _ended(state: GameState, move: str) -> tuple[GameState, int | None]:
    """The state after `move` and, when the game ends there, +1/0/-1 for the mover."""
    after = state.play(move)
    outcome = after.outcome()
    if outcome is None:
        return after, None
    if outcome.winner is None:
        return after, 0
    return after, 1 if int(outcome.winner) == int(state.to_move) else -1


def wins_by_force(state: GameState, move: str, depth: int) -> bool:
    """Whether `move` wins the game within `depth` plies (the move one of them)
    whatever the opponent plays."""
    after, ended = _ended(state, move)
    if ended is not None:
        return ended > 0
    # The opponent's value is at most -SEARCH_WIN: every reply loses in time.
    return search_value(after, depth - 1, -SEARCH_WIN, -SEARCH_WIN + 1) <= -SEARCH_WIN


def loses_by_force(state: GameState, move: str, depth: int) -> bool:
    """Whether after `move` the opponent wins within `depth` plies (the move one of them)."""
    after, ended = _ended(state, move)
    if ended is not None:
        return ended < 0
    return search_value(after, depth - 1, SEARCH_WIN - 1, SEARCH_WIN) >= SEARCH_WIN


def _search_once(state: GameState, depth: int, first: str | None) -> tuple[str, Goal]:
    """The one solving move at `depth` and its goal; raises Refused. `first`, a
    move to look at first (the puzzle's solution), only speeds a refusal."""
    legal = list(state.legal_moves())
    if len(legal) < 2:
        raise Refused("a single legal move")
    if first in legal:
        legal.remove(first)
        legal.insert(0, first)
    winners: list[str] = []
    for move in legal:
        if wins_by_force(state, move, depth):
            winners.append(move)
            if len(winners) > 1:
                raise Refused(f"{winners[0]} and {winners[1]} both win by force within {depth}")
    if winners:
        return winners[0], "win"
    holding: list[str] = []
    for move in legal:
        if not loses_by_force(state, move, depth):
            holding.append(move)
            if len(holding) > 1:
                raise Refused(
                    f"no move wins by force within {depth}, and {holding[0]} and {holding[1]}"
                    " both hold"
                )
    if not holding:
        raise Refused(f"every move loses by force within {depth}")
    return holding[0], "save"


def search_verdict(state: GameState, depth: int | None = None, first: str | None = None) -> Found:
    """The kernels' proof at `depth` (default DEPTH) and again at depth + CONFIRM;
    raises Refused."""
    name = state.spec.name
    depth = depth or DEPTH[name]
    move, goal = _search_once(state, depth, first)
    again = _search_once(state, depth + CONFIRM, move)
    if again != (move, goal):
        raise Refused(f"{goal} {move} at {depth} plies, {again[1]} {again[0]} at {depth + CONFIRM}")
    return Found(move, goal, "search", depth)


# ---------------------------------------------------------------- verdicts


def verdict(state: GameState, depth: int | None = None, first: str | None = None) -> Found:
    """The position's one proven solving move; raises Refused. `depth` is the
    search's (default DEPTH of the game)."""
    name = state.spec.name
    if name == "oska":
        assert isinstance(state, OskaState)
        return oska_verdict(state)
    if name == "oware" and in_tables(state):
        return oware_table_verdict(state)
    return search_verdict(state, depth, first)


def refusal(puzzle: Puzzle, depth: int | None = None) -> str | None:
    """Why a puzzle is not proven as it is written, or None when it is."""
    try:
        _prove(puzzle, depth)
    except Refused as refused:
        return str(refused)
    return None


def _prove(puzzle: Puzzle, depth: int | None) -> None:
    state = position(puzzle)
    name = state.spec.name
    if name == "lasca" or (name == "oware" and not in_tables(state)):
        # A quick refusal first: the solution itself fails.
        plies = depth or DEPTH[name]
        if puzzle.goal == "win" and not wins_by_force(state, puzzle.solution, plies):
            raise Refused(f"the solution does not win by force within {plies}")
        if puzzle.goal == "save" and loses_by_force(state, puzzle.solution, plies):
            raise Refused(f"the solution loses by force within {plies}")
    found = verdict(state, depth, first=puzzle.solution)
    if (found.solution, found.goal) != (puzzle.solution, puzzle.goal):
        raise Refused(f"the proof says {found.goal} {found.solution}")
    if found.verified_by != puzzle.verified_by:
        raise Refused(f"proven by {found.verified_by}, written as {puzzle.verified_by}")
    if found.depth != puzzle.depth:
        raise Refused(f"proven {found.depth} plies deep, written as {puzzle.depth}")


@cache
def _all(game: str) -> tuple[Puzzle, ...]:
    return load(game)


def sample_of(game: str, count: int | None, seed: int) -> list[Puzzle]:
    """`count` shipped puzzles of `game` picked with `seed` (all of them for None)."""
    found = list(_all(game))
    if count is None or count >= len(found):
        return found
    return random.Random(f"{game} {seed}").sample(found, count)


def check(
    puzzles: Sequence[Puzzle], log: Callable[[str], None] = print
) -> tuple[list[Puzzle], dict[str, str]]:
    """The puzzles proven as written and, by id, why each other one is refused."""
    kept: list[Puzzle] = []
    refused: dict[str, str] = {}
    for puzzle in puzzles:
        began = time.monotonic()
        why = refusal(puzzle)
        took = time.monotonic() - began
        if why is None:
            kept.append(puzzle)
        else:
            refused[puzzle.id] = why
            log(f"{puzzle.id} ({puzzle.goal} {puzzle.solution}, {puzzle.verified_by}, "
                f"{took:.1f} s): {why}")  # fmt: skip
    return kept, refused


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m games.ai.verify_puzzles", description=__doc__)
    parser.add_argument("--game", choices=tuple(GAMES), action="append")
    parser.add_argument("--sample", type=int, default=None, help="puzzles per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--prune", action="store_true", help="write each file back without its refused puzzles"
    )
    args = parser.parse_args(argv)
    log = functools.partial(print, flush=True)
    failed = False
    for game in args.game or tuple(GAMES):
        began = time.monotonic()
        chosen = sample_of(game, args.sample, args.seed)
        kept, refused = check(chosen, log=log)
        took = time.monotonic() - began
        log(f"{game}: {len(kept)} kept, {len(refused)} refused of {len(chosen)} in {took:.0f} s"
            f" ({took / max(1, len(chosen)):.2f} s a puzzle)")  # fmt: skip
        failed |= bool(refused)
        if args.prune and refused:
            left = [p for p in _all(game) if p.id not in refused]
            path_of(game).write_text(dumps(left), encoding="utf-8")
            log(f"{game}: {path_of(game)} now holds {len(left)} puzzles")
    sys.exit(1 if failed and not args.prune else 0)


if __name__ == "__main__":
    main()
