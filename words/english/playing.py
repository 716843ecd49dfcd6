"""English for playing in Discord: one-tap moves, hints, rematch, replays, help, takeback, refusals
(see words/english/__init__.py)."""

from words.grammar.plurals import Plural, plural

TEXTS: dict[str, str | Plural] = {
    "bot.button.play": "Play {move}",
    # ------------------------------------------------------------ a finished game's board
    "bot.button.rematch": "Rematch",
    "bot.button.replay": "Replay",
    "bot.button.record": "Record",
    "bot.refuse.rematch": "Only a player of game #{id} can ask for a rematch, once it is over.",
    # ------------------------------------------------------------ settings that say what changed
    "bot.settings.changed": "✅ Changed. {line}",
    "bot.settings.same": "{line} (It already was: nothing changed.)",
    "bot.settings.how": "To change one, give `{threads}:` or `{language}:`.",
    "bot.me.how": "To change one, give `{pings}:` or `{language}:`.",
    # ------------------------------------------------------------ no game here: yours are there
    "bot.your-games.head": plural(
        "count", "Your game on this server:", "Your games on this server:"
    ),
    "bot.your-games.line": "• {title} #{id}: {where}",
    # ------------------------------------------------------------ the replay viewer
    "bot.viewer.title": "Replay · {title} game #{id}",
    "bot.viewer.start": plural(
        "total", "The start · {total} move in all", "The start · {total} moves in all"
    ),
    "bot.viewer.at": "Move {number}: {side} played {move} · {ply} of {total}",
}
