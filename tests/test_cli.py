"""`python -m games`: moves, perft and play, as a person runs them."""

from __future__ import annotations

import subprocess
import sys

ROOT = __file__.rsplit("/tests/", 1)[0]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games", *args],
        input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=60,
    )


def test_moves_lists_the_legal_moves_sorted_then_the_outcome() -> None:
    done = run("moves", "oska")
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[-1] == "outcome: none"
    assert lines[:-1] == sorted(lines[:-1])
    assert "a1-b2" in lines and "g1-f2" in lines


def test_moves_plays_the_given_moves_first() -> None:
    done = run("moves", "oska", "a1-b2", "a5-b4", "c1-d2", "g5-f4", "g1-f2", "f4-e3")
    assert done.returncode == 0
    assert done.stdout.splitlines() == ["d2xf4", "f2xd4", "outcome: none"]


def test_moves_takes_variants() -> None:
    done = run(
        "moves", "oska", "--variant", "capture=optional",
        "a1-b2", "a5-b4", "c1-d2", "g5-f4", "g1-f2", "f4-e3",
    )
    assert done.returncode == 0
    assert "d2xf4" in done.stdout and "d2-c3" in done.stdout


def test_an_illegal_move_exits_2_naming_the_move_its_number_and_why() -> None:
    done = run("moves", "oska", "a1-b2", "a5-b4", "c1-d2", "g5-f4", "g1-f2", "f4-e3", "d2-c3")
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "move 7" in lines[0] and "d2-c3" in lines[0] and "capture" in lines[0]


def test_a_malformed_move_exits_2() -> None:
    done = run("moves", "lasca", "z9")
    assert done.returncode == 2
    assert "move 1" in done.stderr and "z9" in done.stderr


def test_a_bad_variant_or_game_exits_2_with_the_choices() -> None:
    bad_variant = run("moves", "oware", "--variant", "grandslam=maybe")
    assert bad_variant.returncode == 2
    assert "grandslam=forbidden" in bad_variant.stderr
    bad_game = run("moves", "chess")
    assert bad_game.returncode == 2
    assert "oska" in bad_game.stderr


def test_moves_reports_a_finished_game() -> None:
    from games.registry import GAMES

    state = GAMES["oware"].new()
    while legal := state.legal_moves():
        state = state.play(legal[0])
    outcome = state.outcome()
    assert outcome is not None
    done = run("moves", "oware", *state.moves)
    assert done.returncode == 0
    assert done.stdout.splitlines() == [f"outcome: {outcome.label}"]


def test_perft_prints_one_line_per_depth() -> None:
    done = run("perft", "oware", "2")
    assert done.returncode == 0
    assert done.stdout.splitlines() == ["1 6", "2 36"]


def test_play_shows_the_board_takes_moves_and_explains_mistakes() -> None:
    done = run("play", "oska", stdin="a1-b2\nz9\nundo\nc1-d2\nquit\n")
    assert done.returncode == 0
    out = done.stdout
    assert "Legal moves: a1-b2 c1-b2 c1-d2 e1-d2 e1-f2 g1-f2" in out
    assert "`z9` is not a square" in out
    assert "Blue> " in out and "Red> " in out
