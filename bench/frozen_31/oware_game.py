"""Oware for the search: the engine's rules on bare tuples.

`OwareState.play` builds a state with its move list and legal-move cache;
the search needs neither, so this module replays the engine's own sowing,
capture, grand-slam and feeding helpers (`games.oware`'s public search
kernel: `sow`, `capture`, `is_grand_slam`, `would_grand_slam`, `starved`) on
a slotted position. `OwareRules.legal` and `OwareRules.play` follow the
engine's legal moves and `OwareState.play` line by line, and a test plays
random games of every variant through both and compares them.

The endgame tables (oware_tables.py, up to 12 seeds on the board) hold for
each position the least and the most the mover can get whatever the game's
history; they come in two ways. `searchable(..., tables=True)` makes a search
whose positions with that few seeds are finished games where those bounds
settle the result (won, drawn or lost: exact leaves; elsewhere the search
goes on, the root is searched as usual), and `solved` plays `hard`'s and
`max`'s move straight from the tables where the bounds prove it a best move
by result. The rules' mirror (`OwareGame` without tables) is untouched by them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence

from bench.frozen_31.levels import Level
from bench.frozen_31.search import WIN
from games import oware as engine
from games.ai import oware_kernel as kernel
from games.ai import oware_tables
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


def _result(mine: int, theirs: int) -> int:
    """1 won, 0 drawn, -1 lost, for stores of the whole game."""
    return 1 if mine > 24 else -1 if theirs > 24 else 0


def table_score(pos: OwarePos, grandslam: int) -> int | None:
    """The result of a position by the tables, as a finished game's score for
    the side to move (WIN or -WIN less `TABLE_PLIES`, or 0), where the tables'
    bounds settle it whatever the game's history; None where they do not hold
    the position or its result rests on the history (the search goes on)."""
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
    low, high, _ = found
    worst = _result(mine + low, theirs + seeds - low)
    if worst != _result(mine + high, theirs + seeds - high):
        return None
    won = WIN - TABLE_PLIES
    return won * worst


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


def _table_options(state: OwareState) -> list[tuple[tuple[int, bool, int, bool], int, str]] | None:
    """Each legal move judged by the tables, or None where they do not hold the
    position: (what the mover is sure of: result, won at once, seeds, the table's
    own move; the best result the move could have; the move)."""
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
    every = sum(pits) + sum(state.stores)  # every seed ends in a store
    options = []
    for move in moves:
        after = rules.play(pos, move)
        total = after.stores[side]
        theirs = after.stores[1 - side]
        over = bool(after.ending) or total > 24 or theirs > 24
        low = high = total
        if not over:
            child = mover_view(after.pits, after.side)
            found = oware_tables.entry(child, rules.grandslam)
            assert found is not None  # captures only take seeds off
            seeds = sum(child)
            # The bounds hold whatever the history, this game's own included.
            low, high = total + seeds - found[1], total + seeds - found[0]
        result = _result(low, every - low)
        # A win now before a win later, however many seeds the later one would bring.
        sure = (result, result > 0 and over, low, move - 6 * side == own)
        options.append((sure, _result(high, every - high), engine.PITS[move]))
    return options


def table_choice(state: OwareState) -> str | None:
    """The move whose result the tables make surest, in a position they hold; else None.

    Each legal move is judged by what the mover is sure to end with whatever
    the history: where the move ends the game (by the rules, a repetition of
    this game's own past included) the seeds it gives, else the least the
    tables' bounds leave after it. The best sure result wins (won, drawn, lost
    first; a win at once first among wins; then seeds); among equals the
    table's own move, which attains its position's lower bound.
    """
    options = _table_options(state)
    if not options:
        return None
    return max(options)[2]


def settled_choice(state: OwareState) -> str | None:
    """`table_choice` where it is provably a best move by result: no other move
    could reach a better result whatever the history; else None."""
    options = _table_options(state)
    if not options:
        return None
    sure, _, move = max(options)
    if any(best > sure[0] for _, best, _ in options):
        return None
    return move


def solved(state: OwareState, level: Level, rng: random.Random) -> str | None:
    """The move of `hard` and `max` inside the endgame tables where their bounds
    settle the best result (see `settled_choice`); None for the other levels,
    outside the tables and where the result rests on the game's history: those
    search (with the tables' settled positions as leaves).

    Both levels make no mistakes, and where the tables settle the position a
    search could only pick among the moves of the same result, without the
    tables' sense of progress: a won position could go round to a repetition.
    """
    if level.mistakes:
        return None
    return settled_choice(state)


def exact_results(state: OwareState) -> dict[str, int] | None:
    """Each legal move's result for the mover (1 won, 0 drawn, -1 lost), where the
    tables know every one exactly whatever the history (a move that ends the game
    by the rules is exact); None elsewhere (above the tables, a variant they do not
    hold, a value that rests on the history)."""
    options = _table_options(state)
    if not options:
        return None
    results = {}
    for sure, best, move in options:
        if sure[0] != best:
            return None
        results[move] = best
    return results
