"""`python -m games`: moves, perft and play, as a person runs them."""

from __future__ import annotations

import os
import subprocess
import sys

ROOT = __file__.rsplit("/tests/", 1)[0]


def run(*args: str, stdin: str = "", lang: str = "C.UTF-8") -> subprocess.CompletedProcess[str]:
    """The command as a person runs it, with `LANG` set (English unless the test says)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("LC_")}
    env.pop("LANGUAGE", None)
    env["LANG"] = lang
    return subprocess.run(
        [sys.executable, "-m", "games", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
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
        "moves",
        "oska",
        "--variant",
        "capture=optional",
        "a1-b2",
        "a5-b4",
        "c1-d2",
        "g5-f4",
        "g1-f2",
        "f4-e3",
    )
    assert done.returncode == 0
    assert "d2xf4" in done.stdout and "d2-c3" in done.stdout


def test_an_illegal_move_exits_2_naming_the_move_its_number_and_why() -> None:
    done = run("moves", "oska", "a1-b2", "a5-b4", "c1-d2", "g5-f4", "g1-f2", "f4-e3", "d2-c3")
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    # The seventh move given is Blue's fourth: numbered as the record numbers it.
    assert lines == [
        "error: move 4 (Blue): `d2-c3`: a capture is compulsory. Legal moves: d2xf4, f2xd4"
    ]


def test_a_malformed_move_exits_2() -> None:
    done = run("moves", "lasca", "z9")
    assert done.returncode == 2
    assert done.stderr == (
        "error: move 1 (White): `z9` is not a square. "
        "Legal moves: a3-b4, c3-b4, c3-d4, e3-d4, e3-f4, g3-f4\n"
    )


def test_a_move_after_the_end_says_how_the_game_ended() -> None:
    moves = "a1-b2 a5-b4 c1-d2 e5-d4 g1-f2 d4-e3 f2xd4 c5xe3xc1 b2-c3 b4xd2 e1xc3 g5-f4 c3-d4 f4-e3"
    done = run("moves", "oska", *moves.split(), "d4-e5", "e3-d2")
    assert done.returncode == 2
    assert done.stderr == (
        "error: move 8 (Red): `e3-d2`: the game is over (Blue has every stone home)\n"
    )


def test_a_bad_variant_or_game_exits_2_with_the_choices() -> None:
    bad_variant = run("moves", "oware", "--variant", "grandslam=maybe")
    assert bad_variant.returncode == 2
    assert bad_variant.stderr == (
        "error: `grandslam=maybe`: write one of grandslam=forbidden, grandslam=nocapture, "
        "grandslam=opponent-takes\n"
    )
    bad_game = run("moves", "chess")
    assert bad_game.returncode == 2
    assert bad_game.stderr == "error: `chess` is not a game here (games: oska, lasca, oware)\n"


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
    assert out.startswith(
        "Oska. Type a move, `undo`, `record` or `quit`.\n\n"
        "    a b c d e f g\n 5  r   r   r   r  5\n"
    )
    assert "Legal moves: a1-b2 c1-b2 c1-d2 e1-d2 e1-f2 g1-f2" in out
    assert (
        "\nMove 1, Red> `z9` is not a square. "
        "Legal moves: a5-b4, c5-b4, c5-d4, e5-d4, e5-f4, g5-f4\n" in out
    )
    assert "Blue> " in out and "Red> " in out
    nothing = run("play", "oska", "--variant", "capture=huff", stdin="undo\nhelp\n")
    assert nothing.stdout.startswith(
        "Oska (capture=huff). Type a move, `undo`, `record` or `quit`."
    )
    assert "Blue> Nothing to undo.\n" in nothing.stdout
    assert "Blue> Type a move, `undo`, `record` or `quit`.\n" in nothing.stdout


def test_play_to_the_end_says_how_the_game_ended_and_prints_the_record() -> None:
    moves = "e1-f2 a5-b4 f2-e3 e5-d4 a1-b2 d4xf2 g1xe3 g5-f4 e3xg5 c5-d4 b2-c3 b4xd2 c1xe3xc5"
    done = run("play", "oska", "--variant", "win=elimination", stdin="\n".join(moves.split()))
    assert done.returncode == 0
    assert '\nGame over: Red has lost every stone (1-0).\n[Game "Oska"]\n' in done.stdout
    assert done.stdout.endswith("6. b2-c3 b4xd2 7. c1xe3xc5 1-0\n\n")


def test_play_speaks_the_language_of_lang_or_of_its_option() -> None:
    czech = run("play", "oska", stdin="z9\nundo\nquit\n", lang="cs_CZ.UTF-8")
    assert czech.returncode == 0
    english = run("play", "oska", stdin="z9\nundo\nquit\n")
    assert czech.stdout != english.stdout
    assert "Legal moves:" in english.stdout and "Legal moves:" not in czech.stdout
    assert "Nothing to undo." in english.stdout and "Nothing to undo." not in czech.stdout
    # The option wins over the environment; a language without a catalogue is English.
    assert run("play", "oska", "--lang", "en", stdin="quit\n", lang="cs_CZ.UTF-8").stdout == (
        run("play", "oska", stdin="quit\n").stdout
    )
    assert run("play", "oska", stdin="quit\n", lang="de_DE.UTF-8").stdout == (
        run("play", "oska", stdin="quit\n").stdout
    )
    moves = run("moves", "oska", "z9", "--lang", "cs")
    assert moves.returncode == 2
    assert moves.stderr.startswith("chyba: tah 1 (Modrý): `z9` není pole.")
    # The sides are named in the language; the board's coordinates are notation and stay.
    assert "Modrý> " in czech.stdout and "Blue> " not in czech.stdout
    assert "\n    a b c d e f g\n 5  r   r   r   r  5\n" in czech.stdout
