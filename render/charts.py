"""Rating-history charts, as PNG bytes.

    chart_png(chart, *, theme="dark") -> bytes

Each series (one per game) is a line of ratings over the games played, the
first point being the rating before the first game, inside a translucent
band of ± its rating deviation: a wide band says the rating is still a guess.
Lines are drawn twice as large and scaled down, so they are antialiased. A
series longer than two points per pixel column is thinned to the lowest and
highest point of each column, so spikes survive, and its band to the outer
envelope of every four columns: five thousand games draw about as fast as five
hundred.

The y axis has gridlines on round ratings (steps of 50, 100, 200, 500, …),
the x axis whole game numbers. Sized for a phone like `render.tables`, on the
same `dark` and `light` palettes; a chart with no points says `empty_text`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from PIL import Image, ImageDraw

from render.draw import indexed, palette, png
from render.tables import Palette, cut, fit, put_text, text_width
from render.tables import palette as surface
from render.theme import RGB, printable, rgb

WIDTH, HEIGHT = 1000, 560
MARGIN = 24
TITLE_FONT = 30
SMALLEST_TITLE = 24
LEGEND_FONT = 24
TICK_FONT = 22
LABEL_FONT = 22
EMPTY_FONT = 28
BAND = 104  # the title and legend band at the top
EMPTY_BAND = 72  # the band of a chart without series: the title alone
PLOT_TOP = BAND + 26
PLOT_BOTTOM = HEIGHT - 78
PLOT_RIGHT = WIDTH - 36
TICK = 6  # the x axis' tick marks
LINE = 3  # a series' line, in pixels of the image
DOT = 4  # the radius of a game's dot, drawn while games are this far apart:
DOT_SPACING = 14
LAST_DOT = 6  # the radius of the latest rating's dot
SUPERSAMPLE = 2
BAND_PIXELS = 4  # a band's outline has a corner every this many pixel columns at most
STEPS = (50, 100, 200, 500, 1000, 2000, 5000)
"""Rating gridline steps; the smallest that makes at most `MAX_GRIDS` intervals."""
MAX_GRIDS = 6
MAX_X_TICKS = 8

# Okabe and Ito's colour-blind-safe set: bright on the dark theme, deep on the light.
SERIES_COLOURS: dict[str, tuple[RGB, ...]] = {
    "dark": (rgb("#56B4E9"), rgb("#E69F00"), rgb("#30C89C"), rgb("#E88CC8")),
    "light": (rgb("#0072B2"), rgb("#D55E00"), rgb("#009E73"), rgb("#CC79A7")),
}
BAND_ALPHA = {"dark": 0.20, "light": 0.18}


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A rating and its deviation (Glicko's RD) after some game."""

    rating: float
    rd: float


@dataclass(frozen=True, slots=True)
class RatingSeries:
    """One game's ratings in game order; the first is the rating before the first game."""

    label: str
    points: tuple[RatingPoint, ...]


@dataclass(frozen=True, slots=True)
class ChartImage:
    """What a chart shows: up to four series, a title and the words of its axis."""

    title: str
    series: tuple[RatingSeries, ...]
    x_label: str
    empty_text: str


@dataclass(frozen=True, slots=True)
class _Axes:
    """Data to pixels: x is the number of games played, y the rating."""

    left: int
    x_max: int
    y_low: int
    y_high: int
    y_step: int

    @property
    def width(self) -> int:
        """The plot's width in pixels."""
        return PLOT_RIGHT - self.left

    def linear(self) -> tuple[float, float, float, float]:
        """x0, dx, y0, dy: x = x0 + games * dx, y = y0 + rating * dy."""
        x0, y0 = self.x(0), self.y(0)
        return x0, self.x(1) - x0, y0, self.y(1) - y0

    def x(self, games: float) -> float:
        return self.left + games / self.x_max * (PLOT_RIGHT - self.left)

    def y(self, rating: float) -> float:
        share = (rating - self.y_low) / (self.y_high - self.y_low)
        return PLOT_BOTTOM - share * (PLOT_BOTTOM - PLOT_TOP)


# ----------------------------------------------------------------- drawing


def chart_png(chart: ChartImage, *, theme: str = "dark") -> bytes:
    """The PNG of `chart` on the `dark` or `light` theme; ValueError for another theme
    or for more series than there are colours."""
    return png(indexed(chart_image(chart, theme=theme), _colours(theme)))


def chart_image(chart: ChartImage, *, theme: str = "dark") -> Image.Image:
    """The RGB image `chart_png` encodes."""
    colours = surface(theme)
    inks = SERIES_COLOURS[theme]
    if len(chart.series) > len(inks):
        raise ValueError(f"a chart draws at most {len(inks)} series, not {len(chart.series)}")
    shown = [
        (series, ink) for series, ink in zip(chart.series, inks, strict=False) if series.points
    ]
    image = Image.new("RGB", (WIDTH, HEIGHT), colours.background)
    draw = ImageDraw.Draw(image)
    # Without a legend the band holds the title alone.
    draw.rectangle((0, 0, WIDTH - 1, (BAND if shown else EMPTY_BAND) - 1), fill=colours.band)
    title, size = fit(printable(chart.title), TITLE_FONT, WIDTH - 2 * MARGIN, SMALLEST_TITLE)
    put_text(image, (MARGIN, 36), title, size, colours.text, "lm")

    if not shown:
        left, top, right, bottom = MARGIN, EMPTY_BAND + MARGIN, WIDTH - MARGIN, HEIGHT - MARGIN
        draw.rounded_rectangle((left, top, right, bottom), radius=12, outline=colours.rule, width=2)
        text = cut(printable(chart.empty_text), EMPTY_FONT, right - left - 2 * MARGIN)
        middle = ((left + right) / 2, (top + bottom) / 2)
        put_text(image, middle, text, EMPTY_FONT, colours.muted)
        return image

    _legend(image, [(printable(series.label), ink) for series, ink in shown], colours)
    axes = _axes([series for series, _ in shown])
    _grid(image, axes, colours, printable(chart.x_label))
    for series, ink in shown:
        _band(image, axes, series.points, ink, BAND_ALPHA[theme])
    for series, ink in shown:
        _line(image, axes, series.points, ink)
    return image


def _legend(image: Image.Image, entries: Sequence[tuple[str, RGB]], colours: Palette) -> None:
    draw = ImageDraw.Draw(image)
    x, y = MARGIN, 80
    room = (WIDTH - 2 * MARGIN) // len(entries) - 70  # the swatch and the gap after
    for label, ink in entries:
        draw.rounded_rectangle((x, y - 4, x + 28, y + 3), radius=3, fill=ink)
        text = cut(label, LEGEND_FONT, room)
        put_text(image, (x + 38, y), text, LEGEND_FONT, colours.text, "lm")
        x += 38 + round(text_width(text, LEGEND_FONT)) + 32


def _axes(series: Sequence[RatingSeries]) -> _Axes:
    low = min(p.rating - p.rd for s in series for p in s.points)
    high = max(p.rating + p.rd for s in series for p in s.points)
    step = next((s for s in STEPS if math.ceil(high / s) - math.floor(low / s) <= MAX_GRIDS), 0)
    if not step:
        step = 10 ** math.ceil(math.log10(max(1.0, (high - low) / MAX_GRIDS)))
    y_low = math.floor(low / step) * step
    y_high = max(math.ceil(high / step) * step, y_low + step)
    labels = range(y_low, y_high + 1, step)
    widest = max(text_width(str(value), TICK_FONT) for value in labels)
    x_max = max(1, max(len(s.points) for s in series) - 1)
    return _Axes(MARGIN + round(widest) + 14, x_max, y_low, y_high, step)


def _grid(image: Image.Image, axes: _Axes, colours: Palette, x_label: str) -> None:
    draw = ImageDraw.Draw(image)
    for value in range(axes.y_low, axes.y_high + 1, axes.y_step):
        y = round(axes.y(value))
        draw.line((axes.left, y, PLOT_RIGHT, y), fill=colours.rule, width=1)
        put_text(image, (axes.left - 12, y), str(value), TICK_FONT, colours.muted, "rm")
    draw.line((axes.left, PLOT_BOTTOM, PLOT_RIGHT, PLOT_BOTTOM), fill=colours.muted, width=2)
    step = _x_step(axes.x_max)
    for games in range(0, axes.x_max + 1, step):
        x = round(axes.x(games))
        draw.line((x, PLOT_BOTTOM, x, PLOT_BOTTOM + TICK), fill=colours.muted, width=2)
        put_text(image, (x, PLOT_BOTTOM + TICK + 16), str(games), TICK_FONT, colours.muted)
    label = cut(x_label, LABEL_FONT, PLOT_RIGHT - axes.left)
    put_text(image, ((axes.left + PLOT_RIGHT) / 2, HEIGHT - 20), label, LABEL_FONT, colours.muted)


def _x_step(x_max: int) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, … games that makes at most `MAX_X_TICKS` ticks."""
    magnitude = 1
    while True:
        for step in (magnitude, 2 * magnitude, 5 * magnitude):
            if x_max // step < MAX_X_TICKS:
                return step
        magnitude *= 10


def _band(
    image: Image.Image, axes: _Axes, points: Sequence[RatingPoint], ink: RGB, alpha: float
) -> None:
    """The ± RD band, pasted through a mask so that bands and gridlines show through."""
    x0, dx, y0, dy = axes.linear()
    spans = [
        (x0 + g * dx, y0 + high * dy, y0 + low * dy) for g, low, high in _envelope(points, axes)
    ]
    if len(spans) == 1:  # one rating: a short bar, where a band would be no wider than a line
        x, top, bottom = spans[0]
        outline = [(x - 8, top), (x + 8, top), (x + 8, bottom), (x - 8, bottom)]
    else:
        outline = [(x, top) for x, top, _ in spans] + [(x, low) for x, _, low in spans[::-1]]
    left = math.floor(min(x for x, _ in outline))
    top = math.floor(min(y for _, y in outline))
    width = math.ceil(max(x for x, _ in outline)) - left + 1
    height = math.ceil(max(y for _, y in outline)) - top + 1
    mask = Image.new("L", (width, height))
    ImageDraw.Draw(mask).polygon([(x - left, y - top) for x, y in outline], fill=round(255 * alpha))
    _paint(image, ink, (left, top), mask)


def _line(image: Image.Image, axes: _Axes, points: Sequence[RatingPoint], ink: RGB) -> None:
    """The line of ratings, antialiased, with a dot per game while there is room, and the last."""
    x0, dx, y0, dy = axes.linear()
    trace = [(x0 + games * dx, y0 + rating * dy) for games, rating in _extremes(points, axes)]
    # Thinned to columns, a line is as dense as pixels: drawing it larger would smooth nothing.
    k = SUPERSAMPLE if dx >= 1 else 1
    pad = LAST_DOT + 2
    left = math.floor(trace[0][0]) - pad
    top = math.floor(min(y for _, y in trace)) - pad
    width = math.ceil(trace[-1][0]) + pad - left
    height = math.ceil(max(y for _, y in trace)) + pad - top
    mask = Image.new("L", (width * k, height * k))
    draw = ImageDraw.Draw(mask)
    path = [((x - left) * k, (y - top) * k) for x, y in trace]
    if len(path) > 1:
        draw.line(path, fill=255, width=LINE * k)
    # A disc on every point: a game's dot while there is room for one, else a
    # joint rounding the line's corner (ImageDraw's own round joints cost four
    # times as much), else none where points are closer than the line is wide.
    radius = DOT if dx >= DOT_SPACING else LINE / 2 if dx > LINE else 0
    for (x, y), r in zip(path, [radius] * (len(path) - 1) + [LAST_DOT], strict=True):
        if r:
            draw.ellipse((x - r * k, y - r * k, x + r * k, y + r * k), fill=255)
    _paint(image, ink, (left, top), mask.reduce(k))


def _paint(image: Image.Image, ink: RGB, origin: tuple[int, int], mask: Image.Image) -> None:
    # Pasting an image of the colour through the mask is twice as fast as pasting the colour.
    image.paste(Image.new("RGB", mask.size, ink), origin, mask)


# ---------------------------------------------------------------- thinning
# Whole columns are sliced and reduced by the built-ins: a Python loop over
# every point was most of the time of a chart of thousands of games.


def _extremes(points: Sequence[RatingPoint], axes: _Axes) -> list[tuple[int, float]]:
    """(games, rating) to draw the line through: every point, or two per pixel column at most,
    the column's lowest and highest in the order they came, so that spikes survive."""
    ratings = [p.rating for p in points]
    if len(ratings) <= 2 * axes.width:
        return list(enumerate(ratings))
    out: list[tuple[int, float]] = []
    for start, end in _columns(len(ratings), axes.width):
        column = ratings[start:end]
        ends = sorted({start + column.index(min(column)), start + column.index(max(column))})
        out += [(i, ratings[i]) for i in ends]
    return out


def _envelope(points: Sequence[RatingPoint], axes: _Axes) -> list[tuple[float, float, float]]:
    """(games, low, high) outlining the band: every point, or one per `BAND_PIXELS` columns at
    most, the lowest `rating - rd` and highest `rating + rd` among its games.

    A filled outline costs Pillow in proportion to its corners times its height.
    """
    lows = [p.rating - p.rd for p in points]
    highs = [p.rating + p.rd for p in points]
    count, columns = len(points), axes.width // BAND_PIXELS
    if count <= columns:
        return [(i, lows[i], highs[i]) for i in range(count)]
    out = [
        ((start + end - 1) / 2, min(lows[start:end]), max(highs[start:end]))
        for start, end in _columns(count, columns)
    ]
    out[0], out[-1] = (0, *out[0][1:]), (count - 1, *out[-1][1:])  # the band spans the line
    return out


def _columns(count: int, columns: int) -> list[tuple[int, int]]:
    """`range(count)` cut into at most `columns` runs of consecutive indexes, as (start, end)."""
    edges = {math.ceil(column * (count - 1) / columns) for column in range(columns)}
    return list(pairwise(sorted(edges | {count})))


# ----------------------------------------------------------------- palette

_SPECIMEN = ChartImage(
    "specimen",
    tuple(
        RatingSeries(
            f"series {s}",
            tuple(
                RatingPoint(1500 + 300 * math.sin(i / 6 + 2 * s), 350 - i * 5 + 40 * s)
                for i in range(60)
            ),
        )
        for s in range(4)
    ),
    "games",
    "",
)


@lru_cache(maxsize=len(SERIES_COLOURS))
def _colours(theme: str) -> Image.Image:
    """The palette image of a theme: its colours exactly, and the shades a chart makes."""
    c = surface(theme)
    inks = SERIES_COLOURS[theme]
    alpha = BAND_ALPHA[theme]
    tints = [_mix(ink, c.background, alpha) for ink in inks]
    keys = [c.background, c.band, c.text, c.muted, c.rule, *inks, *tints]
    return palette(keys, [chart_image(_SPECIMEN, theme=theme)])


def _mix(ink: RGB, ground: RGB, alpha: float) -> RGB:
    r, g, b = (round(i * alpha + g * (1 - alpha)) for i, g in zip(ink, ground, strict=True))
    return (r, g, b)
