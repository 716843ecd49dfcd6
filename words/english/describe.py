"""English for position descriptions for screen readers (board alt text) and board legends (render/)
(see words/english/__init__.py). Lasca's legend, drawn on the image, is a caption code
(`board.lasca.legend.*` in words/english/board.py), checked with the image's other words.

`render.describe` says a position as sentences: the caption's own lines
(`board.*`), then the pieces, worded here. `side` is a side's name (Blue,
White, South); `squares` a list of squares, joined with commas; a Lasca
column's pieces are said from the top down, like pieces in a row once with
their count.
"""

from words.grammar.plurals import Plural, plural

TEXTS: dict[str, str | Plural] = {
    # Oska: each side's stones.
    "describe.oska.stones": plural(
        "count", "{side}: stone on {squares}", "{side}: stones on {squares}"
    ),
    "describe.oska.none": "{side}: no stones left",
    # Lasca: each side's columns of a single piece, by rank; `pieces` is one or two of
    # `soldiers`/`officers`, joined by a semicolon.
    "describe.lasca.side": "{side}: {pieces}",
    "describe.lasca.soldiers": plural("count", "soldier on {squares}", "soldiers on {squares}"),
    "describe.lasca.officers": plural("count", "officer on {squares}", "officers on {squares}"),
    "describe.lasca.none": "{side}: commands no column",
    # Lasca: the columns of two pieces or more, each `column`, joined by semicolons.
    "describe.lasca.columns": "Columns (top piece first): {columns}",
    "describe.lasca.column": "{square}: {pieces}",
    "describe.lasca.soldier": plural("count", "{side} soldier", "{count} {side} soldiers"),
    "describe.lasca.officer": plural("count", "{side} officer", "{count} {side} officers"),
    # Oware: each side's pits from its owner's left (`first` to `last`) and its store.
    "describe.oware.side": plural(
        "store",
        "{side}: pits {first} to {last} hold {counts}; {store} seed in the store",
        "{side}: pits {first} to {last} hold {counts}; {store} seeds in the store",
    ),
}
