"""The Oska levels: the solved values, and a rule of thumb for the mistakes.

Every variant is in the solved table (`oska_solver.VARIANTS`), capture=huff-
opponent too: a position whose side to move owes a removal is valued through
the removals, and its moves (`a1:g5-f4`) like any other. `choose` says None
only for a variant the solver does not hold, and the level then searches.
"""

from __future__ import annotations

import math
import random

from games.ai.levels import Level
from games.ai.oska_game import Table, analyse, child, masks, pending_of, rules_of
from games.ai.oska_solver import solves, step_back, value
from games.oska import OskaState


def _moves(state: OskaState) -> tuple[int, Table]:
    """The side to move and its move table (none for a finished game)."""
    mode, elimination = rules_of(state.variant)
    blue, red, side = masks(state)
    winner, table = analyse(blue, red, side, mode, elimination, pending_of(state))
    return side, {} if winner is not None else table


def move_values(state: OskaState) -> dict[str, int]:
    """The solved value of every legal move, from the mover's view."""
    mode, elimination = rules_of(state.variant)
    side, table = _moves(state)
    return {
        move: step_back(value(*child(side, entry), mode, elimination, entry[2]))
        for move, entry in table.items()
    }


def perfect_moves(state: OskaState) -> list[str]:
    """The moves that keep the solved value: fastest win, slowest loss."""
    values = move_values(state)
    best = max(values.values())
    return [move for move, found in values.items() if found == best]


def rule_of_thumb(state: OskaState, move: str) -> float:
    """What a casual player sees in a move: stones taken, ground gained, a
    stone home, a stone left where it can be jumped, a stone forfeited (under
    huff named after a slash, under huff-opponent left to the opponent). A
    removal due first (`a1:`) is taken as it comes: the move after it counts."""
    mode, elimination = rules_of(state.variant)
    side, table = _moves(state)
    body = move.rpartition(":")[2]
    if body in ("", "pass"):
        return 0.0
    main, _, forfeited = body.partition("/")
    squares = main.replace("x", "-").split("-")
    jumps = main.count("x")
    rows = abs(int(squares[-1][1]) - int(squares[0][1]))
    score = 3.0 * jumps + 0.6 * rows
    if squares[-1][1] == ("5" if side == 0 else "1"):
        score += 1.5
    entry = table[move]
    if forfeited or entry[2]:
        score -= 3.0
    winner, replies = analyse(*child(side, entry), mode, elimination, entry[2])
    if winner is None and any("x" in reply for reply in replies):
        score -= 2.5
    return score


def _pick(rng: random.Random, moves: list[str], weights: list[float]) -> str:
    return rng.choices(moves, weights=weights)[0]


def choose(state: OskaState, level: Level, rng: random.Random) -> str | None:
    """The level's move from the solved values; None for a variant not solved."""
    if not solves(*rules_of(state.variant)):
        return None
    values = move_values(state)
    moves = list(values)
    best = max(values.values())
    perfect = [move for move in moves if values[move] == best]
    if level.oska_mistakes and rng.random() < level.oska_mistakes:
        pool = moves
        if level.oska_safe:
            # Same sign, same result: a win stays a win, a draw a draw.
            pool = [
                m for m in moves if (values[m] > 0) - (values[m] < 0) == (best > 0) - (best < 0)
            ]
        scores = [rule_of_thumb(state, move) for move in pool]
        top = max(scores)
        return _pick(rng, pool, [math.exp(score - top) for score in scores])
    return rng.choice(perfect)
