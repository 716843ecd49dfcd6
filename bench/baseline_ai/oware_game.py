"""Oware for the search: the engine's rules on bare tuples.

`OwareState.play` builds a state with its move list and legal-move cache;
the search needs neither, so this module replays the engine's own sowing,
capture, grand-slam and feeding helpers (`games.oware`'s public search
kernel: `sow`, `capture`, `is_grand_slam`, `would_grand_slam`, `starved`) on
a slotted position. `OwareRules.legal` and `OwareRules.play` follow the
engine's legal moves and `OwareState.play` line by line, and a test plays
random games of every variant through both and compares them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from bench.baseline_ai.search import WIN
from games import oware as engine
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
        pits = pos.pits
        side = pos.side
        base = 6 * side
        moves = [i for i in range(base, base + 6) if pits[i]]
        if not moves:
            return []
        start = 6 - base
        if not any(pits[start : start + 6]):
            need = engine.NEED
            moves = [i for i in moves if pits[i] >= need[i]]
            if not moves:
                return []
        if self.must_play_12 and pos.obliged[side]:
            moves = [i for i in moves if pits[i] > 11] or moves
        if self.grandslam == engine.FORBIDDEN:
            slam = engine.would_grand_slam
            moves = [i for i in moves if not slam(pits, i)] or moves
        return moves

    def play(self, pos: OwarePos, origin: int) -> OwarePos:
        """The position after a legal move (OwareState.play)."""
        side = pos.side
        old = pos.pits
        new, low, high = engine.sow(old, origin)
        takes = False
        if engine.is_grand_slam(new, low, high):
            if self.grandslam != engine.OPPONENT_TAKES:
                low = high = 0
            else:
                takes = True
        stores = engine.capture(new, pos.stores, side, low, high, takes) if high else pos.stores

        obliged = pos.obliged
        if self.must_play_12:
            grew = [before <= 11 < now for before, now in zip(old, new, strict=True)]
            if side:
                obliged = (obliged[0] or any(grew[:6]), any(grew[6:]))
            else:
                obliged = (any(grew[:6]), obliged[1] or any(grew[6:]))

        after = tuple(new)
        if high:
            repeated = False
            hist: tuple[tuple[int, ...], ...] = (after,)
        else:
            repeated = after in pos.hist[-2::-2]
            hist = (*pos.hist, after)

        ending = 0
        if stores[0] < 25 and stores[1] < 25:
            ending = engine.REPEATED if repeated else engine.starved(after, side)
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


def capture_hint(pits: tuple[int, ...], origin: int) -> int:
    """The seeds the last seed's pit will hold if the move captures there
    (2 or 3), else 0: a cheap first guess at a move's capture, for ordering."""
    n = pits[origin]
    last = engine.LAST[origin][n]
    if (last < 6) == (origin < 6):
        return 0
    after = pits[last] + engine.DELTA[origin][n][last]
    return after if after in (2, 3) else 0


class OwareGame:
    """The search adapter: moves are pit indices, capturing moves first."""

    def __init__(self, rules: OwareRules, evaluate: Evaluation) -> None:
        self.rules = rules
        self.evaluate = evaluate

    def expand(self, pos: OwarePos) -> tuple[int | None, Sequence[int]]:
        rules = self.rules
        moves = rules.legal(pos)
        if not moves:
            winner = rules.winner(pos)
            if winner is None:
                return 0, ()
            return (WIN if winner == pos.side else -WIN), ()
        if len(moves) > 1:
            pits = pos.pits
            moves.sort(key=lambda m: capture_hint(pits, m), reverse=True)
        return None, moves

    def play(self, pos: OwarePos, move: int) -> OwarePos:
        return self.rules.play(pos, move)

    def key(self, pos: OwarePos) -> Hashable:
        return (pos.pits, pos.stores, pos.side, pos.obliged)

    def text(self, pos: OwarePos, move: int) -> str:
        return engine.PITS[move]

    def tactics(self, pos: OwarePos, moves: Sequence[int]) -> tuple[bool, Sequence[int]]:
        """Captures only, with a stand-pat: Oware never forces a capture."""
        pits = pos.pits
        return False, [m for m in moves if capture_hint(pits, m)]
