"""The images of a post-game review (`games.ai.review`): the evaluation chart and a
marked move's board.

    review_chart(review, labels, *, theme="dark") -> bytes          # a PNG
    review_chart_image(review, labels, *, theme="dark") -> Image    # the RGB image
    better_move_board(state, played, better, labels, *, perspective=Side.FIRST,
                      size=640, players=None, locale=None,
                      last_move=None) -> bytes                       # a PNG
    better_move_image(...) -> Image                      # the same in palette mode

The chart draws the first player's advantage over the game (`Review.curve`):
moves on x, numbered as the record numbers them; the upper half is the first
player ahead, the lower the second, each labelled. The area between the curve
and the middle line is filled, light above and dark below, so the swings read
at a glance; every marked move is a dot on the curve where its drop lands,
larger and ringed the worse it is (size says it as well as colour), with a
legend. Sized and coloured like `render.charts` (the `dark` and `light` panels
of `render.tables`).

The board is the position before the marked move (`render.frame`, with its
caption), with the move played drawn as a dashed magenta arrow and the better
move as a solid green one (a ring for a move of one pit or square, as Oware's
are), and a legend band under it.

Every word comes in `labels`, already in the reader's language: nothing here
is worded, so the caller translates it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import cast

from PIL import Image, ImageDraw

from games.ai.review import MARKS, Review
from games.base import GameState, MoveInfo, Side
from render.boards import centre, frame
from render.compose import Item, groups
from render.draw import fitted, indexed, palette, png, write
from render.painters import painter_for
from render.tables import Palette, cut, fit, put_text, text_width
from render.tables import palette as surface
from render.theme import RGB, SIZES, THEME, Scale, Theme, printable, rgb

WIDTH, HEIGHT = 1000, 560
MARGIN = 24
TITLE_FONT = 30
SMALLEST_TITLE = 22
LEGEND_FONT = 22
TICK_FONT = 22
SIDE_FONT = 20
BAND = 104  # the title and the legend at the top
PLOT_LEFT = MARGIN + 8
PLOT_RIGHT = WIDTH - MARGIN - 8
PLOT_TOP = BAND + 16
PLOT_BOTTOM = HEIGHT - 70
TICK = 6
LINE = 3
SUPERSAMPLE = 2
MAX_X_TICKS = 10
# The fill above the middle line (light) and below it (dark): colour and opacity.
FILLS: dict[str, tuple[tuple[RGB, float], tuple[RGB, float]]] = {
    "dark": ((rgb("#F4F4F0"), 0.40), (rgb("#000000"), 0.45)),
    "light": ((rgb("#FFFFFF"), 1.0), (rgb("#1E2228"), 0.45)),
}
PLOT_GROUND = {"dark": None, "light": rgb("#E4E8EC")}  # the plot's own ground, if not the panel's

# Per mark (inaccuracy, mistake, blunder): the dot's colour and radius; a blunder is ringed.
MARK_COLOURS: dict[str, tuple[RGB, RGB, RGB]] = {
    "dark": (rgb("#F0E442"), rgb("#E69F00"), rgb("#E8388C")),
    "light": (rgb("#B8A800"), rgb("#D55E00"), rgb("#C0186C")),
}
MARK_RADII = (5, 8, 10)
RING = 3
HEADROOM = 40  # between the plot's edge and ±1: where the halves are named


@dataclass(frozen=True, slots=True)
class ChartLabels:
    """The chart's words: a title, the x axis (`move`), what the upper and lower
    halves mean (`Blue ahead`, `Red ahead`) and the marks' names in MARKS order."""

    title: str
    x_label: str
    first_ahead: str
    second_ahead: str
    marks: tuple[str, str, str]


@dataclass(frozen=True, slots=True)
class BoardLabels:
    """The legend under a better-move board: `Played: c1-d2`, `Better: b2-c3`."""

    played: str
    better: str


# ------------------------------------------------------------------ chart


@dataclass(frozen=True, slots=True)
class _Axes:
    """Plies to x (0 before the first move), advantage in [-1, 1] to y."""

    plies: int

    def x(self, ply: float) -> float:
        return PLOT_LEFT + ply / max(1, self.plies) * (PLOT_RIGHT - PLOT_LEFT)

    def y(self, value: float) -> float:
        middle = (PLOT_TOP + PLOT_BOTTOM) / 2
        return middle - value * ((PLOT_BOTTOM - PLOT_TOP) / 2 - HEADROOM)


def review_chart(review: Review, labels: ChartLabels, *, theme: str = "dark") -> bytes:
    """The PNG of `review`'s evaluation chart; ValueError for an unknown theme."""
    return png(indexed(review_chart_image(review, labels, theme=theme), _chart_palette(theme)))


def review_chart_image(review: Review, labels: ChartLabels, *, theme: str = "dark") -> Image.Image:
    """The RGB image `review_chart` encodes, WIDTH x HEIGHT."""
    colours = surface(theme)
    inks = MARK_COLOURS[theme]
    image = Image.new("RGB", (WIDTH, HEIGHT), colours.background)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH - 1, BAND - 1), fill=colours.band)
    title, size = fit(printable(labels.title), TITLE_FONT, WIDTH - 2 * MARGIN, SMALLEST_TITLE)
    put_text(image, (MARGIN, 36), title, size, colours.text, "lm")
    _legend(image, [printable(name) for name in labels.marks], inks, colours)

    axes = _Axes(max(1, len(review.curve) - 1))
    ground = PLOT_GROUND[theme]
    if ground is not None:
        draw.rectangle((PLOT_LEFT, PLOT_TOP, PLOT_RIGHT, PLOT_BOTTOM), fill=ground)
    _grid(image, axes, colours, labels)
    _area(image, axes, review.curve, colours, theme)
    _curve_line(image, axes, review.curve, colours.text)
    for entry in review.plies:
        if entry.mark is not None and entry.ply + 1 < len(review.curve):
            rank = MARKS.index(entry.mark)
            at = (axes.x(entry.ply + 1), axes.y(review.curve[entry.ply + 1]))
            _dot(image, at, MARK_RADII[rank], inks[rank], colours.background, rank == 2)
    return image


def mark_point(review: Review, ply: int) -> tuple[int, int]:
    """The pixel at the centre of the dot of the mark of move `ply` (for tests and hit maps)."""
    axes = _Axes(max(1, len(review.curve) - 1))
    return round(axes.x(ply + 1)), round(axes.y(review.curve[ply + 1]))


def _legend(
    image: Image.Image, names: Sequence[str], inks: Sequence[RGB], colours: Palette
) -> None:
    x, y = MARGIN, 80
    room = (WIDTH - 2 * MARGIN) // len(names) - 50
    for rank, (name, ink) in enumerate(zip(names, inks, strict=True)):
        _dot(image, (x + 12, y), MARK_RADII[rank], ink, colours.band, rank == 2)
        text = cut(name, LEGEND_FONT, room)
        put_text(image, (x + 32, y), text, LEGEND_FONT, colours.text, "lm")
        x += 32 + round(text_width(text, LEGEND_FONT)) + 36


def _grid(image: Image.Image, axes: _Axes, colours: Palette, labels: ChartLabels) -> None:
    draw = ImageDraw.Draw(image)
    for value in (-1.0, -0.5, 0.5, 1.0):
        y = round(axes.y(value))
        draw.line((PLOT_LEFT, y, PLOT_RIGHT, y), fill=colours.rule, width=1)
    middle = round(axes.y(0))
    draw.line((PLOT_LEFT, middle, PLOT_RIGHT, middle), fill=colours.muted, width=2)
    room = PLOT_RIGHT - PLOT_LEFT - 24
    first = cut(printable(labels.first_ahead), SIDE_FONT, room)
    second = cut(printable(labels.second_ahead), SIDE_FONT, room)
    put_text(image, (PLOT_LEFT + 4, PLOT_TOP + 8), first, SIDE_FONT, colours.muted, "lm")
    put_text(image, (PLOT_LEFT + 4, PLOT_BOTTOM - 12), second, SIDE_FONT, colours.muted, "lm")
    draw.line((PLOT_LEFT, PLOT_BOTTOM, PLOT_RIGHT, PLOT_BOTTOM), fill=colours.muted, width=2)
    moves = (axes.plies + 1) // 2
    step = _move_step(moves)
    for number in range(1, moves + 1):
        if number != 1 and number % step:
            continue
        # Tick k after the first side's move k: move k's marks sit on it or half a step on.
        x = round(axes.x(2 * number - 1))
        draw.line((x, PLOT_BOTTOM, x, PLOT_BOTTOM + TICK), fill=colours.muted, width=2)
        put_text(image, (x, PLOT_BOTTOM + TICK + 16), str(number), TICK_FONT, colours.muted)
    label = cut(printable(labels.x_label), TICK_FONT, PLOT_RIGHT - PLOT_LEFT)
    put_text(image, ((PLOT_LEFT + PLOT_RIGHT) / 2, HEIGHT - 18), label, TICK_FONT, colours.muted)


def _move_step(moves: int) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, … moves that makes at most `MAX_X_TICKS` ticks."""
    magnitude = 1
    while True:
        for step in (magnitude, 2 * magnitude, 5 * magnitude):
            if moves // step < MAX_X_TICKS:
                return step
        magnitude *= 10


def _area(
    image: Image.Image, axes: _Axes, curve: Sequence[float], colours: Palette, theme: str
) -> None:
    """The area between the curve and the middle line: light above, dark below."""
    middle = axes.y(0)
    points = [(axes.x(i), axes.y(v)) for i, v in enumerate(curve)]
    if len(points) == 1:
        points.append((axes.x(1), points[0][1]))
    width, height = WIDTH * SUPERSAMPLE, HEIGHT * SUPERSAMPLE
    k = SUPERSAMPLE
    above = Image.new("L", (width, height))
    below = Image.new("L", (width, height))
    outline = [(points[0][0], middle), *points, (points[-1][0], middle)]
    polygon = [(x * k, y * k) for x, y in outline]
    ImageDraw.Draw(above).polygon(polygon, fill=255)
    below.paste(above)
    cut_at = round(middle * k)
    above.paste(0, (0, cut_at, width, height))
    below.paste(0, (0, 0, width, cut_at))
    for mask, (ink, alpha) in zip((above, below), FILLS[theme], strict=True):
        scaled = mask.reduce(k).point(lambda v, a=alpha: round(v * a))
        image.paste(Image.new("RGB", image.size, ink), (0, 0), scaled)


def _curve_line(image: Image.Image, axes: _Axes, curve: Sequence[float], ink: RGB) -> None:
    k = SUPERSAMPLE
    mask = Image.new("L", (WIDTH * k, HEIGHT * k))
    draw = ImageDraw.Draw(mask)
    path = [(axes.x(i) * k, axes.y(v) * k) for i, v in enumerate(curve)]
    if len(path) > 1:
        draw.line(path, fill=255, width=LINE * k, joint="curve")
    for x, y in (path[0], path[-1]):
        r = LINE * k / 2
        draw.ellipse((x - r, y - r, x + r, y + r), fill=255)
    image.paste(Image.new("RGB", image.size, ink), (0, 0), mask.reduce(k))


def _dot(
    image: Image.Image,
    at: tuple[float, float],
    radius: int,
    ink: RGB,
    ground: RGB,
    ringed: bool,
) -> None:
    """A mark's dot, lined with the ground so it stands off the line; a blunder's ringed too."""
    k = 4
    outer = radius + (RING + 3 if ringed else 2)
    size = 2 * outer + 3
    big = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    c = size * k / 2
    if ringed:
        r = outer * k
        draw.ellipse((c - r, c - r, c + r, c + r), fill=ink)
        r = (outer - RING) * k
        draw.ellipse((c - r, c - r, c + r, c + r), fill=ground)
    r = (radius + 2) * k
    draw.ellipse((c - r, c - r, c + r, c + r), fill=ground)
    r = radius * k
    draw.ellipse((c - r, c - r, c + r, c + r), fill=ink)
    sprite = big.reduce(k)
    image.paste(sprite, (round(at[0]) - size // 2, round(at[1]) - size // 2), sprite)


@lru_cache(maxsize=4)
def _chart_palette(theme: str) -> Image.Image:
    """The chart's palette: its exact colours and the shades of a specimen chart."""
    from games.ai.review import PlyReview, Score

    c = surface(theme)
    curve = tuple(math.sin(i / 5) * (0.4 + i / 60) for i in range(50))
    plies = tuple(
        PlyReview(i, Side(i % 2), "", "", Score(0), Score(0), 0, MARKS[i % 3], "", 0, False)
        for i in range(0, 48, 7)
    )
    specimen = Review("", "", plies, tuple(max(-1.0, min(1.0, v)) for v in curve), "")
    words = ChartLabels("Specimen 0123456789", "move", "ahead", "ahead", ("a", "b", "c"))
    keys = [c.background, c.band, c.text, c.muted, c.rule, *MARK_COLOURS[theme]]
    ground = PLOT_GROUND[theme]
    keys += [] if ground is None else [ground]
    return palette(keys, [review_chart_image(specimen, words, theme=theme)])


# ------------------------------------------------------------------ board


def better_move_board(
    state: GameState,
    played: str,
    better: str,
    labels: BoardLabels,
    *,
    perspective: Side = Side.FIRST,
    size: int = 640,
    players: tuple[str, str] | None = None,
    locale: str | None = None,
    theme: Theme = THEME,
    last_move: MoveInfo | None = None,
) -> bytes:
    """The PNG of `state` (the position before a marked move) with the move `played`
    and the `better` one drawn on it, and `labels` in a legend under the board.
    ValueError when either move is not legal in `state`. `last_move` is the move that
    led to `state`, as `render.board` takes it: found by replaying the game when None."""
    image = better_move_image(
        state,
        played,
        better,
        labels,
        perspective=perspective,
        size=size,
        players=players,
        locale=locale,
        theme=theme,
        last_move=last_move,
    )
    return png(image)


def better_move_image(
    state: GameState,
    played: str,
    better: str,
    labels: BoardLabels,
    *,
    perspective: Side = Side.FIRST,
    size: int = 640,
    players: tuple[str, str] | None = None,
    locale: str | None = None,
    theme: Theme = THEME,
    last_move: MoveInfo | None = None,
) -> Image.Image:
    """The image `better_move_board` encodes, in palette mode."""
    legal = state.legal_moves()
    for move in (played, better):
        if move not in legal:
            raise ValueError(f"{move!r} is not a legal move here (legal: {', '.join(legal)})")
    board = frame(
        state,
        last_move=last_move,
        perspective=perspective,
        size=size,
        players=players,
        locale=locale,
        theme=theme,
    )
    scale = Scale(size)
    inks = _board_inks(theme)
    layout = painter_for(state.spec).layout(size, Side(perspective), theme)
    shape = _Shape(_spacing(tuple(layout.centres.values())), layout.height / 2)
    band = scale(SIZES.legend) * 2 + scale(8)
    # The board's own palette holds the theme's colours (the arrows' among them) and its shades.
    out = Image.new("P", (board.width, board.height + band))
    out.putpalette(board.getpalette() or [])
    out.paste(board, (0, 0))
    marks: list[_Mark] = []
    items = []
    rings = []
    for move, colours, dashed in ((played, inks[0], True), (better, inks[1], False)):
        points = tuple(_points(state, state.describe(move), size, perspective))
        rings.append(len(points) == 1)
        if not points:
            continue
        reach = _reach(len(points), shape.spacing, scale)
        xs, ys = [x for x, _ in points], [y for _, y in points]
        box = (min(xs) - reach, min(ys) - reach, max(xs) + reach, max(ys) + reach)
        items.append(Item(box, (len(marks),)))
        marks.append(_Mark(points, colours, dashed, points[0][1] > shape.middle))
    shades = board.palette.tobytes() if board.palette else b""
    legend = _legend_band(board.width, band, labels, size, theme, tuple(rings), shades)
    out.paste(legend, (0, board.height))
    # Only where the marks are is drawn on and mapped again; marks that meet are drawn
    # together, the better over the played.
    for box, group in groups(items, *board.size):
        together = [marks[cast(int, index)] for (index,) in group]
        x, y = together[0].points[0]
        moved = tuple(mark.moved(-x, -y) for mark in together)
        sprite, (dx, dy) = _marks_sprite(moved, size, shape.spacing)
        canvas = out.crop(box).convert("RGB")
        canvas.paste(sprite, (x + dx - box[0], y + dy - box[1]), sprite)
        out.paste(indexed(canvas, _palette(shades)), box[:2])
    return out


@lru_cache(maxsize=16)
def _palette(shades: bytes) -> Image.Image:
    """A palette image of `shades` (a board's palette, as bytes), kept: Pillow builds its
    colour lookup in a palette the first time it maps onto it, a millisecond to do again
    on every frame's own copy."""
    image = Image.new("P", (1, 1))
    image.putpalette(shades)
    return image


@dataclass(frozen=True, slots=True)
class _Mark:
    """A move to mark: the centres it passes through, its ink and lining, dashed or solid,
    and whether it starts in the board's lower half (a ring opens downwards there)."""

    points: tuple[tuple[int, int], ...]
    colours: tuple[RGB, RGB]
    dashed: bool
    below: bool

    def moved(self, dx: int, dy: int) -> _Mark:
        points = tuple((x + dx, y + dy) for x, y in self.points)
        return _Mark(points, self.colours, self.dashed, self.below)


def _reach(points: int, spacing: float, scale: Scale) -> int:
    """How far a mark of that many points reaches past them."""
    if points == 1:  # a ring: its radius, half its lined width and a pixel
        return math.ceil(spacing * 0.5 + scale(6) / 2 + scale(2) + 2)
    return scale(26)  # an arrow: its head's wings (0.62 of its length, lined) reach furthest


@lru_cache(maxsize=256)
def _marks_sprite(
    marks: tuple[_Mark, ...], size: int, spacing: float
) -> tuple[Image.Image, tuple[int, int]]:
    """The marks drawn together, four times larger and scaled down like the sprites, and
    where the sprite's top left is from 0, 0 (where the first mark starts, as given).

    A mark depends on nothing but these, so the same steps, or a ring on the same side of
    the board, are drawn once. `spacing`: between neighbouring centres.
    """
    k = 4
    scale = Scale(size)
    boxes = []
    for mark in marks:
        reach = _reach(len(mark.points), spacing, scale)
        xs, ys = [x for x, _ in mark.points], [y for _, y in mark.points]
        boxes.append((min(xs) - reach, min(ys) - reach, max(xs) + reach, max(ys) + reach))
    x0, y0 = min(box[0] for box in boxes), min(box[1] for box in boxes)
    x1, y1 = max(box[2] for box in boxes), max(box[3] for box in boxes)
    # Premultiplied: every pixel drawn is opaque or untouched, so it is the same picture as
    # RGBA, and `reduce` averages it as it is instead of converting it there and back.
    overlay = Image.new("RGBa", ((x1 - x0) * k, (y1 - y0) * k), (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    for mark in marks:
        shifted = [(x - x0, y - y0) for x, y in mark.points]
        middle = shifted[0][1] + (-1 if mark.below else 1)
        ink, edge = mark.colours
        _mark_move(draw, shifted, ink, edge, mark.dashed, scale, _Shape(spacing, middle))
    return overlay.reduce(k).convert("RGBA"), (x0, y0)


@lru_cache(maxsize=64)
def _legend_band(
    width: int,
    band: int,
    labels: BoardLabels,
    size: int,
    theme: Theme,
    rings: tuple[bool, ...],
    colours: bytes,
) -> Image.Image:
    """The legend under the board, `width` x `band`, mapped onto the palette `colours` (the
    board's, as bytes: what keeps it apart in the cache). Two moves' words are rarely
    the same twice, so only the samples are kept apart from them."""
    image = _legend_samples(width, band, size, theme, rings).copy()
    _legend_words(image, labels, Scale(size), theme)
    return indexed(image, _palette(colours))


def _board_inks(theme: Theme) -> tuple[tuple[RGB, RGB], tuple[RGB, RGB]]:
    """The played move's colour and lining, then the better move's."""
    return (theme.taken, theme.taken_edge), (theme.hint, theme.hint_edge)


def _points(
    state: GameState, info: MoveInfo, size: int, perspective: Side
) -> list[tuple[int, int]]:
    """The centres a move passes through: its path, or the stone a removal takes."""
    squares = info.path or info.forfeited[:1]
    return [centre(state, square, size=size, perspective=perspective) for square in squares]


@dataclass(frozen=True, slots=True)
class _Shape:
    """What a ring needs of the board: the distance between neighbouring centres, and the
    height of the board's middle (a pit's count sits on its rim away from it: left open)."""

    spacing: float
    middle: float


@lru_cache(maxsize=16)
def _spacing(centres: tuple[tuple[int, int], ...]) -> float:
    points = list(centres)
    return min(math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1 :] if a != b)


def _mark_move(
    draw: ImageDraw.ImageDraw,
    points: Sequence[tuple[int, int]],
    ink: RGB,
    edge: RGB,
    dashed: bool,
    scale: Scale,
    shape: _Shape,
) -> None:
    """An arrow along `points` (a ring when there is one point), on a canvas 4 times larger."""
    k = 4
    stroke = scale(7) * k
    lining = scale(2) * k
    if not points:
        return
    if len(points) == 1:
        x, y = points[0][0] * k, points[0][1] * k
        r = shape.spacing * 0.5 * k
        # The gap faces away from the board's middle, where Oware writes a pit's count.
        away = 90 if points[0][1] > shape.middle else 270
        ring_width = scale(6) * k
        for width, colour, grow in ((ring_width + 2 * lining, edge, 4), (ring_width, ink, 0)):
            _ring(draw, (x, y), r, width, colour, away, dashed, grow)
        return
    path = [(x * k, y * k) for x, y in points]
    head = scale(24) * k
    # Stop the shaft where the head begins, and the head short of the square's centre.
    (ax, ay), (bx, by) = path[-2], path[-1]
    length = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / length, (by - ay) / length
    tip = (bx - ux * scale(10) * k, by - uy * scale(10) * k)
    base = (tip[0] - ux * head, tip[1] - uy * head)
    shaft = [*path[:-1], base]
    wing = head * 0.62
    triangle = [
        tip,
        (base[0] - uy * wing, base[1] + ux * wing),
        (base[0] + uy * wing, base[1] - ux * wing),
    ]
    for width, colour, grow in ((stroke + 2 * lining, edge, lining), (stroke, ink, 0)):
        if dashed:
            _dashed(draw, shaft, width, colour, scale(14) * k, scale(9) * k)
        else:
            draw.line(shaft, fill=colour, width=width, joint="curve")
        r = width / 2
        sx, sy = shaft[0]
        draw.ellipse((sx - r, sy - r, sx + r, sy + r), fill=colour)
        draw.polygon(_grown(triangle, grow * 1.6), fill=colour)


def _grown(triangle: Sequence[tuple[float, float]], by: float) -> list[tuple[float, float]]:
    """A triangle pushed out from its centre by `by` pixels (the lining round an arrow's head)."""
    cx = sum(x for x, _ in triangle) / 3
    cy = sum(y for _, y in triangle) / 3
    out = []
    for x, y in triangle:
        d = math.hypot(x - cx, y - cy) or 1.0
        out.append((x + (x - cx) / d * by, y + (y - cy) / d * by))
    return out


def _dashed(
    draw: ImageDraw.ImageDraw,
    path: Sequence[tuple[float, float]],
    width: int,
    colour: RGB,
    dash: float,
    gap: float,
) -> None:
    """A dashed polyline with round dash ends; dashes run on across corners."""
    r = width / 2
    on, left = True, dash
    for (ax, ay), (bx, by) in pairwise(path):
        length = math.hypot(bx - ax, by - ay)
        at = 0.0
        while at < length:
            step = min(left, length - at)
            if on:
                x0, y0 = ax + (bx - ax) * at / length, ay + (by - ay) * at / length
                t = (at + step) / length
                x1, y1 = ax + (bx - ax) * t, ay + (by - ay) * t
                draw.line((x0, y0, x1, y1), fill=colour, width=width)
                for x, y in ((x0, y0), (x1, y1)):
                    draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)
            at += step
            left -= step
            if left <= 0:
                on = not on
                left = dash if on else gap
    # The last stretch always reaches the head.
    x, y = path[-1]
    draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)


def _ring(
    draw: ImageDraw.ImageDraw,
    at: tuple[float, float],
    radius: float,
    width: int,
    colour: RGB,
    away: int,
    dashed: bool,
    grow: float,
) -> None:
    """A ring open for 70 degrees around the angle `away`; dashed, of arcs with gaps.
    `grow` lengthens every arc by that many degrees at each end (a lining's)."""
    x, y = at
    box = (x - radius, y - radius, x + radius, y + radius)
    start, end = away + 35, away + 325
    if not dashed:
        draw.arc(box, start - grow, end + grow, fill=colour, width=width)
        return
    arcs = 9
    span = (end - start) / (arcs - 0.4)
    for i in range(arcs):
        a = start + i * span
        draw.arc(box, a - grow, a + 0.6 * span + grow, fill=colour, width=width)


@lru_cache(maxsize=16)
def _legend_samples(
    width: int, band: int, size: int, theme: Theme, rings: tuple[bool, ...]
) -> Image.Image:
    """The legend band with a sample of each mark as the board draws it, words aside (kept:
    copy it to write on it)."""
    image = Image.new("RGB", (width, band), theme.panel)
    inks = _board_inks(theme)
    scale = Scale(size)
    line = scale(SIZES.legend)
    x0 = scale(SIZES.margin)
    sample = scale(52)
    small = Scale(round(scale.size * 0.7))
    k = 4
    for row, ((ink, edge), dashed, ring) in enumerate(zip(inks, (True, False), rings, strict=True)):
        y = scale(4) + line * row + line // 2
        overlay = Image.new("RGBA", ((sample + scale(16)) * k, line * k), (0, 0, 0, 0))
        draw = ImageDraw.Draw(overlay)
        middle = line // 2
        points = [(sample // 2, middle)] if ring else [(scale(4), middle), (sample, middle)]
        # The real mark's shapes, drawn smaller.
        _mark_move(draw, points, ink, edge, dashed, small, _Shape(line * 0.9, -1.0))
        reduced = overlay.reduce(k)
        image.paste(reduced, (x0, y - middle), reduced)
    return image


def _legend_words(image: Image.Image, labels: BoardLabels, scale: Scale, theme: Theme) -> None:
    """Each mark's label after its sample, on the legend band."""
    line = scale(SIZES.legend)
    x0 = scale(SIZES.margin)
    sample = scale(52)
    for row, text in enumerate((labels.played, labels.better)):
        y = scale(4) + line * row + line // 2
        room = image.width - x0 * 2 - sample - scale(20)
        words, face = fitted(text, scale(SIZES.legend_font), room, scale(12))
        write(ImageDraw.Draw(image), (x0 + sample + scale(20), y), words, face, theme.text, "lm")
