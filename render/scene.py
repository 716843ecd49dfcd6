"""What a frame shows besides the position, and the caption band every image has.

The caption is the same for the three games: whose turn it is (or the
result), the move just played with what it took, and a line of rules (the
reason a finished game ended, the variant, an obligation). It is built from
the engines' own vocabulary (`Outcome`, `MoveInfo`, the game's name) and
worded by `words` in the reader's language (`locale`, English when None): the
`board.*` codes, the game's title and side names (`words.games`), and the
outcome's own sentence from `words.games.outcome_text`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image

import words
from games.base import GameSpec, GameState, MoveInfo, Outcome, Side, Variant
from games.record import move_number
from render.compose import Item, sprite_item, text_item
from render.draw import fitted
from render.theme import SIZES, Scale, Theme
from words.games import outcome_text, side_names, title

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
class Hints:
    """What a board marks for the player to move (`board`'s `hints` and `selected`)."""

    origins: frozenset[str] = frozenset()  # the pieces (Oware: pits) that may move
    selected: str | None = None  # the piece picked, whose moves are shown
    targets: frozenset[str] = frozenset()  # where the selected piece may end its move
    forced: bool = False  # every legal move is a capture the rules compel: marked as such


NO_HINTS = Hints()


@dataclass(frozen=True, slots=True)
class Scene:
    """Everything a board painter needs besides the position."""

    last: MoveInfo | None
    mover: Side | None  # who played `last`
    hints: Hints
    caption: Caption
    perspective: Side
    size: int
    theme: Theme
    locale: str | None = None  # the reader's language, for words on the board itself


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
class Painter:
    """What draws one game's boards; `render.painters.PAINTERS` holds one per game."""

    layout: Callable[[int, Side, Theme], Layout]
    paint: Callable[[Any, Scene], Image.Image]
    note: Callable[[Any, str | None], str]  # what the board cannot show, in a locale; or ""
    took: str  # the words code of what a move captured: `board.taking`, `board.capturing`
    compulsory: Callable[[Variant], bool]  # whether the rules of a variant make capturing a must
    lands: Callable[[Any, MoveInfo], str] = lambda state, move: move.path[-1]
    """Where a legal move ends: its last landing square (Oware: the pit of its last seed)."""


@dataclass(frozen=True, slots=True)
class Marks:
    """The squares a square board (Oska, Lasca) marks for the last move."""

    came_from: str | None = None
    passed: tuple[str, ...] = ()  # landings before the last of a capture sequence
    went_to: str | None = None
    captured: tuple[str, ...] = ()
    forfeited: tuple[str, ...] = ()


def marks(scene: Scene) -> Marks:
    """The marks of the last move on a square board (Oska, Lasca) from a scene."""
    last = scene.last
    if last is None:
        return Marks()
    if not last.path:  # a pass, or an Oska removal that ended the game (`a1:`)
        return Marks(forfeited=last.forfeited)
    path = last.path
    return Marks(
        came_from=path[0],
        passed=path[1:-1],
        went_to=path[-1] if len(path) > 1 else None,
        captured=last.captured,
        forfeited=last.forfeited,
    )


def compulsory_capture(painter: Painter, state: GameState, legal: tuple[str, ...]) -> bool:
    """Whether every legal move of `state` is a capture because the rules compel one.

    Under rules that let a player decline a capture (Oska's huff and optional
    variants, all of Oware) a position with only captures left is no obligation.
    """
    return (
        bool(legal)
        and painter.compulsory(state.variant)
        and all(state.describe(move).captured for move in legal)
    )


# ---------------------------------------------------------------- wording


def mover(state: GameState, ply: int) -> Side:
    """Who played move `ply` (0-based): counted back from the side to move, so a
    game set up with either side to move is named right."""
    back = len(state.moves) - ply
    return state.to_move if back % 2 == 0 else state.to_move.other


def sides(spec: GameSpec, locale: str | None = None) -> tuple[str, str]:
    """The sides' names in the reader's language (`Blue`, `Red`; in Czech `Modrý`, `Červený`)."""
    return side_names(spec.name, locale)


def who(
    spec: GameSpec, side: Side, players: tuple[str, str] | None, locale: str | None = None
) -> str:
    """`Blue`, or `Ann (Blue)` when the players' names are known."""
    name = sides(spec, locale)[side]
    return words.say("board.player", locale, name=players[side], side=name) if players else name


def caption(
    spec: GameSpec,
    painter: Painter,
    state: GameState,
    last: MoveInfo | None,
    outcome: Outcome | None,
    players: tuple[str, str] | None,
    locale: str | None = None,
    clocks: tuple[str, str] | None = None,
) -> Caption:
    """The caption of `state`, whose last real move (passes after it aside) is `last`,
    in the language of `locale` (English when None or when it has no catalogue).
    `clocks`: a live clock's two times, shown first on the note line while the game
    goes on (the rules line, which the message's footer also gives, makes way)."""
    moves = state.moves
    passes = 0
    while passes < len(moves) and moves[len(moves) - 1 - passes] == "pass":
        passes += 1
    move_line = _move_line(spec, painter, state, last, passes, locale)
    if outcome is not None:
        winner = outcome.winner
        if winner is None:
            heading = words.say("board.draw", locale)
        else:
            heading = words.say("board.wins", locale, player=who(spec, winner, players, locale))
        reason = outcome_text(outcome, spec.name, locale)
        return Caption(heading, move_line, _sentence(reason), outcome.winner, True)
    note = painter.note(state, locale)
    legal = state.legal_moves()
    side = sides(spec, locale)[state.to_move]
    if legal == ("pass",):
        note = words.say("board.must-pass", locale, side=side)
    elif compulsory_capture(painter, state, legal):
        note = words.say("board.capture-compulsory", locale, side=side)
    heading = words.say("board.to-move", locale, player=who(spec, state.to_move, players, locale))
    if clocks is not None:
        names = sides(spec, locale)
        shown = words.say("board.clocks", locale, first=names[0], first_left=clocks[0],
                          second=names[1], second_left=clocks[1])  # fmt: skip
        note = words.say("board.clocks.and", locale, clocks=shown, note=note) if note else shown
    return Caption(heading, move_line, note or rules_line(spec, state, locale), state.to_move)


def rules_line(spec: GameSpec, state: GameState, locale: str | None) -> str:
    """`Oska, standard rules` or `Oska, capture=huff`: the game and its variant."""
    name = title(spec.name, locale)
    variant = " ".join(state.variant.changes())
    if variant:
        return words.say("board.rules.variant", locale, title=name, variant=variant)
    return words.say("board.rules.standard", locale, title=name)


def _move_line(
    spec: GameSpec,
    painter: Painter,
    state: GameState,
    last: MoveInfo | None,
    passes: int,
    locale: str | None,
) -> str:
    moves = state.moves
    if not moves:
        fresh = state.to_text() == spec.start(state.variant).to_text()
        return words.say("board.new-game" if fresh else "board.set-up", locale)
    names = sides(spec, locale)
    ply = len(moves) - 1 - passes
    if ply < 0:
        side = mover(state, len(moves) - 1)
        number, _ = move_number(len(moves) - 1)
        return words.say("board.passed", locale, number=number, side=names[side])
    side = mover(state, ply)
    text = (last.text if last else moves[ply]).partition("/")[0]
    number, _ = move_number(ply)  # the record's numbering; the side is counted from the end
    line = words.say("board.played", locale, number=number, side=names[side], move=text)
    if last and last.captured:
        line = words.say(painter.took, locale, line=line, squares=squares(last.captured, locale))
    if last and last.forfeited:
        # A removal (`a1:...`) takes the opponent's stone; a huff forfeit (`.../a1`) one's own.
        clause = "board.removing" if ":" in last.text else "board.forfeiting"
        line = words.say(clause, locale, line=line, squares=squares(last.forfeited, locale))
    if passes:
        line = words.say("board.then-passed", locale, line=line, side=names[side.other])
    return line


def squares(names: tuple[str, ...], locale: str | None = None) -> str:
    """`b4`, or `b4, d4 and f6`: a list of squares or pits as a caption names them."""
    if len(names) == 1:
        return names[0]
    return words.say("board.list", locale, init=names[:-1], last=names[-1])


def _sentence(text: str) -> str:
    # The reason is worded to follow other words ("... resigned"); alone on its line it
    # starts with a capital, in any language that has them.
    return text[:1].upper() + text[1:]


# --------------------------------------------------------------- painting


def caption_items(
    box: Box,
    words: Caption,
    scale: Scale,
    theme: Theme,
    chip: Image.Image | None,
) -> list[Item]:
    """The caption in `box` as items (`render.compose`): the chip (`("chip", side)`, the
    painter's sprite of the side's piece) before the title, then the three lines."""
    x0, y0, x1, y1 = box
    line_height = (y1 - y0) / 4
    title_y = y0 + line_height * 1.0
    x = x0
    items = []
    if chip is not None and words.side is not None:
        items.append(sprite_item(chip, (x + chip.width / 2, title_y), ("chip", words.side)))
        x += chip.width + scale(10)
    title, face = fitted(words.title, scale(SIZES.title_font), x1 - x, scale(16))
    items.append(text_item((x, title_y), title, int(face.size), theme.text, "lm"))
    small = scale(SIZES.line_font)
    move, face = fitted(words.move, small, x1 - x0, scale(SIZES.smallest_font))
    items.append(text_item((x0, y0 + line_height * 2.25), move, int(face.size), theme.text, "lm"))
    note, face = fitted(words.note, small, x1 - x0, scale(SIZES.smallest_font))
    colour = theme.text if words.finished else theme.muted
    items.append(text_item((x0, y0 + line_height * 3.3), note, int(face.size), colour, "lm"))
    return items


def caption_box(scale: Scale, width: int) -> Box:
    """The caption band across the top of an image `width` wide."""
    margin = scale(SIZES.margin)
    return (margin, scale(4), width - margin, scale(SIZES.caption))
