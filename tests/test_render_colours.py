"""Colours a player must tell apart, under the common colour-vision deficiencies.

Each pair of colours that carries a meaning (the two sides, rank, the last
move against the board) is passed through the Machado, Oliveira & Fernandes
(2009) simulation of protanopia, deuteranopia and tritanopia at full severity,
a matrix on linear RGB, and its CIELAB distance must stay large. Text must keep
a WCAG contrast ratio against what it is written on. The pairs are probed on a
rendered image too, so the theme's colours are the ones really drawn.
"""

from __future__ import annotations

import io
import math

import pytest
from PIL import Image

import render
from games.registry import GAMES
from render.theme import RGB, THEME

# Machado et al. 2009, severity 1.0, applied to linear RGB.
VISION: dict[str, tuple[tuple[float, float, float], ...]] = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def linear(channel: int) -> float:
    value = channel / 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def simulate(colour: RGB, vision: str) -> tuple[float, float, float]:
    """The linear RGB a viewer with `vision` sees for `colour`."""
    rgb = [linear(c) for c in colour]
    return tuple(  # type: ignore[return-value]
        min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True))))
        for row in VISION[vision]
    )


def lab(linear_rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = linear_rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def distance(a: RGB, b: RGB, vision: str) -> float:
    """CIE76 distance between two colours as a viewer with `vision` sees them."""
    return math.dist(lab(simulate(a, vision)), lab(simulate(b, vision)))


def contrast(a: RGB, b: RGB) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""

    def luminance(colour: RGB) -> float:
        r, g, b = (linear(c) for c in colour)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


T = THEME
# Pieces: who owns them and their rank, against each other and the board.
PIECES: list[tuple[str, RGB, RGB]] = [
    ("Oska blue and red stones", T.blue, T.red),
    ("Oska blue stone and brick", T.blue, T.brick),
    ("Oska red stone and brick", T.red, T.brick),
    ("Lasca white and black soldiers", T.white_face, T.black_face),
    ("Lasca white and black officers", T.white_officer_face, T.black_officer_face),
    ("Lasca white officer and black soldier", T.white_officer_face, T.black_face),
    ("Lasca black officer and black soldier", T.black_officer_face, T.black_face),
    ("Lasca white officer and white soldier", T.white_officer_face, T.white_face),
    ("Lasca white officer's and black soldier's edges", T.white_officer_side, T.black_side),
    ("Lasca black officer's and black soldier's edges", T.black_officer_side, T.black_side),
    ("Lasca white soldier's and officer's edges", T.white_side, T.white_officer_side),
    ("Lasca black soldier and dark square", T.black_face, T.dark_square),
    ("Lasca white soldier and dark square", T.white_face, T.dark_square),
    ("Lasca black officer and dark square", T.black_officer_face, T.dark_square),
    ("Oware seed and pit", T.seed, T.pit),
]
# Marks: the last move and hints against what they are drawn on.
MARKS: list[tuple[str, RGB, RGB]] = [
    ("Oska square left and brick", T.came_from, T.brick),
    ("Oska square reached and brick", T.went_to, T.brick),
    ("Oska square left and square reached", T.came_from, T.went_to),
    ("Lasca square left and dark square", T.came_from_dark, T.dark_square),
    ("Lasca square left and light square", T.came_from_dark, T.light_square),
    ("Lasca square reached and dark square", T.went_to, T.dark_square),
    ("Lasca square left and square reached", T.came_from_dark, T.went_to),
    ("Oware sown ring and wood", T.went_to, T.wood),
    ("Oware hint ring and wood", T.hint, T.wood),
    ("Oware sown ring and hint ring", T.went_to, T.hint),
    ("captured cross and brick", T.taken, T.brick),
    ("captured cross and dark square", T.taken, T.dark_square),
    ("captured cross and pit", T.taken, T.pit),
    ("hint and brick", T.hint, T.brick),
    ("hint and dark square", T.hint, T.dark_square),
    ("hint and light square", T.hint, T.light_square),
    ("hint and square left", T.hint, T.came_from_dark),
    ("compulsory capture and hint", T.must, T.hint),
    ("compulsory capture and brick", T.must, T.brick),
    ("compulsory capture and dark square", T.must, T.dark_square),
    ("compulsory capture and light square", T.must, T.light_square),
    ("compulsory capture and square reached", T.must, T.went_to),
    ("compulsory capture and captured cross", T.must, T.taken),
    ("compulsory capture and red stone", T.must, T.red),
    ("compulsory capture and white officer", T.must, T.white_officer_face),
]


@pytest.mark.parametrize("vision", list(VISION))
@pytest.mark.parametrize(("what", "a", "b"), PIECES, ids=[p[0] for p in PIECES])
def test_pieces_stay_apart(what: str, a: RGB, b: RGB, vision: str) -> None:
    assert distance(a, b, vision) >= 20, f"{what} look alike under {vision}"


@pytest.mark.parametrize("vision", list(VISION))
@pytest.mark.parametrize(("what", "a", "b"), MARKS, ids=[m[0] for m in MARKS])
def test_marks_stand_out(what: str, a: RGB, b: RGB, vision: str) -> None:
    assert distance(a, b, vision) >= 12, f"{what} look alike under {vision}"


def test_the_simulation_confuses_the_pairs_each_deficiency_is_known_to_confuse() -> None:
    # The test of the tests: pairs that fail the bar where, and only where, they should.
    red, olive = (180, 80, 40), (120, 120, 40)
    blue, teal = (60, 120, 200), (40, 160, 150)
    assert distance(red, olive, "normal") >= 20 and distance(red, olive, "tritanopia") >= 20
    assert distance(red, olive, "protanopia") < 20
    assert distance(red, olive, "deuteranopia") < 20
    assert distance(blue, teal, "normal") >= 20 and distance(blue, teal, "deuteranopia") >= 20
    assert distance(blue, teal, "tritanopia") < 20


TEXT: list[tuple[str, RGB, RGB, float]] = [
    ("caption on the panel", T.text, T.panel, 7.0),
    ("coordinates on the panel", T.muted, T.panel, 4.5),
    ("square names on a brick", T.brick_label, T.brick, 3.0),
    ("square names on the brick of a stone picked", T.hint_edge, T.hint, 3.0),
    ("square names on the brick of a stone picked to capture", T.must_edge, T.must, 3.0),
    ("Lasca's legend on the panel", T.muted, T.panel, 4.5),
    ("pit counts in their badge", T.count_text, T.count, 7.0),
    ("a column's count in its badge", T.badge_text, T.badge, 4.5),
    ("store names and counts on a store", T.text, T.pit, 4.5),
]


@pytest.mark.parametrize(("what", "ink", "paper", "least"), TEXT, ids=[t[0] for t in TEXT])
def test_text_contrasts_with_what_it_is_written_on(
    what: str, ink: RGB, paper: RGB, least: float
) -> None:
    assert contrast(ink, paper) >= least, what


def test_the_colours_tested_are_the_colours_drawn() -> None:
    state = GAMES["oska"].new().play("a1-b2")
    image = Image.open(io.BytesIO(render.board(state))).convert("RGB")
    assert image.getpixel(render.centre("oska", "a5")) == T.red
    assert image.getpixel(render.centre("oska", "c1")) == T.blue
    assert image.getpixel(render.centre("oska", "a1")) == T.came_from
    assert image.getpixel(render.centre("oska", "c3")) == T.brick
    assert image.getpixel((2, 2)) == T.panel


def test_every_theme_colour_survives_the_palette_exactly() -> None:
    # Channels on multiples of 4 map onto themselves through Pillow's palette cache.
    assert all(channel % 4 == 0 for colour in T.colours() for channel in colour)
