"""Leaderboard tables and rating charts: what a reader must be able to see, probed pixel by pixel.

No golden images: each test renders a table or chart, decodes the PNG and
looks at what carries a meaning (the highlighted row stands out, a muted row
is dimmer, every series is drawn in its colour), the rows found through
`table_layout`.
"""

# Tables are written in the typography players read: en dashes, halves.
# ruff: noqa: RUF001

from __future__ import annotations

import io
import math

import pytest
from PIL import Image

from render.charts import SERIES_COLOURS, ChartImage, RatingPoint, RatingSeries, chart_png
from render.tables import (
    MAX_CHARS,
    MAX_WIDTH,
    MIN_WIDTH,
    PALETTES,
    SUBTITLE_LINE,
    Column,
    TableImage,
    table_layout,
    table_png,
)
from render.theme import font, printable

RGB = tuple[int, int, int]
COLUMNS = (
    Column("#", "right"),
    Column("Player"),
    Column("Rating", "right"),
    Column("W–L–D", "center"),
)
NAMES = ("Šárka Dvořáková", "Jiří Černý", "alice", "Ondřej Růžička", "bob", "Eliška Křížová")


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def pixel(image: Image.Image, xy: tuple[int, int]) -> RGB:
    r, g, b = image.getpixel(xy)  # type: ignore[misc]
    return (r, g, b)


def colours_in(image: Image.Image, box: tuple[int, int, int, int]) -> dict[RGB, int]:
    """How many pixels of each colour there are in `box`."""
    counts = image.crop(box).getcolors(maxcolors=1 << 16) or []
    return {colour: count for count, colour in counts}  # type: ignore[misc]


def leaderboard(
    rows: int = 6,
    *,
    highlight: frozenset[int] = frozenset(),
    muted: frozenset[int] = frozenset(),
) -> TableImage:
    cells = tuple(
        (str(i + 1), NAMES[i % len(NAMES)], f"{1700 - 37 * i}", f"{12 - i}–{3 + i}–1½")
        for i in range(rows)
    )
    return TableImage(
        "Oska leaderboard · Kamen Club",
        COLUMNS,
        cells,
        subtitle="Page 1 of 3 · provisional ratings marked ?",
        highlight=highlight,
        muted=muted,
    )


def walk(start: float, games: int, drift: float) -> tuple[RatingPoint, ...]:
    return tuple(
        RatingPoint(start + drift * i + 30 * math.sin(i), max(50.0, 350 - 12 * i))
        for i in range(games + 1)
    )


# ---------------------------------------------------------------- tables


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_a_table_is_a_png_as_wide_as_a_phone_image_wants(theme: str) -> None:
    image = decode(table_png(leaderboard(10), theme=theme))
    assert MIN_WIDTH <= image.width <= MAX_WIDTH
    assert 500 <= image.height <= 800


def test_the_dark_and_light_tables_have_their_own_background() -> None:
    table = leaderboard()
    corner = (2, table_layout(table).height - 2)
    dark = pixel(decode(table_png(table, theme="dark")), corner)
    light = pixel(decode(table_png(table, theme="light")), corner)
    assert dark == PALETTES["dark"].background
    assert light == PALETTES["light"].background
    assert sum(light) > sum(dark) + 300


def test_every_row_makes_the_table_taller() -> None:
    heights = [decode(table_png(leaderboard(rows))).height for rows in (1, 5, 10, 25)]
    assert heights == sorted(set(heights))
    assert table_layout(leaderboard(25)).height - table_layout(leaderboard(24)).height >= 40


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_a_highlighted_row_has_its_own_background_and_bar(theme: str) -> None:
    table = leaderboard(6, highlight=frozenset({2}))
    layout = table_layout(table)
    image = decode(table_png(table, theme=theme))
    colours = PALETTES[theme]
    assert pixel(image, layout.row_point(2)) == colours.highlight
    assert pixel(image, layout.row_point(0)) == colours.background  # the same parity, plain
    assert pixel(image, layout.row_point(1)) == colours.zebra
    assert colours.highlight not in (colours.background, colours.zebra)
    x, y = layout.row_point(2)
    assert pixel(image, (x - 5, y)) == colours.accent


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_a_muted_row_is_written_dimmer(theme: str) -> None:
    table = leaderboard(4, muted=frozenset({1}))
    layout = table_layout(table)
    image = decode(table_png(table, theme=theme))
    colours = PALETTES[theme]

    def inks(row: int) -> dict[RGB, int]:
        top, bottom = layout.rows[row]
        return colours_in(image, (0, top, layout.width, bottom))

    assert inks(1).get(colours.dim, 0) > 200 and colours.text not in inks(1)
    assert inks(3).get(colours.text, 0) > 200 and colours.dim not in inks(3)


def test_czech_letters_and_the_table_symbols_have_glyphs_of_their_own() -> None:
    face = font(26)
    tofu = bytes(face.getmask("\u4e00"))  # a character the font does not hold
    for char in "ěščřžýáíéůúďťňĚŠČŘŽÝÁÍÉŮÚ–·½?→—…":
        assert printable(char) == char, char
        mask = face.getmask(char)
        assert mask.getbbox() is not None, char
        assert bytes(mask) != tofu, char
    assert printable("Šárka 🎲") == "Šárka ?"


def test_a_long_name_is_cut_with_an_ellipsis() -> None:
    long = "Bořivoj Žďárský-Hrubý z Ústí nad Labem"
    table = TableImage("t", COLUMNS, (("1", long, "1500", "0–0–0"),))
    cell = table_layout(table).cells[0][1]
    assert cell.endswith("…") and len(cell) <= MAX_CHARS
    assert long.startswith(cell[:-1])


def test_a_table_too_wide_cuts_its_names_to_the_widest_image() -> None:
    columns = (*COLUMNS, Column("Games", "right"))
    row = ("1", "Šárka Dvořáková-Nováková", "1500 (±120)", "120–130–12½", "262")
    layout = table_layout(TableImage("wide", columns, (row,)))
    assert layout.width == MAX_WIDTH
    assert layout.cells[0][1].endswith("…") and len(layout.cells[0][1]) > 10
    assert layout.cells[0][2:] == row[2:]


def test_a_table_of_many_columns_grows_wider_rather_than_lose_its_names() -> None:
    columns = (Column("#", "right"), Column("Player"), *(Column(f"Game {i}") for i in range(8)))
    row = ("1", "Šárka Dvořáková", *("1500 (±120)",) * 8)
    layout = table_layout(TableImage("wide", columns, (row,)))
    assert layout.width > MAX_WIDTH
    assert layout.cells[0][1] == "Šárka Dvořáková"


def test_an_empty_table_draws_its_header_and_a_dash_row() -> None:
    table = TableImage("Lasca season · Kamen Club", COLUMNS, ())
    layout = table_layout(table)
    assert len(layout.rows) == 1
    image = decode(table_png(table))
    top, bottom = layout.rows[0]
    assert PALETTES["dark"].dim in colours_in(image, (0, top, layout.width, bottom))
    assert image.height == table_layout(leaderboard(1)).height - SUBTITLE_LINE


def test_a_table_refuses_an_unknown_theme_and_ragged_rows() -> None:
    with pytest.raises(ValueError, match="theme"):
        table_png(leaderboard(), theme="sepia")
    with pytest.raises(ValueError, match="cells"):
        table_layout(TableImage("t", COLUMNS, (("1", "alice"),)))
    with pytest.raises(ValueError, match="align"):
        table_layout(TableImage("t", (Column("#", "justify"),), ()))


# ---------------------------------------------------------------- charts

CHART = ChartImage(
    "alice · rating history",
    (
        RatingSeries("Oska", walk(1500, 30, 6)),
        RatingSeries("Lasca", walk(1500, 12, -9)),
    ),
    "games",
    "No rated games yet",
)


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_a_chart_is_phone_sized_and_draws_each_series_in_its_colour(theme: str) -> None:
    image = decode(chart_png(CHART, theme=theme))
    assert image.size == (1000, 560)
    colours = colours_in(image, (0, 0, image.width, image.height))
    oska, lasca, oware, _ = SERIES_COLOURS[theme]
    assert colours.get(oska, 0) > 300
    assert colours.get(lasca, 0) > 300
    assert oware not in colours
    assert pixel(image, (2, image.height - 2)) == PALETTES[theme].background


def test_a_chart_of_other_ratings_is_another_picture() -> None:
    other = ChartImage(
        CHART.title,
        (RatingSeries("Oska", walk(1500, 30, -6)), CHART.series[1]),
        CHART.x_label,
        CHART.empty_text,
    )
    first, second = decode(chart_png(CHART)), decode(chart_png(other))
    assert first.size == second.size
    assert first.tobytes() != second.tobytes()


def test_a_chart_without_games_says_so() -> None:
    empty = ChartImage("alice · rating history", (RatingSeries("Oska", ()),), "games", "")
    said = ChartImage(empty.title, empty.series, empty.x_label, "No rated games yet")
    blank, with_text = decode(chart_png(empty)), decode(chart_png(said))
    middle = (300, 220, 700, 420)
    muted = PALETTES["dark"].muted
    assert muted not in colours_in(blank, middle)
    assert colours_in(with_text, middle).get(muted, 0) > 100
    for colour in SERIES_COLOURS["dark"]:
        assert colour not in colours_in(with_text, (0, 0, 1000, 560))


def test_a_single_rating_is_drawn() -> None:
    one = ChartImage("bob", (RatingSeries("Oware", (RatingPoint(1500, 350),)),), "games", "")
    image = decode(chart_png(one))
    assert colours_in(image, (0, 0, 1000, 560)).get(SERIES_COLOURS["dark"][0], 0) > 50


def test_a_spike_in_thousands_of_games_survives_the_thinning() -> None:
    flat = tuple(RatingPoint(1500 + (i % 3), 60) for i in range(5000))
    spiked = (*flat[:2500], RatingPoint(1900, 60), *flat[2501:])
    images = [
        decode(chart_png(ChartImage("c", (RatingSeries("Oska", points),), "games", "")))
        for points in (flat, spiked)
    ]
    assert images[0].tobytes() != images[1].tobytes()


def test_a_chart_refuses_an_unknown_theme_and_too_many_series() -> None:
    with pytest.raises(ValueError, match="theme"):
        chart_png(CHART, theme="sepia")
    many = ChartImage("c", tuple(RatingSeries(f"s{i}", walk(1500, 3, 1)) for i in range(5)), "", "")
    with pytest.raises(ValueError, match="series"):
        chart_png(many)
