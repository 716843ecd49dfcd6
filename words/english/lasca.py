"""English for Lasca: why a move or a position is refused, and how a game ended.

`written` is the move as the player wrote it, trimmed and in lower case; `side`
is a side's name (White, Black). A move error is followed by the legal moves
(words.explain); a `lasca.game-over.*` sentence says itself that the game is over.
"""

from words.grammar.plurals import Plural, plural

_HOW = "write a step as a3-b4, a capture as c3xe5"

TEXTS: dict[str, str | Plural] = {
    # The game's name and its sides' names as players read them (the record keeps
    # games/registry's names: they are notation).
    "lasca.title": "Lasca",
    "lasca.side.first": "White",
    "lasca.side.second": "Black",
    # How a game ended (words.games.outcome_text).
    "outcome.lasca.no-moves": "{side} cannot move",
    "outcome.lasca.elimination": "{side} has no columns left",
    "outcome.lasca.repetition": "threefold repetition",
    "outcome.lasca.move-limit": plural(
        "count",
        "{count} move without a capture or a soldier move",
        "{count} moves without a capture or a soldier move",
    ),
    # Text that is not a move.
    "lasca.empty": f"an empty text is not a move: {_HOW}",
    "lasca.not-a-move": f"`{{written}}` is not a move: {_HOW}",
    "lasca.not-a-square": "`{square}` is not a square",
    "lasca.not-a-playing-square": "`{square}` is not a playing square",
    # A move the rules forbid here.
    "lasca.game-over.no-moves": "`{written}`: the game is over ({side} cannot move)",
    "lasca.game-over.elimination": "`{written}`: the game is over ({side} has no columns left)",
    "lasca.game-over.repetition": "`{written}`: the game is over (threefold repetition)",
    "lasca.game-over.move-limit": plural(
        "count",
        "`{written}`: the game is over ({count} move without a capture or a soldier move)",
        "`{written}`: the game is over ({count} moves without a capture or a soldier move)",
    ),
    "lasca.no-column": "`{written}`: no column of yours on {square}",
    "lasca.not-diagonal": "`{written}`: a step goes to a diagonal neighbour",
    "lasca.capture-compulsory": "`{written}`: a capture is compulsory",
    "lasca.soldier-steps-forward": "`{written}`: soldiers move only forward",
    "lasca.occupied": "`{written}`: {square} is not empty",
    "lasca.not-legal": "`{written}` is not a legal move here",
    "lasca.capture-goes-on": "`{written}`: the capture must go on ({moves:or})",
    "lasca.not-a-jump": "`{written}`: {origin} to {target} is not a jump",
    "lasca.jumped-twice": "`{written}`: the column on {square} may not be jumped twice",
    "lasca.soldier-captures-forward": "`{written}`: soldiers capture only forward",
    "lasca.no-enemy": "`{written}`: no enemy column on {square} to jump",
    # A position text that is not a Lasca position (lasca.from_text).
    "lasca.position.short": (
        "a Lasca position is 7 lines of squares (ranks 7 to 1) "
        "and a line `White to move` or `Black to move`"
    ),
    "lasca.position.rank-length": plural(
        "squares",
        "rank {rank} has {squares} playing square, the line for it has {tokens}",
        "rank {rank} has {squares} playing squares, the line for it has {tokens}",
    ),
    "lasca.position.not-a-column": (
        "`{token}` on {square} is not a column: write it bottom to top "
        "with w, b (soldiers) and W, B (officers), or `.` for an empty square"
    ),
    "lasca.position.soldier-on-far-rank": (
        "a {side} soldier cannot command a column on {square}, "
        "its far rank: it would have been promoted"
    ),
    "lasca.position.too-many-pieces": plural(
        "count", "{count} {side} piece: a side has 11", "{count} {side} pieces: a side has 11"
    ),
    "lasca.position.side-twice": "the position says twice who is to move",
    "lasca.position.too-quiet": plural(
        "limit",
        "`{line}`: the game is drawn after {limit} quiet move",
        "`{line}`: the game is drawn after {limit} quiet moves",
    ),
    "lasca.position.unknown-line": (
        "`{line}` is not part of a Lasca position: after the 7 ranks "
        "write `White to move` or `Black to move`, and optionally `quiet moves: N`"
    ),
    "lasca.position.no-side": "say who is to move: `White to move` or `Black to move`",
    # The rules card for a newcomer (words.games.rules_card), one short paragraph each.
    "lasca.rules.goal": (
        "Lasca is checkers on a 7-by-7 board, on the 25 squares of one colour, where captured "
        "pieces are not removed. Each player has 11 pieces: White starts on ranks 1 to 3, Black on "
        "ranks 5 to 7; White moves first. You win when your opponent cannot move on their turn: "
        "they have no columns left, or every one is blocked."
    ),
    "lasca.rules.move": (
        "A square holds a column of one or more pieces; its top piece, the commander, decides "
        "whose column it is and how it moves. Every piece starts as a soldier: a soldier column "
        "steps one square diagonally forward, onto an empty square. A soldier that ends its move "
        "on the far rank (rank 7 for White, rank 1 for Black) is promoted to an officer, and an "
        "officer column steps diagonally forward or backward. On the board an officer is the "
        "soldier's disc turned over and crowned: red for White, blue for Black; soldiers are "
        "plain white or black discs."
    ),
    "lasca.rules.capture": (
        "Jump diagonally over a neighbouring enemy column onto the empty square right behind it "
        "(soldiers forward only, officers both ways). Only its top piece is taken: it goes to "
        "the bottom of your column as a prisoner, and the piece that was under it, yours or "
        "theirs, now commands the rest. Keep jumping while you can, but never over the same "
        "column twice. Capturing is compulsory; when you can capture in several ways, choose "
        "any, not only the longest. A soldier promoted during a capture stops there."
    ),
    "lasca.rules.end": (
        "A player who cannot move on their turn loses. The game is drawn by agreement, when "
        "the same position occurs for the third time with the same player to move, or after "
        "80 moves in a row (40 each) with no capture and no soldier move."
    ),
    # What the game is, and what each rule variant does (games/RULES.md).
    "lasca.summary": (
        "Checkers on a 7-by-7 board where captured pieces are not removed: the jumping "
        "column takes the top piece of the jumped one under itself.\n"
        "Capturing is compulsory; soldiers go forward, officers both ways; "
        "a player who cannot move loses."
    ),
    "lasca.variant.promotion.ends-move": "a soldier promoted during a capture stops there",
    "lasca.variant.promotion.continues": "it captures on as an officer",
}
