"""English for `/kamen fairplay` (bot/fairplay.py, figures of matches/fairplay.py): a
player's fair-play figures on a server, for its managers."""

from __future__ import annotations

from words.grammar.plurals import Plural, plural

TEXTS: dict[str, str | Plural] = {
    "command.name.fairplay": "fairplay",
    "command.fairplay": (
        "A player's fair-play figures: Kamen's exact values kept, move times (managers, for you)."
    ),
    "command.about.fairplay-user": "Whose rated games.",
    "command.about.fairplay-game": "Only this game's (default: every game).",
    "bot.refuse.manage-server.fairplay": (
        "Only members who may Manage Server can see a player's fair-play figures."
    ),
    "decimal.point": ".",  # how a number's whole part is set off from its tenths
    "fairplay.title": "🔍 Fair play · {name}",
    "fairplay.games": plural(
        "games",
        "Their last {games} rated game here ({counts}).",
        "Their last {games} rated games here ({counts}).",
    ),
    "fairplay.count": "{game:title} {games}",
    "fairplay.no-games": "{name} has no rated game here yet: there is nothing to measure.",
    "fairplay.exact": (
        "**Exact values** ({game:title}): kept the value in {hits} of {of} moves where a move"
        " could change the result ({percent}%)."
    ),
    "fairplay.exact.none": (
        "**Exact values** ({game:title}): no position in these games where a move could"
        " change the result."
    ),
    "fairplay.baseline": plural(
        "players",
        "One other player here, in the same period: {hits} of {of} ({percent}%).",
        "{players} other players here, in the same period: {hits} of {of} ({percent}%).",
    ),
    "fairplay.baseline.none": "No other player's move of the same period to compare with.",
    "fairplay.oware": (
        "(Oware: only endgames of at most 12 seeds on the board count, where Kamen's"
        " endgame tables know every move's result whatever came before.)"
    ),
    "fairplay.lasca": "**Lasca**: no exact figures (Kamen knows no exact value of a Lasca game).",
    "fairplay.hard": plural(
        "games",
        "**Kamen's `hard` move**: played in {hits} of {of} positions checked ({percent}%),"
        " in their last game.",
        "**Kamen's `hard` move**: played in {hits} of {of} positions checked ({percent}%),"
        " in their last {games} games.",
    ),
    "fairplay.hard.none": "**Kamen's `hard` move**: no position to check.",
    "fairplay.hard.off": "**Kamen's `hard` move**: Kamen's engine does not run here.",
    "fairplay.times": (
        "**Move times**: median {seconds} s; {quick} of {timed} moves under {limit} s ({percent}%)."
    ),
    "fairplay.times.none": "**Move times**: not recorded (games played before Kamen kept them).",
    "fairplay.times.some-missing": plural(
        "count",
        "(The time of {count} move of older games was not recorded.)",
        "(The times of {count} moves of older games were not recorded.)",
    ),
    "fairplay.caveat": (
        "*What these figures can show:* how often the player found the move that keeps the"
        " result, compared with everyone else here, and how fast. *What they cannot:* a"
        " high share is not proof of help. Strong players keep values too, simple games give"
        " few positions where it mattered, and a few dozen positions mean little. Kamen has"
        " no exact figure for Lasca, and in Oware only for a few endgames. Look at the games"
        " themselves before acting."
    ),
}
