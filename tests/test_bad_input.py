"""Strangers type anything: every text a player can send is either understood or
refused with a GameError whose code `words` can say, never a crash."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import words
from games.base import GameError, MoveError
from games.record import load
from games.registry import GAMES

# Texts near the notations (squares, pits, separators) and anything at all.
NEAR = st.text(alphabet="abcdefgABCDEFG1234567890x-/ pas", max_size=14)
ANY = st.text(max_size=40)


@pytest.mark.parametrize("name", list(GAMES))
@settings(max_examples=300, deadline=None)
@given(text=st.one_of(NEAR, ANY))
def test_any_move_text_is_played_or_refused_with_the_legal_moves(name: str, text: str) -> None:
    state = GAMES[name].new()
    try:
        canonical = state.parse_move(text)
    except MoveError as error:
        assert error.legal == state.legal_moves()
        assert error.params["move"] == error.move
        assert words.explain(error)
    else:
        assert canonical in state.legal_moves()
        assert state.play(text) == state.play(canonical)


@pytest.mark.parametrize("name", list(GAMES))
@settings(max_examples=150, deadline=None)
@given(text=st.one_of(NEAR, ANY, st.just("")))
def test_any_position_text_is_read_or_refused(name: str, text: str) -> None:
    spec = GAMES[name]
    try:
        state = spec.from_text(text, spec.variant())
    except GameError as error:
        assert words.explain(error)
    else:
        assert spec.from_text(state.to_text(), spec.variant()).to_text() == state.to_text()


@settings(max_examples=200, deadline=None)
@given(
    head=st.sampled_from(['[Game "Oska"]', '[Game "Lasca"]', '[Game "Oware"]', "", "[Game]"]),
    body=st.one_of(NEAR, ANY),
)
def test_any_record_text_loads_or_says_what_is_wrong(head: str, body: str) -> None:
    try:
        record, state = load(f"{head}\n\n{body}")
    except GameError as error:
        assert words.explain(error)
    else:
        assert state.moves == record.moves
