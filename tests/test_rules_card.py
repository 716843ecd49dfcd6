"""The rules card for a newcomer (`/oska rules`, `/oska pravidla`): complete, short, translated.

Each game's card has its four parts (the aim, a move, a capture, the end) in each
language Kamen speaks, each fitting a Discord embed field; the Czech card is
Czech through and through; and the texts say what games/RULES.md says where a
newcomer would be misled most.
"""

from __future__ import annotations

import re

import pytest

from games.registry import GAMES
from words.catalogue import LANGUAGES
from words.games import RULES_PARTS, rules_card, side_names

FIELD_LIMIT = 1024  # a Discord embed field's value
CARD_LIMIT = 2400  # the whole card, headings included: it shares an embed with the variants

LOCALES = sorted(LANGUAGES)
ENGLISH_WORDS = {"the", "and", "stone", "stones", "seed", "seeds", "pit", "move", "capture",
                 "win", "wins", "draw", "player", "column", "soldier", "officer"}  # fmt: skip


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game", list(GAMES))
def test_a_card_has_its_four_parts_each_short(game: str, locale: str) -> None:
    card = rules_card(game, locale)
    assert len(card) == len(RULES_PARTS) == 4
    for heading, text in card:
        assert heading.strip() and text.strip()
        assert len(heading) <= 256 and len(text) <= FIELD_LIMIT, heading
    assert len({heading for heading, _ in card}) == 4
    assert sum(len(heading) + len(text) for heading, text in card) <= CARD_LIMIT


@pytest.mark.parametrize("game", list(GAMES))
def test_the_czech_card_has_no_english_left(game: str) -> None:
    english, czech = rules_card(game, "en"), rules_card(game, "cs")
    for (en_heading, en_text), (cs_heading, cs_text) in zip(english, czech, strict=True):
        assert cs_heading != en_heading and cs_text != en_text
        found = set(re.findall(r"[a-z]+", cs_text.lower())) & ENGLISH_WORDS
        assert found == set(), cs_text


def test_no_locale_or_one_without_a_catalogue_gets_the_english_card() -> None:
    assert rules_card("oska", None) == rules_card("oska", "en") == rules_card("oska", "en-GB")
    assert rules_card("oska", "cs")[0][0] == "Cíl hry"
    assert rules_card("oska", "cs") != rules_card("oska", "en")


def test_oware_names_its_own_parts() -> None:
    assert [heading for heading, _ in rules_card("oware", "cs")] == [
        "Cíl hry", "Rozsévání", "Sklizeň", "Konec hry"
    ]  # fmt: skip
    assert rules_card("lasca", "cs")[1][0] == "Jak se táhne"


def text_of(game: str, locale: str) -> str:
    return " ".join(text for _, text in rules_card(game, locale))


@pytest.mark.parametrize(
    ("game", "locale", "facts"),
    [
        # Oska: four stones each, Blue first, the goal rule by default (losing every stone wins).
        ("oska", "en", ["four stones", "Blue moves first", "far row", "lost every stone",
                        "wins too", "compulsory", "drawn"]),
        ("oska", "cs", ["čtyřmi kameny", "Začíná Modrý", "protější řad", "přijde o všechny",
                        "Vyhrává i", "povinné", "remíza"]),
        # Lasca: 11 pieces, White first, no moves loses, the draws, promotion ends the capture.
        ("lasca", "en", ["11 pieces", "White moves first", "cannot move on their turn loses",
                         "third time", "80 moves", "stops there", "bottom"]),
        ("lasca", "cs", ["11 kamenů", "první táhne Bílý", "prohrává", "potřetí", "80 tazích",
                         "tím tah končí", "spodek"]),
        # Oware: 4 seeds a pit, South first, 2 or 3, 25 wins, 24 each draws, no grand slam.
        ("oware", "en", ["4 seeds", "South moves first", "2 or 3", "25 seeds",
                         "24 each is a draw", "may not be played", "12 seeds"]),
        ("oware", "cs", ["4 semínka", "začíná Jih", "2 nebo 3", "25 semínek", "24 : 24",
                         "hrát nesmí", "12 nebo víc"]),
    ],
)  # fmt: skip
def test_the_card_says_the_default_rules(game: str, locale: str, facts: list[str]) -> None:
    text = text_of(game, locale)
    assert [fact for fact in facts if fact not in text] == []


@pytest.mark.parametrize("locale", LOCALES)
def test_the_card_names_the_sides_as_the_language_does(locale: str) -> None:
    for game in GAMES:
        text = text_of(game, locale)
        assert all(name in text for name in side_names(game, locale)), game
