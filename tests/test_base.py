"""The shared vocabulary: variants as players type them, errors as they travel."""

from __future__ import annotations

import pickle

import pytest

import words
from games.base import (
    GameError,
    IllegalMove,
    MalformedMove,
    MoveError,
    Outcome,
    Side,
    Termination,
    VariantError,
)
from games.registry import GAMES, get


def test_variant_options_are_read_in_any_case_and_order() -> None:
    spec = GAMES["oska"]
    variant = spec.variant("WIN=Elimination capture=huff")
    assert variant.as_dict() == {"capture": "huff", "win": "elimination"}
    assert str(variant) == "capture=huff win=elimination"
    assert str(spec.variant()) == ""


@pytest.mark.parametrize(
    ("text", "code", "params", "complaint"),
    [
        (
            "capture=sometimes",
            "variant.bad-value",
            {"pair": "capture=sometimes", "key": "capture"},
            "`capture=sometimes`: write one of capture=forced, capture=huff, "
            "capture=optional, capture=huff-opponent",
        ),
        (
            "speed=fast",
            "variant.unknown-option",
            {"pair": "speed=fast", "key": "speed", "options": ("capture", "win")},
            "`speed=fast`: unknown option `speed` (options: capture, win)",
        ),
        (
            "capture",
            "variant.bad-value",
            {"pair": "capture", "key": "capture"},
            "`capture`: write one of capture=forced, capture=huff, "
            "capture=optional, capture=huff-opponent",
        ),
    ],
)
def test_a_bad_variant_says_what_would_be_right(
    text: str, code: str, params: dict[str, object], complaint: str
) -> None:
    with pytest.raises(VariantError) as caught:
        GAMES["oska"].variant(text)
    assert caught.value.code == code
    assert params.items() <= caught.value.params.items()
    assert words.explain(caught.value) == complaint


def test_all_variants_lists_every_combination_defaults_first() -> None:
    variants = GAMES["oware"].all_variants()
    assert len(variants) == 6
    assert str(variants[0]) == ""
    assert len({str(v) for v in variants}) == 6


def test_games_are_found_by_name_in_any_case() -> None:
    assert get(" Lasca ").title == "Lasca"
    with pytest.raises(GameError) as caught:
        get("chess")
    assert caught.value.code == "game.unknown"
    assert caught.value.params == {"name": "chess", "games": ("oska", "lasca", "oware")}
    assert words.explain(caught.value) == "`chess` is not a game here (games: oska, lasca, oware)"


@pytest.mark.parametrize(("move", "kind"), [("z9", MalformedMove), ("a1-c3", MalformedMove)])
def test_move_errors_survive_a_trip_to_another_process(move: str, kind: type[MoveError]) -> None:
    with pytest.raises(kind) as caught:
        GAMES["oska"].new().play(move)
    again = pickle.loads(pickle.dumps(caught.value))
    assert type(again) is type(caught.value)
    assert (again.code, again.params) == (caught.value.code, caught.value.params)
    assert again.move == move
    assert again.legal == caught.value.legal
    assert words.explain(again) == words.explain(caught.value)


def test_an_illegal_move_error_survives_pickling_too() -> None:
    state = GAMES["lasca"].new().play("a3-b4")
    with pytest.raises(IllegalMove) as caught:
        state.play("c5-d4")
    again = pickle.loads(pickle.dumps(caught.value))
    assert again.legal == ("c5xa3",)
    assert again.code == "lasca.capture-compulsory"
    assert words.explain(again) == "`c5-d4`: a capture is compulsory. Legal moves: c5xa3"


def test_any_game_error_pickles_with_its_code_and_parameters() -> None:
    error = VariantError("variant.bad-value", pair="a=b", key="a", values=("x", "y"))
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is VariantError
    assert (again.code, again.params) == (error.code, error.params)
    assert str(again) == str(error) == "variant.bad-value " + repr(error.params)


def test_a_move_error_always_carries_the_move_and_the_legal_moves() -> None:
    error = IllegalMove("c1-d2", "move.not-legal", ["a1-b2", "e1-f2"], square="d2")
    assert error.params == {"move": "c1-d2", "legal": ("a1-b2", "e1-f2"), "square": "d2"}
    assert (error.move, error.legal) == ("c1-d2", ("a1-b2", "e1-f2"))
    more = error.with_params(ply=3)
    assert type(more) is IllegalMove
    assert more.params == {**error.params, "ply": 3}


def test_an_outcome_reads_as_a_code_with_its_parameters() -> None:
    home = Outcome(Side.FIRST, Termination.GOAL, Side.FIRST)
    assert (home.code, home.params) == ("goal", {"side": Side.FIRST})
    assert (home.result, home.label, home.is_draw) == ("1-0", "first", False)
    shared = Outcome(None, Termination.CANNOT_FEED, Side.SECOND, score=(24, 24))
    assert shared.params == {"side": Side.SECOND, "score": (24, 24)}
    assert (shared.result, shared.label) == ("1/2-1/2", "draw")
    assert Outcome(Side.SECOND, Termination.MOVE_LIMIT, count=80).params == {"count": 80}
    assert Outcome(None, Termination.AGREEMENT).params == {}


def test_replay_plays_the_moves_and_names_the_first_that_fails() -> None:
    spec = GAMES["oska"]
    moves = ("a1-b2", "a5-b4", "c1-d2", "g5-f4", "g1-f2", "f4-e3")
    state = spec.replay("", moves)
    assert state.moves == moves
    assert state == spec.replay(spec.variant(), list(moves))
    assert spec.replay(["capture=optional"], moves).variant["capture"] == "optional"
    with pytest.raises(IllegalMove) as caught:
        spec.replay("", (*moves, "d2-c3", "a1-b2"))
    assert caught.value.code == "move.capture-compulsory"
    assert caught.value.params["ply"] == 7
    assert caught.value.legal == ("d2xf4", "f2xd4")


@pytest.mark.parametrize("name", list(GAMES))
def test_every_state_knows_its_game(name: str) -> None:
    spec = GAMES[name]
    state = spec.new()
    assert state.spec is spec
    assert state.play(state.legal_moves()[0]).spec is spec
