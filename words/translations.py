"""The catalogues of other languages: gettext `.po` files in `words/locales/`, read with Babel.

English is the source: its entries are the Python modules of `words/english/`,
and `python -m words.catalogues` writes `words/locales/kamen.pot` from them
and brings every `<language>.po` up to date (new codes added empty, gone codes
marked obsolete). A message's id is its code; a plural entry has one string
per plural form of its language (the `Plural-Forms` header, from Babel's
plural rules). An entry left empty or fuzzy is said in English.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from words.grammar.plurals import Plural

LOCALES = Path(__file__).resolve().parent / "locales"
DOMAIN = "kamen"


@dataclass(frozen=True, slots=True)
class Language:
    """One language's catalogue: its code (`cs`), entries and plural rule."""

    code: str
    texts: Mapping[str, str | Plural]
    plurals: int
    plural: Callable[[int], int]


def rule_of(code: str) -> tuple[int, Callable[[int], int]]:
    """The number of plural forms of a language and which form a number takes."""
    rule = get_plural(code)
    return rule.num_plurals, gettext.c2py(rule.plural_expr)


def read(path: Path, english: Mapping[str, str | Plural]) -> Language:
    """A `.po` file as a `Language`; a plural entry is chosen by the parameter English names."""
    with path.open("rb") as file:
        catalog: Catalog = read_po(file, locale=path.stem, domain=DOMAIN)
    texts: dict[str, str | Plural] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple | list):
            forms = tuple(message.string or ())
            if not any(forms):
                continue
            source = english.get(message.id[0])
            by = source.by if isinstance(source, Plural) else ""
            texts[message.id[0]] = Plural(by, forms)
        elif message.string:
            texts[message.id] = str(message.string)
    count, plural = rule_of(path.stem)
    return Language(path.stem, texts, count, plural)


def languages(english: Mapping[str, str | Plural]) -> dict[str, Language]:
    """Every language with a catalogue in `words/locales/`, by its code."""
    return {path.stem: read(path, english) for path in sorted(LOCALES.glob("*.po"))}
