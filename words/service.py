"""The service's results in words: the board's one line after a move.

Duck-typed (imports nothing of the project): `result` is a
`matches.MoveResult`, whose `headline_parts()` are codes with params.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from words.catalogue import DEFAULT_LOCALE, say
from words.games import with_outcome, with_side_names


def headline(result: Any, locale: str | None = DEFAULT_LOCALE) -> str:
    """One plain line for the board: the move, any pass, and what next.

    A part's `side` is a side's number (0 moves first), named in the language.
    """
    return said_parts(result.headline_parts(), result.view.game, locale)


def said_parts(
    parts: Iterable[tuple[str, Mapping[str, Any]]], game: str, locale: str | None
) -> str:
    """Codes with their params, said one after another (a side is its number in `game`)."""
    return " ".join(
        say(code, locale, **with_side_names(with_outcome(params, locale), game, locale))
        for code, params in parts
    )
