"""Oware: one test per rule and variant of RULES.md, on positions written as text."""

from __future__ import annotations

import textwrap

import pytest

import words
from games import oware
from games.base import (
    GameError,
    IllegalMove,
    MalformedMove,
    MoveInfo,
    Outcome,
    PositionError,
    Side,
    Termination,
)
from games.oware import SPEC, OwareState, from_text
from words.catalogue import DEFAULT_LOCALE
from words.games import outcome_text, with_side_names


def board(diagram: str) -> str:
    """A diagram written indented in a test, as `to_text` writes it."""
    return textwrap.dedent(diagram).strip("\n")


def position(diagram: str, variant: str = "") -> OwareState:
    return from_text(board(diagram), SPEC.variant(variant))


def started(variant: str = "") -> OwareState:
    """The registry's start position, as the Oware state it is."""
    state = SPEC.new(variant)
    assert isinstance(state, OwareState)
    return state


def after(state: OwareState, *moves: str) -> OwareState:
    for move in moves:
        state = state.play(move)
    return state


def sentence(error: GameError) -> str:
    """The refusal's own sentence, without the legal moves words.explain adds."""
    return words.say(error.code, DEFAULT_LOCALE, **with_side_names(error.params, "oware", "en"))


def ending(state: OwareState) -> str:
    """How the game ended, as the players read it."""
    outcome = state.outcome()
    assert outcome is not None
    return outcome_text(outcome, "oware")


START = """
    North  f  e  d  c  b  a     store 0
           4  4  4  4  4  4
           4  4  4  4  4  4
    South  A  B  C  D  E  F     store 0
    South to move
"""


# ------------------------------------------------------------------ the board


def test_start_position_and_legal_moves() -> None:
    state = SPEC.new()
    assert state.to_text() == board(START)
    assert state.to_move is Side.FIRST
    assert state.legal_moves() == ("A", "B", "C", "D", "E", "F")
    assert state.play("A").legal_moves() == ("a", "b", "c", "d", "e", "f")
    assert state.outcome() is None


def test_sowing_goes_counter_clockwise_from_f_to_a() -> None:
    state = after(started(), "C", "e")
    assert state.to_text() == board("""
        North  f  e  d  c  b  a     store 0
               5  0  4  4  4  5
               5  5  1  5  5  5
        South  A  B  C  D  E  F     store 0
        South to move
    """)
    assert state.moves == ("C", "e")


def test_twelve_or_more_seeds_skip_the_origin_pit() -> None:
    state = position("""
        North  f  e  d  c  b  a     store 3
               5  5  5  5  5  5
               0 12  0  0  0  0
        South  A  B  C  D  E  F     store 3
        South to move
    """)
    assert state.play("B").to_text() == board("""
        North  f  e  d  c  b  a     store 3
               6  6  6  6  6  6
               1  0  2  1  1  1
        South  A  B  C  D  E  F     store 3
        North to move
    """)


# ------------------------------------------------------------------ captures


def test_last_seed_making_two_on_the_opponents_row_captures() -> None:
    state = position("""
        North  f  e  d  c  b  a     store 5
               4  4  4  4  4  1
               3  3  3  3  2  3
        South  A  B  C  D  E  F     store 5
        South to move
    """)
    assert state.play("E").to_text() == board("""
        North  f  e  d  c  b  a     store 5
               4  4  4  4  4  0
               3  3  3  3  0  4
        South  A  B  C  D  E  F     store 7
        North to move
    """)


@pytest.mark.parametrize("seeds", [0, 3])
def test_last_seed_making_one_or_four_captures_nothing(seeds: int) -> None:
    state = position(f"""
        North  f  e  d  c  b  a     store {6 - seeds}
               4  4  4  4  4  {seeds}
               3  3  3  3  2  3
        South  A  B  C  D  E  F     store 5
        South to move
    """)
    assert state.play("E").to_text() == board(f"""
        North  f  e  d  c  b  a     store {6 - seeds}
               4  4  4  4  4  {seeds + 1}
               3  3  3  3  0  4
        South  A  B  C  D  E  F     store 5
        North to move
    """)


def test_chained_capture_stops_at_a_pit_not_holding_two_or_three() -> None:
    # F sows a b c d: d=2 and c=3 are taken, b=5 stops the chain, so a=2 stays;
    # e=3 lies after the last seed and is not taken either.
    state = position("""
        North  f  e  d  c  b  a     store 10
               3  3  1  2  4  1
               2  2  2  2  2  4
        South  A  B  C  D  E  F     store 10
        South to move
    """)
    assert state.play("F").to_text() == board("""
        North  f  e  d  c  b  a     store 10
               3  3  0  0  5  2
               2  2  2  2  2  0
        South  A  B  C  D  E  F     store 15
        North to move
    """)


def test_chained_capture_stops_at_the_end_of_the_opponents_row() -> None:
    # E sows F a b c: c, b and a are taken; F now holds 2 but is South's own.
    state = position("""
        North  f  e  d  c  b  a     store 8
               4  4  4  1  2  1
               3  3  3  3  4  1
        South  A  B  C  D  E  F     store 7
        South to move
    """)
    assert state.play("E").to_text() == board("""
        North  f  e  d  c  b  a     store 8
               4  4  4  0  0  0
               3  3  3  3  0  2
        South  A  B  C  D  E  F     store 14
        North to move
    """)


def test_no_capture_on_the_players_own_row() -> None:
    state = position("""
        North  f  e  d  c  b  a     store 6
               4  4  4  4  4  4
               3  0  0  1  4  4
        South  A  B  C  D  E  F     store 6
        South to move
    """)
    assert state.play("A").to_text() == board("""
        North  f  e  d  c  b  a     store 6
               4  4  4  4  4  4
               0  1  1  2  4  4
        South  A  B  C  D  E  F     store 6
        North to move
    """)


def test_describe_names_the_emptied_pit_and_the_captured_pits() -> None:
    state = position("""
        North  f  e  d  c  b  a     store 10
               3  3  1  2  4  1
               2  2  2  2  2  4
        South  A  B  C  D  E  F     store 10
        South to move
    """)
    assert state.describe("F") == MoveInfo("F", ("F",), ("c", "d"))
    assert state.describe(" A ") == MoveInfo("A", ("A",), ())


# ------------------------------------------------------------------- feeding


def test_a_player_must_feed_an_opponent_without_seeds() -> None:
    state = position("""
        North  f  e  d  c  b  a     store 18
               0  0  0  0  0  0
               5  5  0  0  1  1
        South  A  B  C  D  E  F     store 18
        South to move
    """)
    assert state.legal_moves() == ("B", "F")
    with pytest.raises(IllegalMove) as error:
        state.play("A")
    assert error.value.code == "oware.must-feed"
    assert error.value.params == {
        "pit": "A", "opponent": Side.SECOND, "move": "A", "legal": ("B", "F")
    }  # fmt: skip
    assert words.explain(error.value) == (
        "`A`: North has no seeds and must be fed. Legal moves: B, F"
    )
    assert error.value.legal == ("B", "F")


def test_an_opponent_who_cannot_be_fed_ends_the_game_and_rows_are_shared_out() -> None:
    state = position("""
        North  f  e  d  c  b  a     store 21
               2  0  0  0  0  0
               0  0  3  2  1  0
        South  A  B  C  D  E  F     store 19
        North to move
    """)
    final = state.play("f")
    assert final.to_text() == board("""
        North  f  e  d  c  b  a     store 21
               0  0  0  0  0  0
               0  0  0  0  0  0
        South  A  B  C  D  E  F     store 27
        South to move
    """)
    assert final.legal_moves() == ()
    assert final.outcome() == Outcome(
        Side.FIRST, Termination.CANNOT_FEED, side=Side.SECOND, score=(27, 21)
    )
    assert ending(final) == "North cannot be fed; South 27 - North 21"


def test_a_player_to_move_without_seeds_ends_the_game() -> None:
    state = position("""
        North  f  e  d  c  b  a     store 18
               1  2  3  4  0  0
               0  0  0  0  0  0
        South  A  B  C  D  E  F     store 20
        South to move
    """)
    assert state.legal_moves() == ()
    assert state.outcome() == Outcome(
        Side.SECOND, Termination.NO_SEEDS, side=Side.FIRST, score=(20, 28)
    )
    assert ending(state) == "South has no seeds; South 20 - North 28"
    # In play only a grand slam under opponent-takes leaves the next player no seeds.
    final = position(GRAND_SLAM.format(north=22, south=22), "grandslam=opponent-takes").play("E")
    assert final.pits == (0,) * 12
    assert final.outcome() == Outcome(None, Termination.NO_SEEDS, side=Side.SECOND, score=(24, 24))
    assert ending(final) == "North has no seeds; 24 each"


# ----------------------------------------------------------------- grand slam

GRAND_SLAM = """
    North  f  e  d  c  b  a     store {north}
           0  0  0  0  0  1
           1  0  0  0  2  0
    South  A  B  C  D  E  F     store {south}
    South to move
"""


def test_grand_slam_forbidden_by_default() -> None:
    state = position(GRAND_SLAM.format(north=22, south=22))
    assert state.legal_moves() == ("A",)
    with pytest.raises(IllegalMove) as error:
        state.play("E")
    assert (error.value.code, error.value.params["opponent"]) == ("oware.grand-slam", Side.SECOND)
    assert words.explain(error.value) == (
        "`E` would capture every seed of North (grand slam). Legal moves: A"
    )


def test_grand_slam_forbidden_stays_legal_without_capture_when_every_move_is_one() -> None:
    state = position("""
        North  f  e  d  c  b  a     store 22
               0  0  0  0  0  1
               0  0  0  0  2  0
        South  A  B  C  D  E  F     store 23
        South to move
    """)
    assert state.legal_moves() == ("E",)
    assert state.play("E").to_text() == board("""
        North  f  e  d  c  b  a     store 22
               0  0  0  0  0  2
               0  0  0  0  0  1
        South  A  B  C  D  E  F     store 23
        North to move
    """)


def test_grand_slam_nocapture_plays_and_captures_nothing() -> None:
    state = position(GRAND_SLAM.format(north=22, south=22), "grandslam=nocapture")
    assert state.legal_moves() == ("A", "E")
    assert state.describe("E").captured == ()
    assert state.play("E").to_text() == board("""
        North  f  e  d  c  b  a     store 22
               0  0  0  0  0  2
               1  0  0  0  0  1
        South  A  B  C  D  E  F     store 22
        North to move
    """)


def test_grand_slam_opponent_takes_the_movers_row() -> None:
    state = position(GRAND_SLAM.format(north=24, south=20), "grandslam=opponent-takes")
    assert state.legal_moves() == ("A", "E")
    assert state.describe("E").captured == ("A", "F", "a")
    final = state.play("E")
    assert final.to_text() == board("""
        North  f  e  d  c  b  a     store 26
               0  0  0  0  0  0
               0  0  0  0  0  0
        South  A  B  C  D  E  F     store 22
        North to move
    """)
    assert final.outcome() == Outcome(
        Side.SECOND, Termination.TWENTY_FIVE, side=Side.SECOND, count=26
    )
    assert ending(final) == "North has captured 26 seeds"


def test_grand_slam_opponent_takes_even_when_the_capture_reached_25() -> None:
    state = position(GRAND_SLAM.format(north=21, south=23), "grandslam=opponent-takes")
    final = state.play("E")
    assert final.stores == (25, 23)
    assert final.pits == (0,) * 12
    assert final.outcome() == Outcome(
        Side.FIRST, Termination.TWENTY_FIVE, side=Side.FIRST, count=25
    )
    assert ending(final) == "South has captured 25 seeds"


# -------------------------------------------------------------- must-play-12

OWN_MOVE_PASSES_11 = """
    North  f  e  d  c  b  a     store 5
           4  4  4  4  4  4
           1 11  0  0  0  2
    South  A  B  C  D  E  F     store 5
    South to move
"""


def test_must_play_12_after_the_players_own_move_grows_a_pit_past_11() -> None:
    state = position(OWN_MOVE_PASSES_11, "must-play-12=on").play("A")
    assert state.to_text() == board("""
        North  f  e  d  c  b  a     store 5
               4  4  4  4  4  4
               0 12  0  0  0  2
        South  A  B  C  D  E  F     store 5
        North to move
        South must play a pit with more than 11 seeds
    """)
    state = state.play("a")
    assert state.legal_moves() == ("B",)
    with pytest.raises(IllegalMove) as error:
        state.play("F")
    assert error.value.code == "oware.must-play-12"
    assert sentence(error.value) == "`F`: a pit with more than 11 seeds must be played"
    assert state.play("B").obliged == (False, False)


def test_must_play_12_after_the_opponents_move_grows_a_pit_past_11() -> None:
    state = position(
        """
        North  f  e  d  c  b  a     store 7
               1  4  4  4  4  4
              11  1  1  0  0  0
        South  A  B  C  D  E  F     store 7
        North to move
        """,
        "must-play-12=on",
    ).play("f")
    assert state.obliged == (True, False)
    assert state.legal_moves() == ("A",)


def test_must_play_12_off_by_default() -> None:
    state = position(OWN_MOVE_PASSES_11).play("A")
    assert state.to_text().endswith("North to move")
    assert state.play("a").legal_moves() == ("B", "F")


def test_must_play_12_comes_before_the_grand_slam_rule() -> None:
    # F (17 seeds) is a grand slam; A is not. Must-play-12 leaves only F, so F
    # is every move left: it stays legal and captures nothing.
    text = """
        North  f  e  d  c  b  a     store 15
               0  0  0  0  0  1
               1  0  0  0  0 17
        South  A  B  C  D  E  F     store 14
        South to move
        South must play a pit with more than 11 seeds
    """
    state = position(text, "must-play-12=on")
    assert state.legal_moves() == ("F",)
    assert state.play("F").to_text() == board("""
        North  f  e  d  c  b  a     store 15
               2  2  2  2  2  3
               2  1  1  1  1  0
        South  A  B  C  D  E  F     store 14
        North to move
    """)
    without_obligation = "\n".join(board(text).splitlines()[:5])
    assert position(without_obligation, "must-play-12=on").legal_moves() == ("A",)


def test_must_play_12_obligations_end_with_the_game() -> None:
    # F makes North's b 12 and captures c-f to reach 25: no obligation is left.
    state = position(
        """
        North  f  e  d  c  b  a     store 3
               0  0  0  0 10  1
               0  0  0  0  0 17
        South  A  B  C  D  E  F     store 17
        South to move
        """,
        "must-play-12=on",
    )
    final = state.play("F")
    assert final.to_text() == board("""
        North  f  e  d  c  b  a     store 3
               0  0  0  0 12  3
               1  1  1  1  1  0
        South  A  B  C  D  E  F     store 25
        North to move
    """)
    assert final.obliged == (False, False)


# ---------------------------------------------------------------------- end


def test_25_captured_seeds_win_at_once_without_sharing_the_board() -> None:
    state = position("""
        North  f  e  d  c  b  a     store 8
               2  2  2  2  2  1
               1  1  1  1  2  0
        South  A  B  C  D  E  F     store 23
        South to move
    """)
    final = state.play("E")
    assert final.to_text() == board("""
        North  f  e  d  c  b  a     store 8
               2  2  2  2  2  0
               1  1  1  1  0  1
        South  A  B  C  D  E  F     store 25
        North to move
    """)
    assert final.legal_moves() == ()
    assert final.outcome() == Outcome(
        Side.FIRST, Termination.TWENTY_FIVE, side=Side.FIRST, count=25
    )
    assert ending(final) == "South has captured 25 seeds"


def test_a_repeated_position_ends_the_game_and_rows_are_shared_out() -> None:
    state = position("""
        North  f  e  d  c  b  a     store 23
               0  0  1  0  0  0
               1  0  0  0  0  1
        South  A  B  C  D  E  F     store 22
        South to move
    """)
    # Every seed goes once round; after f the only move feeding North is F.
    cycle = ("A", "d", "B", "e", "C", "f", "F", "a", "D", "b", "E", "c")
    almost = after(state, *cycle[:-1])
    assert almost.outcome() is None
    final = almost.play(cycle[-1])
    assert final.to_text() == board("""
        North  f  e  d  c  b  a     store 24
               0  0  0  0  0  0
               0  0  0  0  0  0
        South  A  B  C  D  E  F     store 24
        South to move
    """)
    assert final.legal_moves() == ()
    assert final.outcome() == Outcome(None, Termination.REPETITION, score=(24, 24))
    assert ending(final) == "position repeated; 24 each"


def test_24_each_is_a_draw() -> None:
    state = position("""
        North  f  e  d  c  b  a     store 24
               1  0  0  0  0  0
               0  1  0  0  0  0
        South  A  B  C  D  E  F     store 22
        North to move
    """)
    outcome = state.play("f").outcome()
    assert outcome == Outcome(None, Termination.CANNOT_FEED, side=Side.SECOND, score=(24, 24))
    assert outcome.result == "1/2-1/2"
    assert outcome_text(outcome, "oware") == "North cannot be fed; 24 each"


def test_a_repetition_shared_out_past_24_has_a_winner() -> None:
    state = position("""
        North  f  e  d  c  b  a     store 24
               0  0  1  0  0  0
               1  0  0  0  0  1
        South  A  B  C  D  E  F     store 21
        South to move
    """)
    final = after(state, "A", "d", "B", "e", "C", "f", "F", "a", "D", "b", "E", "c")
    assert final.outcome() == Outcome(Side.SECOND, Termination.REPETITION, score=(23, 25))
    assert ending(final) == "position repeated; South 23 - North 25"


# ------------------------------------------------------------ moves as text


@pytest.mark.parametrize(
    ("text", "code", "why"),
    [
        ("G", "oware.not-a-pit", "`G` is not a pit: South plays A-F, North a-f"),
        ("1", "oware.not-a-pit", "`1` is not a pit: South plays A-F, North a-f"),
        (" AB ", "oware.not-a-pit", "`AB` is not a pit: South plays A-F, North a-f"),
        ("", "oware.empty", "`` is empty: name a pit"),
        ("   ", "oware.empty", "`` is empty: name a pit"),
    ],
)
def test_malformed_moves_name_the_legal_moves(text: str, code: str, why: str) -> None:
    with pytest.raises(MalformedMove) as error:
        SPEC.new().play(text)
    assert error.value.code == code
    assert error.value.params["move"] == text
    assert sentence(error.value) == why
    assert error.value.legal == ("A", "B", "C", "D", "E", "F")
    assert words.explain(error.value) == f"{why}. Legal moves: A, B, C, D, E, F"


def test_a_pit_of_the_wrong_side_or_an_empty_pit_is_illegal() -> None:
    state = SPEC.new()
    with pytest.raises(IllegalMove) as error:
        state.play("c")
    assert error.value.code == "oware.opponents-pit"
    assert error.value.params == {
        "pit": "c", "opponent": Side.SECOND, "mover": Side.FIRST, "row": "A-F",
        "move": "c", "legal": ("A", "B", "C", "D", "E", "F"),
    }  # fmt: skip
    assert sentence(error.value) == "`c` is North's pit: South plays A-F"
    state = state.play("C")
    with pytest.raises(IllegalMove) as error:
        state.play("D")
    assert sentence(error.value) == "`D` is South's pit: North plays a-f"
    with pytest.raises(IllegalMove) as error:
        state.play("a").play(" C")
    assert (error.value.code, error.value.params["pit"]) == ("oware.empty-pit", "C")
    assert sentence(error.value) == "`C` is empty"
    assert words.explain(error.value) == "`C` is empty. Legal moves: A, B, D, E, F"


def test_surrounding_spaces_are_accepted() -> None:
    state = SPEC.new()
    assert state.parse_move("  C \t") == "C"
    assert state.play(" C ") == state.play("C")
    assert state.play(" C ").moves == ("C",)


def test_a_finished_game_takes_no_move() -> None:
    final = position(GRAND_SLAM.format(north=21, south=23), "grandslam=opponent-takes").play("E")
    with pytest.raises(IllegalMove) as error:
        final.play("a")
    assert error.value.code == "oware.game-over"
    assert error.value.legal == ()
    assert words.explain(error.value) == "the game is over"
    with pytest.raises(MalformedMove) as malformed:
        final.play("G")
    assert words.explain(malformed.value) == (
        "`G` is not a pit: South plays A-F, North a-f. The game is over."
    )


# ------------------------------------------------------------------ the state


def test_states_are_immutable_values() -> None:
    state = SPEC.new()
    for name in ("pits", "stores", "to_move", "obliged", "moves", "variant", "history", "spec"):
        with pytest.raises(AttributeError):
            setattr(state, name, None)
    with pytest.raises(AttributeError):
        state.seeds = 3  # type: ignore[attr-defined]  # no field besides the slots
    child = state.play("A")
    assert state.to_text() == board(START)
    assert state.moves == ()
    assert child == SPEC.new().play("A")
    assert hash(child) == hash(SPEC.new().play("A"))
    assert child != from_text(child.to_text(), child.variant)  # the moves differ


def test_text_round_trips_with_obligations_and_loose_spacing() -> None:
    state = position(OWN_MOVE_PASSES_11, "must-play-12=on").play("A")
    reread = from_text(state.to_text(), state.variant)
    assert (reread.pits, reread.stores, reread.to_move) == (state.pits, state.stores, Side.SECOND)
    assert reread.obliged == state.obliged == (True, False)
    assert reread.moves == ()
    assert reread.to_text() == state.to_text()
    assert reread == from_text(state.to_text(), state.variant)
    loose = (
        "\n\n  north f e d c b a store 5 \n 4 4 4 4 4 4\n0 12 0 0 0 2\n"
        "SOUTH A B C D E F STORE 5\n\nnorth   to move\n"
        "  south must play a pit with more than 11 seeds\n"
    )
    assert from_text(loose, state.variant).to_text() == state.to_text()


@pytest.mark.parametrize(
    ("text", "variant"),
    [
        pytest.param(START.replace("4  4  4  4  4  4\n", "4  4  4  4  4\n", 1), "", id="five-pits"),
        pytest.param(START.replace("store 0", "store 1", 1), "", id="49-seeds"),
        pytest.param(START.replace("f  e  d", "e  f  d"), "", id="letters"),
        pytest.param(START.replace("    South to move\n", ""), "", id="no-turn"),
        pytest.param(START.replace("South to move", "East to move"), "", id="who"),
        pytest.param(START.replace("4  4  4  4  4  4", "4  4  4  4  x  4", 1), "", id="count"),
        pytest.param(START + "South must play a pit with more than 11 seeds", "", id="rule-off"),
        pytest.param(
            START + "South must play a pit with more than 11 seeds", "must-play-12=on", id="no-12"
        ),
    ],
)
def test_bad_position_texts_raise(text: str, variant: str) -> None:
    with pytest.raises(PositionError):
        position(text, variant)


def test_a_state_knows_its_game_and_shows_the_search_kernel_its_fields() -> None:
    start = started("grandslam=nocapture must-play-12=on")
    moved = start.play("A").play("a")
    for state in (start, moved, from_text(moved.to_text(), moved.variant)):
        assert state.spec is SPEC
    assert (moved.grandslam, moved.must_play_12, moved.ending) == (oware.NOCAPTURE, True, 0)
    assert moved.history == (start.pits, start.play("A").pits, moved.pits)
    new, low, high = oware.sow(start.pits, 0)
    assert (tuple(new), low, high) == (start.play("A").pits, 0, 0)
    assert SPEC.replay("grandslam=nocapture must-play-12=on", ["A", "a"]) == moved
