"""A position in words, for a screen reader: the alt text of a board image.

The text says what the image shows, in the order a listener needs it: the
game and its rules, whose turn it is (or the result and why), an obligation
the caption names (a compulsory capture, a pass, Oware's must-play-12), the
move just played, then every piece: Oska's stones and Lasca's single pieces
grouped by side and rank (`White: soldiers on a1, c1, e1`), Lasca's columns
of two or more pieces one by one from the top down, Oware's pits and stores
as counts. Every word comes from the catalogue (`describe.*` and the
caption's `board.*`), in the reader's language.

Discord takes at most `LIMIT` characters as an attachment's description; the
grouping keeps even a full Lasca board of tall columns well under it, and a
text that would still be longer is cut at a list's comma, marked with `…`.
"""

from __future__ import annotations

from itertools import groupby

import words
from games.base import GameState, Outcome, Side
from games.lasca import SQUARES as LASCA_SQUARES
from games.lasca import LascaState
from games.oska import OskaState
from games.oware import PITS, OwareState
from render.boards import last_move_of
from render.painters import painter_for
from render.scene import caption, rules_line, sides

LIMIT = 1024
"""The longest description Discord keeps for an attachment."""


def describe(
    state: GameState,
    *,
    locale: str | None = None,
    players: tuple[str, str] | None = None,
    outcome: Outcome | None = None,
) -> str:
    """The position of `state` in words, at most `LIMIT` characters, in `locale`'s language.

    `players` names the first and second player; `outcome` overrides the
    engine's (a resignation, a draw by agreement), as `board`'s do.
    """
    spec = state.spec
    if outcome is None:
        outcome = state.outcome()
    painter = painter_for(spec)
    said = caption(spec, painter, state, last_move_of(state), outcome, players, locale)
    rules = rules_line(spec, state, locale)
    parts = [rules, said.title]
    if said.note and said.note != rules:
        parts.append(said.note)  # why the game ended, or what the player to move must do
    parts.append(said.move)
    parts.extend(pieces(state, locale))
    return _fit(". ".join(_unstopped(part) for part in parts) + ".")


def pieces(state: GameState, locale: str | None = None) -> list[str]:
    """What stands on the board, as sentences without their full stops."""
    if isinstance(state, OskaState):
        return _oska(state, locale)
    if isinstance(state, LascaState):
        return _lasca(state, locale)
    if isinstance(state, OwareState):
        return _oware(state, locale)
    raise TypeError(
        f"no description of {state.spec.title} positions: add one to render/alt_text.py"
    )


def _oska(state: OskaState, locale: str | None) -> list[str]:
    names = sides(state.spec, locale)
    said = []
    for side in Side:
        stones = state.stones(side)
        if stones:
            said.append(
                words.say(
                    "describe.oska.stones",
                    locale,
                    side=names[side],
                    count=len(stones),
                    squares=stones,
                )
            )
        else:
            said.append(words.say("describe.oska.none", locale, side=names[side]))
    return said


_LISTS = "; "
"""Between lists whose items are themselves joined with commas."""

# Lasca's squares rank by rank, as a board is read (the engine lists them file by file).
_BY_RANK = sorted(LASCA_SQUARES, key=lambda square: (square[1], square[0]))

# A Lasca piece: whose it is and its rank (`w`: White's soldier, `B`: Black's officer).
_OWNER = {"w": Side.FIRST, "W": Side.FIRST, "b": Side.SECOND, "B": Side.SECOND}


def _lasca(state: LascaState, locale: str | None) -> list[str]:
    names = sides(state.spec, locale)
    columns = {square: column for square in _BY_RANK if (column := state.column(square))}
    said = []
    for side in Side:
        soldier, officer = ("w", "W") if side is Side.FIRST else ("b", "B")
        groups = []
        for piece, code in (
            (soldier, "describe.lasca.soldiers"),
            (officer, "describe.lasca.officers"),
        ):
            alone = tuple(square for square, column in columns.items() if column == piece)
            if alone:
                groups.append(words.say(code, locale, count=len(alone), squares=alone))
        commands = any(_OWNER[column[-1]] is side for column in columns.values())
        if groups:
            listed = _LISTS.join(groups)
            said.append(words.say("describe.lasca.side", locale, side=names[side], pieces=listed))
        elif not commands:
            said.append(words.say("describe.lasca.none", locale, side=names[side]))
    tall = [
        words.say(
            "describe.lasca.column", locale, square=square, pieces=_column(column, names, locale)
        )
        for square, column in columns.items()
        if len(column) > 1
    ]
    if tall:
        said.append(words.say("describe.lasca.columns", locale, columns=_LISTS.join(tall)))
    return said


def _column(column: str, names: tuple[str, str], locale: str | None) -> list[str]:
    """A column's pieces from the top down, a run of like pieces said once with its count."""
    said = []
    for piece, run in groupby(reversed(column)):
        code = "describe.lasca.officer" if piece.isupper() else "describe.lasca.soldier"
        said.append(words.say(code, locale, count=len(list(run)), side=names[_OWNER[piece]]))
    return said


def _oware(state: OwareState, locale: str | None) -> list[str]:
    names = sides(state.spec, locale)
    said = []
    for side in Side:
        row = PITS[6 * side : 6 * side + 6]  # from its owner's left: A-F, a-f
        counts = state.pits[6 * side : 6 * side + 6]
        said.append(
            words.say(
                "describe.oware.side",
                locale,
                side=names[side],
                first=row[0],
                last=row[-1],
                counts=counts,
                store=state.stores[side],
            )
        )
    return said


def _unstopped(text: str) -> str:
    return text.rstrip().rstrip(".")


def _fit(text: str) -> str:
    """`text`, or its longest start that fits `LIMIT` ending at a list's comma, then `…`."""
    if len(text) <= LIMIT:
        return text
    cut = text.rfind(", ", 0, LIMIT - 1)
    return text[: cut if cut > 0 else LIMIT - 1] + "…"
