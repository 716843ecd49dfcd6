"""Oska for the solver and the search: the engine's generator on bare bitmasks.

A position is Blue's and Red's stone masks over `games.oska.SQUARES`, the
side to move and, under capture=huff-opponent, the mask of the opponent's
stones it must remove one of first. `expand` does what `OskaState.analyse`
does with the engine's public search kernel: the win check after every move
(`decided`), the move table (`generate`, or `removals` when a removal is
due), a pass when the player is stuck but the opponent is not, and the draw
when neither can move. So the solver and the search use the
engine's outcomes, not an idea of the rules of their own; a test compares
them with `OskaState` on random games of every variant.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from games import oska as engine
from games.ai.search import WIN
from games.base import Side, Variant
from games.oska import OskaState

MODES = engine.MODES
# Move text -> (mover's stones, opponent's stones, mover's stones forfeitable to the opponent).
Table = dict[str, tuple[int, int, int]]
Evaluation = Callable[["OskaPos"], int]


def rules_of(variant: Variant) -> tuple[int, bool]:
    """The engine's capture mode (its index in MODES: 0 forced, 1 huff, 2 optional,
    3 huff-opponent) and whether losing every stone loses."""
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
    blue: int, red: int, side: int, mode: int, elimination: bool, pending: int = 0
) -> tuple[int | None, Table]:
    """`(winner, {})` for a finished game (winner 0, 1, or -1 for a draw), else
    `(None, moves)` with each move's resulting masks, mover's first. `pending`:
    the opponent's stones the side to move must remove one of (huff-opponent)."""
    outcome = engine.decided(blue, red, elimination)
    if outcome is not None:
        return (-1 if outcome.winner is None else int(outcome.winner)), {}
    own, opp = (red, blue) if side else (blue, red)
    if pending:  # a removal is always possible, and decides the rest itself
        return None, engine.removals(own, opp, pending, side, elimination)
    table = engine.generate(own, opp, side, mode)
    if not table:
        if not engine.can_move(opp, own, side ^ 1):
            return -1, {}
        table = {"pass": (own, opp, 0)}
    return None, table


def child(side: int, entry: tuple[int, int, int]) -> tuple[int, int, int]:
    """The position a table entry leads to, as (blue, red, side to move); its
    pending removal, if any, is the entry's third mask."""
    mine, theirs, _ = entry
    if side:
        return theirs, mine, 0
    return mine, theirs, 1


def pending_of(state: OskaState) -> int:
    """The mask of the stones the side to move must remove one of (huff-opponent)."""
    return sum(1 << engine.INDEX[name] for name in state.forfeitable())


class OskaPos:
    __slots__ = ("blue", "pending", "red", "side", "table")

    def __init__(self, blue: int, red: int, side: int, pending: int = 0) -> None:
        self.blue = blue
        self.red = red
        self.side = side
        self.pending = pending
        self.table: Table | None = None


def from_state(state: OskaState) -> OskaPos:
    return OskaPos(*masks(state), pending_of(state))


def material(pos: OskaPos) -> int:
    """Stones on the board, 100 each, from the side to move's view."""
    mine, theirs = (pos.red, pos.blue) if pos.side else (pos.blue, pos.red)
    return 100 * (mine.bit_count() - theirs.bit_count())


class OskaGame:
    """The search adapter: the baseline player's (every level plays from the
    solved table, capture=huff-opponent included)."""

    def __init__(self, mode: int, elimination: bool, evaluate: Evaluation) -> None:
        self.mode = mode
        self.elimination = elimination
        self.evaluate = evaluate

    def expand(self, pos: OskaPos) -> tuple[int | None, Sequence[str]]:
        winner, table = analyse(
            pos.blue, pos.red, pos.side, self.mode, self.elimination, pos.pending
        )
        if winner is not None:
            return (0 if winner < 0 else WIN if winner == pos.side else -WIN), ()
        pos.table = table
        return None, list(table)

    def play(self, pos: OskaPos, move: str) -> OskaPos:
        table = pos.table
        if table is None:
            rules = (self.mode, self.elimination, pos.pending)
            table = analyse(pos.blue, pos.red, pos.side, *rules)[1]
            pos.table = table
        entry = table[move]
        return OskaPos(*child(pos.side, entry), entry[2])

    def key(self, pos: OskaPos) -> Hashable:
        return key(pos.blue, pos.red, pos.side) | pos.pending << 33

    def text(self, pos: OskaPos, move: str) -> str:
        return move

    def tactics(self, pos: OskaPos, moves: Sequence[str]) -> tuple[bool, Sequence[str]]:
        return False, ()
