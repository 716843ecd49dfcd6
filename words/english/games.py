"""English for the engines: how games end and why a move, variant, position or record is refused.

The codes shared by every game (`move.*`: the same sentence in each game that
has it), the variant, record and registry refusals, the outcomes the service
decides (resignation, time, agreement, abandonment), and the command line's
own lines (`cli.*`). A game's own codes are in its file (oska.py, ...).
"""

from words.grammar.plurals import Plural, plural

TEXTS: dict[str, str | Plural] = {
    # How a list is joined in a sentence ("a1, b2 or c3"): `{moves:or}`, `{squares:and}`.
    "join.or": " or ",
    "join.and": " and ",
    # A move error is followed by the legal moves (words.explain).
    "legal-moves": "{sentence}. Legal moves: {legal}",
    "legal-moves.none": "{sentence}. The game is over.",
    # Moves, in every game that has them.
    "move.not-a-square": "`{square}` is not a square",
    "move.game-over": "`{move}`: the game is over ({outcome})",
    "move.not-legal": "`{move}` is not a legal move here",
    "move.capture-compulsory": "`{move}`: a capture is compulsory",
    "move.capture-goes-on": "`{move}`: the capture must go on ({continuations:or})",
    "move.not-empty": "`{move}`: {square} is not empty",
    # Variants and games.
    "variant.unknown-option": "`{pair}`: unknown option `{key}` (options: {options})",
    "variant.no-options": "`{pair}`: unknown option `{key}` (options: none)",
    "variant.bad-value": "`{pair}`: write one of {choices}",
    "game.unknown": "`{name}` is not a game here (games: {games})",
    # Records.
    "record.bad-move": "{mover}'s move {turn}: {cause}",
    "record.result-contradicts": (
        "the result says {said}, but the moves end the game {ended} ({outcome})"
    ),
    "record.bad-result": "`{result}` is not a result (write one of {results})",
    "record.bad-tag": 'line {line}: a tag is written [Name "value"]',
    "record.no-game": 'the record has no [Game "..."] tag',
    "record.result-tag": "the Result tag says {tagged} but the moves end with {result}",
    "record.result-not-last": "the result `{token}` must come last",
    "record.move-number": "`{token}`: expected move number {expected}.",
    "record.too-long": plural(
        "limit",
        "the record is too long: at most {limit} character ({given} given)",
        "the record is too long: at most {limit} characters ({given} given)",
    ),
    "record.number-too-long": plural(
        "digits",
        "a move number of {digits} digit: a move number has at most {limit}",
        "a move number of {digits} digits: a move number has at most {limit}",
    ),
    "record.move-too-long": plural(
        "limit",
        "the move `{start}…` is too long: a move has at most {limit} character",
        "the move `{start}…` is too long: a move has at most {limit} characters",
    ),
    "record.too-many-moves": "the record has too many moves: at most {limit}",
    # Outcomes every game can have; a game's own are outcome.<game>.<reason>[.draw].
    "outcome.resignation": "{side} resigned",
    "outcome.time": "{side} ran out of time",
    "outcome.agreement": "drawn by agreement",
    "outcome.abandoned": "the game was abandoned",
    # The headings of a game's rules card (words.games.rules_card); a game may name a part
    # itself (<game>.rules.heading.<part>).
    "rules.heading.goal": "The aim",
    "rules.heading.move": "Moving",
    "rules.heading.capture": "Capturing",
    "rules.heading.end": "End of the game",
    # The command line (python -m games).
    "cli.error": "error: {text}",
    "cli.bad-move": "error: move {number} ({side}): {text}",
    "cli.outcome": "outcome: {label}",
    "cli.title": "{title}. {help}",
    "cli.title.variant": "{title} ({variant}). {help}",
    "cli.help": "Type a move, `undo`, `record` or `quit`.",
    "cli.game-over": "Game over: {outcome} ({result}).",
    "cli.legal-moves": "Legal moves: {moves:spaces}",
    "cli.prompt": "Move {number}, {side}> ",
    "cli.nothing-to-undo": "Nothing to undo.",
}
