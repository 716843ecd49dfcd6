"""Records (RULES.md, "Records"): export, import, and what a bad record says."""

from __future__ import annotations

from datetime import date

import pytest

from games.base import RecordError
from games.record import load, parse_record, record_of
from games.registry import GAMES

RULES_EXAMPLE = """\
[Game "Oska"]
[Variant ""]
[Site "Stone Club #oska"]
[Date "2026.11.29"]
[First "Ann"]
[Second "Bob"]
[Result "*"]

1. a1-b2 a5-b4 2. c1-d2 g5-f4 3. g1-f2 f4-e3 4. d2xf4 c5-d4 *
"""


def test_the_rule_books_example_loads_and_writes_back_identically() -> None:
    record, state = load(RULES_EXAMPLE)
    assert record.spec.name == "oska"
    assert state.moves == (
        "a1-b2", "a5-b4", "c1-d2", "g5-f4", "g1-f2", "f4-e3", "d2xf4", "c5-d4",
    )
    assert (record.first, record.second, record.site) == ("Ann", "Bob", "Stone Club #oska")
    again = record_of(
        record.spec, state, site="Stone Club #oska", day=date(2026, 11, 29),
        first="Ann", second="Bob",
    )
    assert again.to_text() == RULES_EXAMPLE


def test_variant_tag_lists_only_the_options_that_differ() -> None:
    spec = GAMES["oska"]
    state = spec.new(["win=elimination", "capture=huff"])
    text = record_of(spec, state).to_text()
    assert '[Variant "capture=huff win=elimination"]' in text
    _, loaded = load(text)
    assert loaded.variant == state.variant


def test_variant_tag_is_read_in_any_case() -> None:
    text = RULES_EXAMPLE.replace('[Variant ""]', '[Variant "Capture=OPTIONAL"]')
    _, state = load(text)
    assert state.variant["capture"] == "optional"


def test_finished_game_carries_its_result() -> None:
    spec = GAMES["oware"]
    state = spec.new()
    while legal := state.legal_moves():
        state = state.play(legal[-1])
    outcome = state.outcome()
    assert outcome is not None
    text = record_of(spec, state).to_text()
    assert f'[Result "{outcome.result}"]' in text
    assert text.rstrip().endswith(outcome.result)
    assert load(text)[1] == state


def test_a_resigned_game_keeps_its_declared_result() -> None:
    spec = GAMES["lasca"]
    state = spec.new().play("a3-b4")
    text = record_of(spec, state, result="0-1").to_text()
    record, loaded = load(text)
    assert record.result == "0-1"
    assert loaded.outcome() is None


def test_an_illegal_move_in_a_record_names_the_move_and_why() -> None:
    text = RULES_EXAMPLE.replace("4. d2xf4", "4. d2-e3")
    with pytest.raises(RecordError) as caught:
        load(text)
    message = str(caught.value)
    assert message.startswith("Blue's move 4: ")
    assert "d2-e3" in message
    assert "d2xf4" in message  # the legal move it should have been


def test_a_malformed_move_in_a_record_names_the_move() -> None:
    with pytest.raises(RecordError, match=r"Red's move 1: .*z9"):
        load(RULES_EXAMPLE.replace("a5-b4", "z9"))


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        (('[Game "Oska"]', '[Game "Chess"]'), "not a game"),
        (('[Game "Oska"]\n', ""), r"no \[Game"),
        (('[Variant ""]', '[Variant "capture=sometimes"]'), "capture=forced"),
        (('[Variant ""]', '[Variant "speed=fast"]'), "unknown option"),
        (("2. c1-d2", "3. c1-d2"), "expected move number 2"),
        (('[Result "*"]', '[Result "1-0"]'), "Result tag says 1-0"),
        (('[Site "Stone Club #oska"]', "[Site Stone]"), "a tag is written"),
    ],
)
def test_bad_records_say_what_is_wrong(change: tuple[str, str], complaint: str) -> None:
    with pytest.raises(RecordError, match=complaint):
        load(RULES_EXAMPLE.replace(*change))


def test_a_result_that_contradicts_the_moves_is_refused() -> None:
    spec = GAMES["oware"]
    state = spec.new()
    while legal := state.legal_moves():
        state = state.play(legal[0])
    outcome = state.outcome()
    assert outcome is not None
    wrong = "1-0" if outcome.result != "1-0" else "0-1"
    text = record_of(spec, state, result=wrong).to_text()
    with pytest.raises(RecordError, match="the moves end the game"):
        load(text)


def test_names_with_quotes_survive_the_round_trip() -> None:
    spec = GAMES["oska"]
    record = record_of(spec, spec.new(), first='Ann "the stone" \\o/', second="Bob")
    assert parse_record(record.to_text()).first == 'Ann "the stone" \\o/'


def test_long_games_wrap_and_still_load() -> None:
    spec = GAMES["lasca"]
    state = spec.new()
    for _ in range(60):
        legal = state.legal_moves()
        if not legal:
            break
        state = state.play(legal[0])
    text = record_of(spec, state).to_text()
    assert max(len(line) for line in text.splitlines()) <= 80
    assert load(text)[1] == state
