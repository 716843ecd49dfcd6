"""English for Oska (games/oska.py): its refusals, positions and outcomes."""

from words.grammar.plurals import Plural, plural

TEXTS: dict[str, str | Plural] = {
    # The game's name and its sides' names as players read them (the record keeps
    # games/registry's names: they are notation).
    "oska.title": "Oska",
    "oska.side.first": "Blue",
    "oska.side.second": "Red",
    # Texts that are not moves.
    "oska.empty": "an empty text is not a move: write a step as c1-d2, a capture as a1xc3, or pass",
    "oska.not-a-move": "`{move}` is not a move: write a step as c1-d2, a capture as a1xc3",
    "oska.step-one-square": "`{move}` is not a move: a step goes one square, as c1-d2",
    "oska.step-not-neighbour": "`{move}` is not a move: a step goes to a neighbouring square",
    "oska.step-as-jump": (
        "`{move}` is not a move: a step goes to a neighbouring square; a capture is written a1xc3"
    ),
    "oska.not-a-jump": (
        "`{move}` is not a move: a capture jumps over a neighbouring stone "
        "to the square beyond it, as a1xc3"
    ),
    "oska.forfeit-after-capture": "`{move}`: only a step names a forfeited stone",
    # Moves the rules forbid.
    "oska.pass-not-allowed": "`{move}`: you may pass only when you have no legal move",
    "oska.no-stone-of-yours": "`{move}`: there is no stone of yours on {square}",
    "oska.backward": "`{move}`: stones move only forward",
    "oska.nothing-to-jump": "`{move}`: there is no {opponent} stone on {square}",
    "oska.name-the-forfeit": "`{move}`: name the stone you forfeit ({choices:or})",
    "oska.forfeit-only-under-huff": "`{move}`: a forfeited stone is named only under capture=huff",
    "oska.forfeit-without-capture": "`{move}`: no stone is forfeited: no capture was possible",
    "oska.forfeit-by-new-square": (
        "`{move}`: the stone that stepped is named by its new square ({named})"
    ),
    "oska.forfeit-not-a-capturer": "`{move}`: {square} could not have captured ({choices:or})",
    # Removals (capture=huff-opponent).
    "oska.name-the-removal": (
        "`{move}`: first remove one of {opponent}'s forfeited stones ({squares:or}): "
        "write its square and a colon before your move, as {example}"
    ),
    "oska.removal-not-forfeitable": (
        "`{move}`: {square} is not a forfeited stone you may remove ({squares:or})"
    ),
    "oska.removal-only-under-huff-opponent": (
        "`{move}`: a stone is removed before a move only under capture=huff-opponent"
    ),
    "oska.no-removal-due": "`{move}`: no stone is to be removed: none was forfeited",
    "oska.removal-ends-the-game": (
        "`{move}`: removing {square} ends the game: write {removal} alone"
    ),
    "oska.removal-needs-a-move": (
        "`{move}`: the game goes on after removing {square}: write your move after the colon, "
        "as {example}"
    ),
    # Position texts.
    "oska.position.lines": plural(
        "count",
        "an Oska position is 5 board lines (rows 5 to 1) and a line `Blue to move` "
        "or `Red to move`, not {count} line",
        "an Oska position is 5 board lines (rows 5 to 1) and a line `Blue to move` "
        "or `Red to move`, not {count} lines",
    ),
    "oska.position.row-number": "line `{line}` should be row {row}",
    "oska.position.row-length": plural(
        "squares",
        "row {row} has {squares} square, not {count}: `{line}`",
        "row {row} has {squares} squares, not {count}: `{line}`",
    ),
    "oska.position.cell": "`{cell}` on row {row} is not b (Blue), r (Red) or . (empty)",
    "oska.position.too-many": plural(
        "count",
        "{side} has {count} stone; a side has at most 4",
        "{side} has {count} stones; a side has at most 4",
    ),
    "oska.position.mover": "the last line is `Blue to move` or `Red to move`, not `{line}`",
    "oska.position.removal": (
        "the line after the side to move names the stones it removes one of, "
        "as `{side} removes one of: a1, c3`, not `{line}`"
    ),
    "oska.position.removal-variant": (
        "`{line}`: a forfeited stone is removed by the opponent only under capture=huff-opponent"
    ),
    "oska.position.removal-square": "{square} is not a square with a {opponent} stone",
    # How an Oska game ends (words.games.outcome_text picks the entry).
    "outcome.oska.goal": "{side} has every stone home",
    "outcome.oska.goal.draw": "both players have every stone home",
    "outcome.oska.goal-stoneless": (
        "{side} has lost every stone, so every stone it has left is home"
    ),
    "outcome.oska.elimination": "{side} has lost every stone",
    "outcome.oska.elimination.draw": "both players have lost every stone",
    "outcome.oska.blocked": "neither player can move",
    # The rules card for a newcomer (words.games.rules_card), one short paragraph each.
    "oska.rules.goal": (
        "Each player starts with four stones on their home row of an hourglass board: "
        "Blue at the bottom on row 1, Red at the top on row 5. Blue moves first. "
        "The aim is to bring every stone you still have to the far row: "
        "Blue's to row 5, Red's to row 1."
    ),
    "oska.rules.move": (
        "A stone steps forward to an empty neighbouring square of the next row, "
        "half a square to the left or right. Stones never move back or sideways. "
        "A player who has no legal move passes."
    ),
    "oska.rules.capture": (
        "If a forward neighbour holds an enemy stone and the square right behind it, "
        "in the same line, is empty, jump over it: the enemy stone leaves the board. "
        "If the same stone can jump again from where it lands, it must go on in the same turn, "
        "and may turn the other way. By default capturing is compulsory, "
        "but you choose which capture to make."
    ),
    "oska.rules.end": (
        "You win as soon as every stone you have left stands on your far row. This is checked "
        "after every move, for both players, so you can also win on your opponent's move; "
        "a player who has lost every stone has none left away from home, and so wins too. "
        "If one move brings both players home, or neither player can move, the game is drawn."
    ),
    # What the game is, and what each rule variant does (games/RULES.md).
    "oska.summary": (
        "Move your stones forward across the hourglass; jump an enemy stone to capture it "
        "(captures chain on, and are compulsory by default).\n"
        "Win when every stone you have left stands on the far row; "
        "with no move you pass, and if neither side can move it is a draw."
    ),
    "oska.variant.capture.forced": "a capture must be made",
    "oska.variant.capture.huff": "a step instead forfeits a stone that could have captured",
    "oska.variant.capture.optional": "capturing is free, with no penalty",
    "oska.variant.capture.huff-opponent": "as huff, but the opponent chooses the stone",
    "oska.variant.win.goal": "win with every stone left on the far row (losing all stones wins)",
    "oska.variant.win.elimination": "losing all stones loses",
}
