"""Board images and replay GIFs of Kamen's games: pure functions of a game state.

    board(state, *, last_move=None, hints=False, selected=None, perspective=Side.FIRST,
          size=640, players=None, outcome=None, locale=None) -> bytes  # a PNG
    describe(state, *, locale=None, players=None, outcome=None) -> str  # its alt text
    replay(game, *, perspective=Side.FIRST, size=640, players=None,
           outcome=None, frame_ms=900, locale=None) -> bytes  # a GIF, at most ~30 s
    centre(game, square, *, size=640, perspective=Side.FIRST) -> (x, y)
    image_size(game, *, size=640, perspective=Side.FIRST) -> (width, height)
    check_games(names) -> None     # at start-up: MissingPainter unless every game is drawn

One module per game (`oska`, `lasca`, `oware`) draws its board, and
`painters.PAINTERS` says which draws which game; `theme` holds the colours,
proportions and the shipped font; `scene` builds the caption every image
carries (whose turn or the result, the last move, the rules), worded by
`words`; `hints` finds what to mark for the player to move (`hints`,
`selected`); `alt_text` says a position in words for screen readers;
`compose` puts a frame together in palette mode from patches each drawn once.
Nothing here does I/O or knows Discord, and only Pillow, `games` and
`words` are imported: the bytes go wherever the caller sends them. Every word
an image carries is in the reader's language, `locale` (`cs`; English when
None or for a language without a catalogue).
"""

from __future__ import annotations

from render.alt_text import describe
from render.boards import board, centre, frame, image_size, last_move_of
from render.gif import replay
from render.painters import MissingPainter, check_games

__all__ = [
    "MissingPainter",
    "board",
    "centre",
    "check_games",
    "describe",
    "frame",
    "image_size",
    "last_move_of",
    "replay",
]
