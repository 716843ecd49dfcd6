"""Oska: one test per rule and variant of games/RULES.md, on positions written as diagrams.

A refusal is checked twice: its code and parameters (what the engine says) and
the sentence `words` makes of them (what the player reads, unchanged).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from itertools import combinations
from textwrap import dedent
from typing import TypeVar

import pytest

import words
from games import oska
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

E = TypeVar("E", bound=GameError)


def refused(kind: type[E], action: Callable[[], object], code: str, text: str) -> E:
    """The error `action` raises: of `kind`, with `code`, and its explanation matching `text`."""
    with pytest.raises(kind) as caught:
        action()
    error = caught.value
    assert error.code == code
    assert re.search(text, words.explain(error)), words.explain(error)
    return error


def said(outcome: Outcome | None) -> str:
    assert outcome is not None
    return words.outcome_text(outcome, "oska")


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
        ("capture", ("forced", "huff", "optional", "huff-opponent"), "forced"),
        ("win", ("goal", "elimination"), "goal"),
    ]
    assert len(oska.SPEC.all_variants()) == 8


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
    refused(
        IllegalMove,
        lambda: state.play("c3-b2"),
        "oska.backward",
        "^`c3-b2`: stones move only forward. Legal moves: c3-b4, c3-d4$",
    )
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
    refused(IllegalMove, lambda: state.play("d4-c5"), "oska.backward", "stones move only forward")


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
    error = refused(
        IllegalMove,
        lambda: state.play("b2-c3"),
        "move.not-empty",
        "^`b2-c3`: c3 is not empty. Legal moves: ",
    )
    assert error.params["square"] == "c3"


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
    error = refused(
        IllegalMove,
        lambda: state.play("a1xc3"),
        "move.capture-goes-on",
        r"^`a1xc3`: the capture must go on \(a1xc3xa5 or a1xc3xe5\)\. Legal",
    )
    assert error.params["continuations"] == ("a1xc3xa5", "a1xc3xe5")


# ------------------------------------------------------------ capture variants


def test_forced_capture_rejects_a_step() -> None:
    state = position(CAPTURE_OR_STEP)
    assert state.legal_moves() == ("a1xc3",)
    error = refused(
        IllegalMove,
        lambda: state.play("c1-d2"),
        "move.capture-compulsory",
        "^`c1-d2`: a capture is compulsory. Legal moves: a1xc3$",
    )
    assert error.legal == ("a1xc3",)
    assert error.params["move"] == "c1-d2"


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
    refused(
        IllegalMove,
        lambda: state.play("c1-d2/a1"),
        "oska.forfeit-without-capture",
        "^`c1-d2/a1`: no stone is forfeited: no capture was possible. Legal",
    )


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
    error = refused(
        IllegalMove,
        lambda: state.play("c1-b2/c1"),
        "oska.forfeit-by-new-square",
        r"^`c1-b2/c1`: the stone that stepped is named by its new square \(c1-b2/b2\)",
    )
    assert error.params["named"] == "c1-b2/b2"


def test_huff_accepts_the_bare_step_when_one_stone_could_be_forfeited() -> None:
    state = position(CAPTURE_OR_STEP, "capture=huff")
    assert state.parse_move("c1-d2") == "c1-d2/a1"
    assert state.play("c1-d2") == state.play("c1-d2/a1")
    assert state.play("c1-d2").moves == ("c1-d2/a1",)


def test_huff_rejects_the_bare_step_when_the_forfeit_is_ambiguous() -> None:
    state = position(TWO_CAPTURERS, "capture=huff")
    assert state.legal_moves() == ("a1xc3", "c1-d2/a1", "c1-d2/g1", "g1xe3")
    error = refused(
        IllegalMove,
        lambda: state.play("c1-d2"),
        "oska.name-the-forfeit",
        r"^`c1-d2`: name the stone you forfeit \(c1-d2/a1 or c1-d2/g1\)\. Legal",
    )
    assert error.params["choices"] == ("c1-d2/a1", "c1-d2/g1")
    error = refused(
        IllegalMove,
        lambda: state.play("c1-d2/e1"),
        "oska.forfeit-not-a-capturer",
        r"^`c1-d2/e1`: e1 could not have captured \(c1-d2/a1 or c1-d2/g1\)\. ",
    )
    assert error.params["square"] == "e1"


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
    refused(
        IllegalMove,
        lambda: state.play("c1-d2/a1"),
        "oska.forfeit-only-under-huff",
        "^`c1-d2/a1`: a forfeited stone is named only under capture=huff. Legal",
    )


# ------------------------------------------------------- capture=huff-opponent

HO = "capture=huff-opponent"

# Blue c3 could jump d4 (to e5); Red d4 could jump c3 (to b2), Red a5 could
# jump b4 only once c3 is gone.
REMOVAL_OPENS_A_CAPTURE = """
    5  r . . .
    4   b r .
    3    b .
    2   . . .
    1  . . . b
    Blue to move
"""

# Blue could jump with a1; d4-e5 brings every Blue stone but a1 home.
LAST_STONE_OUT = """
    5  . b . r
    4   . b .
    3    . .
    2   r . .
    1  b . . .
    Blue to move
"""

# A study (set up from text: in play a removal always frees a square for the
# stone that could have been jumped). Blue's b4 is shut in by its own stones, and
# Red's d2 by its own; without c1 Red's d2 can step, without g5 nobody can move.
REMOVAL_THEN_NO_MOVE = """
    5  b b . r
    4   b . .
    3    . .
    2   . r .
    1  . r r .
    Blue to move
    Blue removes one of: c1, g5
"""


def test_huff_opponent_step_is_bare_and_leaves_the_removal_to_the_opponent() -> None:
    state = position(TWO_CAPTURERS, HO)
    assert state.legal_moves() == ("a1xc3", "c1-d2", "g1xe3")
    after = state.play("c1-d2")
    assert after.moves == ("c1-d2",)
    assert after.to_text() == board("""
        5  r . . .
        4   . . .
        3    . .
        2   r b r
        1  b . . b
        Red to move
        Red removes one of: a1, g1
    """)
    assert after.forfeitable() == ("a1", "g1")
    assert after.legal_moves() == ("a1:b2-a1", "a1:b2-c1", "a1:f2-e1", "a1:a5-b4",
                                   "g1:b2-c1", "g1:f2-e1", "g1:f2-g1", "g1:a5-b4")  # fmt: skip
    assert after.play("g1:f2-g1").to_text() == board("""
        5  r . . .
        4   . . .
        3    . .
        2   r b .
        1  b . . r
        Blue to move
    """)
    assert state.describe("c1-d2") == MoveInfo("c1-d2", ("c1", "d2"), (), ())


def test_huff_opponent_the_opponent_must_name_the_removal() -> None:
    after = position(TWO_CAPTURERS, HO).play("c1-d2")
    error = refused(
        IllegalMove,
        lambda: after.play("a5-b4"),
        "oska.name-the-removal",
        r"^`a5-b4`: first remove one of Blue's forfeited stones \(a1 or g1\): write its square "
        r"and a colon before your move, as a1:a5-b4\. Legal moves: a1:b2-a1, ",
    )
    assert error.params["squares"] == ("a1", "g1")
    refused(IllegalMove, lambda: after.play("pass"), "oska.name-the-removal", "as a1:b2-a1")
    error = refused(
        IllegalMove,
        lambda: after.play("d2:a5-b4"),
        "oska.removal-not-forfeitable",
        r"^`d2:a5-b4`: d2 is not a forfeited stone you may remove \(a1 or g1\)\. Legal",
    )
    assert error.params["square"] == "d2"
    refused(
        IllegalMove,
        lambda: after.play("a1:"),
        "oska.removal-needs-a-move",
        "^`a1:`: the game goes on after removing a1: write your move after the colon, "
        "as a1:b2-a1. Legal",
    )


def test_huff_opponent_the_removal_is_written_when_only_one_stone_could_be_taken() -> None:
    state = position(CAPTURE_OR_STEP, HO)
    after = state.play("c1-d2")
    assert after.forfeitable() == ("a1",)
    assert all(move.startswith("a1:") for move in after.legal_moves())
    refused(
        IllegalMove,
        lambda: after.play("g5-f4"),
        "oska.name-the-removal",
        r"^`g5-f4`: first remove one of Blue's forfeited stones \(a1\): .* as a1:g5-f4\. ",
    )
    assert after.play("a1:g5-f4").to_text() == board("""
        5  r . . .
        4   . . r
        3    . .
        2   r b .
        1  . . . .
        Blue to move
    """)


def test_huff_opponent_a_stepping_stone_is_named_by_its_new_square() -> None:
    after = position(STEPPER_CAN_CAPTURE, HO).play("c1-b2")
    assert after.forfeitable() == ("b2",)
    assert after.play("b2:d2-c1").stones(Side.FIRST) == ("g1",)


def test_huff_opponent_a_removal_that_ends_the_game_is_written_alone() -> None:
    after = position(LAST_STONE_OUT, HO).play("d4-e5")
    assert after.legal_moves() == ("a1:",)
    end = after.play("a1:")
    assert end.outcome() == Outcome(Side.FIRST, Termination.GOAL, Side.FIRST)
    assert end.legal_moves() == ()
    assert end.to_text() == board("""
        5  . b b r
        4   . . .
        3    . .
        2   r . .
        1  . . . .
        Blue to move
    """)
    error = refused(
        IllegalMove,
        lambda: after.play("a1:g5-f4"),
        "oska.removal-ends-the-game",
        r"^`a1:g5-f4`: removing a1 ends the game: write a1: alone\. Legal moves: a1:$",
    )
    assert error.params["removal"] == "a1:"


def test_huff_opponent_a_step_that_ends_the_game_removes_nothing() -> None:
    # Such a step is never one made when a capture was possible: it takes the
    # mover's last stone off the goal row home from the row before it, where no
    # stone can jump. Every position of that kind, for both sides:
    rows = {row: [oska.INDEX[n] for n in oska.SQUARES if n[1] == str(row)] for row in range(1, 6)}
    checked = 0
    for side, (goal, before) in enumerate(((5, 4), (1, 2))):
        goal_row = sum(1 << i for i in rows[goal])
        home = [sum(1 << i for i in combo) for k in range(4)
                for combo in combinations(rows[goal], k)]  # fmt: skip
        for last in rows[before]:
            for stones in home:
                own = stones | 1 << last
                free = [i for i in range(16) if not own >> i & 1]
                for k in range(1, 5):
                    for combo in combinations(free, k):
                        opp = sum(1 << i for i in combo)
                        table = oska.generate(own, opp, side, oska.MODES.index("huff-opponent"))
                        ending = [m for m, (mine, _, _) in table.items()
                                  if "-" in m and not mine & ~goal_row]  # fmt: skip
                        assert all(table[m][2] == 0 for m in ending), (own, opp)
                        assert not ending or not any("x" in m for m in table)
                        checked += len(ending)
    assert checked > 10_000
    # And in play: the step wins, no removal line, no moves.
    state = position(LAST_STONE_HOME, HO)
    after = state.play("d4-c5")
    assert after.forfeitable() == ()
    assert after.outcome() == Outcome(Side.FIRST, Termination.GOAL, Side.FIRST)
    assert "removes" not in after.to_text()


def test_huff_opponent_whether_the_remover_could_capture_is_judged_after_the_removal() -> None:
    state = position(REMOVAL_OPENS_A_CAPTURE, HO)
    assert state.legal_moves() == ("g1-f2", "c3xe5", "b4-c5")
    after = state.play("g1-f2")
    assert after.forfeitable() == ("c3",)
    # Before the removal Red's d4 could jump c3; after it only a5 can jump (b4).
    assert after.legal_moves() == ("c3:d4-c3", "c3:d4-e3", "c3:a5xc3")
    stepped = after.play("c3:d4-e3")
    assert stepped.to_text() == board("""
        5  r . . .
        4   b . .
        3    . r
        2   . . b
        1  . . . .
        Blue to move
        Blue removes one of: a5
    """)
    assert stepped.legal_moves() == ("a5:f2xd4", "a5:b4-a5", "a5:b4-c5")
    assert after.play("c3:a5xc3").forfeitable() == ()


def test_huff_opponent_a_removal_may_be_followed_by_a_pass_or_end_in_a_draw() -> None:
    state = position(REMOVAL_THEN_NO_MOVE, HO)
    assert state.legal_moves() == ("c1:pass", "g5:")
    passed = state.play("c1:pass")
    assert passed.to_text() == board("""
        5  b b . r
        4   b . .
        3    . .
        2   . r .
        1  . . r .
        Red to move
    """)
    assert passed.legal_moves() == ("d2-c1", "g5-f4")
    drawn = state.play("g5:")
    assert drawn.outcome() == Outcome(None, Termination.BLOCKED)
    assert state.describe("c1:pass") == MoveInfo("c1:pass", (), (), ("c1",))
    refused(IllegalMove, lambda: state.play("g5:pass"), "oska.removal-ends-the-game",
            "^`g5:pass`: removing g5 ends the game: write g5: alone")  # fmt: skip


def test_huff_opponent_notation_reads_any_case_and_describes_the_removal() -> None:
    after = position(REMOVAL_OPENS_A_CAPTURE, HO).play("g1-f2")
    assert after.parse_move(" C3 : A5 x C3 ") == "c3:a5xc3"
    assert after.play("C3:D4-E3").moves == ("g1-f2", "c3:d4-e3")
    assert after.describe("c3:a5xc3") == MoveInfo("c3:a5xc3", ("a5", "c3"), ("b4",), ("c3",))
    assert after.describe("c3:d4-c3") == MoveInfo("c3:d4-c3", ("d4", "c3"), (), ("c3",))
    ended = position(LAST_STONE_OUT, HO).play("d4-e5")
    assert ended.describe("A1:") == MoveInfo("a1:", (), (), ("a1",))
    for text, code in [
        ("z9:d4-c3", "move.not-a-square"),
        ("c3:d4-c3:e3", "oska.not-a-move"),
        ("c3:zz", "oska.not-a-move"),
        ("c3x:d4-c3", "oska.not-a-move"),
    ]:
        refused(MalformedMove, functools.partial(after.play, text), code, "Legal moves: c3:d4-c3")
    refused(IllegalMove, lambda: after.play("c3:c5-d4"), "oska.no-stone-of-yours",
            "^`c3:c5-d4`: there is no stone of yours on c5. Legal moves: c3:d4-c3, ")  # fmt: skip


def test_a_removal_is_written_only_when_one_is_due_under_huff_opponent() -> None:
    refused(
        IllegalMove,
        lambda: position(CAPTURE_OR_STEP, "capture=huff").play("a1:c1-d2"),
        "oska.removal-only-under-huff-opponent",
        "^`a1:c1-d2`: a stone is removed before a move only under capture=huff-opponent. ",
    )
    refused(
        IllegalMove,
        lambda: position(CAPTURE_OR_STEP, HO).play("a1:c1-d2"),
        "oska.no-removal-due",
        "^`a1:c1-d2`: no stone is to be removed: none was forfeited. Legal moves: a1xc3, c1-d2$",
    )


def test_huff_opponent_position_text_names_the_removal_due() -> None:
    after = position(REMOVAL_OPENS_A_CAPTURE, HO).play("g1-f2")
    again = oska.from_text(after.to_text(), after.variant)
    assert again.to_text() == after.to_text()
    assert again.legal_moves() == after.legal_moves()
    assert again != oska.from_text(after.to_text().rsplit("\n", 1)[0], after.variant)
    loose = after.to_text().replace("Red removes one of: c3", "  red REMOVES one of:c3 ")
    assert oska.from_text(loose, after.variant).forfeitable() == ("c3",)


@pytest.mark.parametrize(
    ("line", "variant", "code", "why"),
    [
        ("Blue removes one of: c3", HO, "oska.position.removal",
         "the line after the side to move names the stones it removes one of, "
         "as `Red removes one of: a1, c3`, not `Blue removes one of: c3`"),
        ("Red removes one of:", HO, "oska.position.removal",
         "the line after the side to move names the stones it removes one of, "
         "as `Red removes one of: a1, c3`, not `Red removes one of:`"),
        ("Red removes one of: a5", HO, "oska.position.removal-square",
         "a5 is not a square with a Blue stone"),
        ("Red removes one of: c3", "capture=huff", "oska.position.removal-variant",
         "`Red removes one of: c3`: a forfeited stone is removed by the opponent only under "
         "capture=huff-opponent"),
    ],
)  # fmt: skip
def test_bad_removal_lines_raise(line: str, variant: str, code: str, why: str) -> None:
    text = board(REMOVAL_OPENS_A_CAPTURE).replace("Blue to move", "Red to move") + "\n" + line
    refused(
        PositionError,
        lambda: oska.from_text(text, oska.SPEC.variant(variant)),
        code,
        f"^{re.escape(why)}$",
    )


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
    refused(
        IllegalMove,
        lambda: state.play("a1-b2"),
        "move.not-empty",
        "^`a1-b2`: b2 is not empty. Legal moves: pass$",
    )
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
    refused(
        IllegalMove,
        lambda: oska.SPEC.new().play("pass"),
        "oska.pass-not-allowed",
        "^`pass`: you may pass only when you have no legal move. Legal moves: a1-b2, ",
    )


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
    assert outcome == Outcome(None, Termination.BLOCKED)
    assert said(outcome) == "neither player can move"


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
    assert after.outcome() == Outcome(Side.FIRST, Termination.GOAL, Side.FIRST)
    assert said(after.outcome()) == "Blue has every stone home"
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
    assert after.outcome() == Outcome(Side.SECOND, Termination.GOAL, Side.SECOND)
    assert said(after.outcome()) == "Red has every stone home"


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
    assert after.outcome() == Outcome(Side.FIRST, Termination.GOAL, Side.FIRST)
    assert said(after.outcome()) == "Blue has every stone home"


def test_under_goal_losing_every_stone_wins() -> None:
    after = position(RED_TAKES_THE_LAST).play("e3xc1")
    outcome = after.outcome()
    assert outcome is not None and outcome.winner is Side.FIRST
    assert outcome == Outcome(Side.FIRST, Termination.GOAL_STONELESS, Side.FIRST)
    assert said(outcome) == "Blue has lost every stone, so every stone it has left is home"
    assert after.legal_moves() == ()


def test_under_elimination_losing_every_stone_loses() -> None:
    after = position(RED_TAKES_THE_LAST, "win=elimination").play("e3xc1")
    assert after.outcome() == Outcome(Side.SECOND, Termination.ELIMINATION, Side.FIRST)
    assert said(after.outcome()) == "Blue has lost every stone"
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
    assert after.outcome() == Outcome(None, Termination.GOAL)
    assert said(after.outcome()) == "both players have every stone home"


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
    assert after.outcome() == Outcome(Side.FIRST, Termination.GOAL, Side.FIRST)
    assert said(after.outcome()) == "Blue has every stone home"


# ------------------------------------------------------------------ notation


@pytest.mark.parametrize(
    ("text", "code", "why"),
    [
        ("z9", "move.not-a-square", "`z9` is not a square"),
        (" C1D2 ", "oska.not-a-move",
         "`C1D2` is not a move: write a step as c1-d2, a capture as a1xc3"),
        ("", "oska.empty",
         "an empty text is not a move: write a step as c1-d2, a capture as a1xc3, or pass"),
        ("a1-a1", "oska.step-not-neighbour",
         "`a1-a1` is not a move: a step goes to a neighbouring square"),
        ("a1-c3", "oska.step-as-jump",
         "`a1-c3` is not a move: a step goes to a neighbouring square; "
         "a capture is written a1xc3"),
        ("a1xb2", "oska.not-a-jump",
         "`a1xb2` is not a move: a capture jumps over a neighbouring stone "
         "to the square beyond it, as a1xc3"),
        ("c1-d2-e3", "oska.step-one-square",
         "`c1-d2-e3` is not a move: a step goes one square, as c1-d2"),
        ("c1xe3/a1", "oska.forfeit-after-capture",
         "`c1xe3/a1`: only a step names a forfeited stone"),
    ],
)  # fmt: skip
def test_malformed_moves_name_the_legal_moves(text: str, code: str, why: str) -> None:
    state = oska.SPEC.new()
    legal = "a1-b2, c1-b2, c1-d2, e1-d2, e1-f2, g1-f2"
    error = refused(
        MalformedMove, lambda: state.play(text), code, f"^{re.escape(why)}. Legal moves: {legal}$"
    )
    assert error.legal == state.legal_moves()
    assert error.move == text.strip()
    with pytest.raises(MalformedMove):
        state.parse_move(text)


@pytest.mark.parametrize(
    ("text", "code", "params", "why"),
    [
        ("c3-d4", "oska.no-stone-of-yours", {"square": "c3"},
         "`c3-d4`: there is no stone of yours on c3"),
        ("a5-b4", "oska.no-stone-of-yours", {"square": "a5"},
         "`a5-b4`: there is no stone of yours on a5"),
        ("a1xc3", "oska.nothing-to-jump", {"square": "b2", "opponent": Side.SECOND},
         "`a1xc3`: there is no Red stone on b2"),
    ],
)  # fmt: skip
def test_illegal_moves_say_why(text: str, code: str, params: dict[str, str], why: str) -> None:
    state = oska.SPEC.new()
    error = refused(
        IllegalMove,
        lambda: state.parse_move(text),
        code,
        f"^{re.escape(why)}. Legal moves: a1-b2, ",
    )
    assert params.items() <= error.params.items()
    assert error.legal == state.legal_moves()


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
    error = refused(
        IllegalMove,
        lambda: finished.play("b2-c1"),
        "move.game-over",
        r"^`b2-c1`: the game is over \(Blue has every stone home\)$",
    )
    assert error.legal == ()
    assert error.params["reason"] == "goal" and error.params["winner"] == 0
    refused(
        IllegalMove,
        lambda: finished.play("pass"),
        "move.game-over",
        r"^`pass`: the game is over \(Blue has every stone home\)$",
    )
    # A text that is not a move at all says so, then that the game is over.
    refused(
        MalformedMove,
        lambda: finished.play("zz"),
        "oska.not-a-move",
        "^`zz` is not a move: write a step as c1-d2, a capture as a1xc3. The game is over.$",
    )


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
    ("text", "code", "why"),
    [
        (START.replace("4   . . .", "4   . . . ."), "oska.position.row-length",
         "row 4 has 3 squares, not 4: `4   . . . .`"),
        (START.replace("3    . .", "3    . x"), "oska.position.cell",
         "`x` on row 3 is not b (Blue), r (Red) or . (empty)"),
        (START.replace("2   . . .", "2   b . ."), "oska.position.too-many",
         "Blue has 5 stones; a side has at most 4"),
        (START.replace("Blue to move", ""), "oska.position.lines",
         "an Oska position is 5 board lines (rows 5 to 1) and a line `Blue to move` "
         "or `Red to move`, not 5 lines"),
        (START.replace("Blue to move", "Green to move"), "oska.position.mover",
         "the last line is `Blue to move` or `Red to move`, not `Green to move`"),
        (START.replace("3    . .", "2    . ."), "oska.position.row-number",
         "line `2    . .` should be row 3"),
    ],
)  # fmt: skip
def test_bad_position_texts_raise(text: str, code: str, why: str) -> None:
    refused(
        PositionError,
        lambda: oska.from_text(text, oska.SPEC.variant()),
        code,
        f"^{re.escape(why)}$",
    )
