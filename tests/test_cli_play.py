"""`python -m games play`: the boards with their coordinates, the legends, colour, playing Kamen.

Most tests drive `games.cli.main` in-process with stdin and stdout replaced; a
board printed is read back square by square (under which file letter, beside
which rank number) and compared with the engine's position.
"""

from __future__ import annotations

import io
import os
import random
import re
import subprocess
import sys
from typing import TextIO, cast

import pytest

from games.ai.levels import LEVELS
from games.base import GameState, Side
from games.cli import Seats, kamen_player, main, play_interactively
from games.lasca import SQUARES as LASCA
from games.lasca import LascaState
from games.oska import SQUARES as OSKA
from games.oska import OskaState
from games.oware import OwareState
from games.record import move_number, parse_record
from games.registry import GAMES

ROOT = __file__.rsplit("/tests/", 1)[0]
ANSI = re.compile(r"\x1b\[[0-9;]*m")
BY_THE_SCREEN = "the first legal move shown"  # `typed`: a player who reads the screen


class Terminal(io.StringIO):
    """A stdout that says whether it is a terminal (as `--colour auto` asks)."""

    def __init__(self, tty: bool = False) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


class FirstLegalMove:
    """A player at the keyboard who reads the screen and types the first legal move shown."""

    def __init__(self, screen: io.StringIO) -> None:
        self.screen = screen
        self.typed = 0

    def readline(self) -> str:
        shown = [line for line in self.screen.getvalue().splitlines() if "Legal moves: " in line]
        self.typed += 1
        assert self.typed < 1000, "the game never ended"
        return shown[-1].split("Legal moves: ")[1].split()[0] + "\n"


class Interrupted:
    """A player who presses Ctrl-C at the prompt."""

    def readline(self) -> str:
        raise KeyboardInterrupt


def play(
    monkeypatch: pytest.MonkeyPatch,
    *args: str,
    typed: str | Interrupted = "quit\n",
    tty: bool = False,
    env: dict[str, str] | None = None,
) -> tuple[int, str, str]:
    """`python -m games play ARGS` in English with `typed` as its input: code, stdout, stderr."""
    for name in ("NO_COLOR", "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("TERM", "xterm-256color")
    for name, value in (env or {}).items():
        monkeypatch.setenv(name, value)
    stdout, stderr = Terminal(tty), io.StringIO()
    stdin = FirstLegalMove(stdout) if typed == BY_THE_SCREEN else typed
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin) if isinstance(stdin, str) else stdin)
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setattr(sys, "stderr", stderr)
    code = main(["play", *args])
    return code, stdout.getvalue(), stderr.getvalue()


def boards(out: str, colour: bool = False) -> list[list[str]]:
    """Each board printed: its lines from its coordinates line above to the one below (with
    their colour codes, or without)."""
    coordinates = re.compile(r" +([a-gA-F] +){5,}[a-gA-F]")
    raw = out.splitlines()
    found, lines, index = [], [ANSI.sub("", line) for line in raw], 0
    while index < len(lines):
        if coordinates.fullmatch(lines[index]):
            end = next(j for j in range(index + 1, len(lines)) if coordinates.fullmatch(lines[j]))
            found.append((raw if colour else lines)[index : end + 1])
            index = end
        index += 1
    return found


def read_grid(board: list[str]) -> dict[str, str]:
    """Oska or Lasca: what stands on each playing square, found under its file letter and
    beside its rank number (on both sides), as the board shows it."""
    letters = {match.start(): match.group() for match in re.finditer(r"[a-g]", board[0])}
    assert board[-1] == board[0]  # the same file letters below as above
    squares: dict[str, str] = {}
    for line in board[1:-1]:
        rank = line.split()[0]
        assert line.split()[-1] == rank  # the rank number on both sides
        for match in re.finditer(r"[^ ]+", line[3 : line.rindex(rank)]):
            x = match.start() + 3
            squares[f"{letters[x]}{rank}"] = match.group()
    return squares


def expected_grid(state: GameState) -> dict[str, str]:
    if isinstance(state, OskaState):
        stones = {square: "b" for square in state.stones(Side.FIRST)}
        stones.update({square: "r" for square in state.stones(Side.SECOND)})
        return {square: stones.get(square, ".") for square in OSKA}
    assert isinstance(state, LascaState)

    def shown(column: str) -> str:
        return column[-1] + (str(len(column)) if len(column) > 1 else "") if column else "."

    return {square: shown(state.column(square)) for square in LASCA}


# ------------------------------------------------------------------ coordinates


@pytest.mark.parametrize(
    ("game", "moves"),
    [
        ("oska", ["a1-b2", "a5-b4", "c1-d2", "g5-f4"]),
        ("lasca", ["c3-d4", "e5xc3", "b2xd4", "f6-e5"]),
    ],
)
def test_oska_and_lasca_boards_read_back_square_by_square_from_either_side(
    monkeypatch: pytest.MonkeyPatch, game: str, moves: list[str]
) -> None:
    state = GAMES[game].replay("", moves)
    typed = "\n".join(moves) + "\nquit\n"
    highest = 5 if game == "oska" else 7
    for side in ("first", "second"):
        code, out, _ = play(monkeypatch, game, "--as", side, typed=typed)
        assert code == 0
        board = boards(out)[-1]
        files, ranks = list("abcdefg"), [str(rank) for rank in range(highest, 0, -1)]
        if side == "second":  # the board turned round: Red's (Black's) side at the bottom
            files, ranks = files[::-1], ranks[::-1]
        assert board[0].split() == files
        assert [line.split()[0] for line in board[1:-1]] == ranks
        assert read_grid(board) == expected_grid(state)


def test_the_view_follows_the_player_to_move_unless_as_fixes_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, out, _ = play(monkeypatch, "oska", typed="a1-b2\nquit\n")
    first, second = boards(out)
    assert first[0].split() == list("abcdefg") and first[1].split()[0] == "5"
    assert second[0].split() == list("gfedcba") and second[1].split()[0] == "1"
    _, fixed, _ = play(monkeypatch, "oska", "--as", "first", typed="a1-b2\nquit\n")
    assert [board[0].split() for board in boards(fixed)] == [list("abcdefg")] * 2


def read_oware(board: list[str]) -> tuple[dict[str, int], dict[str, int]]:
    """The seeds under each pit letter, and the store beside each side's name."""
    top, upper, lower, bottom = board
    pits = {}
    for letters, counts in ((top, upper), (bottom, lower)):
        for match in re.finditer(r"[a-fA-F]", letters):
            pits[match.group()] = int(counts[match.start() - 1 : match.start() + 1])
    stores = {}
    for line in (upper, lower):
        store = re.search(r"\[ *(\d+)\]", line)
        name = re.search(r"[A-Za-z]+", line)
        assert store and name
        stores[name.group()] = int(store.group(1))
    return pits, stores


def test_oware_names_every_pit_and_shows_both_stores_from_either_side(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    moves = ["B", "c", "E", "b", "C", "f", "A"]  # South's A captures: the stores differ
    state = GAMES["oware"].replay("", moves)
    assert isinstance(state, OwareState) and state.stores != (0, 0)
    typed = "\n".join(moves) + "\nquit\n"
    for side, top, bottom in (("first", "fedcba", "ABCDEF"), ("second", "FEDCBA", "abcdef")):
        _, out, _ = play(monkeypatch, "oware", "--as", side, typed=typed)
        board = boards(out)[-1]
        assert board[0].split() == list(top) and board[-1].split() == list(bottom)
        pits, stores = read_oware(board)
        assert pits == {letter: state.pits[i] for i, letter in enumerate("ABCDEFabcdef")}
        assert stores == {"South": state.stores[0], "North": state.stores[1]}
        # The far row's owner is named on its left, the near row's on its right.
        assert board[1].split()[0] == ("North" if side == "first" else "South")
        assert board[2].split()[-1] == ("South" if side == "first" else "North")


# ------------------------------------------------------------------ legends


def test_lasca_explains_its_symbols_and_lists_tall_columns_top_down(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    moves = ["e3-d4", "c5xe3", "f2xd4", "g5-f4", "e3xg5", "b6-c5", "d4xb6"]
    _, out, _ = play(monkeypatch, "lasca", "--as", "first", typed="\n".join(moves) + "\nquit\n")
    state = GAMES["lasca"].replay("", moves)
    assert isinstance(state, LascaState)
    assert state.column("b6") == "bbw" and state.column("g5") == "bw"  # bottom to top
    last = boards(out)[-1]
    assert read_grid(last)["b6"] == "w3" and read_grid(last)["g5"] == "w2"
    after = out.split("\n".join(last), 1)[1].splitlines()
    assert after[1:4] == [
        "w White soldier · W White officer · b Black soldier · B Black officer",
        "A number after a piece is the height of its column (W3: three pieces, W on top).",
        "Columns from the top down: b6 w b b, g5 w b",
    ]


def test_oska_and_oware_have_a_legend_too(monkeypatch: pytest.MonkeyPatch) -> None:
    _, oska_out, _ = play(monkeypatch, "oska")
    assert "b Blue's stone · r Red's stone · . empty square" in oska_out
    _, oware_out, _ = play(monkeypatch, "oware")
    assert "[n] beside a side's name: its store, the seeds it has captured" in oware_out


# ------------------------------------------------------------------ colour


@pytest.mark.parametrize("game", list(GAMES))
def test_colour_always_paints_and_never_does_not_and_the_text_stays_the_same(
    monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    moves = {"oska": "a1-b2", "lasca": "c3-d4", "oware": "C"}[game]
    typed = f"{moves}\nquit\n"
    _, coloured, _ = play(monkeypatch, game, "--colour", "always", typed=typed)
    _, plain, _ = play(monkeypatch, game, "--colour", "never", typed=typed, tty=True)
    assert "\x1b[" in coloured
    assert "\x1b" not in plain
    assert ANSI.sub("", coloured) == plain


def test_colour_marks_the_last_move_and_the_legal_moves_squares(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    typed = "a1-b2\nquit\n"
    _, out, _ = play(monkeypatch, "oska", "--as", "first", "--colour", "always", typed=typed)
    rows = {ANSI.sub("", line).split()[0]: line for line in boards(out, colour=True)[-1][1:-1]}
    green, yellow = "\x1b[42m . \x1b[0m", "\x1b[43m . \x1b[0m"

    def stone(letter: str, colour: str, mark: str) -> str:
        return f"\x1b[{mark}m \x1b[0m\x1b[{colour}m{letter}\x1b[0m\x1b[{mark}m \x1b[0m"

    # Blue played a1-b2: a1 and b2 in yellow. Red to move: its four stones may move, to
    # b4, d4 or f4, all in green; the other empty squares stay plain.
    assert yellow in rows["1"] and stone("b", "1;94", "43") in rows["2"]
    assert rows["5"].count(stone("r", "1;91", "42")) == 4
    assert rows["4"].count(green) == 3
    assert green not in rows["3"] and yellow not in rows["3"]
    assert rows["1"].count("\x1b[1;94mb\x1b[0m") == 3  # Blue's other stones, unmarked


@pytest.mark.parametrize(
    ("tty", "env", "coloured"),
    [
        (True, {}, True),
        (False, {}, False),
        (True, {"NO_COLOR": "1"}, False),
        (True, {"TERM": "dumb"}, False),
        (True, {"NO_COLOR": ""}, True),  # no-color.org: set and not empty
    ],
)
def test_colour_auto_paints_a_terminal_unless_no_color_or_a_dumb_one(
    monkeypatch: pytest.MonkeyPatch, tty: bool, env: dict[str, str], coloured: bool
) -> None:
    _, out, _ = play(monkeypatch, "lasca", tty=tty, env=env)
    assert ("\x1b[" in out) is coloured
    _, always, _ = play(monkeypatch, "lasca", "--colour", "always", env={"NO_COLOR": "1"})
    assert "\x1b[" in always  # the option wins over the environment


# ------------------------------------------------------------------ playing Kamen


def record_in(out: str) -> list[tuple[int, Side, str]]:
    """The moves of the record printed at the end, each with its number and side."""
    record = parse_record(out[out.rindex('[Game "') :])
    return [(*move_number(ply), move) for ply, move in enumerate(record.moves)]


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("human", ["first", "second"])
def test_a_whole_game_against_kamen_ends_with_a_result_and_numbers_its_moves(
    monkeypatch: pytest.MonkeyPatch, game: str, human: str
) -> None:
    code, out, err = play(
        monkeypatch, game, "--vs", "kamen:easy", "--as", human, typed=BY_THE_SCREEN
    )
    assert code == 0 and err == ""
    record = out[out.rindex('[Game "') :]
    result = re.search(r'\[Result "(.*)"\]', record)
    assert result and result.group(1) in ("1-0", "0-1", "1/2-1/2")
    assert "\nGame over: " in out
    kamen_side = Side.SECOND if human == "first" else Side.FIRST
    names = GAMES[game].side_names
    assert f"You play {names[kamen_side.other]}, Kamen (level 1) plays {names[kamen_side]}." in out
    tag = "Second" if human == "first" else "First"
    assert f'[{tag} "Kamen (level 1)"]' in record
    kamen = f"Kamen ({names[kamen_side]})"
    said = re.findall(rf"^Move (\d+): {re.escape(kamen)} (?:played (\S+)|passed)$", out, re.M)
    expected = [(number, move) for number, side, move in record_in(out) if side is kamen_side]
    assert [(int(number), move or "pass") for number, move in said] == expected
    assert len(said) >= 3


def test_kamens_first_move_is_move_1_and_yours_are_prompted_by_number(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, out, _ = play(monkeypatch, "oska", "--vs", "kamen:max", "--as", "second")
    assert re.search(r"^Move 1: Kamen \(Blue\) played \S+$", out, re.M)
    assert out.endswith("Move 1, Red> ")
    _, two, _ = play(monkeypatch, "oska", typed="a1-b2\na5-b4\nquit\n")
    assert "\nMove 1: Red played a5-b4\n" in two and two.endswith("Move 2, Blue> ")


def test_undo_against_kamen_takes_back_its_reply_and_your_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, out, _ = play(monkeypatch, "oware", "--vs", "kamen:easy", typed="C\nundo\nundo\nquit\n")
    first, after, undone = boards(out)
    assert undone == first and after != first
    assert out.endswith("Move 1, South> Nothing to undo.\nMove 1, South> ")
    _, kamen_first, _ = play(monkeypatch, "oware", "--vs", "kamen:easy", "--as", "second",
                             typed="undo\nquit\n")  # fmt: skip
    assert "Nothing to undo." in kamen_first  # Kamen's opening move alone is not yours


@pytest.mark.parametrize("given", ["kamen:hardest", "kamen:", "bob", "kamen"])
def test_a_bad_level_is_refused_with_the_levels(
    monkeypatch: pytest.MonkeyPatch, given: str
) -> None:
    code, out, err = play(monkeypatch, "oska", "--vs", given)
    assert code == 2 and out == ""
    choices = ", ".join(f"kamen:{level}" for level in LEVELS)
    assert err == f"error: `{given}` is not an opponent here: write one of {choices}\n"
    assert "kamen:1" in choices and "kamen:8" in choices


def test_a_level_is_read_in_any_case(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = play(monkeypatch, "oska", "--vs", "Kamen:EASY")
    assert code == 0 and "Kamen (level 1)" in out


# ------------------------------------------------------------------ bad input


def test_an_illegal_move_lists_the_legal_ones_and_the_game_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, out, _ = play(monkeypatch, "lasca", typed="c3-d4\ne5-d4\nZZ\ne5xc3\nquit\n")
    assert code == 0
    assert "Move 1, Black> `e5-d4`: " in out and "Legal moves: e5xc3\n" in out
    assert "Move 1: Black played e5xc3" in out


def test_the_end_of_input_and_ctrl_c_end_the_game_cleanly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, out, err = play(monkeypatch, "oska", typed="a1-b2\n")
    assert (code, err) == (0, "") and out.endswith("Move 1, Red> \n")
    code, out, err = play(monkeypatch, "oware", "--vs", "kamen:easy", typed=Interrupted())
    assert (code, err) == (130, "") and out.endswith("Move 1, South> \n")


def test_bytes_that_are_not_text_are_refused_not_a_crash() -> None:
    """Under a UTF-8 locale Python reads stdin strictly; a stray byte used to end the game
    with a UnicodeDecodeError."""
    env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
    done = subprocess.run(
        [sys.executable, "-m", "games", "play", "oska"],
        input=b"a1-b2\n\xff\xfe\na5-b4\nquit\n",
        capture_output=True,
        cwd=ROOT,
        env={**env, "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8:strict"},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode()
    assert "Move 1, Red> `\ufffd\ufffd` is not a move" in out
    assert "Move 1: Red played a5-b4" in out


class RandomPlayer:
    """A player who types a random legal move from the screen, and now and then a command
    or something that is no move at all."""

    def __init__(self, screen: io.StringIO, seed: str) -> None:
        self.screen, self.rng = screen, random.Random(seed)

    def readline(self) -> str:
        if self.rng.random() < 0.15:
            return self.rng.choice(["undo", "record", "help", "", "zz", "a1-b2x", "pass"]) + "\n"
        shown = [line for line in self.screen.getvalue().splitlines() if "Legal moves: " in line]
        legal = shown[-1].split("Legal moves: ")[1].replace(",", " ").split()  # a refusal's, too
        return self.rng.choice(legal) + "\n"


@pytest.mark.parametrize("game", list(GAMES))
def test_every_variant_plays_to_its_end_in_the_terminal(game: str) -> None:
    """Huff removals, passes, Oware's obligations: every board is drawn, every game ends."""
    spec = GAMES[game]
    for number, variant in enumerate(spec.all_variants()):
        screen = io.StringIO()
        seats = [
            Seats(colour=True),
            Seats(view=Side.SECOND),
            Seats(colour=True, kamen=kamen_player(), level="easy", kamen_side=Side.FIRST),
        ][number % 3]
        player = RandomPlayer(screen, f"{game}/{variant}")
        typed = cast(TextIO, player)
        code = play_interactively(spec, spec.start(variant), typed, screen, "en", seats)
        out = screen.getvalue()
        assert code == 0 and "\nGame over: " in out, (game, str(variant))
        assert len(boards(out)) >= 2
