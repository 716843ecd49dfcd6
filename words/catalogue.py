"""Looking a code up in the catalogue of a language and filling in its parameters.

A catalogue entry is a `str.format` template. Parameters are plain values; a
sequence is written as a list, joined with ", " by default, or with " or " /
" and " when the template asks for it (`{moves:or}`, `{squares:and}`), so that
templates stay translatable text with no code in them.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from words.english import TEXTS as ENGLISH

CATALOGUES: dict[str, Mapping[str, str]] = {"en": ENGLISH}
DEFAULT_LOCALE = "en"


class MissingText(KeyError):
    """A code with no entry in the catalogue: a fault of ours, caught by the tests."""


class Coded(Protocol):
    """Anything that says what happened as a code with parameters (errors, outcomes)."""

    @property
    def code(self) -> str: ...

    @property
    def params(self) -> Mapping[str, Any]: ...


_JOINERS = {"": ", ", "or": " or ", "and": " and ", "lines": "\n"}


class _Formatter(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Sequence) and not isinstance(value, str):
            joiner = _JOINERS.get(format_spec)
            if joiner is not None:
                return joiner.join(str(item) for item in value)
        return super().format_field(value, format_spec)


_FORMATTER = _Formatter()


def has_text(code: str, locale: str = DEFAULT_LOCALE) -> bool:
    return code in CATALOGUES.get(locale, ENGLISH)


def say(code: str, /, locale: str = DEFAULT_LOCALE, **params: Any) -> str:
    """The sentence for `code` with its parameters filled in; MissingText if there is none."""
    catalogue = CATALOGUES.get(locale, ENGLISH)
    template = catalogue.get(code)
    if template is None:
        template = ENGLISH.get(code)
    if template is None:
        raise MissingText(code)
    return _FORMATTER.format(template, **params)


def explain(error: Coded, locale: str = DEFAULT_LOCALE) -> str:
    """What a refusal says: its own sentence, and for a move the legal moves (or that none is).

    An error whose parameters hold `legal` (a move error) is followed by the
    legal moves, or by "The game is over." when there are none and its own
    code does not already say so.
    """
    params = dict(error.params)
    text = say(error.code, locale, **params)
    if "legal" not in params:
        return text
    legal = params["legal"]
    if legal:
        return say("legal-moves", locale, sentence=text, legal=legal)
    if error.code in _SAYS_GAME_OVER:
        return text
    return say("legal-moves.none", locale, sentence=text)


# Codes whose own sentence already says the game is over (no second "The game is over.").
_SAYS_GAME_OVER = frozenset({"move.game-over"})
