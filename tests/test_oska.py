"""Oska: one test per rule and variant of RULES.md, on positions written as diagrams."""

from __future__ import annotations

from textwrap import dedent

import pytest

from games import oska
from games.base import IllegalMove, MalformedMove, MoveInfo, Outcome, PositionError, Side


def position(diagram: str, variant: str = "") -> oska.OskaState:
    return oska.from_text(diagram, oska.SPEC.variant(variant))


def board(diagram: str) -> str:
    return dedent(diagram).strip()


START = board("""
    5  r r r r
    4   . . .
    3    . .
    2   . . .
    1  b b b b
    Blue to move
""")

# a1 can capture b2 (forced), c1 can only step to d2.
CAPTURE_OR_STEP = """
    5  r . . r
    4   . . .
    3    . .
    2   r . .
    1  b b . .
    Blue to move
"""

# a1 jumps b2 to c3, then must go on over b4 to a5 or over d4 to e5.
TWO_SEQUENCES = """
    5  . . . r
    4   r r .
    3    . .
    2   r . .
    1  b . . .
    Blue to move
"""

# Blue a1 and g1 can both capture; c1 can step to d2.
TWO_CAPTURERS = """
    5  r . . .
    4   . . .
    3    . .
    2   r . r
    1  b b . b
    Blue to move
"""

# c1 can capture d2 or step to b2; g1 can step to f2.
STEPPER_CAN_CAPTURE = """
    5  r . . r
    4   . . .
    3    . .
    2   . r .
    1  . b . b
    Blue to move
"""

# Red must take d2, Blue's only stone not yet home.
RED_TAKES_D2 = """
    5  b . . r
    4   . . .
    3    . r
    2   . b .
    1  . . . .
    Red to move
"""

# Red must take d2, Blue's last stone.
RED_TAKES_THE_LAST = """
    5  . . . r
    4   . . .
    3    . r
    2   . b .
    1  . . . .
    Red to move
"""

# Blue d4 steps home; afterwards neither side could move.
LAST_STONE_HOME = """
    5  b . . .
    4   . b .
    3    . .
    2   r . .
    1  r r . .
    Blue to move
"""


# ------------------------------------------------------------------ the board


def test_start_position_and_its_legal_moves() -> None:
    state = oska.SPEC.new()
    assert state.to_text() == START
    assert state.to_move is Side.FIRST
    assert state.moves == ()
    assert state.outcome() is None
    assert state.legal_moves() == ("a1-b2", "c1-b2", "c1-d2", "e1-d2", "e1-f2", "g1-f2")


def test_spec_lists_the_options_with_their_defaults() -> None:
    assert oska.SPEC.name == "oska"
    assert oska.SPEC.side_names == ("Blue", "Red")
    assert [(o.key, o.values, o.default) for o in oska.OPTIONS] == [
        ("capture", ("forced", "huff", "optional"), "forced"),
        ("win", ("goal", "elimination"), "goal"),
    ]
    assert len(oska.SPEC.all_variants()) == 6


# ------------------------------------------------------------------- movement


def test_blue_steps_only_forward() -> None:
    state = position("""
        5  . . r .
        4   . . .
        3    b .
        2   . . .
        1  . . . .
        Blue to move
    """)
    assert state.legal_moves() == ("c3-b4", "c3-d4")
    with pytest.raises(IllegalMove, match="`c3-b2`: stones move only forward"):
        state.play("c3-b2")
    assert state.play("c3-d4").to_text() == board("""
        5  . . r .
        4   . b .
        3    . .
        2   . . .
        1  . . . .
        Red to move
    """)


def test_red_steps_only_forward_toward_row_1() -> None:
    state = position("""
        5  . . . .
        4   . r .
        3    . .
        2   . . .
        1  b . . .
        Red to move
    """)
    assert state.legal_moves() == ("d4-c3", "d4-e3")
    with pytest.raises(IllegalMove, match="stones move only forward"):
        state.play("d4-c5")


def test_a_step_needs_an_empty_square() -> None:
    state = position("""
        5  r . . .
        4   . . .
        3    b .
        2   b . .
        1  . . . .
        Blue to move
    """)
    assert "b2-c3" not in state.legal_moves()
    with pytest.raises(IllegalMove, match="`b2-c3`: c3 is not empty"):
        state.play("b2-c3")


def test_capture_jumps_the_enemy_stone_and_removes_it() -> None:
    state = position("""
        5  r . . .
        4   . . .
        3    . .
        2   r . .
        1  b . . .
        Blue to move
    """)
    assert state.legal_moves() == ("a1xc3",)
    assert state.play("a1xc3").to_text() == board("""
        5  r . . .
        4   . . .
        3    b .
        2   . . .
        1  . . . .
        Red to move
    """)


def test_capture_sequence_may_bend_and_each_sequence_is_a_move() -> None:
    state = position(TWO_SEQUENCES)
    assert state.legal_moves() == ("a1xc3xa5", "a1xc3xe5")
    assert state.play("a1xc3xa5").to_text() == board("""
        5  b . . r
        4   . r .
        3    . .
        2   . . .
        1  . . . .
        Red to move
    """)


@pytest.mark.parametrize("capture", ["forced", "huff", "optional"])
def test_a_capture_sequence_must_go_on_under_every_variant(capture: str) -> None:
    state = position(TWO_SEQUENCES, f"capture={capture}")
    with pytest.raises(IllegalMove, match=r"the capture must go on \(a1xc3xa5 or a1xc3xe5\)"):
        state.play("a1xc3")


# ------------------------------------------------------------ capture variants


def test_forced_capture_rejects_a_step() -> None:
    state = position(CAPTURE_OR_STEP)
    assert state.legal_moves() == ("a1xc3",)
    with pytest.raises(IllegalMove, match="`c1-d2`: a capture is compulsory") as error:
        state.play("c1-d2")
    assert error.value.legal == ("a1xc3",)
    assert "Legal moves: a1xc3" in str(error.value)


def test_optional_capture_allows_the_step_and_the_capture() -> None:
    state = position(CAPTURE_OR_STEP, "capture=optional")
    assert state.legal_moves() == ("a1xc3", "c1-d2")
    assert state.play("c1-d2").to_text() == board("""
        5  r . . r
        4   . . .
        3    . .
        2   r b .
        1  b . . .
        Red to move
    """)


def test_huff_steps_name_the_forfeited_stone_which_is_removed() -> None:
    state = position(CAPTURE_OR_STEP, "capture=huff")
    assert state.legal_moves() == ("a1xc3", "c1-d2/a1")
    after = state.play("c1-d2/a1")
    assert after.to_text() == board("""
        5  r . . r
        4   . . .
        3    . .
        2   r b .
        1  . . . .
        Red to move
    """)
    assert after.moves == ("c1-d2/a1",)


def test_huff_without_a_capture_steps_carry_no_slash() -> None:
    state = oska.SPEC.new("capture=huff")
    assert state.legal_moves() == oska.SPEC.new().legal_moves()
    with pytest.raises(IllegalMove, match="no capture was possible"):
        state.play("c1-d2/a1")


def test_huff_forfeit_of_the_stepping_stone_is_named_by_its_new_square() -> None:
    state = position(STEPPER_CAN_CAPTURE, "capture=huff")
    assert state.legal_moves() == ("c1-b2/b2", "c1xe3", "g1-f2/c1")
    assert state.play("c1-b2/b2").to_text() == board("""
        5  r . . r
        4   . . .
        3    . .
        2   . r .
        1  . . . b
        Red to move
    """)
    with pytest.raises(IllegalMove, match=r"named by its new square \(c1-b2/b2\)"):
        state.play("c1-b2/c1")


def test_huff_accepts_the_bare_step_when_one_stone_could_be_forfeited() -> None:
    state = position(CAPTURE_OR_STEP, "capture=huff")
    assert state.parse_move("c1-d2") == "c1-d2/a1"
    assert state.play("c1-d2") == state.play("c1-d2/a1")
    assert state.play("c1-d2").moves == ("c1-d2/a1",)


def test_huff_rejects_the_bare_step_when_the_forfeit_is_ambiguous() -> None:
    state = position(TWO_CAPTURERS, "capture=huff")
    assert state.legal_moves() == ("a1xc3", "c1-d2/a1", "c1-d2/g1", "g1xe3")
    with pytest.raises(
        IllegalMove, match=r"`c1-d2`: name the stone you forfeit \(c1-d2/a1 or c1-d2/g1\)"
    ):
        state.play("c1-d2")
    with pytest.raises(IllegalMove, match="e1 could not have captured"):
        state.play("c1-d2/e1")


def test_huff_forfeit_is_removed_before_the_win_check() -> None:
    state = position(
        """
        5  . . . r
        4   . b .
        3    . .
        2   r . .
        1  b . . .
        Blue to move
        """,
        "capture=huff",
    )
    assert state.legal_moves() == ("a1xc3", "d4-c5/a1", "d4-e5/a1")
    after = state.play("d4-c5/a1")
    assert after.to_text() == board("""
        5  . b . r
        4   . . .
        3    . .
        2   r . .
        1  . . . .
        Red to move
    """)
    outcome = after.outcome()
    assert outcome is not None and outcome.winner is Side.FIRST


def test_a_forfeit_is_named_only_under_huff() -> None:
    state = position(CAPTURE_OR_STEP, "capture=optional")
    with pytest.raises(IllegalMove, match="only under capture=huff"):
        state.play("c1-d2/a1")


# ------------------------------------------------------------ passing, draws


def test_a_blocked_player_passes() -> None:
    state = position("""
        5  . . . .
        4   . . .
        3    r .
        2   r . .
        1  b . . .
        Blue to move
    """)
    assert state.legal_moves() == ("pass",)
    assert state.outcome() is None
    with pytest.raises(IllegalMove, match="`a1-b2`: b2 is not empty"):
        state.play("a1-b2")
    after = state.play("pass")
    assert after.moves == ("pass",)
    assert after.to_text() == board("""
        5  . . . .
        4   . . .
        3    r .
        2   r . .
        1  b . . .
        Red to move
    """)
    assert after.legal_moves() == ("b2-c1", "c3-d2")
    assert state.describe("pass").path == ()


def test_pass_is_illegal_while_a_move_exists() -> None:
    with pytest.raises(IllegalMove, match="pass only when you have no legal move"):
        oska.SPEC.new().play("pass")


def test_neither_player_can_move_is_a_draw() -> None:
    state = position("""
        5  b b . .
        4   b . .
        3    . .
        2   r . .
        1  r r . .
        Blue to move
    """)
    assert state.legal_moves() == ()
    outcome = state.outcome()
    assert outcome is not None and outcome.is_draw
    assert outcome.reason == "neither player can move"


# ------------------------------------------------------------------ winning


def test_blue_wins_with_every_stone_on_row_5() -> None:
    state = position("""
        5  b . . .
        4   b . .
        3    . .
        2   . . r
        1  . . . .
        Blue to move
    """)
    after = state.play("b4-c5")
    assert after.outcome() == Outcome(Side.FIRST, "Blue has every stone home")
    assert after.legal_moves() == ()


def test_red_wins_with_every_stone_on_row_1() -> None:
    state = position("""
        5  . . . .
        4   . . .
        3    b .
        2   . r .
        1  r . . .
        Red to move
    """)
    assert state.outcome() is None
    after = state.play("d2-e1")
    assert after.to_text() == board("""
        5  . . . .
        4   . . .
        3    b .
        2   . . .
        1  r . r .
        Blue to move
    """)
    assert after.outcome() == Outcome(Side.SECOND, "Red has every stone home")


@pytest.mark.parametrize("win", ["goal", "elimination"])
def test_a_player_can_win_on_the_opponents_move(win: str) -> None:
    state = position(RED_TAKES_D2, f"win={win}")
    assert state.legal_moves() == ("e3xc1",)
    after = state.play("e3xc1")
    assert after.to_text() == board("""
        5  b . . r
        4   . . .
        3    . .
        2   . . .
        1  . r . .
        Blue to move
    """)
    assert after.outcome() == Outcome(Side.FIRST, "Blue has every stone home")


def test_under_goal_losing_every_stone_wins() -> None:
    after = position(RED_TAKES_THE_LAST).play("e3xc1")
    outcome = after.outcome()
    assert outcome is not None and outcome.winner is Side.FIRST
    assert "Blue has lost every stone" in outcome.reason
    assert after.legal_moves() == ()


def test_under_elimination_losing_every_stone_loses() -> None:
    after = position(RED_TAKES_THE_LAST, "win=elimination").play("e3xc1")
    assert after.outcome() == Outcome(Side.SECOND, "Blue has lost every stone")
    assert after.legal_moves() == ()


def test_elimination_keeps_the_goal_rule() -> None:
    state = position(LAST_STONE_HOME, "win=elimination")
    outcome = state.play("d4-c5").outcome()
    assert outcome is not None and outcome.winner is Side.FIRST


def test_both_players_home_after_one_move_is_a_draw() -> None:
    state = position("""
        5  . . . .
        4   . r .
        3    b .
        2   . . .
        1  . r . .
        Blue to move
    """)
    assert state.legal_moves() == ("c3xe5",)
    after = state.play("c3xe5")
    assert after.to_text() == board("""
        5  . . b .
        4   . . .
        3    . .
        2   . . .
        1  . r . .
        Red to move
    """)
    assert after.outcome() == Outcome(None, "both players have every stone home")


def test_a_win_stands_when_nobody_can_move_afterwards() -> None:
    after = position(LAST_STONE_HOME).play("d4-c5")
    assert after.to_text() == board("""
        5  b b . .
        4   . . .
        3    . .
        2   r . .
        1  r r . .
        Red to move
    """)
    assert after.outcome() == Outcome(Side.FIRST, "Blue has every stone home")


# ------------------------------------------------------------------ notation


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("z9", "`z9` is not a square"),
        ("c1d2", "`c1d2` is not a move: write a step as c1-d2, a capture as a1xc3"),
        ("", "an empty text is not a move"),
        ("a1-a1", "`a1-a1` is not a move: a step goes to a neighbouring square"),
        ("a1-c3", "a capture is written a1xc3"),
        ("a1xb2", "a capture jumps over a neighbouring stone"),
        ("c1-d2-e3", "a step goes one square"),
        ("c1xe3/a1", "only a step names a forfeited stone"),
    ],
)
def test_malformed_moves_name_the_legal_moves(text: str, why: str) -> None:
    state = oska.SPEC.new()
    with pytest.raises(MalformedMove) as error:
        state.play(text)
    assert why in str(error.value)
    assert error.value.legal == state.legal_moves()
    assert str(error.value).endswith("Legal moves: a1-b2, c1-b2, c1-d2, e1-d2, e1-f2, g1-f2")
    with pytest.raises(MalformedMove):
        state.parse_move(text)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("c3-d4", "`c3-d4`: there is no stone of yours on c3"),
        ("a5-b4", "`a5-b4`: there is no stone of yours on a5"),
        ("a1xc3", "`a1xc3`: there is no Red stone on b2"),
    ],
)
def test_illegal_moves_say_why(text: str, why: str) -> None:
    state = oska.SPEC.new()
    with pytest.raises(IllegalMove) as error:
        state.parse_move(text)
    assert why in str(error.value)
    assert error.value.legal == state.legal_moves()


def test_case_and_spaces_are_accepted_and_output_is_canonical() -> None:
    state = position(TWO_SEQUENCES)
    assert state.parse_move("  A1XC3XE5 ") == "a1xc3xe5"
    assert state.play(" A1xC3xE5").moves == ("a1xc3xe5",)
    assert oska.SPEC.new().parse_move(" C1-D2  ") == "c1-d2"
    blocked = position("""
        5  . . . .
        4   . . .
        3    r .
        2   r . .
        1  b . . .
        Blue to move
    """)
    assert blocked.play(" PASS ").moves == ("pass",)


def test_playing_on_a_finished_game_raises() -> None:
    finished = position(LAST_STONE_HOME).play("d4-c5")
    with pytest.raises(IllegalMove, match="the game is over") as error:
        finished.play("b2-c1")
    assert error.value.legal == ()
    with pytest.raises(IllegalMove, match="the game is over"):
        finished.play("pass")


def test_describe_a_capture_sequence() -> None:
    info = position(TWO_SEQUENCES).describe("a1xc3xe5")
    assert info == MoveInfo("a1xc3xe5", ("a1", "c3", "e5"), ("b2", "d4"), ())


def test_describe_a_huff_step() -> None:
    info = position(CAPTURE_OR_STEP, "capture=huff").describe("c1-d2")
    assert info == MoveInfo("c1-d2/a1", ("c1", "d2"), (), ("a1",))


# ------------------------------------------------------------------ the state


def test_states_are_immutable() -> None:
    state = oska.SPEC.new()
    after = state.play("c1-d2")
    assert after is not state
    assert state.to_text() == START
    assert state.moves == ()
    assert after.moves == ("c1-d2",)
    assert after.to_move is Side.SECOND
    with pytest.raises(AttributeError):
        state.to_move = Side.SECOND  # type: ignore[misc]


def test_equal_states_have_equal_stones_side_variant_and_moves() -> None:
    first = oska.SPEC.new().play("a1-b2").play("a5-b4")
    again = oska.SPEC.new().play("a1-b2").play("a5-b4")
    assert first == again and hash(first) == hash(again)
    assert first.legal_moves() and first == again  # a filled cache changes nothing
    assert first != oska.from_text(first.to_text(), first.variant)  # other history
    assert first != oska.SPEC.new("capture=huff").play("a1-b2").play("a5-b4")


def test_text_form_round_trips_and_tolerates_whitespace() -> None:
    state = position(TWO_SEQUENCES, "capture=optional")
    assert oska.from_text(state.to_text(), state.variant).to_text() == state.to_text()
    loose = oska.from_text("\n 5 ...r\n4 r r .\n\n 3 ..  \n2 R . .\n1   b...\n  red   TO move \n",
                           state.variant)  # fmt: skip
    assert loose.to_text() == board(TWO_SEQUENCES).replace("Blue", "Red")
    assert loose.to_move is Side.SECOND


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (START.replace("4   . . .", "4   . . . ."), "row 4 has 3 squares, not 4"),
        (START.replace("3    . .", "3    . x"), "`x` on row 3 is not b"),
        (START.replace("2   . . .", "2   b . ."), "Blue has 5 stones"),
        (START.replace("Blue to move", ""), "5 board lines"),
        (START.replace("Blue to move", "Green to move"), "`Blue to move` or `Red to move`"),
        (START.replace("3    . .", "2    . ."), "should be row 3"),
    ],
)
def test_bad_position_texts_raise(text: str, why: str) -> None:
    with pytest.raises(PositionError, match=why):
        oska.from_text(text, oska.SPEC.variant())
