"""Looking a code up in the catalogue of a language and filling in its parameters.

A catalogue entry is a `str.format` template. Parameters are plain values; a
sequence is written as a list, joined with ", " by default, or with " or " /
" and " / a space / a newline when the template asks for it (`{moves:or}`,
`{squares:and}`, `{moves:spaces}`, `{lines:lines}`), so that templates stay
translatable text with no code in them.

Refusals (errors) are said by `words.refusals.explain`, outcomes by
`words.games.outcome_text`; both build on `say`.
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


_JOINERS = {"": ", ", "or": " or ", "and": " and ", "spaces": " ", "lines": "\n"}


class _Formatter(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Sequence) and not isinstance(value, str):
            joiner = _JOINERS.get(format_spec)
            if joiner is not None:
                return joiner.join(str(item) for item in value)
        return str(super().format_field(value, format_spec))


_FORMATTER = _Formatter()


def has_text(code: str, locale: str = DEFAULT_LOCALE) -> bool:
    """Whether `code` has an entry in the language (or in English, which all fall back to)."""
    return code in CATALOGUES.get(locale, ENGLISH) or code in ENGLISH


def say(code: str, /, locale: str = DEFAULT_LOCALE, **params: Any) -> str:
    """The sentence for `code` with its parameters filled in; MissingText if there is none."""
    catalogue = CATALOGUES.get(locale, ENGLISH)
    template = catalogue.get(code)
    if template is None:
        template = ENGLISH.get(code)
    if template is None:
        raise MissingText(code)
    return _FORMATTER.format(template, **params)
