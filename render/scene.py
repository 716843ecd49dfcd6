"""What a frame shows besides the position, and the caption band every image has.

The caption is the same for the three games: whose turn it is (or the
result), the move just played with what it took, and a line of rules (the
reason a finished game ended, the variant, an obligation). It is worded from
the engines' own vocabulary: `Outcome.reason`, `MoveInfo`, the side names of
the registry.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from games.base import GameSpec, GameState, MoveInfo, Outcome, Side
from render.draw import fitted, put, write
from render.theme import SIZES, Scale, Theme

Point = tuple[int, int]
Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Caption:
    """The three lines at the top of an image; `side` gets a piece drawn before the title."""

    title: str
    move: str
    note: str
    side: Side | None = None
    finished: bool = False


@dataclass(frozen=True, slots=True)
class Scene:
    """Everything a board painter needs besides the position."""

    last: MoveInfo | None
    mover: Side | None  # who played `last`
    hints: tuple[str, ...]
    caption: Caption
    perspective: Side
    size: int
    theme: Theme


@dataclass(frozen=True)
class Layout:
    """Where things are in an image of one size and perspective."""

    width: int
    height: int
    caption: Box
    centres: Mapping[str, Point]

    def centre(self, square: str) -> Point:
        """The pixel at the centre of a square or pit; KeyError names a bad one."""
        try:
            return self.centres[square]
        except KeyError:
            raise KeyError(f"`{square}` is not a square of this board") from None


@dataclass(frozen=True)
class Board:
    """A game's painter, as the public functions dispatch to it."""

    name: str
    state_type: type
    layout: Callable[[int, Side, Theme], Layout]
    paint: Callable[[Any, Scene], Image.Image]
    note: Callable[[Any], str]
    took: str  # the verb for what a move captured: "taking", "capturing"


@dataclass(frozen=True, slots=True)
class Marks:
    """The squares a board marks, read from the last move and the hints."""

    came_from: str | None = None
    passed: tuple[str, ...] = ()  # landings before the last of a capture sequence
    went_to: str | None = None
    captured: tuple[str, ...] = ()
    forfeited: tuple[str, ...] = ()
    origins: frozenset[str] = frozenset()  # hints: what may move
    targets: frozenset[str] = frozenset()  # hints: where it may go


def marks(scene: Scene) -> Marks:
    """The marks of a square board (Oska, Lasca) from a scene."""
    origins: set[str] = set()
    targets: set[str] = set()
    for move in scene.hints:
        squares = re.split(r"[-x]", move.partition("/")[0])
        if len(squares) > 1:
            origins.add(squares[0])
            targets.add(squares[-1])
    last = scene.last
    if last is None or not last.path:
        return Marks(origins=frozenset(origins), targets=frozenset(targets))
    path = last.path
    return Marks(
        came_from=path[0],
        passed=path[1:-1],
        went_to=path[-1] if len(path) > 1 else None,
        captured=last.captured,
        forfeited=last.forfeited,
        origins=frozenset(origins),
        targets=frozenset(targets),
    )


# ---------------------------------------------------------------- wording


def mover(state: GameState, ply: int) -> Side:
    """Who played move `ply` (0-based): counted back from the side to move, so a
    game set up with either side to move is named right."""
    back = len(state.moves) - ply
    return state.to_move if back % 2 == 0 else state.to_move.other


def who(spec: GameSpec, side: Side, players: tuple[str, str] | None) -> str:
    """`Blue`, or `Ann (Blue)` when the players' names are known."""
    name = spec.side_name(side)
    return f"{players[side]} ({name})" if players else name


def caption(
    spec: GameSpec,
    board: Board,
    state: GameState,
    last: MoveInfo | None,
    outcome: Outcome | None,
    players: tuple[str, str] | None,
) -> Caption:
    """The caption of `state`, whose last real move (passes after it aside) is `last`."""
    moves = state.moves
    passes = 0
    while passes < len(moves) and moves[len(moves) - 1 - passes] == "pass":
        passes += 1
    move_line = _move_line(spec, board, state, last, passes)
    variant = " ".join(state.variant.changes())
    rules = f"{spec.title}, {variant}" if variant else f"{spec.title}, standard rules"
    if outcome is not None:
        winner = outcome.winner
        title = "Draw" if winner is None else f"{who(spec, winner, players)} wins"
        return Caption(title, move_line, _sentence(outcome.reason), outcome.winner, True)
    note = board.note(state)
    legal = state.legal_moves()
    if legal == ("pass",):
        note = f"{spec.side_name(state.to_move)} has no move and must pass"
    return Caption(
        f"{who(spec, state.to_move, players)} to move", move_line, note or rules, state.to_move
    )


def _move_line(
    spec: GameSpec, board: Board, state: GameState, last: MoveInfo | None, passes: int
) -> str:
    moves = state.moves
    if not moves:
        fresh = state.to_text() == spec.start(state.variant).to_text()
        return "New game" if fresh else "A position set up, no move played yet"
    ply = len(moves) - 1 - passes
    if ply < 0:
        side = mover(state, len(moves) - 1)
        return f"Move {(len(moves) - 1) // 2 + 1}: {spec.side_name(side)} passed"
    side = mover(state, ply)
    text = (last.text if last else moves[ply]).partition("/")[0]
    line = f"Move {ply // 2 + 1}: {spec.side_name(side)} played {text}"
    if last and last.captured:
        line += f", {board.took} {_and(last.captured)}"
    if last and last.forfeited:
        line += f", forfeiting {_and(last.forfeited)}"
    if passes:
        line += f"; {spec.side_name(side.other)} had no move and passed"
    return line


def _and(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


# --------------------------------------------------------------- painting


def paint_caption(
    canvas: Image.Image,
    box: Box,
    words: Caption,
    scale: Scale,
    theme: Theme,
    chip: Image.Image | None,
) -> None:
    """Write the caption into `box` of an RGB canvas, a piece of the side before the title."""
    draw = ImageDraw.Draw(canvas)
    x0, y0, x1, y1 = box
    line_height = (y1 - y0) / 4
    title_y = y0 + line_height * 1.0
    x = x0
    if chip is not None:
        put(canvas, chip, (x + chip.width / 2, title_y))
        x += chip.width + scale(10)
    title, face = fitted(words.title, scale(SIZES.title_font), x1 - x, scale(16))
    write(draw, (x, title_y), title, face, theme.text, anchor="lm")
    small = scale(SIZES.line_font)
    move, face = fitted(words.move, small, x1 - x0, scale(SIZES.smallest_font))
    write(draw, (x0, y0 + line_height * 2.25), move, face, theme.text, anchor="lm")
    note, face = fitted(words.note, small, x1 - x0, scale(SIZES.smallest_font))
    colour = theme.text if words.finished else theme.muted
    write(draw, (x0, y0 + line_height * 3.3), note, face, colour, anchor="lm")


def caption_box(scale: Scale, width: int) -> Box:
    """The caption band across the top of an image `width` wide."""
    margin = scale(SIZES.margin)
    return (margin, scale(4), width - margin, scale(SIZES.caption))
