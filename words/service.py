"""The service's results in words: the board's one line after a move.

Duck-typed (imports nothing of the project): `result` is a
`matches.MoveResult`, whose `headline_parts()` are codes with params.
"""

from __future__ import annotations

from typing import Any

from words.catalogue import DEFAULT_LOCALE, say
from words.games import side_names, with_outcome


def headline(result: Any, locale: str = DEFAULT_LOCALE) -> str:
    """One plain line for the board: the move, any pass, and what next.

    A part's `side` is a side's number (0 moves first), named in the language.
    """
    names = side_names(result.view.game, locale)
    lines = []
    for code, params in result.headline_parts():
        named = dict(params)
        if "side" in named and "reason" not in named:  # an outcome's side is said by it
            named["side"] = names[int(named["side"])]
        lines.append(say(code, locale, **with_outcome(named, locale)))
    return " ".join(lines)
