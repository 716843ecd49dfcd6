"""English for the board layer: the caption band of every image and the marks on boards.

The caption has three lines: a title (whose turn, or the result), the move
just played, and a note (the rules, an obligation, or why the game ended;
the reason's sentence is the outcome's own, from `words.games.outcome_text`).
Clauses that a move may or may not have ("taking d4", "forfeiting b2", the
pass that followed) wrap the line so far, passed in as `{line}`.
"""

from words.grammar.plurals import Plural, plural

TEXTS: dict[str, str | Plural] = {
    # The title line. `player` is a side's name, or `board.player` when the
    # players' names are known.
    "board.player": "{name} ({side})",
    "board.to-move": "{player} to move",
    "board.wins": "{player} wins",
    "board.draw": "Draw",
    # The move line.
    "board.new-game": "New game",
    "board.set-up": "A position set up, no move played yet",
    "board.played": "Move {number}: {side} played {move}",
    "board.passed": "Move {number}: {side} passed",
    "board.taking": "{line}, taking {squares}",  # Oska and Lasca: the pieces jumped
    "board.capturing": "{line}, capturing {squares}",  # Oware: the pits emptied
    "board.forfeiting": "{line}, forfeiting {squares}",  # Oska's huff
    "board.removing": "{line}, removing {squares}",  # Oska's huff-opponent
    "board.then-passed": "{line}; {side} had no move and passed",
    # A list of squares: `{init}` (all but the last) is joined with ", ".
    "board.list": "{init} and {last}",
    # The note line.
    "board.rules.standard": "{title}, standard rules",
    "board.rules.variant": "{title}, {variant}",
    "board.must-pass": "{side} has no move and must pass",
    "board.capture-compulsory": "{side} must capture: capturing is compulsory",
    "board.lasca.quiet": plural(
        "limit",
        "{count} of {limit} move without a capture or a soldier move",
        "{count} of {limit} moves without a capture or a soldier move",
    ),
    "board.oware.must-play-12": "{side} must play a pit with more than 11 seeds",
    # Marks on the board.
    "board.lasca.hidden": "+{count}",  # the pieces of a tall column not drawn
    # Lasca's legend under the board, each after a picture of both sides' pieces of that rank.
    "board.lasca.legend.soldiers": "soldiers",
    "board.lasca.legend.officers": "officers, crowned",
    # A live clock's two times on the image's note line (`2:41`).
    "board.clocks": "{first} {first_left} · {second} {second_left}",
    "board.clocks.and": "{clocks} · {note}",
}
