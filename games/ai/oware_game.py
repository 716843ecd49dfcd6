"""Oware for the search: the engine's rules on bare tuples.

`OwareState.play` builds a state with its move list and legal-move cache;
the search needs neither, so this module replays the engine's own sowing,
capture, grand-slam and feeding helpers (`games.oware`'s public search
kernel: `sow`, `capture`, `is_grand_slam`, `would_grand_slam`, `starved`) on
a slotted position. `OwareRules.legal` and `OwareRules.play` follow the
engine's legal moves and `OwareState.play` line by line, and a test plays
random games of every variant through both and compares them.

The endgame tables (oware_tables.py, up to 12 seeds on the board) come in
two ways. `searchable(..., tables=True)` makes a search whose positions with
that few seeds are finished games with the tables' result (exact leaves; the
root is searched as usual), and `solved` plays `hard`'s and `max`'s move in
such a position straight from the tables. The rules' mirror (`OwareGame`
without tables) is untouched by them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence

from games import oware as engine
from games.ai import oware_kernel as kernel
from games.ai import oware_tables
from games.ai.levels import Level
from games.ai.search import WIN
from games.oware import OwareState

Evaluation = Callable[["OwarePos"], int]


class OwarePos:
    """A position with what the rules need of its past: the pits seen since
    the stores last changed (for the repetition rule) and how the game ended."""

    __slots__ = ("ending", "hist", "obliged", "pits", "side", "stores")

    def __init__(
        self,
        pits: tuple[int, ...],
        stores: tuple[int, int],
        side: int,
        obliged: tuple[bool, bool],
        hist: tuple[tuple[int, ...], ...],
        ending: int,
    ) -> None:
        self.pits = pits
        self.stores = stores
        self.side = side
        self.obliged = obliged
        self.hist = hist
        self.ending = ending


def from_state(state: OwareState) -> OwarePos:
    return OwarePos(
        state.pits,
        state.stores,
        int(state.to_move),
        state.obliged,
        state.history,
        state.ending,
    )


class OwareRules:
    """The variant's rules applied to `OwarePos`."""

    def __init__(self, grandslam: int, must_play_12: bool) -> None:
        self.grandslam = grandslam
        self.must_play_12 = must_play_12

    @classmethod
    def of(cls, state: OwareState) -> OwareRules:
        return cls(state.grandslam, state.must_play_12)

    def legal(self, pos: OwarePos) -> list[int]:
        """The pits the side to move may play (OwareState.legal_moves)."""
        stores = pos.stores
        if pos.ending or stores[0] > 24 or stores[1] > 24:
            return []
        side = pos.side
        obliged = self.must_play_12 and pos.obliged[side]
        return kernel.legal(pos.pits, side, obliged, self.grandslam == engine.FORBIDDEN)

    def play(self, pos: OwarePos, origin: int) -> OwarePos:
        """The position after a legal move (OwareState.play)."""
        side = pos.side
        after, stores, captured, obliged, starved = kernel.play(
            pos.pits, pos.stores, side, origin, self.grandslam, self.must_play_12, pos.obliged
        )
        if captured:
            repeated = False
            hist: tuple[tuple[int, ...], ...] = (after,)
        else:
            repeated = after in pos.hist[-2::-2]
            hist = (*pos.hist, after)

        ending = 0
        if stores[0] < 25 and stores[1] < 25:
            ending = engine.REPEATED if repeated else starved
        if ending:
            stores = (stores[0] + sum(after[:6]), stores[1] + sum(after[6:]))
            after = engine.EMPTY
        if ending or stores[0] > 24 or stores[1] > 24:
            obliged = (False, False)
        return OwarePos(after, stores, 1 - side, obliged, hist, ending)

    def winner(self, pos: OwarePos) -> int | None:
        """For a position without legal moves: 0 or 1, or None for a draw
        (OwareState.outcome)."""
        south, north = pos.stores
        if not pos.ending:
            if south > 24:
                return 0
            if north > 24:
                return 1
        pits = pos.pits
        totals = (south + sum(pits[:6]), north + sum(pits[6:]))
        if totals[0] > 24:
            return 0
        if totals[1] > 24:
            return 1
        return None


def mover_view(pits: tuple[int, ...], side: int) -> tuple[int, ...]:
    """The pits as the tables read them: the mover's six first."""
    return pits[6:] + pits[:6] if side else pits


# A result the tables give is won (or lost) at a distance they do not tell: scored as
# that many plies away, so that a win the search sees at once (25 seeds now) comes
# first, and a loss it sees at once comes last.
TABLE_PLIES = 1_000


def table_score(pos: OwarePos, grandslam: int) -> int | None:
    """The result of a position by the tables, as a finished game's score for
    the side to move (WIN or -WIN less `TABLE_PLIES`, or 0); None when they do not
    hold it."""
    pits = pos.pits
    seeds = sum(pits)
    if seeds > oware_tables.MAX_SEEDS or pos.ending:
        return None
    stores = pos.stores
    side = pos.side
    mine, theirs = stores[side], stores[1 - side]
    if mine > 24 or theirs > 24:
        return None  # over already: the rules say so
    found = oware_tables.entry(mover_view(pits, side), grandslam)
    if found is None:
        return None
    value = found & 15
    mine += value
    theirs += seeds - value
    won = WIN - TABLE_PLIES
    return won if mine > 24 else -won if theirs > 24 else 0


class OwareGame:
    """The search adapter: moves are pit indices, capturing moves first.

    With `tables` (and a variant the tables hold) every position but `root`
    with at most oware_tables.MAX_SEEDS seeds on the board is a finished game
    scored by the tables.
    """

    def __init__(
        self,
        rules: OwareRules,
        evaluate: Evaluation,
        *,
        tables: bool = False,
        root: OwarePos | None = None,
    ) -> None:
        self.rules = rules
        self.evaluate = evaluate
        self.tables = (
            tables
            and oware_tables.holds(rules.grandslam, rules.must_play_12)
            and oware_tables.present()
        )
        self.root = root

    def expand(self, pos: OwarePos) -> tuple[int | None, Sequence[int]]:
        rules = self.rules
        if self.tables and pos is not self.root:
            score = table_score(pos, rules.grandslam)
            if score is not None:
                return score, ()
        moves = rules.legal(pos)
        if not moves:
            winner = rules.winner(pos)
            if winner is None:
                return 0, ()
            return (WIN if winner == pos.side else -WIN), ()
        if len(moves) > 1:
            moves = kernel.by_capture(pos.pits, moves)
        return None, moves

    def play(self, pos: OwarePos, move: int) -> OwarePos:
        return self.rules.play(pos, move)

    def key(self, pos: OwarePos) -> Hashable:
        return (pos.pits, pos.stores, pos.side, pos.obliged)

    def text(self, pos: OwarePos, move: int) -> str:
        return engine.PITS[move]

    def tactics(self, pos: OwarePos, moves: Sequence[int]) -> tuple[bool, Sequence[int]]:
        """Captures only, with a stand-pat: Oware never forces a capture."""
        return False, kernel.capturing(pos.pits, moves)


def searchable(
    state: OwareState, evaluate: Evaluation, *, tables: bool = True
) -> tuple[OwareGame, OwarePos]:
    """The search adapter and root position of a state; with `tables`, the
    endgame tables are its exact leaves."""
    root = from_state(state)
    return OwareGame(OwareRules.of(state), evaluate, tables=tables, root=root), root


def table_choice(state: OwareState) -> str | None:
    """The move that keeps the tables' result, in a position they hold; else None.

    Each legal move is judged by what the mover ends with: where the move ends
    the game (by the rules, a repetition of this game's own past included) the
    seeds it gives, else the tables' value of the position after it. The best
    result wins (won, drawn, lost first; a win at once first among wins; then
    seeds); among equals the tables' own move, which never goes round a cycle
    where the result is forced.
    """
    rules = OwareRules.of(state)
    pits = state.pits
    if (
        sum(pits) > oware_tables.MAX_SEEDS
        or not oware_tables.holds(rules.grandslam, rules.must_play_12)
        or not oware_tables.present()
    ):
        return None
    pos = from_state(state)
    side = pos.side
    moves = rules.legal(pos)
    if not moves:
        return None
    own = oware_tables.table_move(mover_view(pits, side), rules.grandslam)
    best: tuple[int, bool, int, bool] | None = None
    choice = moves[0]
    for move in moves:
        after = rules.play(pos, move)
        total = after.stores[side]
        over = bool(after.ending) or total > 24 or after.stores[1 - side] > 24
        if not over:
            child = mover_view(after.pits, after.side)
            found = oware_tables.entry(child, rules.grandslam)
            assert found is not None  # captures only take seeds off
            total += sum(child) - (found & 15)
        result = 1 if total > 24 else 0 if total == 24 else -1
        # A win now before a win later, however many seeds the later one would bring.
        key = (result, result > 0 and over, total, move - 6 * side == own)
        if best is None or key > best:
            best, choice = key, move
    return engine.PITS[choice]


def solved(state: OwareState, level: Level, rng: random.Random) -> str | None:
    """The move of `hard` and `max` inside the endgame tables (see `table_choice`);
    None for the other levels and outside the tables, which then search.

    Both levels make no mistakes, and where the tables hold the position a
    search could only pick among the moves of the same result, without the
    tables' sense of progress: a won position could go round to a repetition.
    """
    if level.mistakes:
        return None
    return table_choice(state)
