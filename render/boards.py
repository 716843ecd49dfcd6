"""The board images: each drawn by its game's painter (`render.painters`).

`frame` builds the palette image, `board` encodes it as PNG; `last_move_of`
finds what to highlight when the caller does not say.
"""

from __future__ import annotations

from PIL import Image

from games import registry
from games.base import GameError, GameState, MoveInfo, Outcome, Side, play_on
from render.draw import png
from render.hints import hints_of
from render.painters import painter_for
from render.scene import Painter, Scene, caption, mover
from render.theme import THEME, Theme, check_size


def board(
    state: GameState,
    *,
    last_move: MoveInfo | None = None,
    hints: bool = False,
    selected: str | None = None,
    perspective: Side = Side.FIRST,
    size: int = 640,
    players: tuple[str, str] | None = None,
    outcome: Outcome | None = None,
    theme: Theme = THEME,
    locale: str | None = None,
    clocks: tuple[str, str] | None = None,
) -> bytes:
    """The PNG of `state`, at most `size` pixels on its longest side.

    `last_move` is what to highlight (`before.describe(move)`); when None it is
    found by replaying the state's moves, which a state set up from text
    cannot do, and then nothing is highlighted. `hints` marks the pieces
    (Oware: the pits) the player to move can move. `selected` is a square or
    pit whose piece the player picked: it is marked with the squares its legal
    moves can end on (Oware: the pit its last seed reaches); ValueError when
    it is not a square or its piece cannot move. When the rules compel a
    capture, these marks are the capture's and the caption says a capture is
    compulsory. `perspective` is the side at the bottom. `players`
    names the first and second player in the caption. `outcome` overrides the
    engine's (a resignation, a draw by agreement, a loss on time). `locale`
    is the reader's language (`cs`, `en-US`): the caption and the names on
    the board are worded in it, in English when None or it has no catalogue.
    `clocks` are a live clock's two times as the caption shows them (`2:41`), the
    first side's then the second's.
    """
    return png(
        frame(
            state,
            last_move=last_move,
            hints=hints,
            selected=selected,
            perspective=perspective,
            size=size,
            players=players,
            outcome=outcome,
            theme=theme,
            locale=locale,
            clocks=clocks,
        )
    )


def frame(
    state: GameState,
    *,
    last_move: MoveInfo | None = None,
    hints: bool = False,
    selected: str | None = None,
    perspective: Side = Side.FIRST,
    size: int = 640,
    players: tuple[str, str] | None = None,
    outcome: Outcome | None = None,
    theme: Theme = THEME,
    locale: str | None = None,
    clocks: tuple[str, str] | None = None,
) -> Image.Image:
    """The image `board` encodes, in palette mode (what replays and tests use)."""
    painter = painter_for(state.spec)
    return painter.paint(
        state,
        scene(
            state,
            last_move=last_move,
            hints=hints,
            selected=selected,
            perspective=perspective,
            size=size,
            players=players,
            outcome=outcome,
            theme=theme,
            locale=locale,
            clocks=clocks,
        ),
    )


def scene(
    state: GameState,
    *,
    last_move: MoveInfo | None = None,
    hints: bool = False,
    selected: str | None = None,
    perspective: Side = Side.FIRST,
    size: int = 640,
    players: tuple[str, str] | None = None,
    outcome: Outcome | None = None,
    theme: Theme = THEME,
    locale: str | None = None,
    clocks: tuple[str, str] | None = None,
) -> Scene:
    """What `frame` shows besides the position: the marks, the hints and the caption's words."""
    check_size(size)
    spec = state.spec
    painter = painter_for(spec)
    if last_move is None:
        last_move = last_move_of(state)
    if outcome is None:
        outcome = state.outcome()
    marked = hints_of(state, painter, hints=hints, selected=selected, over=outcome is not None)
    words = caption(spec, painter, state, last_move, outcome, players, locale, clocks)
    mover_of_last = _mover_of_last(state)
    return Scene(last_move, mover_of_last, marked, words, Side(perspective), size, theme, locale)


def last_move_of(state: GameState) -> MoveInfo | None:
    """What the last move (passes after it aside) touched, replaying the game from its start.

    None when there is no such move, or when the moves do not lead from the
    start to `state` (a position set up from text).
    """
    moves = state.moves
    ply = last_real_ply(moves)
    if ply < 0:
        return None
    try:
        current = state.spec.replay(state.variant, moves[:ply])
        info = current.describe(moves[ply])
        current = play_on(current, moves[ply:])  # the move and the passes after it
    except GameError:
        return None
    return info if current.to_text() == state.to_text() else None


def centre(
    game: str | GameState,
    square: str,
    *,
    size: int = 640,
    perspective: Side = Side.FIRST,
    theme: Theme = THEME,
) -> tuple[int, int]:
    """The pixel at the centre of a square (Oska, Lasca) or pit (Oware) in `board`'s image.

    `game` is a registry name or a state. For hit-testing and for tests.
    """
    check_size(size)
    return _layout_board(game).layout(size, Side(perspective), theme).centre(square)


def image_size(
    game: str | GameState, *, size: int = 640, perspective: Side = Side.FIRST, theme: Theme = THEME
) -> tuple[int, int]:
    """The width and height of `board`'s image of a game at `size`."""
    check_size(size)
    layout = _layout_board(game).layout(size, Side(perspective), theme)
    return layout.width, layout.height


# ---------------------------------------------------------------- helpers


def _layout_board(game: str | GameState) -> Painter:
    spec = registry.get(game) if isinstance(game, str) else game.spec
    return painter_for(spec)


def last_real_ply(moves: tuple[str, ...]) -> int:
    ply = len(moves) - 1
    while ply >= 0 and moves[ply] == "pass":
        ply -= 1
    return ply


def _mover_of_last(state: GameState) -> Side | None:
    ply = last_real_ply(state.moves)
    return mover(state, ply) if ply >= 0 else None
