"""What a board marks for the player to move: the pieces that may move, or one piece's moves.

`hints` marks the origins of the legal moves: what a player may pick up.
`selected` names the piece picked (in the two-step move flow) and marks where
it may end its move. Both read the engine's own answers, `legal_moves()` and
`describe(move)`, so every variant's notation (Oska's huff forfeits and
removals, Lasca's capture sequences, Oware's pits) is read the same way. When
the rules compel a capture and every legal move is one, the marks say so
(`Hints.forced`), as the caption's note does.
"""

from __future__ import annotations

from typing import NoReturn

from games.base import GameState
from render.scene import NO_HINTS, Hints, Painter, compulsory_capture
from render.theme import REFERENCE, THEME


def hints_of(
    state: GameState,
    painter: Painter,
    *,
    hints: bool,
    selected: str | None,
    over: bool,
) -> Hints:
    """The marks of `state` for its player to move; ValueError for a `selected` that cannot move.

    `over` says the game has ended (by the rules or by the caller's outcome):
    nothing is marked then, and nothing can be selected.
    """
    if not hints and selected is None:
        return NO_HINTS
    legal = () if over else state.legal_moves()
    moving = [info for info in (state.describe(move) for move in legal) if info.path]
    origins = frozenset(info.path[0] for info in moving)
    forced = compulsory_capture(painter, state, legal)
    if selected is None:
        return Hints(origins=origins, forced=forced)
    if selected not in origins:
        _refuse(state, painter, selected, origins, over)
    targets = frozenset(painter.lands(state, info) for info in moving if info.path[0] == selected)
    return Hints(origins if hints else frozenset(), selected, targets, forced)


def _refuse(
    state: GameState, painter: Painter, selected: str, origins: frozenset[str], over: bool
) -> NoReturn:
    """Say why `selected` cannot be shown with its moves, to the developer who passed it."""
    squares = painter.layout(REFERENCE, state.to_move, THEME).centres
    title = state.spec.title
    if selected not in squares:
        raise ValueError(
            f"selected={selected!r} is not a square of {title} (one of {', '.join(squares)})"
        )
    if over:
        raise ValueError(f"selected={selected!r}: the game is over, nothing can move")
    raise ValueError(
        f"selected={selected!r}: no legal move of {title} starts there "
        f"(the pieces that can move are on: {', '.join(sorted(origins)) or 'none'})"
    )
