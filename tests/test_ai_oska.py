"""Oska solved: hand-checked values, perfect play, the shipped table and its
shared cache, the levels; capture=huff-opponent, whose positions can carry a
removal due, checked against an independent solve over the engine's states."""

from __future__ import annotations

import os
import random
from pathlib import Path
from textwrap import dedent

import pytest

from games import oska
from games.ai import choose_move, oska_solver
from games.ai.levels import LEVELS, level_of
from games.ai.oska_game import masks, pending_of, rules_of
from games.ai.oska_player import choose, move_values
from games.base import Side, Variant
from tests.test_oska import REMOVAL_THEN_NO_MOVE

ALL = oska.SPEC.all_variants()
VARIANTS = [pytest.param(v, id=str(v) or "default") for v in ALL]
HUFF_OPPONENT = [pytest.param(v, id=str(v)) for v in ALL if v["capture"] == "huff-opponent"]


def position(diagram: str, variant: Variant | str = "") -> oska.OskaState:
    if isinstance(variant, str):
        variant = oska.SPEC.variant(variant)
    return oska.from_text(dedent(diagram), variant)


def solved(state: oska.OskaState) -> int:
    mode, elimination = rules_of(state.variant)
    return oska_solver.value(*masks(state), mode, elimination, pending_of(state))


def in_table(state: oska.OskaState) -> bool:
    mode, elimination = rules_of(state.variant)
    index = oska_solver.index(*masks(state))
    return oska_solver.table(mode, elimination)[index] != oska_solver.UNREACHABLE


# Blue c3 steps to b4 or d4, Red e3 steps down (it cannot reach Blue), Blue
# steps home: a win in 3 plies under every variant (no capture is ever possible).
WIN_IN_THREE = """
    5  . . . .
    4   . . .
    3    b r
    2   . . .
    1  . . . .
    Blue to move
"""

# Red e3 must step down; then Blue d4 steps home: Red loses in 2 plies.
RED_LOSES_IN_TWO = """
    5  . . . .
    4   . b .
    3    . r
    2   . . .
    1  . . . .
    Red to move
"""

# Blue a1's only move jumps Red's last stone: under the goal rule Red, with no
# stone left, has all its stones home and wins; under elimination Blue wins.
LAST_CAPTURE = """
    5  . . . .
    4   . . .
    3    . .
    2   r . .
    1  b . . .
    Blue to move
"""

# Blue c3 can jump Red's last stone (d4) to e5, or step to b4 and win in 3.
JUMP_OR_STEP = """
    5  . . . .
    4   . r .
    3    b .
    2   . . .
    1  . . . .
    Blue to move
"""


@pytest.mark.parametrize("variant", VARIANTS)
def test_hand_checked_values_from_the_table(variant: Variant) -> None:
    win3 = position(WIN_IN_THREE, variant)
    lose2 = position(RED_LOSES_IN_TWO, variant)
    assert in_table(win3)
    assert in_table(lose2)
    assert solved(win3) == 97
    assert solved(lose2) == -98


@pytest.mark.parametrize("variant", VARIANTS)
def test_capturing_the_last_stone_loses_under_the_goal_rule(variant: Variant) -> None:
    state = position(LAST_CAPTURE, variant)
    assert state.legal_moves() == ("a1xc3",)
    expected = 99 if variant["win"] == "elimination" else -99
    assert solved(state) == expected


@pytest.mark.parametrize(
    ("variant", "values", "best"),
    [
        ("", {"c3xe5": 0}, "c3xe5"),
        ("win=elimination", {"c3xe5": 99}, "c3xe5"),
        ("capture=huff", {"c3-b4/b4": 99, "c3xe5": 0}, "c3-b4/b4"),
        ("capture=huff win=elimination", {"c3-b4/b4": -99, "c3xe5": 99}, "c3xe5"),
        ("capture=optional", {"c3-b4": 97, "c3xe5": 0}, "c3-b4"),
        ("capture=optional win=elimination", {"c3-b4": 97, "c3xe5": 99}, "c3xe5"),
        # Red must remove b4, Blue's last stone: the removal (`b4:`) ends the game.
        ("capture=huff-opponent", {"c3-b4": 98, "c3xe5": 0}, "c3-b4"),
        ("capture=huff-opponent win=elimination", {"c3-b4": -98, "c3xe5": 99}, "c3xe5"),
    ],
)
def test_max_takes_the_best_result_and_the_fastest_win(
    variant: str, values: dict[str, int], best: str
) -> None:
    state = position(JUMP_OR_STEP, variant)
    assert move_values(state) == values
    for seed in range(5):
        assert choose_move(state, "max", seed=seed) == best


def test_start_values() -> None:
    start = {str(v): solved(oska.start(v)) for v in ALL}
    assert start == {
        "": 0,
        "win=elimination": 0,
        "capture=huff": 79,
        "capture=huff win=elimination": 79,
        "capture=optional": 79,
        "capture=optional win=elimination": 79,
        "capture=huff-opponent": -79,
        "capture=huff-opponent win=elimination": -80,
    }


def test_the_shipped_table_is_a_fresh_solve_of_the_default_variant() -> None:
    solver = oska_solver.solve_variant(0, False)
    assert oska_solver.table(0, False) == bytes(oska_solver.dense(solver.memo))


@pytest.mark.parametrize("variant", VARIANTS[1:])
def test_the_shipped_table_agrees_with_fresh_solves_of_late_positions(variant: Variant) -> None:
    rng = random.Random(5)
    mode, elimination = rules_of(variant)
    checked = 0
    for _ in range(3):
        state = oska.start(variant)
        for _ in range(rng.randrange(8, 12)):
            if not state.legal_moves():
                break
            state = state.play(rng.choice(state.legal_moves()))
        solver = oska_solver.Solver(mode, elimination)
        expected = solver.value(*masks(state), pending_of(state))
        assert in_table(state) or pending_of(state)
        assert solved(state) == expected
        held = [item for item in solver.memo.items() if not item[0] >> 33]  # nothing pending
        for packed, value in held[:: max(1, len(held) // 500)]:
            index = oska_solver.index(packed & 0xFFFF, packed >> 16 & 0xFFFF, packed >> 32)
            byte = oska_solver.table(mode, elimination)[index]
            assert (byte - 256 if byte > 127 else byte) == value
            checked += 1
    assert checked > 100


def test_the_index_numbers_every_position_once() -> None:
    rng = random.Random(1)
    seen: dict[int, tuple[int, int, int]] = {}
    for _ in range(20_000):
        squares = rng.sample(range(16), rng.randrange(0, 9))
        split = rng.randrange(max(0, len(squares) - 4), min(4, len(squares)) + 1)
        blue = sum(1 << s for s in squares[:split])
        red = sum(1 << s for s in squares[split:])
        side = rng.randrange(2)
        index = oska_solver.index(blue, red, side)
        assert 0 <= index < oska_solver.SIZE
        assert seen.setdefault(index, (blue, red, side)) == (blue, red, side)


def random_positions(variant: Variant, count: int, seed: int) -> list[oska.OskaState]:
    rng = random.Random(seed)
    found: list[oska.OskaState] = []
    while len(found) < count:
        state = oska.start(variant)
        for _ in range(rng.randrange(0, 14)):
            if not state.legal_moves():
                break
            state = state.play(rng.choice(state.legal_moves()))
        if len(state.legal_moves()) > 1:
            found.append(state)
    return found


@pytest.mark.parametrize("variant", VARIANTS)
def test_max_never_worsens_the_solved_value(variant: Variant) -> None:
    for state in random_positions(variant, 20, seed=2):
        values = move_values(state)
        move = choose_move(state, "max", seed=1)
        assert values[move] == max(values.values()) == solved(state)


def test_hard_keeps_the_result_and_easy_makes_mistakes() -> None:
    hard, easy = level_of("hard"), level_of("easy")
    rng = random.Random(9)
    hard_slower = easy_worse = total = 0
    for state in random_positions(oska.SPEC.variant("capture=optional"), 150, seed=4):
        values = move_values(state)
        best = max(values.values())
        sign = (best > 0) - (best < 0)
        move = choose(state, hard, rng)
        worse = choose(state, easy, rng)
        assert move is not None and worse is not None  # a solved variant: the table answers
        assert (values[move] > 0) - (values[move] < 0) == sign
        hard_slower += values[move] != best
        easy_worse += values[worse] != best
        total += 1
    assert 0 < hard_slower < easy_worse < total


# ------------------------------------------------------------ huff-opponent

# Red must first remove c1, e1 or g1. Without c1 or e1, d2 steps home and Red
# wins; without g1, d2 is still shut in and Red passes.
REMOVE_THEN_STEP_HOME = """
    5  . . . .
    4   . . .
    3    . .
    2   . r .
    1  r b b b
    Red to move
    Red removes one of: c1, e1, g1
"""

# Red must first remove b2 or d4. Without b2, e5 jumps Blue's last stone: under
# elimination a win, under the goal rule a loss (Blue, stoneless, is home).
REMOVE_THEN_TAKE_THE_LAST = """
    5  . . r .
    4   . b .
    3    . .
    2   b . .
    1  . . . .
    Red to move
    Red removes one of: b2, d4
"""


Seen = tuple[tuple[str, ...], tuple[str, ...], Side, tuple[str, ...]]


def seen(state: oska.OskaState) -> Seen:
    """A position as the engine names it: the stones, the side to move, the removal due."""
    return state.stones(Side.FIRST), state.stones(Side.SECOND), state.to_move, state.forfeitable()


def engine_value(state: oska.OskaState, memo: dict[Seen, int]) -> int:
    """The value by plain negamax over the engine's own states: its moves (a
    removal and what follows it are one move), its outcomes; no solver code."""
    text = seen(state)
    found = memo.get(text)
    if found is not None:
        return found
    outcome = state.outcome()
    if outcome is not None:
        value = 0 if outcome.winner is None else 100 if outcome.winner == state.to_move else -100
    else:
        value = -101
        for move in state.legal_moves():
            child = -engine_value(state.play(move), memo)
            value = max(value, child - 1 if child > 0 else child + 1 if child < 0 else 0)
    memo[text] = value
    return value


def late_positions(variant: Variant, count: int, seed: int) -> list[oska.OskaState]:
    """Positions of random games with at most six stones left, a removal due in some."""
    rng = random.Random(seed)
    found: list[oska.OskaState] = []
    while len(found) < count:
        state = oska.start(variant)
        while state.legal_moves() and sum(len(state.stones(s)) for s in Side) > 6:
            state = state.play(rng.choice(state.legal_moves()))
        if len(state.legal_moves()) > 1:
            found.append(state)
    return found


@pytest.mark.parametrize("variant", HUFF_OPPONENT)
def test_huff_opponent_values_agree_with_an_independent_solve(variant: Variant) -> None:
    memo: dict[Seen, int] = {}

    def below(roots: list[oska.OskaState]) -> list[oska.OskaState]:
        """The roots and every position below them, removals due included."""
        found: dict[Seen, oska.OskaState] = {}
        stack = list(roots)
        while stack:
            here = stack.pop()
            if seen(here) not in found:
                found[seen(here)] = here
                stack += [here.play(move) for move in here.legal_moves()]
        return list(found.values())

    in_play = below(late_positions(variant, 12, seed=11))
    # Studies set up from text (not in the table: valued on the spot), with a
    # removal followed by a pass, a removal that blocks both sides, one that wins.
    studies = (REMOVAL_THEN_NO_MOVE, REMOVE_THEN_STEP_HOME, REMOVE_THEN_TAKE_THE_LAST)
    states = in_play + below([position(study, variant) for study in studies])
    assert sum(1 for s in states if s.forfeitable() and not s.outcome()) > 20
    # The table answers every position of a game in play (a finished one after a
    # removal that ended the game is valued on the spot: the solver stops there).
    assert all(in_table(s) for s in in_play if not s.forfeitable() and not s.outcome())
    for state in states:
        assert solved(state) == engine_value(state, memo), state.to_text()


@pytest.mark.parametrize("variant", HUFF_OPPONENT)
def test_max_never_worsens_a_huff_opponent_position(variant: Variant) -> None:
    states = random_positions(variant, 60, seed=12)
    assert sum(1 for s in states if s.forfeitable()) >= 5  # removals due among them
    assert any(solved(s) > 0 for s in states)  # won positions among them
    for seed, state in enumerate(states):
        before = solved(state)
        after = state.play(choose_move(state, "max", seed=seed))
        kept = -solved(after)
        assert kept == (before + 1 if before > 0 else before - 1 if before < 0 else 0)


def test_huff_opponent_is_in_the_table_and_played_from_it() -> None:
    assert all(oska_solver.solves(*rules_of(v)) for v in ALL)
    state = oska.start(oska.SPEC.variant("capture=huff-opponent"))
    move = choose(state, level_of("max"), random.Random(1))
    assert move is not None
    assert move_values(state)[move] == solved(state) == -79  # Red wins in 21 plies


@pytest.mark.parametrize("variant", HUFF_OPPONENT)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_huff_opponent_legally(variant: Variant, level: str) -> None:
    states = random_positions(variant, 12, seed=6)
    assert any(state.forfeitable() for state in states)  # removals due among them
    for seed, state in enumerate(states):
        move = choose_move(state, level, seed=seed)
        assert move in state.legal_moves()


@pytest.mark.parametrize("variant", HUFF_OPPONENT)
@pytest.mark.parametrize("level", ["hard", "max"])
def test_hard_and_max_take_the_win_after_a_removal(variant: Variant, level: str) -> None:
    home = position(REMOVE_THEN_STEP_HOME, variant)
    assert home.legal_moves() == ("c1:d2-c1", "e1:d2-e1", "g1:pass")
    take = position(REMOVE_THEN_TAKE_THE_LAST, variant)
    assert take.legal_moves() == ("b2:e5xc3", "b2:e5-f4", "d4:e5-d4", "d4:e5-f4")
    for seed in range(10):
        assert choose_move(home, level, seed=seed) in ("c1:d2-c1", "e1:d2-e1")
        move = choose_move(take, level, seed=seed)
        if variant["win"] == "elimination":
            assert move == "b2:e5xc3"
        else:
            assert move != "b2:e5xc3"


def test_easy_errs_under_huff_opponent_and_hard_keeps_the_result() -> None:
    hard, easy = level_of("hard"), level_of("easy")
    rng = random.Random(9)
    hard_slower = easy_worse = total = 0
    for state in random_positions(oska.SPEC.variant("capture=huff-opponent"), 150, seed=4):
        values = move_values(state)
        best = max(values.values())
        move = choose(state, hard, rng)
        worse = choose(state, easy, rng)
        assert move is not None and worse is not None
        assert (values[move] > 0) - (values[move] < 0) == (best > 0) - (best < 0)
        hard_slower += values[move] != best
        easy_worse += values[worse] != best
        total += 1
    assert 0 < hard_slower < easy_worse < total


# ------------------------------------------------------------------- cache


def test_the_cache_file_is_written_once_checked_and_rewritten_when_damaged(
    tmp_path: Path,
) -> None:
    raw = oska_solver.TABLE_PATH.read_bytes()
    stale = tmp_path / "oska-0000000000000000.bin"
    stale.write_bytes(b"an older table's cache")
    first = oska_solver.map_cache(tmp_path, raw)
    (path,) = tmp_path.glob("oska-*.bin")  # the stale one is gone
    assert path.stat().st_size == len(oska_solver.VARIANTS) * oska_solver.SIZE
    assert first.readonly
    decoded = oska_solver.decode(raw)
    assert first == decoded
    written = path.stat().st_ino
    assert oska_solver.map_cache(tmp_path, raw) == decoded
    assert path.stat().st_ino == written  # mapped as it was, not written again
    digest = oska_solver.digest_of(raw)
    data = bytearray(decoded)
    data[12345] ^= 1
    path.write_bytes(bytes(data))
    assert oska_solver._open_checked(path, digest) is None  # one bit off: refused
    path.write_bytes(decoded[:1000])
    assert oska_solver._open_checked(path, digest) is None  # cut short: refused
    assert oska_solver.map_cache(tmp_path, raw) == decoded
    assert path.read_bytes() == decoded  # written anew


def test_without_a_writable_cache_the_table_is_decoded_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv(oska_solver.CACHE_ENV, str(blocker / "cache"))
    assert oska_solver.cache_dir() == blocker / "cache"
    data = oska_solver._decoded.__wrapped__()
    assert data == oska_solver.decode(oska_solver.TABLE_PATH.read_bytes())
    assert not (blocker / "cache").exists()


def test_the_cache_directory_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(oska_solver.CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "/somewhere/cache")
    assert oska_solver.cache_dir() == Path("/somewhere/cache/kamen")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert oska_solver.cache_dir() == Path(os.path.expanduser("~")) / ".cache" / "kamen"
    monkeypatch.setenv(oska_solver.CACHE_ENV, "/srv/kamen-cache")
    assert oska_solver.cache_dir() == Path("/srv/kamen-cache")
