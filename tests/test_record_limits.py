"""Reading a record is bounded: size, digits of a move number, length of a move, number of
moves. Each limit is refused with its own sentence, never a crash (Python will not read an
integer of more than 4,300 digits: `ValueError: Exceeds the limit`)."""

from __future__ import annotations

from pathlib import Path

import pytest

import words
from games.base import RecordError
from games.record import MAX_MOVES, MAX_TEXT, load, parse_record
from matches import BadInput, MatchService
from store import open_store

HEAD = '[Game "Oska"]\n\n'


def refusal(text: str) -> str:
    with pytest.raises(RecordError) as caught:
        load(text)
    return words.explain(caught.value)


def test_a_move_number_of_thousands_of_digits_is_refused_not_a_crash() -> None:
    said = refusal(HEAD + "1" * 4400 + ". a1-b2 *")
    assert said == "a move number of 4400 digits: a move number has at most 6"


@pytest.mark.parametrize("game", ["Oska", "Lasca"])
def test_a_square_of_thousands_of_digits_is_refused_not_a_crash(game: str) -> None:
    said = refusal(f'[Game "{game}"]\n\n1. a{"1" * 4400}-b2 *')
    assert said == "the move `a11111111111…` is too long: a move has at most 64 characters"
    said = refusal(f'[Game "{game}"]\n\n1.a{"1" * 4400}-b2 *')  # the number and move joined
    assert said.startswith("the move `a11111111111…` is too long")


def test_a_record_too_long_or_with_too_many_moves_is_refused() -> None:
    said = refusal(HEAD + "1. a1-b2 " + " " * MAX_TEXT + "*")
    assert said.startswith(f"the record is too long: at most {MAX_TEXT} characters")
    moves = " ".join(["a1"] * (MAX_MOVES + 1))  # move numbers may be left out
    assert refusal(HEAD + moves + " *") == (f"the record has too many moves: at most {MAX_MOVES}")


def test_a_record_within_the_limits_reads_as_before() -> None:
    record = parse_record(HEAD + "1. a1-b2 g7-f6 2. c1-d2 *")
    assert record.moves == ("a1-b2", "g7-f6", "c1-d2")


@pytest.mark.asyncio
async def test_the_service_refuses_the_long_number_as_bad_input(tmp_path: Path) -> None:
    """What `/oska import` meets: a BadInput the bot says privately, not "Something went
    wrong"."""
    store = await open_store(f"sqlite:///{tmp_path}/k.db")
    try:
        service = MatchService(store)
        with pytest.raises(BadInput) as caught:
            service.check_record(HEAD + "9" * 5000 + ". a1-b2 *", "oska")
    finally:
        await store.close()
    said = words.explain(caught.value)
    assert said == "a move number of 5000 digits: a move number has at most 6"
