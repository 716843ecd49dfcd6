"""English for Oware: why a move or a position is refused, and how a game ended.

`pit` is the move as the player wrote it, trimmed; `mover`, `opponent` and
`side` are side names (South, North). A move error is followed by the legal
moves (words.explain); `oware.game-over` says itself that the game is over.
In an outcome, `a` and `b` are South's and North's seeds after the share-out.
"""

from words.grammar.plurals import Plural, plural

_SCORE = "{first} {a} - {second} {b}"
_EACH = "{a} each"  # a share-out is a draw exactly when it is 24 each

TEXTS: dict[str, str | Plural] = {
    # The game's name and its sides' names as players read them (the record keeps
    # games/registry's names: they are notation).
    "oware.title": "Oware",
    "oware.side.first": "South",
    "oware.side.second": "North",
    # How a game ended (words.games.outcome_text).
    "outcome.oware.twenty-five": plural(
        "count", "{side} has captured {count} seed", "{side} has captured {count} seeds"
    ),
    "outcome.oware.no-seeds": f"{{side}} has no seeds; {_SCORE}",
    "outcome.oware.no-seeds.draw": f"{{side}} has no seeds; {_EACH}",
    "outcome.oware.cannot-feed": f"{{side}} cannot be fed; {_SCORE}",
    "outcome.oware.cannot-feed.draw": f"{{side}} cannot be fed; {_EACH}",
    "outcome.oware.repetition": f"position repeated; {_SCORE}",
    "outcome.oware.repetition.draw": f"position repeated; {_EACH}",
    # Text that is not a move.
    "oware.empty": "`` is empty: name a pit",
    "oware.not-a-pit": "`{pit}` is not a pit: South plays A-F, North a-f",
    # A pit the rules forbid here.
    "oware.game-over": "the game is over",
    "oware.opponents-pit": "`{pit}` is {opponent}'s pit: {mover} plays {row}",
    "oware.empty-pit": "`{pit}` is empty",
    "oware.must-feed": "`{pit}`: {opponent} has no seeds and must be fed",
    "oware.must-play-12": "`{pit}`: a pit with more than 11 seeds must be played",
    "oware.grand-slam": "`{pit}` would capture every seed of {opponent} (grand slam)",
    "oware.not-legal": "`{pit}` cannot be played here",
    # A position text that is not an Oware position (oware.from_text).
    "oware.position.short": (
        "an Oware position is five lines: North's letters and store, North's "
        "counts, South's counts, South's letters and store, who is to move"
    ),
    "oware.position.first-line": "the first line must read `North  f  e  d  c  b  a     store N`",
    "oware.position.fourth-line": (
        "the fourth line must read `South  A  B  C  D  E  F     store N`"
    ),
    "oware.position.counts": "{side}'s row must be six seed counts",
    "oware.position.fifth-line": "the fifth line must read `South to move` or `North to move`",
    "oware.position.side-name": "`{line}`: name South or North",
    "oware.position.unknown-line": (
        "`{line}`: expected `South must play a pit with more than 11 seeds` or North"
    ),
    "oware.position.rule-off": "`{line}`: only under must-play-12=on",
    "oware.position.no-big-pit": "`{line}`: {side} has no such pit",
    "oware.position.seeds": plural(
        "total",
        "the position holds {total} seed, not {seeds}",
        "the position holds {total} seeds, not {seeds}",
    ),
    # The rules card for a newcomer (words.games.rules_card), one short paragraph each;
    # Oware names two of its parts itself (sowing and capturing seeds).
    "oware.rules.heading.move": "Sowing",
    "oware.rules.heading.capture": "Capturing",
    "oware.rules.goal": (
        "The board has two rows of six pits with 4 seeds in each, 48 in all. Each player owns "
        "the row nearer to them: South plays the pits A to F, North a to f; South moves first. "
        "Capture more seeds than your opponent: 25 seeds win."
    ),
    "oware.rules.move": (
        "Take all the seeds of one non-empty pit of your row and sow them one by one into the "
        "following pits, counter-clockwise: along your row, then along your opponent's. With "
        "12 seeds or more the sowing goes all round and skips the pit it started from. If your "
        "opponent has no seeds, you must play a move that gives them some, if there is one."
    ),
    "oware.rules.capture": (
        "If your last seed lands in an opponent's pit and leaves 2 or 3 seeds there, you capture "
        "them, and also the seeds of the pits just before it on their row, as long as each holds "
        "2 or 3. By default a move that would capture all your opponent's seeds (a grand slam) "
        "may not be played; if only such moves are left, they are played and capture nothing."
    ),
    "oware.rules.end": (
        "Capturing 25 seeds wins at once. The game also ends when the player to move has no "
        "seeds, when the opponent has none and cannot be fed, or when a position repeats: then "
        "each player captures the seeds left on their own row. More than 24 wins; 24 each is "
        "a draw."
    ),
    # What the game is, and what each rule variant does (games/RULES.md).
    "oware.summary": (
        "Sow a pit of your row counter-clockwise; if the last seed makes 2 or 3 in an "
        "opponent's pit, capture it and the 2s and 3s just before it.\n"
        "Feed an opponent who has no seeds; 25 captured seeds win, 24 each is a draw."
    ),
    "oware.variant.grandslam.forbidden": "a move taking all the opponent's seeds is refused",
    "oware.variant.grandslam.nocapture": "it captures nothing",
    "oware.variant.grandslam.opponent-takes": (
        "it captures, then the opponent takes the mover's row"
    ),
    "oware.variant.must-play-12": (
        "a player whose pit grows past 11 seeds must play such a pit next turn"
    ),
}
