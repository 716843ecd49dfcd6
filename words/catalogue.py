"""Looking a code up in the catalogue of a language and filling in its parameters.

A catalogue entry is a `str.format` template. Parameters are plain values; a
sequence is written as a list, joined with ", " by default, or with " or " /
" and " / a space / a newline when the template asks for it (`{moves:or}`,
`{squares:and}`, `{moves:spaces}`, `{lines:lines}`), so that templates stay
translatable text with no code in them.

Two parameters name other texts rather than values, because a sentence may
mention another one without the engine composing it:
- `reason` with `game` and `side_names` (what `Outcome.as_params` gives) is an
  outcome; the template reads its sentence as `{outcome}` (words.games);
- `cause` is the code of an error this one wraps, whose parameters are the
  others; the template reads that error's whole explanation as `{cause}`.
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
    if "reason" in params and "game" in params and "outcome" not in params:
        # Imported here: words.games builds on this module.
        from words.games import outcome_of_params

        params["outcome"] = outcome_of_params(params, locale)
    return _FORMATTER.format(template, **params)


def explain(error: Coded, locale: str = DEFAULT_LOCALE) -> str:
    """What a refusal says: its own sentence, and for a move the legal moves (or that none is).

    An error whose parameters hold `legal` (a move error) is followed by the
    legal moves, or by "The game is over." when there are none and its own
    code (one ending in `.game-over`) does not already say so. An error that
    wraps another (`cause`) has that one's explanation inside its own.
    """
    return _explain(error.code, dict(error.params), locale)


def _explain(code: str, params: dict[str, Any], locale: str) -> str:
    if "cause" in params:
        inner = dict(params)
        cause = str(inner.pop("cause"))
        return say(code, locale, **{**params, "cause": _explain(cause, inner, locale)})
    text = say(code, locale, **params)
    if "legal" not in params:
        return text
    legal = params["legal"]
    if legal:
        return say("legal-moves", locale, sentence=text, legal=legal)
    if code.endswith(_SAYS_GAME_OVER):
        return text
    return say("legal-moves.none", locale, sentence=text)


# Codes whose own sentence already says the game is over (`move.game-over`, and any
# game's `<game>.game-over`): no second "The game is over." after them.
_SAYS_GAME_OVER = ".game-over"
