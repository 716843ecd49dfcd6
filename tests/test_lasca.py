"""Lasca: one named test per rule of RULES.md, on positions written as diagrams.

A diagram lists ranks 7 to 1, each rank's playing squares from file a:

    a7  c7  e7  g7
      b6  d6  f6
    a5  c5  e5  g5
      b4  d4  f4
    a3  c3  e3  g3
      b2  d2  f2
    a1  c1  e1  g1

with `.` for an empty square and a column written bottom to top (`bbW`).
"""

from __future__ import annotations

import pytest

import words
from games import lasca
from games.base import (
    GameError,
    IllegalMove,
    MalformedMove,
    MoveInfo,
    Outcome,
    PositionError,
    Side,
    Termination,
    Variant,
)
from games.lasca import LascaState
from words.catalogue import DEFAULT_LOCALE
from words.games import outcome_text, with_side_names

DEFAULT = lasca.SPEC.variant()
CONTINUES = lasca.SPEC.variant("promotion=continues")

START = """\
b   b   b   b
  b   b   b
b   b   b   b
  .   .   .
w   w   w   w
  w   w   w
w   w   w   w
White to move"""


def position(text: str, variant: Variant = DEFAULT) -> LascaState:
    return lasca.from_text(text, variant)


def assert_position(state: LascaState, expected: str) -> None:
    """The state shows the expected diagram (spacing in the literal is free)."""
    assert state.to_text() == lasca.from_text(expected, state.variant).to_text()


def pieces(state: LascaState) -> int:
    return sum(len(state.column(square)) for square in lasca.SQUARES)


def sentence(error: GameError) -> str:
    """The refusal's own sentence, without the legal moves words.explain adds."""
    return words.say(error.code, DEFAULT_LOCALE, **with_side_names(error.params, "lasca", "en"))


def ending(state: LascaState) -> str:
    """How the game ended, as the players read it."""
    outcome = state.outcome()
    assert outcome is not None
    return outcome_text(outcome, "lasca")


# ------------------------------------------------------------------- start


def test_start_position_and_its_six_moves() -> None:
    state = lasca.start(DEFAULT)
    assert state.to_text() == START
    assert state.to_move is Side.FIRST
    assert state.moves == ()
    assert pieces(state) == 22
    assert state.legal_moves() == ("a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4")
    assert state.outcome() is None


def test_spec_names_the_game_and_its_one_option() -> None:
    assert lasca.SPEC.name == "lasca"
    assert lasca.SPEC.side_names == ("White", "Black")
    assert [(o.key, o.values, o.default) for o in lasca.OPTIONS] == [
        ("promotion", ("ends-move", "continues"), "ends-move")
    ]
    assert len(words.say("lasca.summary").splitlines()) == 2


# ------------------------------------------------------------------- steps


def test_soldier_steps_forward_only() -> None:
    state = position("""
        .   .   .   b
          .   .   .
        .   .   .   .
          .   w   .
        .   .   .   .
          .   .   .
        .   .   .   .
        White to move""")
    assert state.legal_moves() == ("d4-c5", "d4-e5")
    with pytest.raises(IllegalMove) as caught:
        state.play("d4-c3")
    assert caught.value.code == "lasca.soldier-steps-forward"
    assert caught.value.params["written"] == "d4-c3"
    assert words.explain(caught.value) == (
        "`d4-c3`: soldiers move only forward. Legal moves: d4-c5, d4-e5"
    )
    after = state.play("d4-e5")
    assert_position(
        after,
        """
        .   .   .   b
          .   .   .
        .   .   w   .
          .   .   .
        .   .   .   .
          .   .   .
        .   .   .   .
        Black to move""",
    )
    assert after.legal_moves() == ("g7-f6",)  # Black's forward is down


def test_officer_steps_backward_too() -> None:
    state = position("""
        .   .   .   B
          .   .   .
        .   .   .   .
          .   W   .
        .   .   .   .
          .   .   .
        .   .   .   .
        White to move""")
    assert state.legal_moves() == ("d4-c3", "d4-c5", "d4-e3", "d4-e5")
    assert_position(
        state.play("d4-c3"),
        """
        .   .   .   B
          .   .   .
        .   .   .   .
          .   .   .
        .   W   .   .
          .   .   .
        .   .   .   .
        Black to move
        quiet moves: 1""",
    )


# ---------------------------------------------------------------- captures


def test_capture_takes_only_the_top_piece_and_puts_it_at_the_bottom() -> None:
    state = position("""
        .   .   .   .
          .   .   .
        .   .   .   .
          .  wbb  .
        .  bw   .   .
          .   .   .
        .   .   .   .
        White to move""")
    assert state.legal_moves() == ("c3xe5",)
    after = state.play("c3xe5")
    assert_position(
        after,
        """
        .   .   .   .
          .   .   .
        .   .  bbw  .
          .  wb   .
        .   .   .   .
          .   .   .
        .   .   .   .
        Black to move""",
    )
    # d4 keeps a Black soldier on top: it is still Black's and moves down.
    assert after.legal_moves() == ("d4-c3", "d4-e3")


def test_freed_column_now_belongs_to_the_prisoner_that_was_under() -> None:
    state = position("""
        b   .   .   .
          .   .   .
        .   .   .   .
          .   wb  .
        .   w   .   .
          .   .   .
        .   .   .   .
        White to move""")
    after = state.play("c3xe5")
    assert_position(
        after,
        """
        b   .   .   .
          .   .   .
        .   .   bw  .
          .   w   .
        .   .   .   .
          .   .   .
        .   .   .   .
        Black to move""",
    )
    # The freed White soldier on d4 is White's own column again.
    assert after.play("a7-b6").legal_moves() == ("d4-c5", "e5-d6", "e5-f6")


def test_multi_capture_goes_on_while_it_can() -> None:
    state = position("""
        b   .   .   .
          .   .   .
        .   .   b   .
          .   .   .
        .   b   .   .
          w   .   .
        .   .   .   .
        White to move""")
    assert state.legal_moves() == ("b2xd4xf6",)
    assert_position(
        state.play("b2xd4xf6"),
        """
        b   .   .   .
          .   .  bbw
        .   .   .   .
          .   .   .
        .   .   .   .
          .   .   .
        .   .   .   .
        Black to move""",
    )


def test_same_column_may_not_be_jumped_twice() -> None:
    # After c3xe5 the column on d4 still has a Black commander, and c3 is empty.
    state = position("""
        b   .   .   .
          .   .   .
        .   .   .   .
          .   bb  .
        .   W   .   .
          .   .   .
        .   .   .   .
        White to move""")
    assert state.legal_moves() == ("c3xe5",)
    with pytest.raises(IllegalMove) as caught:
        state.play("c3xe5xc3")
    assert (caught.value.code, caught.value.params["square"]) == ("lasca.jumped-twice", "d4")
    assert sentence(caught.value) == "`c3xe5xc3`: the column on d4 may not be jumped twice"
    assert state.play("c3xe5").column("d4") == "b"


LOOP = """
    .   .   .   .
      b   b   .
    .   .   .   .
      b   b   .
    .   W   .   .
      .   {d2}   .
    .   .   .   B
    White to move"""


def test_capture_sequence_may_end_on_its_origin() -> None:
    state = position(LOOP.format(d2="."))
    assert state.legal_moves() == ("c3xa5xc7xe5xc3", "c3xe5xc7xa5xc3")
    after = state.play("c3xe5xc7xa5xc3")
    assert_position(
        after,
        """
        .   .   .   .
          .   .   .
        .   .   .   .
          .   .   .
        .  bbbbW  .   .
          .   .   .
        .   .   .   B
        Black to move""",
    )


def test_capture_sequence_may_pass_through_its_origin() -> None:
    state = position(LOOP.format(d2="b"))
    assert state.legal_moves() == ("c3xa5xc7xe5xc3xe1", "c3xe1", "c3xe5xc7xa5xc3xe1")
    assert state.play("c3xa5xc7xe5xc3xe1").column("e1") == "bbbbbW"


def test_free_choice_of_a_shorter_capture_when_a_longer_one_exists() -> None:
    state = position("""
        .   .   .   .
          .   .   .
        .   .   .   .
          b   .   b
        w   .   .   .
          .   .   b
        .   .   w   .
        White to move""")
    assert state.legal_moves() == ("a3xc5", "e1xg3xe5")
    assert_position(
        state.play("a3xc5"),
        """
        .   .   .   .
          .   .   .
        .   bw  .   .
          .   .   b
        .   .   .   .
          .   .   b
        .   .   w   .
        Black to move""",
    )


def test_a_chosen_capture_must_be_played_to_its_end() -> None:
    state = position(LOOP.format(d2="b"))
    with pytest.raises(IllegalMove) as caught:
        state.play("c3xe5")
    assert caught.value.code == "lasca.capture-goes-on"
    assert caught.value.params["moves"] == ("c3xe5xc7xa5xc3xe1",)
    assert sentence(caught.value) == "`c3xe5`: the capture must go on (c3xe5xc7xa5xc3xe1)"


def test_capture_is_compulsory() -> None:
    state = position("""
        .   .   .   .
          .   .   .
        .   .   .   .
          .   b   .
        .   w   .   .
          .   .   .
        w   .   .   .
        White to move""")
    assert state.legal_moves() == ("c3xe5",)
    with pytest.raises(IllegalMove) as caught:
        state.play("a1-b2")
    assert caught.value.code == "lasca.capture-compulsory"
    assert caught.value.legal == ("c3xe5",)
    assert caught.value.params["legal"] == ("c3xe5",)
    assert words.explain(caught.value) == "`a1-b2`: a capture is compulsory. Legal moves: c3xe5"


def test_soldiers_cannot_capture_backward_officers_can() -> None:
    diagram = """
        b   .   .   .
          .   .   .
        .   .   {e5}   .
          .   b   .
        .   .   .   .
          .   .   .
        .   .   .   .
        White to move"""
    soldier = position(diagram.format(e5="w"))
    assert soldier.legal_moves() == ("e5-d6", "e5-f6")
    with pytest.raises(IllegalMove) as caught:
        soldier.play("e5xc3")
    assert caught.value.code == "lasca.soldier-captures-forward"
    assert sentence(caught.value) == "`e5xc3`: soldiers capture only forward"
    officer = position(diagram.format(e5="W"))
    assert officer.legal_moves() == ("e5xc3",)
    assert officer.play("e5xc3").column("c3") == "bW"


# --------------------------------------------------------------- promotion


def test_promotion_on_a_step_for_either_side() -> None:
    white = position("""
        .   .   .   .
          w   .   .
        .   .   .   .
          .   .   .
        .   .   .   .
          .   .   b
        .   .   .   .
        White to move
        quiet moves: 5""")
    after = white.play("b6-a7")
    assert_position(
        after,
        """
        W   .   .   .
          .   .   .
        .   .   .   .
          .   .   .
        .   .   .   .
          .   .   b
        .   .   .   .
        Black to move""",
    )  # a soldier's promoting step resets the quiet count
    assert after.play("f2-g1").column("g1") == "B"


def test_promotion_ends_a_capture_by_default() -> None:
    diagram = """
        .   .   .   .
          b   b   .
        .   .   w   .
          .   .   .
        .   .   .   .
          .   .   .
        .   .   .   B
        White to move"""
    state = position(diagram)
    assert state.legal_moves() == ("e5xc7",)
    assert_position(
        state.play("e5xc7"),
        """
        .  bW   .   .
          b   .   .
        .   .   .   .
          .   .   .
        .   .   .   .
          .   .   .
        .   .   .   B
        Black to move""",
    )


def test_promotion_continues_variant_goes_on_capturing_as_an_officer() -> None:
    state = position(
        """
        .   .   .   .
          b   b   .
        .   .   w   .
          .   .   .
        .   .   .   .
          .   .   .
        .   .   .   B
        White to move""",
        CONTINUES,
    )
    assert state.legal_moves() == ("e5xc7xa5",)
    assert_position(
        state.play("e5xc7xa5"),
        """
        .   .   .   .
          .   .   .
        bbW  .   .   .
          .   .   .
        .   .   .   .
          .   .   .
        .   .   .   B
        Black to move""",
    )


def test_promotion_continues_variant_promotes_when_it_cannot_go_on() -> None:
    state = position(
        """
        .   .   .   .
          .   b   .
        .   .   w   .
          .   .   .
        .   .   .   .
          .   .   .
        .   .   .   B
        White to move""",
        CONTINUES,
    )
    assert state.legal_moves() == ("e5xc7",)
    assert state.play("e5xc7").column("c7") == "bW"


def test_only_the_commander_is_promoted() -> None:
    state = position("""
        .   .   .   .
         bww  .   .
        .   .   .   .
          .   .   .
        .   .   .   .
          .   .   .
        .   .   .   B
        White to move""")
    assert state.play("b6-a7").column("a7") == "bwW"


# --------------------------------------------------------------------- end


def test_player_whose_columns_are_all_blocked_loses() -> None:
    state = position("""
        b   b   .   .
          w   .   .
        .   .   .   .
          .   .   .
        .   .   .   .
          .   .   .
        .   .   .   .
        White to move""")
    assert state.legal_moves() == ()
    assert state.outcome() == Outcome(Side.SECOND, Termination.NO_MOVES, side=Side.FIRST)
    assert ending(state) == "White cannot move"


def test_player_without_columns_loses() -> None:
    state = position("""
        .   .   .   .
          .   .   .
        .   .   .   .
          .  wwB  .
        .   .   .   .
          .   .   .
        .   .   .   .
        White to move""")
    assert state.legal_moves() == ()
    assert state.outcome() == Outcome(Side.SECOND, Termination.ELIMINATION, side=Side.FIRST)
    assert ending(state) == "White has no columns left"


OFFICERS = """
    .   .   .   B
      .   .   .
    .   .   .   .
      .   .   .
    .   .   .   .
      .   .   .
    W   .   .   .
    White to move
    quiet moves: {quiet}"""


def test_threefold_repetition_is_a_draw() -> None:
    state = position(OFFICERS.format(quiet=0))
    shuffle = ["a1-b2", "g7-f6", "b2-a1", "f6-g7"]
    for move in shuffle + shuffle[:3]:
        state = state.play(move)
        assert state.outcome() is None
    state = state.play("f6-g7")  # the starting position, for the third time
    assert state.outcome() == Outcome(None, Termination.REPETITION)
    assert ending(state) == "threefold repetition"
    assert state.legal_moves() == ()


def test_eighty_quiet_moves_are_a_draw() -> None:
    state = position(OFFICERS.format(quiet=78)).play("a1-b2")
    assert state.quiet_moves == 79
    assert state.outcome() is None
    state = state.play("g7-f6")
    assert state.quiet_moves == 80
    assert state.outcome() == Outcome(None, Termination.MOVE_LIMIT, count=80)
    assert ending(state) == "80 moves without a capture or a soldier move"
    assert state.legal_moves() == ()
    assert state.to_text().endswith("White to move\nquiet moves: 80")


def test_soldier_move_resets_the_quiet_count() -> None:
    state = position("""
        .   .   .   B
          .   .   .
        .   .   .   .
          .   .   .
        .   w   .   .
          .   .   .
        W   .   .   .
        White to move
        quiet moves: 79""")
    after = state.play("c3-d4")
    assert after.quiet_moves == 0
    assert after.outcome() is None


def test_no_move_loss_wins_even_on_the_eightieth_quiet_move() -> None:
    state = position("""
        .   .   .   .
          .   .   .
        .   .   .   .
          .   .   .
        .   w   .   .
          b   W   .
        w   .   .   .
        White to move
        quiet moves: 79""")
    assert state.legal_moves() == ("c3-b4", "c3-d4", "d2-c1", "d2-e1", "d2-e3")
    after = state.play("d2-c1")
    assert after.quiet_moves == 80
    assert after.outcome() == Outcome(Side.FIRST, Termination.NO_MOVES, side=Side.SECOND)
    assert ending(after) == "Black cannot move"


def test_play_on_a_finished_game_raises() -> None:
    state = position(OFFICERS.format(quiet=79)).play("a1-b2")
    with pytest.raises(IllegalMove) as caught:
        state.play("g7-f6")
    assert caught.value.code == "lasca.game-over.move-limit"
    assert caught.value.params["count"] == 80
    assert caught.value.legal == ()
    assert words.explain(caught.value) == (
        "`g7-f6`: the game is over (80 moves without a capture or a soldier move)"
    )


@pytest.mark.parametrize(
    ("diagram", "code", "why"),
    [
        ("b b . . | w . . | . . . . | . . . | . . . . | . . . | . . . .", "no-moves",
         "White cannot move"),
        (". . . . | . . . | . . . . | . wwB . | . . . . | . . . | . . . .", "elimination",
         "White has no columns left"),
    ],
)  # fmt: skip
def test_play_on_a_lost_game_says_why_it_is_over(diagram: str, code: str, why: str) -> None:
    state = position(diagram.replace("|", "\n") + "\nWhite to move")
    with pytest.raises(IllegalMove) as caught:
        state.play("a1-b2")
    assert caught.value.code == f"lasca.game-over.{code}"
    assert caught.value.params["side"] == Side.FIRST
    assert words.explain(caught.value) == f"`a1-b2`: the game is over ({why})"


def test_play_on_a_repeated_position_says_the_game_is_over() -> None:
    state = position(OFFICERS.format(quiet=0))
    for move in ["a1-b2", "g7-f6", "b2-a1", "f6-g7"] * 2:
        state = state.play(move)
    with pytest.raises(IllegalMove) as caught:
        state.play("a1-b2")
    assert caught.value.code == "lasca.game-over.repetition"
    assert words.explain(caught.value) == "`a1-b2`: the game is over (threefold repetition)"


# --------------------------------------------------------------- notation


@pytest.mark.parametrize(
    ("text", "code", "why"),
    [
        ("z9", "lasca.not-a-square", "`z9` is not a square"),
        ("b3", "lasca.not-a-playing-square", "`b3` is not a playing square"),
        ("a3-b3", "lasca.not-a-playing-square", "`b3` is not a playing square"),
        ("", "lasca.empty", "an empty text is not a move"),
        ("   ", "lasca.empty", "an empty text is not a move"),
        ("c3e5", "lasca.not-a-move",
         "`c3e5` is not a move: write a step as a3-b4, a capture as c3xe5"),
        ("a3", "lasca.not-a-move", "`a3` is not a move"),
        ("a3-b4-c5", "lasca.not-a-move", "`a3-b4-c5` is not a move"),
        ("c3-d4xe5", "lasca.not-a-move", "`c3-d4xe5` is not a move"),
        ("pass", "lasca.not-a-move", "`pass` is not a move"),
    ],
)  # fmt: skip
def test_malformed_moves_name_the_legal_ones(text: str, code: str, why: str) -> None:
    state = lasca.start(DEFAULT)
    with pytest.raises(MalformedMove) as caught:
        state.play(text)
    assert caught.value.code == code
    assert caught.value.params["move"] == text
    assert why in sentence(caught.value)
    assert caught.value.legal == state.legal_moves()
    assert words.explain(caught.value).endswith(
        ". Legal moves: a3-b4, c3-b4, c3-d4, e3-d4, e3-f4, g3-f4"
    )


def test_malformed_move_in_a_finished_game_says_it_is_over() -> None:
    state = position(OFFICERS.format(quiet=79)).play("a1-b2")
    with pytest.raises(MalformedMove) as caught:
        state.play("z9")
    assert words.explain(caught.value) == "`z9` is not a square. The game is over."


@pytest.mark.parametrize(
    ("text", "code", "params", "why"),
    [
        ("d4-e5", "lasca.no-column", {"square": "d4"}, "`d4-e5`: no column of yours on d4"),
        ("a5-b4", "lasca.no-column", {"square": "a5"}, "`a5-b4`: no column of yours on a5"),
        ("a1-b2", "lasca.occupied", {"square": "b2"}, "`a1-b2`: b2 is not empty"),
        ("c3-b2", "lasca.soldier-steps-forward", {}, "`c3-b2`: soldiers move only forward"),
        ("a3-c5", "lasca.not-diagonal", {}, "`a3-c5`: a step goes to a diagonal neighbour"),
        ("c3xe5", "lasca.no-enemy", {"square": "d4"}, "`c3xe5`: no enemy column on d4 to jump"),
        ("c3xg7", "lasca.not-a-jump", {"origin": "c3", "target": "g7"},
         "`c3xg7`: c3 to g7 is not a jump"),
        (" C3-B2 ", "lasca.soldier-steps-forward", {}, "`c3-b2`: soldiers move only forward"),
    ],
)  # fmt: skip
def test_illegal_moves_say_why(text: str, code: str, params: dict[str, str], why: str) -> None:
    state = lasca.start(DEFAULT)
    with pytest.raises(IllegalMove) as caught:
        state.parse_move(text)
    assert caught.value.code == code
    written = text.strip().lower()
    legal = state.legal_moves()
    assert caught.value.params == {**params, "written": written, "move": text, "legal": legal}
    assert sentence(caught.value) == why
    assert words.explain(caught.value) == (
        f"{why}. Legal moves: a3-b4, c3-b4, c3-d4, e3-d4, e3-f4, g3-f4"
    )
    assert caught.value.legal == state.legal_moves()


def test_moves_accept_any_case_and_surrounding_spaces() -> None:
    state = lasca.start(DEFAULT)
    assert state.parse_move("  C3-D4 ") == "c3-d4"
    after = state.play(" A3-b4\t")
    assert after.moves == ("a3-b4",)
    assert after == state.play("a3-b4")
    assert after.play("C5XA3").moves == ("a3-b4", "c5xa3")


def test_describe_a_capture_sequence_and_a_step() -> None:
    state = position(LOOP.format(d2="b"))
    assert state.describe(" C3XA5XC7XE5XC3XE1") == MoveInfo(
        text="c3xa5xc7xe5xc3xe1",
        path=("c3", "a5", "c7", "e5", "c3", "e1"),
        captured=("b4", "b6", "d6", "d4", "d2"),
    )
    assert lasca.start(DEFAULT).describe("a3-b4") == MoveInfo("a3-b4", ("a3", "b4"), ())


def test_column_reads_bottom_to_top() -> None:
    state = position("""
        .   .   .   .
          .   .   .
        .   .   .   .
          .  bbW  .
        .   .   .   .
          .   .   .
        .   .   .   B
        White to move""")
    assert state.column("d4") == "bbW"
    assert state.column(" D4 ") == "bbW"
    assert state.column("a1") == ""
    assert state.column("g1") == "B"
    with pytest.raises(ValueError, match="b3"):
        state.column("b3")


# ------------------------------------------------------------ state values


def test_states_are_immutable() -> None:
    state = lasca.start(DEFAULT)
    text, legal = state.to_text(), state.legal_moves()
    for name, value in [("to_move", Side.SECOND), ("moves", ("a3-b4",)), ("variant", CONTINUES)]:
        with pytest.raises(AttributeError):
            setattr(state, name, value)
    with pytest.raises(AttributeError):
        state.board = ()  # type: ignore[misc]  # deliberately: the property is read-only
    state.play("a3-b4")
    assert state.to_text() == text
    assert state.legal_moves() == legal
    assert state.moves == ()


def test_equality_covers_position_counters_variant_and_moves() -> None:
    start = lasca.start(DEFAULT)
    assert start == position(START)
    assert hash(start) == hash(position(START))
    assert start.play("a3-b4") == start.play("a3-b4")
    assert start != lasca.start(CONTINUES)
    assert start != position(START + "\nquiet moves: 3")
    # The same position reached by a move is not the state set up from text.
    moved = start.play("a3-b4")
    assert moved != position(moved.to_text())
    assert position(moved.to_text()).to_text() == moved.to_text()


def test_text_form_round_trips_exactly() -> None:
    text = (
        ".       .       b       .\n"
        "    .       .       .\n"
        ".       .       wB      .\n"
        "    .       bbW     .\n"
        "w       .       .       .\n"
        "    .       .       .\n"
        ".       .       .       .\n"
        "Black to move\n"
        "quiet moves: 12"
    )
    state = position(text)
    assert state.to_text() == text
    assert state.to_move is Side.SECOND
    assert state.quiet_moves == 12
    loose = "\n\n  " + text.replace(" ", "   ").replace("\n", "  \n\t").replace("Black", "black")
    assert position(loose + "\n\n").to_text() == text


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "a Lasca position is 7 lines of squares (ranks 7 to 1) "
         "and a line `White to move` or `Black to move`"),
        (START.replace("\n  b   b   b\n", "\n  b   b   b   b\n"),
         "rank 6 has 3 playing squares, the line for it has 4"),
        (START.replace("  .   .   .", "  .   x   ."), "`x` on d4 is not a column: write it "
         "bottom to top with w, b (soldiers) and W, B (officers), or `.` for an empty square"),
        (START.replace("  .   .   .", "  .  wB  ."), "12 White pieces: a side has 11"),
        (START.replace("b   b   b   b\n", "w   b   b   b\n", 1), "a White soldier cannot "
         "command a column on a7, its far rank: it would have been promoted"),
        (START.replace("w   w   w   w\nWhite", "b   w   w   w\nWhite"), "a Black soldier cannot "
         "command a column on a1, its far rank: it would have been promoted"),
        (START.replace("White to move", "quiet moves: 3"),
         "say who is to move: `White to move` or `Black to move`"),
        (START.replace("White to move", "Red to move"), "`Red to move` is not part of a Lasca "
         "position: after the 7 ranks write `White to move` or `Black to move`, and optionally "
         "`quiet moves: N`"),
        (START + "\nBlack to move", "the position says twice who is to move"),
        (START + "\nquiet moves: 81", "`quiet moves: 81`: the game is drawn after 80 quiet moves"),
    ],
)  # fmt: skip
def test_bad_position_texts_raise(text: str, why: str) -> None:
    with pytest.raises(PositionError) as caught:
        lasca.from_text(text, DEFAULT)
    assert caught.value.code.startswith("lasca.position.")
    assert words.explain(caught.value) == why


def start_table(state: LascaState) -> dict[str, lasca.MoveData]:
    return lasca.generate(state.board, state.side, False)


def test_a_state_knows_its_game_and_shows_the_search_kernel_its_fields() -> None:
    start = lasca.start(DEFAULT)
    moved = start.play("a3-b4").play("c5xa3")
    for state in (start, moved, position(START)):
        assert state.spec is lasca.SPEC
    board, irreversible = lasca.apply(start.board, Side.FIRST, start_table(start)["a3-b4"])
    assert irreversible and board == start.play("a3-b4").board
    assert (moved.side, moved.quiet, moved.seen) == (Side.FIRST, 0, ())
    assert tuple(lasca.generate(moved.board, moved.side, False)) == moved.legal_moves()
    assert lasca.SPEC.replay(DEFAULT, ["a3-b4", "c5xa3"]) == moved
