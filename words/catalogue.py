"""Looking a code up in the catalogue of a language and filling in its parameters.

A catalogue entry is a `str.format` template, or a `Plural` (one template per
plural form of its language, chosen by a count among the parameters).
Parameters are plain values; a sequence is written as a list, joined with ", "
by default, or with " or " / " and " / a space / a newline when the template
asks for it (`{moves:or}`, `{squares:and}`, `{moves:spaces}`, `{lines:lines}`);
a game's registry name is said as its title in the language with `{game:title}`,
so that templates stay translatable text with no code in them. The joining
words are themselves entries (`join.or`, `join.and`), said in the language.

English is in `words/english/`; every other language is one gettext catalogue
in `words/locales/` (`words.translations`). A locale is a Discord locale or a
language code (`cs`, `en-GB`); one without a catalogue, and any code a
catalogue leaves empty, is said in English.

Refusals (errors) are said by `words.refusals.explain`, outcomes by
`words.games.outcome_text`; both build on `say`.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from words.english import TEXTS as ENGLISH
from words.grammar.plurals import Plural
from words.translations import Language, languages, rule_of

DEFAULT_LOCALE = "en"
_EN_PLURALS = rule_of("en")
LANGUAGES: dict[str, Language] = {
    "en": Language("en", ENGLISH, *_EN_PLURALS),
    **languages(ENGLISH),
}
CATALOGUES: dict[str, Mapping[str, str | Plural]] = {
    code: language.texts for code, language in LANGUAGES.items()
}


class MissingText(KeyError):
    """A code with no entry in the catalogue: a fault of ours, caught by the tests."""


class Coded(Protocol):
    """Anything that says what happened as a code with parameters (errors, outcomes)."""

    @property
    def code(self) -> str: ...

    @property
    def params(self) -> Mapping[str, Any]: ...


def spoken(locale: str | None) -> Language | None:
    """The catalogue for a locale: exact (`cs`), else its language's (`en-GB`: `en`); None
    when Kamen has none (`de`)."""
    if not locale:
        return None
    return LANGUAGES.get(locale) or LANGUAGES.get(locale.split("-")[0].lower())


def language(locale: str | None) -> Language:
    """The catalogue for a locale (see `spoken`), else English."""
    return spoken(locale) or LANGUAGES[DEFAULT_LOCALE]


class _Formatter(string.Formatter):
    def __init__(self, language: Language) -> None:
        self.language = language

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == TITLE:
            return say(f"{value}.title", self.language.code)
        if isinstance(value, Sequence) and not isinstance(value, str):
            joiner = _joiner(self.language, format_spec)
            if joiner is not None:
                items = [str(item) for item in value]
                if format_spec in ("or", "and") and len(items) > 2:
                    # "a1, b2 or c3": commas, the word only before the last.
                    return ", ".join(items[:-1]) + joiner + items[-1]
                return joiner.join(items)
        return str(super().format_field(value, format_spec))


_FIXED_JOINERS = {"": ", ", "spaces": " ", "lines": "\n"}
# `{game:title}`: a game's registry name said as the language names the game (`Laska`).
TITLE = "title"


def _joiner(language: Language, spec: str) -> str | None:
    fixed = _FIXED_JOINERS.get(spec)
    if fixed is not None:
        return fixed
    if spec in ("or", "and"):
        word = _template(f"join.{spec}", language)
        return word if isinstance(word, str) else None
    return None


def _template(code: str, language: Language) -> str | Plural:
    template = language.texts.get(code)
    if template is None:
        template = ENGLISH.get(code)
        if template is None:
            raise MissingText(code)
        return template
    return template


def forms_of(template: str | Plural) -> tuple[str, ...]:
    """A template's texts: itself, or each of a plural's forms."""
    return template.forms if isinstance(template, Plural) else (template,)


def source_text(code: str) -> str:
    """The English of `code`, all its forms in one string (to see what a sentence names)."""
    template = ENGLISH.get(code)
    return "" if template is None else " ".join(forms_of(template))


def has_text(code: str, locale: str | None = DEFAULT_LOCALE) -> bool:
    """Whether `code` has an entry in the language (or in English, which all fall back to)."""
    return code in language(locale).texts or code in ENGLISH


def say(code: str, /, locale: str | None = DEFAULT_LOCALE, **params: Any) -> str:
    """The sentence for `code` with its parameters filled in; MissingText if there is none."""
    speaker = language(locale)
    if code not in speaker.texts:  # said in English, by English's rules
        speaker = LANGUAGES[DEFAULT_LOCALE]
    template = _template(code, speaker)
    if isinstance(template, Plural):
        count = params[template.by]
        index = speaker.plural(abs(int(count)))
        template = template.forms[min(index, len(template.forms) - 1)]
    return _Formatter(speaker).format(template, **params)
