"""The alt text of a board: the position in words for a screen reader, in English and Czech.

`render.describe` says the game, whose turn it is or the result, the move
just played, then every piece (Oska's stones, Lasca's pieces and columns top
down, Oware's pits and stores), in at most 1024 characters (Discord's limit
for an attachment's description). The move numbers it and the captions say
are the record's.
"""

# Czech writes a count of like pieces with a multiplication sign (2 times, `2\u00d7`): meant.
# ruff: noqa: RUF001

from __future__ import annotations

import random
import re
from textwrap import dedent

import pytest

import render
import render.alt_text as describing
from games import lasca, oska, oware
from games.base import GameState, Outcome, Side, Termination
from games.record import record_of
from games.registry import GAMES
from render.painters import painter_for
from render.scene import caption

LIMIT = 1024  # Discord's limit on an attachment's description


def play(game: str, *moves: str) -> GameState:
    state = GAMES[game].new()
    for move in moves:
        state = state.play(move)
    return state


def random_game(game: str, seed: int, plies: int = 10_000) -> GameState:
    rng = random.Random(seed)
    state = GAMES[game].new()
    while (legal := state.legal_moves()) and len(state.moves) < plies:
        state = state.play(rng.choice(legal))
    return state


# ------------------------------------------------------------ what is said


def test_the_start_of_each_game_in_english() -> None:
    assert render.describe(GAMES["oska"].new()) == (
        "Oska, standard rules. Blue to move. New game. "
        "Blue: stones on a1, c1, e1, g1. Red: stones on a5, c5, e5, g5."
    )
    assert render.describe(GAMES["lasca"].new(), players=("Ann", "Bob")) == (
        "Lasca, standard rules. Ann (White) to move. New game. "
        "White: soldiers on a1, c1, e1, g1, b2, d2, f2, a3, c3, e3, g3. "
        "Black: soldiers on a5, c5, e5, g5, b6, d6, f6, a7, c7, e7, g7."
    )
    assert render.describe(GAMES["oware"].new("must-play-12=on")) == (
        "Oware, must-play-12=on. South to move. New game. "
        "South: pits A to F hold 4, 4, 4, 4, 4, 4; 0 seeds in the store. "
        "North: pits a to f hold 4, 4, 4, 4, 4, 4; 0 seeds in the store."
    )


def test_the_start_of_each_game_in_czech() -> None:
    assert render.describe(GAMES["oska"].new(), locale="cs") == (
        "Oska, standardní pravidla. Na tahu je Modrý. Nová partie. "
        "Modrý: kameny na a1, c1, e1, g1. Červený: kameny na a5, c5, e5, g5."
    )
    assert render.describe(GAMES["lasca"].new(), locale="cs", players=("Anna", "Bartoloměj")) == (
        "Laska, standardní pravidla. Na tahu je Anna (Bílý). Nová partie. "
        "Bílý: vojáci na a1, c1, e1, g1, b2, d2, f2, a3, c3, e3, g3. "
        "Černý: vojáci na a5, c5, e5, g5, b6, d6, f6, a7, c7, e7, g7."
    )
    assert render.describe(GAMES["oware"].new(), locale="cs") == (
        "Oware, standardní pravidla. Na tahu je Jih. Nová partie. "
        "Jih: v jamkách A až F je 4, 4, 4, 4, 4, 4; ve skladu 0 semínek. "
        "Sever: v jamkách a až f je 4, 4, 4, 4, 4, 4; ve skladu 0 semínek."
    )


COLUMNS = """
    .   .   .   .
      .   .   .
    .   .   .   .
      bbW  B   .
    .   .   .   .
      .   wbwB   .
    w   .   .   w
    Black to move
"""


def test_lasca_columns_are_said_from_the_top_down_and_single_pieces_by_rank() -> None:
    state = lasca.from_text(dedent(COLUMNS), lasca.SPEC.variant())
    said = render.describe(state)
    assert "White: soldiers on a1, g1. Black: officer on d4. " in said
    assert said.endswith(
        "Columns (top piece first): "
        "d2: Black officer, White soldier, Black soldier, White soldier; "
        "b4: White officer, 2 Black soldiers."
    )
    czech = render.describe(state, locale="cs")
    assert "Bílý: vojáci na a1, g1. Černý: důstojník na d4. " in czech
    assert czech.endswith(
        "Sloupce (shora dolů): "
        "d2: Černý důstojník, Bílý voják, Černý voják, Bílý voják; "
        "b4: Bílý důstojník, 2× Černý voják."
    )


def test_a_finished_game_says_the_result_why_and_the_last_move() -> None:
    state = oska.from_text(
        "5 . . . .\n4 . . .\n3 b .\n2 . . .\n1 r . . .\nBlue to move", oska.SPEC.variant()
    )
    said = render.describe(state, players=("Ann", "Bob"))
    assert said.startswith("Oska, standard rules. Bob (Red) wins. Red has every stone home. ")
    assert "to move" not in said
    assert said.endswith("Blue: stone on c3. Red: stone on a1.")
    gone = oska.from_text(
        "5 . . . .\n4 . . .\n3 . .\n2 . . .\n1 r . . .\nBlue to move",
        oska.SPEC.variant("win=elimination"),
    )
    assert render.describe(gone).endswith("Blue: no stones left. Red: stone on a1.")
    resigned = Outcome(Side.FIRST, Termination.RESIGNATION, side=Side.SECOND)
    game = play("oska", "a1-b2", "a5-b4")
    assert render.describe(game, outcome=resigned).startswith(
        "Oska, standard rules. Blue wins. Red resigned. Move 1: Red played a5-b4. "
    )
    assert render.describe(game, outcome=resigned, locale="cs").startswith(
        "Oska, standardní pravidla. Vyhrává Modrý. Červený se vzdal. Tah 1: Červený táhl a5-b4. "
    )


def test_an_obligation_and_a_capture_are_said_before_the_pieces() -> None:
    state = play("oska", "a1-b2", "a5-b4", "b2-c3")
    said = render.describe(state)
    assert said.startswith(
        "Oska, standard rules. Red to move. Red must capture: capturing is compulsory. "
        "Move 2: Blue played b2-c3. "
    )
    taken = state.play("b4xd2")
    assert "Move 2: Red played b4xd2, taking c3. Blue: stones on c1, e1, g1." in (
        render.describe(taken)
    )


def test_every_oware_count_and_both_stores_are_said() -> None:
    state = oware.from_text(
        dedent(
            """
            North  f  e  d  c  b  a     store 3
                   1  0  2  13 1  1
                   0  3  0  12 0  4
            South  A  B  C  D  E  F     store 8
            South to move
            """
        ),
        oware.SPEC.variant(),
    )
    said = render.describe(state)
    assert "South: pits A to F hold 0, 3, 0, 12, 0, 4; 8 seeds in the store." in said
    assert "North: pits a to f hold 1, 1, 13, 2, 0, 1; 3 seeds in the store." in said
    czech = render.describe(state, locale="cs")
    assert "Jih: v jamkách A až F je 0, 3, 0, 12, 0, 4; ve skladu 8 semínek." in czech
    assert "Sever: v jamkách a až f je 1, 1, 13, 2, 0, 1; ve skladu 3 semínka." in czech


@pytest.mark.parametrize("game", list(GAMES))
def test_every_piece_of_a_random_game_is_named_where_it_stands(game: str) -> None:
    for seed in range(5):
        state = random_game(game, seed, 30 + 7 * seed)
        said = render.describe(state)
        if isinstance(state, oware.OwareState):
            for side, name in ((0, "South"), (1, "North")):
                counts = ", ".join(str(n) for n in state.pits[6 * side : 6 * side + 6])
                assert f"{name}: pits" in said and f"hold {counts};" in said
            continue
        squares = oska.SQUARES if game == "oska" else lasca.SQUARES
        last = render.last_move_of(state)
        move_line = caption(state.spec, painter_for(state.spec), state, last, None, None).move
        pieces = said.partition(move_line)[2]
        assert pieces
        for square in squares:
            occupied = (
                square in state.stones(Side.FIRST) + state.stones(Side.SECOND)
                if isinstance(state, oska.OskaState)
                else bool(state.column(square))  # type: ignore[attr-defined]
            )
            named = re.search(rf"\b{square}\b", pieces) is not None
            assert named == occupied, (square, said)


# ------------------------------------------------------------- its length


EXTREME_LASCA = """
    WB  BW  WB  BW
      BW  WB  BW
    WB  BW  WB  BW
      .   .   .
    .   .   .   .
      .   .   .
    .   .   .   .
    White to move
"""


@pytest.mark.parametrize("locale", [None, "cs"])
def test_the_longest_positions_fit_discords_limit(locale: str | None) -> None:
    names = ("Ž" * 32, "W" * 32)  # Discord's longest display names
    # Every piece an officer, each of 11 columns two pieces of two sides: the most words.
    extreme = lasca.from_text(dedent(EXTREME_LASCA), lasca.SPEC.variant())
    said = render.describe(extreme, players=names, locale=locale)
    assert said.count("; ") == 10 and len(said) <= LIMIT and "…" not in said
    longest = 0
    for game in GAMES:
        for seed in range(40):
            state = random_game(game, seed)
            while True:  # every position of the game, back to its start
                longest = max(longest, len(render.describe(state, players=names, locale=locale)))
                if not state.moves or len(state.moves) % 7:
                    break
                state = GAMES[game].replay(state.variant, state.moves[:-7])
    assert longest <= LIMIT


def test_a_text_too_long_is_cut_at_a_comma_and_marked(monkeypatch: pytest.MonkeyPatch) -> None:
    whole = render.describe(GAMES["lasca"].new())
    monkeypatch.setattr(describing, "LIMIT", 120)
    said = render.describe(GAMES["lasca"].new())
    assert len(said) <= 120 < len(whole) and said.endswith("…")
    kept = said[:-1]
    assert whole.startswith(kept) and whole[len(kept) :].startswith(", ")


# ------------------------------------------------------------ one numbering


def record_numbers(state: GameState) -> list[int]:
    """The number the exported record writes before (or for) each move, read from its text."""
    text = record_of(state.spec, state).to_text().split("\n\n", 1)[1]
    numbers, number = [], 0
    for token in text.split()[:-1]:  # the result last
        if re.fullmatch(r"\d+\.", token):
            number = int(token[:-1])
        else:
            numbers.append(number)
    return numbers


def game_with_a_pass() -> GameState:
    for seed in range(300):
        state = random_game("oska", seed)
        if "pass" in state.moves[1:]:
            return state
    raise LookupError("no random Oska game passed")


@pytest.mark.parametrize("game", list(GAMES))
def test_the_caption_and_the_alt_text_number_moves_as_the_record_does(game: str) -> None:
    state = game_with_a_pass() if game == "oska" else random_game(game, 2, 41)
    numbers = record_numbers(state)
    assert len(numbers) == len(state.moves)
    painter = painter_for(state.spec)
    for ply in range(len(state.moves)):
        position = GAMES[game].replay(state.variant, state.moves[: ply + 1])
        line = caption(state.spec, painter, position, None, None, None).move
        # A pass is said after the move it followed, with that move's number.
        real = max((i for i in range(ply + 1) if state.moves[i] != "pass"), default=ply)
        assert line.startswith(f"Move {numbers[real]}: "), (ply, line)
        assert f" Move {numbers[real]}: " in render.describe(position)
