"""Lasca for the search: the engine's move generator on bare boards.

A board is the engine's tuple of 25 column strings. `games.lasca.generate`
and `apply` are the engine's public search kernel, played here through
lasca_kernel.py (the same functions in C where built); this module adds only what
`LascaState` does around them: whose turn it is, the plies since the last
capture or soldier move, the boards seen since then, and the order of the
end checks (no move loses, then threefold repetition, then 80 quiet plies).
A test plays random games of both variants through both and compares them.
"""

from __future__ import annotations

import struct
import time
from collections.abc import Callable, Hashable, Sequence

from games import lasca as engine
from games.ai import lasca_kernel as kernel
from games.ai.search import WIN
from games.lasca import LascaState

Evaluation = Callable[["LascaPos"], int]
NEAR_QUIET_LIMIT = engine.QUIET_LIMIT - 20
_MoveData = tuple[int, tuple[int, ...], tuple[int, ...]]


class LascaPos:
    """A board, the side to move (0 White, 1 Black) and what the draw rules need."""

    __slots__ = ("board", "quiet", "seen", "side", "table")

    def __init__(
        self,
        board: tuple[str, ...],
        side: int,
        quiet: int,
        seen: tuple[tuple[str, ...], ...],
    ) -> None:
        self.board = board
        self.side = side
        self.quiet = quiet
        self.seen = seen
        self.table: dict[str, _MoveData] | None = None


def from_state(state: LascaState) -> LascaPos:
    return LascaPos(state.board, int(state.to_move), state.quiet_moves, state.seen)


def moves_of(pos: LascaPos, continues: bool) -> dict[str, _MoveData]:
    table = pos.table
    if table is None:
        table = pos.table = kernel.generate(pos.board, pos.side, continues)
    return table


def finished(pos: LascaPos, table: dict[str, _MoveData]) -> int | None:
    """WIN/-WIN/0 for the side to move when the game is over, else None."""
    if not table:
        return -WIN
    seen = pos.seen
    if len(seen) >= 4 and seen[-2::-2].count(pos.board) >= 2:
        return 0
    if pos.quiet >= engine.QUIET_LIMIT:
        return 0
    return None


def play(pos: LascaPos, move: str, continues: bool) -> LascaPos:
    """The position after a legal move (LascaState.play)."""
    data = moves_of(pos, continues)[move]
    side = pos.side
    board, irreversible = kernel.apply(pos.board, side, data)
    if irreversible:
        return LascaPos(board, 1 - side, 0, ())
    return LascaPos(board, 1 - side, pos.quiet + 1, (*pos.seen, pos.board))


def _captured(data: _MoveData) -> int:
    return len(data[2])


class LascaGame:
    """The search adapter: moves are their canonical texts."""

    def __init__(
        self, continues: bool, evaluate: Evaluation, weights: tuple[int, ...] | None = None
    ) -> None:
        self.continues = continues
        self.evaluate = evaluate
        self.weights = weights

    def expand(self, pos: LascaPos) -> tuple[int | None, Sequence[str]]:
        table = moves_of(pos, self.continues)
        over = finished(pos, table)
        if over is not None:
            return over, ()
        moves = list(table)
        if len(moves) > 1 and "x" in moves[0]:
            moves.sort(key=lambda m: _captured(table[m]), reverse=True)
        return None, moves

    def play(self, pos: LascaPos, move: str) -> LascaPos:
        return play(pos, move, self.continues)

    def key(self, pos: LascaPos) -> Hashable:
        # Near the 80-ply draw the same board is worth something else, and a
        # board drawn by the 80-ply rule or by repetition is finished: the
        # search probes its table before it looks at the rules.
        quiet = pos.quiet
        near = 0 if quiet < NEAR_QUIET_LIMIT else 1 if quiet < engine.QUIET_LIMIT else 2
        seen = pos.seen
        repeated = len(seen) >= 4 and seen[-2::-2].count(pos.board) >= 2
        return (pos.board, pos.side, near, repeated)

    def text(self, pos: LascaPos, move: str) -> str:
        return move

    def tactics(self, pos: LascaPos, moves: Sequence[str]) -> tuple[bool, Sequence[str]]:
        """A capture is compulsory: when there is one, it is all there is to play."""
        if moves and "x" in moves[0]:
            return True, moves
        return False, ()

    def think(
        self,
        root: LascaPos,
        moves: Sequence[str],
        *,
        max_depth: int,
        quiescence: int,
        reductions: bool,
        table: int,
        deadline: float | None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> tuple[str, int, int, int] | None:
        """The search of this adapter in C (lasca_kernel.c's `think`, search.py's
        rules): the best of `moves`, its score, the depth finished and the nodes;
        None where the kernel was not built or the evaluation has no `weights`
        (the values of a lasca_eval.Weights). `table`: 0 none, 1 a fresh one,
        2 the one the last search left."""
        if kernel.think is None or self.weights is None:
            return None
        packed = struct.pack(f"{len(self.weights)}q", *self.weights)
        index, score, depth, nodes = kernel.think(
            root.board,
            root.side,
            self.continues,
            root.seen,
            root.quiet,
            packed,
            list(moves),
            max_depth,
            quiescence,
            reductions,
            table,
            clock,
            deadline,
        )
        return moves[index], score, depth, nodes
