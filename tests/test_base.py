"""The shared vocabulary: variants as players type them, errors as they travel."""

from __future__ import annotations

import pickle

import pytest

from games.base import IllegalMove, MalformedMove, VariantError
from games.registry import GAMES, get


def test_variant_options_are_read_in_any_case_and_order() -> None:
    spec = GAMES["oska"]
    variant = spec.variant("WIN=Elimination capture=huff")
    assert variant.as_dict() == {"capture": "huff", "win": "elimination"}
    assert str(variant) == "capture=huff win=elimination"
    assert str(spec.variant()) == ""


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("capture=sometimes", "write one of capture=forced, capture=huff, capture=optional"),
        ("speed=fast", "unknown option `speed`"),
        ("capture", "write one of"),
    ],
)
def test_a_bad_variant_says_what_would_be_right(text: str, complaint: str) -> None:
    with pytest.raises(VariantError, match=complaint):
        GAMES["oska"].variant(text)


def test_all_variants_lists_every_combination_defaults_first() -> None:
    variants = GAMES["oware"].all_variants()
    assert len(variants) == 6
    assert str(variants[0]) == ""
    assert len({str(v) for v in variants}) == 6


def test_games_are_found_by_name_in_any_case() -> None:
    assert get(" Lasca ").title == "Lasca"
    with pytest.raises(Exception, match="oska, lasca, oware"):
        get("chess")


@pytest.mark.parametrize(("move", "kind"), [("z9", MalformedMove), ("a1-c3", MalformedMove)])
def test_move_errors_survive_a_trip_to_another_process(move: str, kind: type) -> None:
    with pytest.raises(kind) as caught:
        GAMES["oska"].new().play(move)
    again = pickle.loads(pickle.dumps(caught.value))
    assert type(again) is type(caught.value)
    assert str(again) == str(caught.value)
    assert again.legal == caught.value.legal


def test_an_illegal_move_error_survives_pickling_too() -> None:
    state = GAMES["lasca"].new().play("a3-b4")
    with pytest.raises(IllegalMove) as caught:
        state.play("c5-d4")
    again = pickle.loads(pickle.dumps(caught.value))
    assert again.legal == ("c5xa3",)
    assert "capture is compulsory" in str(again)
