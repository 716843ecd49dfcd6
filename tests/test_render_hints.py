"""Hints on the board of the player to move, probed pixel by pixel.

`hints=True` marks the pieces (Oware: the pits) that can move and nothing
else; `selected` marks the piece picked and where its moves end; a capture the
rules compel is marked in gold (`must`) where a free move is green (`hint`),
and the caption's note says it. Each test renders a position and looks at the
pixels where the marks are drawn, found through `render.centre`, from both
sides of the board.
"""

from __future__ import annotations

import io
from textwrap import dedent
from typing import cast

import pytest
from PIL import Image

import render
from games import lasca, oska, oware
from games.base import GameState, Side
from games.registry import GAMES
from render.painters import painter_for
from render.scene import caption
from render.theme import THEME

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]
SIDES = list(Side)


def rgb(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def pixel(image: Image.Image, xy: tuple[int, int]) -> RGB:
    return cast(RGB, image.getpixel(xy))


def colours_in(image: Image.Image, box: Box) -> set[RGB]:
    found = image.crop(box).getcolors(1 << 16) or []
    return {cast(RGB, colour) for _, colour in found}


def count_of(image: Image.Image, box: Box, colour: RGB) -> int:
    found = image.crop(box).getcolors(1 << 16) or []
    return sum(n for n, seen in found if seen == colour)


def play(game: str, *moves: str, variant: str = "") -> GameState:
    state = GAMES[game].new(variant)
    for move in moves:
        state = state.play(move)
    return state


def note_of(state: GameState) -> str:
    return caption(state.spec, painter_for(state.spec), state, None, None, None).note


COMPULSORY = "must capture: capturing is compulsory"

# ------------------------------------------------------------------- Oska

# Pixels of a 640 image: a brick's height (rows are a brick apart) and width.
BRICK_H = render.centre("oska", "a1")[1] - render.centre("oska", "b2")[1]
BRICK_W = render.centre("oska", "c1")[0] - render.centre("oska", "a1")[0]
STONE_R = round(BRICK_H * 0.4)


def oska_ring(image: Image.Image, square: str, perspective: Side) -> set[RGB]:
    """The colours just outside a stone, where a ring round it is drawn."""
    x, y = render.centre("oska", square, perspective=perspective)
    return colours_in(image, (x - STONE_R * 5 // 4, y - 1, x - STONE_R + 1, y + 2))


def oska_brick(image: Image.Image, square: str, perspective: Side) -> RGB:
    """The colour of a brick beside its stone (a stone covers the middle)."""
    x, y = render.centre("oska", square, perspective=perspective)
    return pixel(image, (x + BRICK_W * 2 // 5, y + BRICK_H // 4))


# Blue's b2 has no step (c3 is Red's) but can jump c3 to d4; Blue's g1 can step to f2.
OSKA_JUMP = "5 r . . .\n4 . . .\n3 r .\n2 b . .\n1 . . . b\nBlue to move"


@pytest.mark.parametrize("perspective", SIDES)
def test_oska_hints_ring_the_stones_that_can_move_and_only_them(perspective: Side) -> None:
    state = play("oska", "a1-b2", "a5-b4")  # Blue: b2, c1, e1, g1 all can step
    hinted = rgb(render.board(state, hints=True, perspective=perspective))
    plain = rgb(render.board(state, perspective=perspective))
    for square in ("b2", "c1", "e1", "g1"):
        assert THEME.hint in oska_ring(hinted, square, perspective), square
        assert THEME.hint not in oska_ring(plain, square, perspective), square
        assert pixel(hinted, render.centre("oska", square, perspective=perspective)) == THEME.blue
    for square in ("b4", "c5"):  # Red's stones: not Red's turn
        assert THEME.hint not in oska_ring(hinted, square, perspective), square
    for square in ("c3", "d2", "a1"):  # where stones may go is not marked
        centre = render.centre("oska", square, perspective=perspective)
        assert pixel(hinted, centre) == THEME.brick, square


@pytest.mark.parametrize("perspective", SIDES)
def test_an_oska_stone_picked_shows_where_it_can_go(perspective: Side) -> None:
    state = play("oska", "a1-b2", "a5-b4")
    image = rgb(render.board(state, selected="c1", perspective=perspective))
    assert oska_brick(image, "c1", perspective) == THEME.hint
    assert pixel(image, render.centre("oska", "c1", perspective=perspective)) == THEME.blue
    assert pixel(image, render.centre("oska", "d2", perspective=perspective)) == THEME.hint
    for square in ("f2", "c3", "e3"):  # another stone's step, out of reach
        assert pixel(image, render.centre("oska", square, perspective=perspective)) == THEME.brick
    assert oska_brick(image, "e1", perspective) == THEME.brick
    assert THEME.hint not in oska_ring(image, "e1", perspective)  # no hints asked
    both = rgb(render.board(state, selected="c1", hints=True, perspective=perspective))
    assert THEME.hint in oska_ring(both, "e1", perspective)


@pytest.mark.parametrize("perspective", SIDES)
def test_a_compulsory_oska_capture_is_marked_gold_with_its_landing(perspective: Side) -> None:
    state = oska.from_text(OSKA_JUMP, oska.SPEC.variant())
    assert state.legal_moves() == ("b2xd4",)  # g1 may not step: capturing is compulsory
    hinted = rgb(render.board(state, hints=True, perspective=perspective))
    assert THEME.must in oska_ring(hinted, "b2", perspective)
    assert THEME.hint not in oska_ring(hinted, "b2", perspective)
    assert not {THEME.must, THEME.hint} & oska_ring(hinted, "g1", perspective)
    picked = rgb(render.board(state, selected="b2", perspective=perspective))
    assert oska_brick(picked, "b2", perspective) == THEME.must
    assert pixel(picked, render.centre("oska", "d4", perspective=perspective)) == THEME.must
    assert pixel(picked, render.centre("oska", "f2", perspective=perspective)) == THEME.brick
    assert note_of(state) == f"Blue {COMPULSORY}"


@pytest.mark.parametrize("variant", ["capture=optional", "capture=huff", "capture=huff-opponent"])
def test_an_oska_capture_that_may_be_declined_is_no_obligation(variant: str) -> None:
    # Under these rules g1 may step instead; with g1 gone, the jump is all b2 has, by
    # the position and not by the rules: still green, and the note is the rules line.
    state = oska.from_text(OSKA_JUMP.replace(". b\nBlue", ". .\nBlue"), oska.SPEC.variant(variant))
    assert state.legal_moves() == ("b2xd4",)
    hinted = rgb(render.board(state, hints=True))
    assert THEME.hint in oska_ring(hinted, "b2", Side.FIRST)
    assert THEME.must not in colours_in(hinted, (0, 0, *hinted.size))
    assert COMPULSORY not in note_of(state)
    assert note_of(state) == f"Oska, {variant}"


# ------------------------------------------------------------------ Lasca


def lasca_state(diagram: str) -> lasca.LascaState:
    return lasca.from_text(dedent(diagram), lasca.SPEC.variant())


SQUARE = abs(render.centre("lasca", "c1")[0] - render.centre("lasca", "a1")[0]) // 2


def lasca_edge(image: Image.Image, square: str, perspective: Side) -> RGB:
    """The colour at the middle of a square's left edge, where a frame is drawn."""
    x, y = render.centre("lasca", square, perspective=perspective)
    return pixel(image, (x - SQUARE // 2 + 1, y))


def lasca_corner(image: Image.Image, square: str, perspective: Side) -> RGB:
    """The colour inside a square's corner, which no stack covers."""
    x, y = render.centre("lasca", square, perspective=perspective)
    return pixel(image, (x - SQUARE // 2 + SQUARE // 8, y - SQUARE // 2 + SQUARE // 8))


# White's a1 must jump b2 to c3; White's g1 could step to f2 but may not.
LASCA_JUMP = """
    .   .   .   .
      .   .   .
    .   b   .   .
      .   .   .
    .   .   .   .
      b   .   .
    w   .   .   w
    White to move
"""


@pytest.mark.parametrize("perspective", SIDES)
def test_lasca_hints_frame_the_columns_that_can_move_and_only_them(perspective: Side) -> None:
    state = GAMES["lasca"].new()
    hinted = rgb(render.board(state, hints=True, perspective=perspective))
    for square in ("a3", "c3", "e3", "g3"):
        assert lasca_edge(hinted, square, perspective) == THEME.hint, square
    for square in ("a1", "b2", "d2", "a5", "c5", "b4", "d4"):  # blocked, Black's, empty
        assert lasca_edge(hinted, square, perspective) == THEME.dark_square, square
    assert THEME.must not in colours_in(hinted, (0, 0, *hinted.size))
    assert note_of(state) == "Lasca, standard rules"


@pytest.mark.parametrize("perspective", SIDES)
def test_a_lasca_column_picked_shows_its_landings(perspective: Side) -> None:
    state = GAMES["lasca"].new()
    image = rgb(render.board(state, selected="c3", perspective=perspective))
    assert lasca_corner(image, "c3", perspective) == THEME.hint
    for square in ("b4", "d4"):
        assert pixel(image, render.centre("lasca", square, perspective=perspective)) == THEME.hint
    assert pixel(image, render.centre("lasca", "f4", perspective=perspective)) == THEME.dark_square
    assert lasca_corner(image, "e3", perspective) == THEME.dark_square


@pytest.mark.parametrize("perspective", SIDES)
def test_a_compulsory_lasca_capture_is_marked_gold_with_its_landing(perspective: Side) -> None:
    state = lasca_state(LASCA_JUMP)
    assert state.legal_moves() == ("a1xc3",)
    hinted = rgb(render.board(state, hints=True, perspective=perspective))
    assert lasca_edge(hinted, "a1", perspective) == THEME.must
    assert lasca_edge(hinted, "g1", perspective) == THEME.dark_square  # may not step
    picked = rgb(render.board(state, selected="a1", perspective=perspective))
    assert lasca_corner(picked, "a1", perspective) == THEME.must
    assert pixel(picked, render.centre("lasca", "c3", perspective=perspective)) == THEME.must
    assert pixel(picked, render.centre("lasca", "f2", perspective=perspective)) == THEME.dark_square
    assert note_of(state) == f"White {COMPULSORY}"


def test_a_capture_sequence_is_marked_where_it_ends() -> None:
    state = lasca_state(
        """
        .   .   .   .
          .   .   .
        .   .   .   .
          .   b   .
        .   .   .   .
          b   .   .
        w   .   .   .
        White to move
        """
    )
    assert state.legal_moves() == ("a1xc3xe5",)
    image = rgb(render.board(state, selected="a1"))
    assert pixel(image, render.centre("lasca", "e5")) == THEME.must
    assert pixel(image, render.centre("lasca", "c3")) == THEME.dark_square  # passed, not an end


# ------------------------------------------------------------------ Oware


def oware_state(diagram: str, variant: str = "") -> oware.OwareState:
    return oware.from_text(dedent(diagram), oware.SPEC.variant(variant))


CELL = abs(render.centre("oware", "B")[0] - render.centre("oware", "A")[0])


def oware_rim(image: Image.Image, pit: str, perspective: Side) -> Box:
    """The band left of a pit, across the hole's rim, where rings are drawn."""
    x, y = render.centre("oware", pit, perspective=perspective)
    return (x - CELL // 2, y - 1, x - CELL * 3 // 10, y + 2)


def oware_around(pit: str, perspective: Side) -> Box:
    """A square round a pit, where a beaded ring (beads off the axes) shows; short of
    the neighbours' rings."""
    x, y = render.centre("oware", pit, perspective=perspective)
    reach = CELL * 38 // 100
    return (x - reach, y - reach, x + reach, y + reach)


OWARE = """
    North  f  e  d  c  b  a     store 10
           1  0  2  0  1  1
           0  3  0  12 0  4
    South  A  B  C  D  E  F     store 14
    South to move
"""


@pytest.mark.parametrize("perspective", SIDES)
def test_oware_hints_ring_the_pits_that_can_be_played(perspective: Side) -> None:
    state = oware_state(OWARE)
    assert set(state.legal_moves()) == {"B", "D", "F"}
    hinted = rgb(render.board(state, hints=True, perspective=perspective))
    plain = rgb(render.board(state, perspective=perspective))
    for pit in "BDF":
        assert THEME.hint in colours_in(hinted, oware_rim(hinted, pit, perspective)), pit
        assert THEME.hint not in colours_in(plain, oware_rim(plain, pit, perspective)), pit
    for pit in "ACEabf":  # empty pits, and North's
        assert THEME.hint not in colours_in(hinted, oware_rim(hinted, pit, perspective)), pit


@pytest.mark.parametrize("perspective", SIDES)
def test_an_oware_pit_picked_shows_where_its_last_seed_falls(perspective: Side) -> None:
    state = oware_state(OWARE)
    image = rgb(render.board(state, selected="D", hints=True, perspective=perspective))
    picked = count_of(image, oware_rim(image, "D", perspective), THEME.hint)
    other = count_of(image, oware_rim(image, "B", perspective), THEME.hint)
    assert picked > other > 0  # the pit picked has the bolder ring
    # 12 seeds from D: one in each of the 11 other pits (E to f, A to C), the 12th in E.
    assert THEME.hint in colours_in(image, oware_around("E", perspective))
    for pit in "ACabcdef":
        assert THEME.hint not in colours_in(image, oware_around(pit, perspective)), pit
    short = rgb(render.board(state, selected="F", perspective=perspective))  # 4 seeds: a-d
    assert THEME.hint in colours_in(short, oware_around("d", perspective))
    assert THEME.hint not in colours_in(short, oware_around("e", perspective))


def test_an_oware_move_that_captures_is_never_a_compulsory_capture() -> None:
    # F's one seed makes a 2 in a, a capture, and F is South's only move: no rule compels it.
    state = oware_state(
        """
        North  f  e  d  c  b  a     store 20
               4  0  0  0  0  1
               0  0  0  0  0  1
        South  A  B  C  D  E  F     store 22
        South to move
        """
    )
    assert state.legal_moves() == ("F",)
    assert state.describe("F").captured == ("a",)
    image = rgb(render.board(state, hints=True, selected="F"))
    assert THEME.must not in colours_in(image, (0, 0, *image.size))
    assert THEME.hint in colours_in(image, oware_around("a", Side.FIRST))
    assert note_of(state) == "Oware, standard rules"


# ---------------------------------------------------- what may be selected


@pytest.mark.parametrize(
    ("game", "square", "why"),
    [
        ("oska", "z9", "not a square of Oska"),
        ("oska", "d4", "no legal move of Oska starts there"),  # empty
        ("oska", "a5", "no legal move of Oska starts there"),  # Red's, Blue to move
        ("lasca", "b2", "no legal move of Lasca starts there"),  # blocked
        ("lasca", "b1", "not a square of Lasca"),  # a light square
        ("oware", "a", "no legal move of Oware starts there"),  # North's
        ("oware", "G", "not a square of Oware"),
    ],
)
def test_a_selection_that_cannot_move_is_refused_saying_why(
    game: str, square: str, why: str
) -> None:
    with pytest.raises(ValueError, match=why):
        render.board(GAMES[game].new(), selected=square)


def test_nothing_can_be_selected_or_hinted_once_the_game_is_over() -> None:
    state = oska.from_text(
        "5 . . . .\n4 . . .\n3 . .\n2 . . .\n1 r . . .\nBlue to move", oska.SPEC.variant()
    )
    assert state.outcome() is not None
    with pytest.raises(ValueError, match="the game is over"):
        render.board(state, selected="a1")
    assert render.board(state, hints=True) == render.board(state)


def test_the_refusal_names_the_pieces_that_can_move() -> None:
    with pytest.raises(ValueError, match=r"can move are on: a3, c3, e3, g3"):
        render.board(GAMES["lasca"].new(), selected="a1")
