"""The review's images (render/review.py), probed pixel by pixel: the chart's size, its
marks where the moves' drops land, its fill either side of the middle line; the board
with the move played and the better move drawn where their squares or pits are."""

from __future__ import annotations

import io
from typing import cast

import pytest
from PIL import Image

import render
from games.ai.review import MARKS, PlyReview, Review, Score
from games.base import GameState, Side
from games.registry import get
from render.review import (
    HEIGHT,
    MARK_COLOURS,
    WIDTH,
    BoardLabels,
    ChartLabels,
    better_move_board,
    mark_point,
    review_chart,
)
from render.tables import palette
from render.theme import THEME

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]
LABELS = ChartLabels("Oska: Ann v Bob", "move", "Blue ahead", "Red ahead", MARKS)


def rgb(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def pixel(image: Image.Image, xy: tuple[int, int]) -> RGB:
    return cast(RGB, image.getpixel(xy))


def count_of(image: Image.Image, box: Box, colour: RGB) -> int:
    found = image.crop(box).getcolors(1 << 20) or []
    return sum(n for n, seen in found if seen == colour)


def brightness(colour: RGB) -> int:
    return sum(colour)


def made_review(curve: list[float], marks: dict[int, str]) -> Review:
    """A review with the curve given and a mark on the plies named (the rest unmarked)."""
    plies = tuple(
        PlyReview(ply, Side(ply % 2), "x", "y", Score(0), Score(0), 0, marks.get(ply), "", 0, False)
        for ply in range(len(curve) - 1)
    )
    return Review("oska", "", plies, tuple(curve), "result")


# A game that swings up, then down, with one mark of each kind on the way.
CURVE = [0.0, 0.1, 0.3, 0.5, 0.7, 0.8, 0.6, 0.2, -0.3, -0.6, -0.8, -0.7, -0.75, -0.9, -1.0]
MARKED = {3: "inaccuracy", 6: "mistake", 7: "blunder"}


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_the_chart_has_its_size_and_a_dot_of_the_marks_colour_on_each_marked_move(
    theme: str,
) -> None:
    review = made_review(CURVE, MARKED)
    image = rgb(review_chart(review, LABELS, theme=theme))
    assert image.size == (WIDTH, HEIGHT)
    inks = MARK_COLOURS[theme]
    for ply, mark in MARKED.items():
        assert pixel(image, mark_point(review, ply)) == inks[MARKS.index(mark)]
    # An unmarked move's point carries no mark's colour.
    for ply in (0, 1, 9, 11):
        assert pixel(image, mark_point(review, ply)) not in inks


def test_the_area_above_the_middle_is_lighter_and_below_darker_than_the_ground() -> None:
    review = made_review(CURVE, {})
    image = rgb(review_chart(review, LABELS))
    ground = palette("dark").background
    x, y_up = mark_point(review, 3)  # after move 4 the curve is at 0.8: the fill reaches it
    _, y_middle = mark_point(made_review([0.0, 0.0], {}), 0)
    assert brightness(pixel(image, (x, (y_up + y_middle) // 2))) > brightness(ground) + 60
    x, y_down = mark_point(review, 12)  # after the last move: -1
    assert brightness(pixel(image, (x - 30, (y_down + y_middle) // 2))) < brightness(ground)
    # Beyond the curve, on the other side of the middle, the ground is bare.
    assert pixel(image, (x - 30, (y_up + y_middle) // 2)) == ground


def test_a_review_of_no_moves_still_draws_a_chart() -> None:
    image = rgb(review_chart(Review("oska", "", (), (0.0,), "result"), LABELS))
    assert image.size == (WIDTH, HEIGHT)


# ------------------------------------------------------------------ boards


def play(game: str, *moves: str) -> GameState:
    return get(game).replay("", moves)


def between(a: tuple[int, int], b: tuple[int, int], share: float) -> tuple[int, int]:
    return round(a[0] + (b[0] - a[0]) * share), round(a[1] + (b[1] - a[1]) * share)


@pytest.mark.parametrize("perspective", list(Side))
def test_the_better_move_is_a_solid_green_arrow_and_the_played_one_a_dashed_magenta(
    perspective: Side,
) -> None:
    state = play("oska", "c1-d2")  # Red to move
    played, better = "a5-b4", "g5-f4"
    data = better_move_board(
        state,
        played,
        better,
        BoardLabels("Played: a5-b4", "Better: g5-f4"),
        perspective=perspective,
    )
    image = rgb(data)
    plain = rgb(render.board(state, perspective=perspective))
    assert image.width == plain.width and image.height > plain.height  # the legend below

    def at(square: str) -> tuple[int, int]:
        return render.centre(state, square, perspective=perspective)

    # Solid: every point of the better move's shaft is green.
    for share in (0.3, 0.4, 0.5):
        assert pixel(image, between(at("g5"), at("f4"), share)) == THEME.hint
    # Dashed: magenta along the played move, and not in the same place on the plain board.
    x0, y0 = at("a5")
    x1, y1 = at("b4")
    box = (min(x0, x1) - 5, min(y0, y1) - 5, max(x0, x1) + 5, max(y0, y1) + 5)
    assert count_of(image, box, THEME.taken) > 200
    assert count_of(plain, box, THEME.taken) == 0
    assert count_of(image, box, THEME.hint) == 0  # the better move is elsewhere
    # The legend under the board shows both marks.
    legend = (0, plain.height, image.width, image.height)
    assert count_of(image, legend, THEME.taken) > 20
    assert count_of(image, legend, THEME.hint) > 20


def test_an_oware_move_is_a_ring_round_its_pit() -> None:
    state = play("oware", "C", "d")  # South to move
    image = rgb(better_move_board(state, "A", "F", BoardLabels("played A", "better F")))
    plain = rgb(render.board(state))
    for pit, colour in (("A", THEME.taken), ("F", THEME.hint)):
        x, y = render.centre(state, pit)
        box = (x - 45, y - 45, x + 45, y + 45)
        assert count_of(image, box, colour) > 150
        assert count_of(plain, box, colour) == 0


def test_a_move_that_is_not_legal_is_refused() -> None:
    state = play("lasca")
    with pytest.raises(ValueError, match="a1-b2"):
        better_move_board(state, "a1-b2", "c3-d4", BoardLabels("", ""))
