"""The boards of the terminal game (`python -m games play`), drawn as lines of text.

Each board carries its coordinates as games/RULES.md names them: Oska's and
Lasca's file letters above and below, their row numbers on both sides; Oware's
pit letters above and below its rows, each store beside its owner's name. The
player whose view it is sits at the bottom. Pieces keep the notation's letters,
different for each side, so a board reads the same without colour; with colour
(ANSI SGR codes) the sides get theirs, and the squares of the last move and of
the legal moves a background.

No words here: the legend's sentences are the catalogue's, said by games/cli.py,
which gets the symbols to put in them from `legend_symbols`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TextIO

from games import lasca, oska, oware
from games.base import GameState, MoveInfo, Side

COLOUR_CHOICES = ("auto", "always", "never")

# SGR parameters. Oska's stones are coloured letters. Lasca's pieces are chips (a
# background behind the letter): White's soldiers light and Black's dark, so that on
# any terminal one shows by its chip and the other by its letter; officers in the
# colours of the real pieces (games/RULES.md: red for White, blue for Black).
_RESET = "\x1b[0m"
_LAST = "43"  # yellow background: the squares the last move touched
_LEGAL = "42"  # green background: the squares a legal move starts from or lands on
_OSKA = {"b": "1;94", "r": "1;91"}
_LASCA = {"w": "30;47", "W": "1;97;41", "b": "1;97;40", "B": "1;97;44"}
_OWARE_SIDES = ("1;33", "1;36")  # South, North: their pit letters, names and stores


def wants_colour(choice: str, stream: TextIO, environment: Mapping[str, str]) -> bool:
    """Whether to colour: `always`, `never`, or (`auto`) when `stream` is a terminal that
    takes colour: not TERM=dumb, and no NO_COLOR (https://no-color.org: set and not empty)."""
    if choice != "auto":
        return choice == "always"
    if environment.get("NO_COLOR") or environment.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except ValueError:  # a closed stream
        return False


def colour_from_environment(choice: str, stream: TextIO) -> bool:
    """`wants_colour` as this process's environment says."""
    return wants_colour(choice, stream, os.environ)


@dataclass(frozen=True, slots=True)
class Paint:
    """Colours text with SGR codes, or leaves it as it is when colour is off."""

    on: bool

    def __call__(self, text: str, *codes: str) -> str:
        codes = tuple(code for code in codes if code)
        if not self.on or not codes or not text:
            return text
        return f"\x1b[{';'.join(codes)}m{text}{_RESET}"


@dataclass(frozen=True, slots=True)
class View:
    """What a board shows besides the position: whose view it is (that side at the bottom),
    the colours, the sides' names in the reader's language (Oware writes them on the
    board), and each marked square's background (`marking` sets them)."""

    side: Side = Side.FIRST
    paint: Paint = Paint(False)
    names: tuple[str, str] = ("", "")
    marks: Mapping[str, str] = field(default_factory=dict)

    def mark(self, square: str) -> str:
        """The background of a square or pit: the last move's, a legal move's, or none."""
        return self.marks.get(square, "")


def marking(last: MoveInfo | None, legal: Iterable[MoveInfo]) -> dict[str, str]:
    """The backgrounds of the squares (or pits) the last move touched and of those a legal
    move starts from or lands on; where both, the legal move's."""
    marks: dict[str, str] = {}
    if last is not None:
        marks.update(dict.fromkeys((*last.path, *last.captured, *last.forfeited), _LAST))
    for info in legal:
        marks.update(dict.fromkeys(info.path, _LEGAL))
    return marks


def board_lines(state: GameState, view: View) -> list[str]:
    """The board of `state` as the side of `view` sees it, one string a line."""
    if isinstance(state, oska.OskaState):
        return _oska(state, view)
    if isinstance(state, lasca.LascaState):
        return _lasca(state, view)
    if isinstance(state, oware.OwareState):
        return _oware(state, view)
    raise TypeError(f"no terminal board for {type(state).__name__}")


def legend_symbols(game: str, paint: Paint) -> dict[str, str]:
    """The symbols the legend of `game` names, as the board draws them (its template's fields)."""
    if game == "oska":
        return {"blue": paint("b", _OSKA["b"]), "red": paint("r", _OSKA["r"]), "empty": "."}
    if game == "lasca":
        names = {"white_soldier": "w", "white_officer": "W",
                 "black_soldier": "b", "black_officer": "B"}  # fmt: skip
        found = {name: paint(piece, _LASCA[piece]) for name, piece in names.items()}
        return {**found, "example": paint("W3", _LASCA["W"]), "top": paint("W", _LASCA["W"])}
    if game == "oware":
        return {"store": "[n]"}
    raise KeyError(game)


def tall_columns(state: GameState, view: View) -> list[str]:
    """Lasca: each column of more than one piece, its square then its pieces from the top
    down (`d4 W b b`), in the order the board shows them (top row first); else none."""
    if not isinstance(state, lasca.LascaState):
        return []
    found = []
    for square in _order(lasca.SQUARES, view.side, files=7, ranks=7):
        column = state.column(square)
        if len(column) > 1:
            pieces = " ".join(view.paint(piece, _LASCA[piece]) for piece in reversed(column))
            found.append(f"{square} {pieces}")
    return found


# ------------------------------------------------------------------ the grids


class _Line:
    """A line built from left to right at given columns, colour codes taking no width."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.width = 0

    def put(self, x: int, visible: str, painted: str | None = None) -> None:
        self.parts.append(" " * max(0, x - self.width))
        self.parts.append(visible if painted is None else painted)
        self.width = max(x, self.width) + len(visible)

    def text(self) -> str:
        return "".join(self.parts).rstrip()


def _cell(line: _Line, x: int, body: str, width: int, codes: str, mark: str, paint: Paint) -> None:
    """A square whose content starts at column `x`: `body` (in `codes`, else in the
    square's background `mark`) filled out to `width`, with a pad on each side in `mark`."""
    filler = " " * (width - len(body))
    visible = f" {body}{filler} "
    if not codes:
        line.put(x - 1, visible, paint(visible, mark))
        return
    # A piece keeps its own colours (a stone on a background would lose its contrast);
    # the pads around it show the square's.
    painted = paint(" ", mark) + paint(body + filler, codes) + paint(" ", mark)
    line.put(x - 1, visible, painted)


def _order(squares: Iterable[str], side: Side, *, files: int, ranks: int) -> list[str]:
    """Squares as a board shows them to `side`: top row first, left to right."""

    def place(square: str) -> tuple[int, int]:
        file, rank = ord(square[0]) - ord("a"), int(square[1:])
        return (rank, files - 1 - file) if side is Side.SECOND else (ranks - rank, file)

    return sorted(squares, key=place)


def _grid(
    files: int,
    ranks: int,
    spacing: int,
    width: int,
    view: View,
    content: Mapping[str, tuple[str, str]],
) -> list[str]:
    """A checkers-like board: `content` maps each playing square to its body and colour;
    file letters above and below, rank numbers left and right, as `view.side` sees it."""
    flip = view.side is Side.SECOND
    file_order = list(range(files))[::-1] if flip else list(range(files))
    rank_order = list(range(1, ranks + 1)) if flip else list(range(ranks, 0, -1))
    left = 4  # the column of the first file: " 5 " and a pad before it
    right = left + spacing * (files - 1) + width + 2

    letters = _Line()
    for position, file in enumerate(file_order):
        letters.put(left + spacing * position, chr(ord("a") + file))
    lines = [letters.text()]
    for rank in rank_order:
        line = _Line()
        line.put(1, str(rank))
        for position, file in enumerate(file_order):
            square = f"{chr(ord('a') + file)}{rank}"
            if square in content:
                body, codes = content[square]
                x = left + spacing * position
                _cell(line, x, body, width, codes, view.mark(square), view.paint)
        line.put(right, str(rank))
        lines.append(line.text())
    return [*lines, letters.text()]


def _oska(state: oska.OskaState, view: View) -> list[str]:
    content = {square: (".", "") for square in oska.SQUARES}
    for side, letter in ((Side.FIRST, "b"), (Side.SECOND, "r")):
        content.update({square: (letter, _OSKA[letter]) for square in state.stones(side)})
    return _grid(7, 5, 2, 1, view, content)


def _lasca(state: lasca.LascaState, view: View) -> list[str]:
    content: dict[str, tuple[str, str]] = {}
    for square in lasca.SQUARES:
        column = state.column(square)
        if column:
            top = column[-1]
            content[square] = (top + (str(len(column)) if len(column) > 1 else ""), _LASCA[top])
        else:
            content[square] = (".", "")
    width = max(2, *(len(body) for body, _ in content.values()))
    return _grid(7, 7, 3, width, view, content)


def _oware(state: oware.OwareState, view: View) -> list[str]:
    """Two rows of pits with their letters, the viewer's row at the bottom; each row's
    owner named at its end, beside the store: the top row's on the left, the bottom
    row's on the right (each player's store at their right hand as they face the board)."""
    paint, names = view.paint, view.names
    bottom = view.side
    top = bottom.other
    # The far row runs the other way, so sowing goes round: A-F, then a-f back along the top.
    top_pits = oware.PITS[6 * top : 6 * top + 6][::-1]
    bottom_pits = oware.PITS[6 * bottom : 6 * bottom + 6]
    name_width = max(len(name) for name in names)
    store_at = name_width + 3
    left = store_at + 4 + 2  # the first pit's content, after the store and a pad
    spacing, width = 4, 2

    def letters(pits: str, side: Side) -> str:
        line = _Line()
        for position, pit in enumerate(pits):
            line.put(left + spacing * position + 1, pit, paint(pit, _OWARE_SIDES[side]))
        return line.text()

    def pits(line: _Line, row: str) -> None:
        for position, pit in enumerate(row):
            count = f"{state.pits[oware.PITS.index(pit)]:>2}"
            _cell(line, left + spacing * position, count, width, "", view.mark(pit), paint)

    def tag(line: _Line, x: int, text: str, side: Side) -> None:
        line.put(x, text, paint(text, _OWARE_SIDES[side]))

    def store(side: Side) -> str:
        return f"[{state.stores[side]:>2}]"

    upper = _Line()
    tag(upper, 2 + name_width - len(names[top]), names[top], top)
    tag(upper, store_at, store(top), top)
    pits(upper, top_pits)
    lower = _Line()
    pits(lower, bottom_pits)
    end = left + spacing * 5 + width + 2
    tag(lower, end, store(bottom), bottom)
    tag(lower, end + 6, names[bottom], bottom)
    return [letters(top_pits, top), upper.text(), lower.text(), letters(bottom_pits, bottom)]
