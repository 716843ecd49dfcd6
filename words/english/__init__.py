"""The English catalogue: every code a player can be shown, by the layer that speaks it.

Each module holds one layer's texts (`games` for what every engine shares and
the command line, one module per game for its own refusals and outcomes,
`service` for the match service's refusals and results, `bot` for the
Discord adapter's messages, `board` for the captions on the images).
A code belongs to exactly one of them; `tests/test_words.py` checks that.
"""

from __future__ import annotations

from collections.abc import Mapping

from words.english import (
    board,
    bot,
    clocks,
    commands,
    community,
    describe,
    fairplay,
    games,
    lasca,
    learning,
    managers,
    oska,
    oware,
    people,
    playing,
    seasons,
    service,
    terminal,
    tournaments,
)
from words.grammar.plurals import Plural

PARTS: dict[str, Mapping[str, str | Plural]] = {
    "games": games.TEXTS, "oska": oska.TEXTS, "lasca": lasca.TEXTS, "oware": oware.TEXTS,
    "service": service.TEXTS, "bot": bot.TEXTS, "board": board.TEXTS, "commands": commands.TEXTS,
    "community": community.TEXTS, "seasons": seasons.TEXTS, "people": people.TEXTS,
    "tournaments": tournaments.TEXTS, "describe": describe.TEXTS, "terminal": terminal.TEXTS,
    "clocks": clocks.TEXTS, "playing": playing.TEXTS, "learning": learning.TEXTS,
    "fairplay": fairplay.TEXTS,
    "managers": managers.TEXTS,
}  # fmt: skip

TEXTS: dict[str, str | Plural] = {}
for _part in PARTS.values():
    TEXTS.update(_part)
