"""Records (games/RULES.md, "Records"): export, import, and what a bad record says.

A refusal is checked as its code and parameters and as the sentence `words` makes.
"""

from __future__ import annotations

from datetime import date

import pytest

import words
from games.base import RecordError, Side
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
        "a1-b2",
        "a5-b4",
        "c1-d2",
        "g5-f4",
        "g1-f2",
        "f4-e3",
        "d2xf4",
        "c5-d4",
    )
    assert (record.first, record.second, record.site) == ("Ann", "Bob", "Stone Club #oska")
    again = record_of(
        record.spec,
        state,
        site="Stone Club #oska",
        day=date(2026, 11, 29),
        first="Ann",
        second="Bob",
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
    error = caught.value
    assert error.code == "record.bad-move"
    assert error.params["cause"] == "move.not-empty"
    assert (error.params["mover"], error.params["turn"], error.params["ply"]) == (Side.FIRST, 4, 7)
    assert error.params["move"] == "d2-e3"
    assert words.explain(error) == (
        "Blue's move 4: `d2-e3`: e3 is not empty. Legal moves: d2xf4, f2xd4"
    )  # the legal move it should have been


def test_a_malformed_move_in_a_record_names_the_move() -> None:
    with pytest.raises(RecordError) as caught:
        load(RULES_EXAMPLE.replace("a5-b4", "z9"))
    assert (caught.value.code, caught.value.params["cause"]) == (
        "record.bad-move",
        "move.not-a-square",
    )
    assert words.explain(caught.value) == (
        "Red's move 1: `z9` is not a square. Legal moves: a5-b4, c5-b4, c5-d4, e5-d4, e5-f4, g5-f4"
    )


def test_a_move_after_the_end_says_how_the_game_ended() -> None:
    spec = GAMES["oska"]
    moves = "a1-b2 a5-b4 c1-d2 e5-d4 g1-f2 d4-e3 f2xd4 c5xe3xc1 b2-c3 b4xd2 e1xc3 g5-f4 c3-d4 f4-e3"
    state = spec.replay("", [*moves.split(), "d4-e5"])
    text = record_of(spec, state).to_text().replace(" 1-0\n", " e3-d2 1-0\n")
    with pytest.raises(RecordError) as caught:
        load(text)
    assert caught.value.params["cause"] == "move.game-over"
    assert words.explain(caught.value) == (
        "Red's move 8: `e3-d2`: the game is over (Blue has every stone home)"
    )


@pytest.mark.parametrize(
    ("change", "code", "complaint"),
    [
        (('[Game "Oska"]', '[Game "Chess"]'), "game.unknown",
         "`Chess` is not a game here (games: oska, lasca, oware)"),
        (('[Game "Oska"]\n', ""), "record.no-game", 'the record has no [Game "..."] tag'),
        (('[Variant ""]', '[Variant "capture=sometimes"]'), "variant.bad-value",
         "`capture=sometimes`: write one of capture=forced, capture=huff, "
         "capture=optional, capture=huff-opponent"),
        (('[Variant ""]', '[Variant "speed=fast"]'), "variant.unknown-option",
         "`speed=fast`: unknown option `speed` (options: capture, win)"),
        (("2. c1-d2", "3. c1-d2"), "record.move-number", "`3.`: expected move number 2."),
        (('[Result "*"]', '[Result "1-0"]'), "record.result-tag",
         "the Result tag says 1-0 but the moves end with *"),
        (('[Site "Stone Club #oska"]', "[Site Stone]"), "record.bad-tag",
         'line 3: a tag is written [Name "value"]'),
        (("c5-d4 *", "c5-d4 1-0 *"), "record.result-not-last", "the result `1-0` must come last"),
    ],
)  # fmt: skip
def test_bad_records_say_what_is_wrong(change: tuple[str, str], code: str, complaint: str) -> None:
    with pytest.raises(RecordError) as caught:
        load(RULES_EXAMPLE.replace(*change))
    assert caught.value.code == code
    assert words.explain(caught.value) == complaint


@pytest.mark.parametrize("name", ["oware", "oska"])
def test_a_result_that_contradicts_the_moves_is_refused(name: str) -> None:
    spec = GAMES[name]
    state = spec.new()
    while legal := state.legal_moves():
        state = state.play(legal[0])
    outcome = state.outcome()
    assert outcome is not None
    wrong = "1-0" if outcome.result != "1-0" else "0-1"
    text = record_of(spec, state, result=wrong).to_text()
    with pytest.raises(RecordError) as caught:
        load(text)
    assert caught.value.code == "record.result-contradicts"
    assert (caught.value.params["said"], caught.value.params["ended"]) == (wrong, outcome.result)
    reason = words.outcome_text(outcome, name)
    assert words.explain(caught.value) == (
        f"the result says {wrong}, but the moves end the game {outcome.result} ({reason})"
    )


def test_an_unknown_result_is_refused_with_the_results_there_are() -> None:
    spec = GAMES["oska"]
    with pytest.raises(RecordError) as caught:
        record_of(spec, spec.new(), result="2-0")
    assert caught.value.code == "record.bad-result"
    assert (
        words.explain(caught.value) == "`2-0` is not a result (write one of 1-0, 0-1, 1/2-1/2, *)"
    )


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


# capture=huff-opponent: Blue's b2-c3 and c1-b2 forfeit a stone; Red's reply
# names the one it removes (g1, then b2, Blue's last: Blue, stoneless, wins).
HUFF_OPPONENT_GAME = "e1-f2 a5-b4 a1-b2 c5-d4 f2-e3 d4xf2 b2-c3 g1:b4xd2 c1-b2 b2:"


def test_a_huff_opponent_game_and_its_removals_export_and_load_back() -> None:
    spec = GAMES["oska"]
    state = spec.replay("capture=huff-opponent", HUFF_OPPONENT_GAME.split())
    outcome = state.outcome()
    assert outcome is not None and outcome.result == "1-0"
    text = record_of(spec, state, first="Ann", second="Bob").to_text()
    assert '[Variant "capture=huff-opponent"]' in text
    assert text.endswith(
        "\n1. e1-f2 a5-b4 2. a1-b2 c5-d4 3. f2-e3 d4xf2 4. b2-c3 g1:b4xd2 5. c1-b2 b2: 1-0\n"
    )
    record, loaded = load(text)
    assert loaded == state
    assert record.to_text() == text
    _, typed = load(text.replace("g1:b4xd2", "G1:B4XD2"))
    assert typed.moves == state.moves
