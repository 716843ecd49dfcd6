"""Oska for the solver and the search: the engine's generator on bare bitmasks.

A position is Blue's and Red's stone masks over `games.oska.SQUARES` and the
side to move. `expand` does what `OskaState.analyse` does with the engine's
public search kernel: the win check after every move (`decided`), the move
table (`generate`), a pass when the player is stuck but the opponent is not,
and the draw when neither can move. So the solver and the search use the
engine's outcomes, not an idea of the rules of their own; a test compares
them with `OskaState` on random games of every variant.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from games import oska as engine
from games.ai.search import WIN
from games.base import Side, Variant
from games.oska import OskaState

MODES = ("forced", "huff", "optional")
Table = dict[str, tuple[int, int]]  # move text -> (mover's stones, opponent's stones)
Evaluation = Callable[["OskaPos"], int]


def rules_of(variant: Variant) -> tuple[int, bool]:
    """The engine's capture mode (0 forced, 1 huff, 2 optional) and whether
    losing every stone loses."""
    return MODES.index(variant["capture"]), variant["win"] == "elimination"


def key(blue: int, red: int, side: int) -> int:
    """One integer for a position: Blue's mask, Red's mask, the side to move."""
    return blue | red << 16 | side << 32


def masks(state: OskaState) -> tuple[int, int, int]:
    """Blue's and Red's masks and the side to move of an engine state."""
    blue = red = 0
    for name in state.stones(Side.FIRST):
        blue |= 1 << engine.INDEX[name]
    for name in state.stones(Side.SECOND):
        red |= 1 << engine.INDEX[name]
    return blue, red, int(state.to_move)


def analyse(
    blue: int, red: int, side: int, mode: int, elimination: bool
) -> tuple[int | None, Table]:
    """`(winner, {})` for a finished game (winner 0, 1, or -1 for a draw), else
    `(None, moves)` with each move's resulting masks, mover's first."""
    outcome = engine.decided(blue, red, elimination)
    if outcome is not None:
        return (-1 if outcome.winner is None else int(outcome.winner)), {}
    own, opp = (red, blue) if side else (blue, red)
    table = engine.generate(own, opp, side, mode)
    if not table:
        if not engine.can_move(opp, own, side ^ 1):
            return -1, {}
        table = {"pass": (own, opp)}
    return None, table


def child(side: int, entry: tuple[int, int]) -> tuple[int, int, int]:
    """The position a table entry leads to, as (blue, red, side to move)."""
    mine, theirs = entry
    if side:
        return theirs, mine, 0
    return mine, theirs, 1


class OskaPos:
    __slots__ = ("blue", "red", "side", "table")

    def __init__(self, blue: int, red: int, side: int) -> None:
        self.blue = blue
        self.red = red
        self.side = side
        self.table: Table | None = None


def from_state(state: OskaState) -> OskaPos:
    return OskaPos(*masks(state))


def material(pos: OskaPos) -> int:
    """Stones on the board, 100 each, from the side to move's view."""
    mine, theirs = (pos.red, pos.blue) if pos.side else (pos.blue, pos.red)
    return 100 * (mine.bit_count() - theirs.bit_count())


class OskaGame:
    """The search adapter (used by the baseline player; `max` uses the table)."""

    def __init__(self, mode: int, elimination: bool, evaluate: Evaluation) -> None:
        self.mode = mode
        self.elimination = elimination
        self.evaluate = evaluate

    def expand(self, pos: OskaPos) -> tuple[int | None, Sequence[str]]:
        winner, table = analyse(pos.blue, pos.red, pos.side, self.mode, self.elimination)
        if winner is not None:
            return (0 if winner < 0 else WIN if winner == pos.side else -WIN), ()
        pos.table = table
        return None, list(table)

    def play(self, pos: OskaPos, move: str) -> OskaPos:
        table = pos.table
        if table is None:
            table = analyse(pos.blue, pos.red, pos.side, self.mode, self.elimination)[1]
            pos.table = table
        return OskaPos(*child(pos.side, table[move]))

    def key(self, pos: OskaPos) -> Hashable:
        return key(pos.blue, pos.red, pos.side)

    def text(self, pos: OskaPos, move: str) -> str:
        return move

    def tactics(self, pos: OskaPos, moves: Sequence[str]) -> tuple[bool, Sequence[str]]:
        return False, ()
