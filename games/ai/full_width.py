"""The C kernels' plain full-width alpha-beta, for whoever needs a value it can trust.

    search_value(state, depth, alpha, beta) -> int   # for the side to move
    root_values(state, depth, moves) -> {move: value}

`search` in games/ai/oware_kernel.c and lasca_kernel.c: every legal move, no
reductions, no pruning but alpha-beta's; a game's end scored exactly
(`SEARCH_WIN` for a win, by the game's own repetition and quiet-move rules);
material only at the horizon: Oware the stores' difference in seeds, Lasca
100 a column's top soldier and 300 an officer. So a value >= `SEARCH_WIN` is
a win forced within the horizon. The puzzle verifier proves with it and the
deep review (`games.ai.review`) scores with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.base import GameState

try:
    from games.ai import _lasca_kernel, _oware_kernel
except ImportError:  # built without a C compiler
    _lasca_kernel = _oware_kernel = None  # type: ignore[assignment]

SEARCH_WIN = 100_000
"""The kernels' score of a won game (games/ai/*_kernel.c SEARCH_WIN)."""
WINDOW = 4 * SEARCH_WIN
"""Wider than any value: a search in (-WINDOW, WINDOW) is exact."""
GAMES = ("oware", "lasca")


def kernels_built() -> bool:
    return _oware_kernel is not None and _lasca_kernel is not None


def search_value(state: GameState, depth: int, alpha: int, beta: int) -> int:
    """The kernel's full-width alpha-beta value of `state` for its side to move
    (a bound outside (alpha, beta), as alpha-beta's)."""
    if _oware_kernel is None or _lasca_kernel is None:
        raise RuntimeError("the C search kernels are not built: pip install -e . with a C compiler")
    name = state.spec.name
    if name == "oware":
        return int(
            _oware_kernel.search(
                state.pits,  # type: ignore[attr-defined]
                state.stores,  # type: ignore[attr-defined]
                int(state.to_move),
                state.grandslam,  # type: ignore[attr-defined]
                state.must_play_12,  # type: ignore[attr-defined]
                state.obliged,  # type: ignore[attr-defined]
                state.history,  # type: ignore[attr-defined]
                depth,
                alpha,
                beta,
            )
        )
    if name == "lasca":
        return int(
            _lasca_kernel.search(
                state.board,  # type: ignore[attr-defined]
                int(state.to_move),
                state.variant["promotion"] == "continues",
                state.seen,  # type: ignore[attr-defined]
                state.quiet,  # type: ignore[attr-defined]
                depth,
                alpha,
                beta,
            )
        )
    raise ValueError(f"no search kernel for {name}")


def move_value(state: GameState, move: str, depth: int, alpha: int = -WINDOW) -> int:
    """`move`'s value for `state`'s mover, `depth` plies deep with the move one of them:
    exact above `alpha`, at most `alpha` when it is not above (a game ended by the move
    is scored as the kernel scores ends)."""
    after = state.play(move)
    outcome = after.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return 0
        return SEARCH_WIN if int(outcome.winner) == int(state.to_move) else -SEARCH_WIN
    return -search_value(after, depth - 1, -WINDOW, -alpha)


def root_values(
    state: GameState, depth: int, first: Sequence[str] = ()
) -> tuple[dict[str, int], str]:
    """The value of the moves `first` (exact) and of a best move (exact), each for the
    mover, and that best move: every other legal move is searched only to see that it is
    no better. Ties go to the earliest of `first`, then the engine's order."""
    values = {move: move_value(state, move, depth) for move in first}
    best = max(first, key=values.__getitem__) if first else ""
    for move in state.legal_moves():
        if move in values:
            continue
        if not best:
            values[move] = move_value(state, move, depth)
            best = move
            continue
        value = move_value(state, move, depth, values[best])
        if value > values[best]:
            values[move], best = value, move
    return values, best
