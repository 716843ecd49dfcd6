"""English for playing in Discord: one-tap moves, hints, rematch, replays, help, takeback, refusals
(see words/english/__init__.py)."""

from words.grammar.plurals import Plural

TEXTS: dict[str, str | Plural] = {
    "bot.button.play": "Play {move}",
}
