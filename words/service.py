"""The service's results in words: the board's one line after a move.

Duck-typed (imports nothing of the project): `result` is a
`matches.MoveResult`, whose `headline_parts()` are codes with params.
"""

from __future__ import annotations

from typing import Any

from words.catalogue import DEFAULT_LOCALE, say
from words.games import with_outcome


def headline(result: Any, locale: str = DEFAULT_LOCALE) -> str:
    """One plain line for the board: the move, any pass, and what next."""
    parts = result.headline_parts()
    return " ".join(say(code, locale, **with_outcome(params, locale)) for code, params in parts)
