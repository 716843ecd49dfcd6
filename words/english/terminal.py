"""English for the terminal game (python -m games play): coordinates, legends, colour, playing Kamen
(see words/english/__init__.py).

A legend names the symbols the board draws; they come as parameters (`{blue}`,
`{white_officer}`, ...) so that the terminal can colour them as on the board.
"""

from words.grammar.plurals import Plural

TEXTS: dict[str, str | Plural] = {
    # Under each board: what its symbols mean.
    "terminal.legend.oska": "{blue} Blue's stone · {red} Red's stone · {empty} empty square",
    "terminal.legend.lasca": (
        "{white_soldier} White soldier · {white_officer} White officer · "
        "{black_soldier} Black soldier · {black_officer} Black officer"
    ),
    "terminal.legend.lasca.height": (
        "A number after a piece is the height of its column "
        "({example}: three pieces, {top} on top)."
    ),
    # Every column of more than one piece, e.g. `d4 W b b, c5 b w`.
    "terminal.lasca.columns": "Columns from the top down: {columns}",
    "terminal.legend.oware": "{store} beside a side's name: its store, the seeds it has captured",
    # Playing Kamen (`--vs kamen:LEVEL`); `level` is the level's number (1 to 8).
    "terminal.kamen": "Kamen (level {level})",
    "terminal.kamen.side": "Kamen ({side})",
    "terminal.seats": "You play {side}, {kamen} plays {other}.",
    "terminal.bad-opponent": "`{given}` is not an opponent here: write one of {choices}",
}
