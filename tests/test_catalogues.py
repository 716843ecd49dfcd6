"""The catalogues of other languages stay complete and in step with the English.

Each `words/locales/<language>.po` is read with Babel as Kamen reads it: every
English code has a translation (none left empty or fuzzy, none unknown), with
the same placeholders, and a plural entry has exactly its language's number of
forms. The `.pot` translators start from is the English as it is now.
"""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

import words
from words.catalogue import LANGUAGES, forms_of, language
from words.catalogues import template
from words.english import TEXTS as ENGLISH
from words.grammar.plurals import Plural
from words.translations import DOMAIN, LOCALES, rule_of

CATALOGUES = sorted(LOCALES.glob("*.po"))


def fields(text: str | Plural) -> set[tuple[str, str]]:
    return {
        (name, spec or "")
        for form in forms_of(text)
        for _, name, spec, _ in string.Formatter().parse(form)
        if name is not None
    }


def test_there_is_a_czech_catalogue() -> None:
    assert LOCALES / "cs.po" in CATALOGUES and "cs" in LANGUAGES


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda path: path.stem)
def test_a_catalogue_translates_every_code_and_nothing_else(path: Path) -> None:
    with path.open("rb") as file:
        catalog = read_po(file, locale=path.stem, domain=DOMAIN)
    ids = {message.id[0] if isinstance(message.id, tuple) else message.id for message in catalog}
    ids.discard("")
    assert sorted(set(ENGLISH) - ids) == [], "codes missing (run python -m words.catalogues)"
    assert sorted(ids - set(ENGLISH)) == [], "codes English no longer has"
    fuzzy = [message.id for message in catalog if message.id and message.fuzzy]
    assert fuzzy == []
    texts = LANGUAGES[path.stem].texts
    assert sorted(set(ENGLISH) - set(texts)) == [], "codes left untranslated"


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda path: path.stem)
def test_a_translation_has_the_placeholders_and_plural_forms_of_its_english(path: Path) -> None:
    speaker = LANGUAGES[path.stem]
    count, _ = rule_of(path.stem)
    for code, english in ENGLISH.items():
        text = speaker.texts[code]
        assert fields(text) == fields(english), code
        assert isinstance(text, Plural) == isinstance(english, Plural), code
        if isinstance(text, Plural):
            assert len(text.forms) == count and all(text.forms), code


def test_czech_plurals_take_the_form_of_the_number() -> None:
    said = [words.say("bot.time.minute", "cs", count=n) for n in (1, 2, 4, 5, 11, 22, 25)]
    assert said == [
        "1 minuta na tah",
        "2 minuty na tah",
        "4 minuty na tah",
        "5 minut na tah",
        "11 minut na tah",
        "22 minut na tah",
        "25 minut na tah",
    ]
    assert words.say("bot.time.minute", "en", count=1) == "1 minute a move"
    assert words.say("bot.time.minute", "en", count=2) == "2 minutes a move"


def test_lists_are_joined_in_the_language() -> None:
    moves = ["a1", "b2", "c3"]
    assert "a1, b2 nebo c3" in words.say("oska.name-the-forfeit", "cs", move="x", choices=moves)
    assert "a1, b2 or c3" in words.say("oska.name-the-forfeit", "en", move="x", choices=moves)


@pytest.mark.parametrize(
    ("locale", "code"),
    [("cs", "cs"), ("en-US", "en"), ("en-GB", "en"), ("de", "en"), ("", "en"), (None, "en")],
)
def test_a_locale_without_a_catalogue_is_said_in_english(locale: str | None, code: str) -> None:
    assert language(locale).code == code


def test_the_template_translators_start_from_is_the_english_of_now() -> None:
    with (LOCALES / f"{DOMAIN}.pot").open("rb") as file:
        written = read_po(file, domain=DOMAIN)
    fresh = template()

    def entries(catalog: Catalog) -> dict[object, str]:  # comments are wrapped when written
        return {m.id: " ".join(" ".join(m.auto_comments).split()) for m in catalog if m.id}

    assert entries(written) == entries(fresh), "run python -m words.catalogues"


def test_czech_counts_moves_and_stones_in_the_three_forms_of_the_number() -> None:
    moves = [words.say("bot.option.moves", "cs", count=n) for n in (1, 2, 5)]
    assert moves == ["1 tah", "2 tahy", "5 tahů"]
    stones = [
        words.say("lasca.position.too-many-pieces", "cs", count=n, side="Bílý") for n in (1, 3, 7)
    ]
    assert [text.split(":")[0] for text in stones] == [
        "Bílý má 1 kámen",
        "Bílý má 3 kameny",
        "Bílý má 7 kamenů",
    ]
