"""Table images: leaderboards and season tables, as PNG bytes.

    table_png(table, *, theme="dark") -> bytes
    table_layout(table) -> TableLayout   # where the rows are, for hit-testing and tests

The caller formats every cell; this module only measures and draws. Columns
are as wide as their widest text, and the first left-aligned column (the
names) takes what is left of the smallest width or gives up what is over the
largest (down to `MIN_STRETCH`: past that the image is wider). A cell longer
than `MAX_CHARS` characters, or one that still does not fit, is cut with `…`;
a character the shipped font lacks becomes `?` (`theme.printable`).

A highlighted row has its own background and a bar at its left edge (a shape,
not a colour alone); a muted row's text is dimmer. The image is sized for a
phone, where Discord shows it about 400 pixels wide: the text is at least 22
pixels at full size.

The palettes `dark` and `light` are the surfaces tables and charts
(`render.charts`) sit on, the dark one the boards' panel (`theme.THEME`).
Text is set from cached glyphs, and the strings set are cached too
(`put_text`): FreeType hints and rasterises every glyph of every
`ImageDraw.text` call anew, which was two thirds of a table's time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from render.draw import indexed, png
from render.theme import RGB, THEME, font, printable, rgb

_ANCHORS: dict[str, str] = {"left": "lm", "right": "rm", "center": "mm"}

# Sizes in pixels of the finished image.
MIN_WIDTH = 800
MAX_WIDTH = 1000
MIN_STRETCH = 300  # names are cut no shorter; a table of many columns grows wider instead
MARGIN = 24  # left and right of the table
PAD = 14  # left and right inside a cell
TITLE_FONT = 34
SUBTITLE_FONT = 22
HEADER_FONT = 22
CELL_FONT = 26
SMALLEST_TITLE = 24
TITLE_BAND = 70  # the title alone; a subtitle adds SUBTITLE_LINE
SUBTITLE_LINE = 30
HEADER_ROW = 44
ROW = 48
BOTTOM = 16
BAR = 6  # the mark at the left of a highlighted row
MAX_CHARS = 24
EMPTY = "—"


# ---------------------------------------------------------------- palettes


@dataclass(frozen=True, slots=True)
class Palette:
    """The colours of a table or chart on one of Discord's themes."""

    background: RGB
    band: RGB  # behind the title
    text: RGB
    muted: RGB  # subtitles, headers, ticks
    dim: RGB  # the text of a muted row
    rule: RGB  # lines: under the header, gridlines, axes
    zebra: RGB  # every second row
    highlight: RGB  # a highlighted row's background
    accent: RGB  # the bar of a highlighted row


PALETTES: dict[str, Palette] = {
    "dark": Palette(
        background=THEME.panel,
        band=rgb("#161A1F"),
        text=THEME.text,
        muted=THEME.muted,
        dim=rgb("#7C8490"),
        rule=rgb("#3C444F"),
        zebra=rgb("#272C33"),
        highlight=rgb("#1C4A64"),
        accent=THEME.went_to,
    ),
    "light": Palette(
        background=rgb("#FBFBF8"),
        band=rgb("#E8ECF0"),
        text=rgb("#1E2228"),
        muted=rgb("#55606C"),
        dim=rgb("#8C949C"),
        rule=rgb("#C8CED6"),
        zebra=rgb("#EFF1F4"),
        highlight=rgb("#CDE6F2"),
        accent=THEME.went_to_edge,
    ),
}


def palette(theme: str) -> Palette:
    """The palette named `theme` (`dark` or `light`); ValueError for any other."""
    try:
        return PALETTES[theme]
    except KeyError:
        raise ValueError(f"unknown theme {theme!r}: use one of {sorted(PALETTES)}") from None


def blends(pairs: tuple[tuple[RGB, RGB], ...], steps: int = 16) -> list[RGB]:
    """Every colour antialiased text of the first colour of a pair makes on the second."""
    out: list[RGB] = []
    for ink, ground in pairs:
        for step in range(steps + 1):
            a = step / steps
            out.append(
                (
                    round(ink[0] * a + ground[0] * (1 - a)),
                    round(ink[1] * a + ground[1] * (1 - a)),
                    round(ink[2] * a + ground[2] * (1 - a)),
                )
            )
    return out


# -------------------------------------------------------------------- text


@dataclass(frozen=True, slots=True)
class _Glyph:
    """A glyph, or a string's glyphs set together, as a mask placed from the pen."""

    mask: Image.Image | None  # None for a space
    dx: int  # from the pen to the mask's left edge
    dy: int  # from the baseline to the mask's top edge
    advance: float


@lru_cache(maxsize=4096)
def _glyph(char: str, pixels: int) -> _Glyph:
    face = font(pixels)
    ascent, descent = face.getmetrics()
    pad = pixels
    canvas = Image.new("L", (3 * pixels, ascent + descent + 2 * pad))
    ImageDraw.Draw(canvas).text((pad, pad + ascent), char, font=face, fill=255, anchor="ls")
    box = canvas.getbbox()
    mask = canvas.crop(box) if box else None
    dx, dy = (box[0] - pad, box[1] - pad - ascent) if box else (0, 0)
    return _Glyph(mask, dx, dy, face.getlength(char))


@lru_cache(maxsize=16384)
def _kerning(pair: str, pixels: int) -> float:
    """How much closer (negative) the font sets the two characters of `pair` than their advances."""
    return (
        font(pixels).getlength(pair)
        - _glyph(pair[0], pixels).advance
        - _glyph(pair[1], pixels).advance
    )


@lru_cache(maxsize=4096)
def text_width(text: str, pixels: int) -> float:
    """The width `put_text` gives `text` at `pixels`."""
    width = 0.0
    previous = ""
    for char in text:
        if previous:
            width += _kerning(previous + char, pixels)
        width += _glyph(char, pixels).advance
        previous = char
    return width


@lru_cache(maxsize=1024)
def _run(text: str, pixels: int) -> _Glyph:
    """The glyphs of `text` set in one mask: a table's names, numbers and headers come back."""
    placed: list[tuple[Image.Image, int, int]] = []
    pen = 0.0
    previous = ""
    for char in text:
        if previous:
            pen += _kerning(previous + char, pixels)
        glyph = _glyph(char, pixels)
        if glyph.mask is not None:
            placed.append((glyph.mask, round(pen) + glyph.dx, glyph.dy))
        pen += glyph.advance
        previous = char
    if not placed:
        return _Glyph(None, 0, 0, pen)
    left = min(x for _, x, _ in placed)
    top = min(y for _, _, y in placed)
    right = max(x + mask.width for mask, x, _ in placed)
    bottom = max(y + mask.height for mask, _, y in placed)
    run = Image.new("L", (right - left, bottom - top))
    for mask, x, y in placed:
        run.paste(255, (x - left, y - top), mask)  # coverage over coverage, where glyphs touch
    return _Glyph(run, left, top, pen)


def put_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    pixels: int,
    ink: RGB,
    anchor: str = "mm",
) -> None:
    """Write `text` on an RGB image, placed as `ImageDraw.text` places it.

    `anchor` is two letters: `l`, `m` or `r` across, then `m` (halfway between
    the font's ascender and descender) or `s` (the baseline) down. The text
    should have been through `printable`.
    """
    across, down = anchor[0], anchor[1]
    if len(anchor) != 2 or across not in "lmr" or down not in "ms":
        raise ValueError(f"unknown anchor {anchor!r}")
    run = _run(text, pixels)
    x, y = xy
    if across != "l":
        x -= run.advance if across == "r" else run.advance / 2
    if down == "m":
        ascent, descent = font(pixels).getmetrics()
        y += (ascent - descent) / 2
    if run.mask is not None:
        image.paste(ink, (round(x) + run.dx, round(y) + run.dy), run.mask)


def cut(text: str, pixels: int, room: float) -> str:
    """`text`, cut with `…` to fit `room` pixels at `pixels` if it does not."""
    if text_width(text, pixels) <= room:
        return text
    while text and text_width(text + "…", pixels) > room:
        text = text[:-1]
    return text.rstrip() + "…"


def fit(text: str, pixels: int, room: float, smallest: int) -> tuple[str, int]:
    """`text` and a size for it: `pixels`, smaller down to `smallest` to fit `room`, then cut."""
    while pixels > smallest and text_width(text, pixels) > room:
        pixels -= 1
    return cut(text, pixels, room), pixels


# ------------------------------------------------------------------- input


@dataclass(frozen=True, slots=True)
class Column:
    """A column's header and how its cells line up (ranks and numbers: `right`)."""

    header: str
    align: str = "left"  # "left" | "right" | "center"


@dataclass(frozen=True, slots=True)
class TableImage:
    """What a table shows: cells already formatted as text, one per column."""

    title: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...]
    subtitle: str = ""
    highlight: frozenset[int] = frozenset()  # row indexes drawn emphasised
    muted: frozenset[int] = frozenset()  # row indexes drawn dimmer


@dataclass(frozen=True, slots=True)
class TableLayout:
    """Where a table's parts are in its image, in pixels."""

    width: int
    height: int
    header: tuple[int, int]  # top and bottom of the header row
    rows: tuple[tuple[int, int], ...]  # top and bottom of each row (one `—` row when none)
    columns: tuple[tuple[int, int], ...]  # left and right of each column
    cells: tuple[tuple[str, ...], ...]  # the text drawn in each cell, cut to fit

    def row_point(self, index: int) -> tuple[int, int]:
        """A background pixel of row `index`: mid-height, between the highlight bar and the text."""
        top, bottom = self.rows[index]
        return MARGIN + BAR + 2, (top + bottom) // 2


# ------------------------------------------------------------------ layout


def table_layout(table: TableImage) -> TableLayout:
    """Measure `table`: column widths from their text, row positions, the text as cut.

    ValueError for a table without columns, an unknown alignment, or a row
    whose cell count differs from the columns'.
    """
    columns = table.columns
    if not columns:
        raise ValueError("a table needs at least one column")
    for column in columns:
        if column.align not in _ANCHORS:
            raise ValueError(f"column {column.header!r}: unknown align {column.align!r}")
    for index, row in enumerate(table.rows):
        if len(row) != len(columns):
            raise ValueError(f"row {index} has {len(row)} cells for {len(columns)} columns")

    cells = [tuple(_shorten(printable(cell)) for cell in row) for row in table.rows]
    widths = [
        max(
            [text_width(printable(column.header), HEADER_FONT)]
            + [text_width(row[i], CELL_FONT) for row in cells]
        )
        for i, column in enumerate(columns)
    ]
    inner = [round(width) + 2 * PAD for width in widths]
    stretch = next((i for i, c in enumerate(columns) if c.align == "left"), len(columns) - 1)
    total = sum(inner) + 2 * MARGIN
    if total < MIN_WIDTH:
        inner[stretch] += MIN_WIDTH - total
    elif total > MAX_WIDTH:
        inner[stretch] = max(inner[stretch] - (total - MAX_WIDTH), MIN_STRETCH)
        room = inner[stretch] - 2 * PAD
        cells = [
            (*row[:stretch], cut(row[stretch], CELL_FONT, room), *row[stretch + 1 :])
            for row in cells
        ]
    width = sum(inner) + 2 * MARGIN

    edges: list[tuple[int, int]] = []
    x = MARGIN
    for column_width in inner:
        edges.append((x, x + column_width))
        x += column_width

    top = TITLE_BAND + (SUBTITLE_LINE if table.subtitle else 0)
    header = (top, top + HEADER_ROW)
    count = max(1, len(cells))
    rows = tuple((header[1] + i * ROW, header[1] + (i + 1) * ROW) for i in range(count))
    height = rows[-1][1] + BOTTOM
    return TableLayout(width, height, header, rows, tuple(edges), tuple(cells))


def _shorten(text: str) -> str:
    if len(text) <= MAX_CHARS:
        return text
    return text[: MAX_CHARS - 1].rstrip() + "…"


# ----------------------------------------------------------------- drawing


def table_png(table: TableImage, *, theme: str = "dark") -> bytes:
    """The PNG of `table` on the `dark` or `light` theme; ValueError for another theme."""
    # A palette image encodes in a fifth of the time of an RGB one, and is half the size.
    return png(indexed(table_image(table, theme=theme), _colours(theme)))


def table_image(table: TableImage, *, theme: str = "dark") -> Image.Image:
    """The RGB image `table_png` encodes."""
    colours = palette(theme)
    layout = table_layout(table)
    image = Image.new("RGB", (layout.width, layout.height), colours.background)
    draw = ImageDraw.Draw(image)
    _draw_title(image, table, layout, colours)

    left, right = MARGIN, layout.width - MARGIN
    header_mid = sum(layout.header) // 2
    for column, edge in zip(table.columns, layout.columns, strict=True):
        anchor = _ANCHORS[column.align]
        at = (_anchor_x(column, edge), header_mid)
        put_text(image, at, printable(column.header), HEADER_FONT, colours.muted, anchor)
    draw.line((left, layout.header[1] - 1, right, layout.header[1] - 1), fill=colours.rule, width=2)

    if not layout.cells:
        top, bottom = layout.rows[0]
        draw.rectangle((left, top, right - 1, bottom - 1), fill=colours.zebra)
        put_text(image, ((left + right) / 2, (top + bottom) / 2), EMPTY, CELL_FONT, colours.dim)
        return image

    for index, (cells, (top, bottom)) in enumerate(zip(layout.cells, layout.rows, strict=True)):
        box = (left, top, right - 1, bottom - 1)
        if index in table.highlight:
            draw.rectangle(box, fill=colours.highlight)
            draw.rectangle((left, top, left + BAR - 1, bottom - 1), fill=colours.accent)
        elif index % 2:
            draw.rectangle(box, fill=colours.zebra)
        ink = colours.dim if index in table.muted else colours.text
        middle = (top + bottom) / 2
        for column, edge, text in zip(table.columns, layout.columns, cells, strict=True):
            xy = (_anchor_x(column, edge), middle)
            put_text(image, xy, text, CELL_FONT, ink, _ANCHORS[column.align])
    return image


def _anchor_x(column: Column, edge: tuple[int, int]) -> float:
    if column.align == "left":
        return edge[0] + PAD
    if column.align == "right":
        return edge[1] - PAD
    return (edge[0] + edge[1]) / 2


def _draw_title(
    image: Image.Image, table: TableImage, layout: TableLayout, colours: Palette
) -> None:
    band_bottom = layout.header[0] - 8
    ImageDraw.Draw(image).rectangle((0, 0, layout.width - 1, band_bottom), fill=colours.band)
    room = layout.width - 2 * MARGIN
    title, size = fit(printable(table.title), TITLE_FONT, room, SMALLEST_TITLE)
    put_text(image, (MARGIN, 38), title, size, colours.text, "lm")
    if table.subtitle:
        subtitle = cut(printable(table.subtitle), SUBTITLE_FONT, room)
        put_text(image, (MARGIN, 76), subtitle, SUBTITLE_FONT, colours.muted, "lm")


@lru_cache(maxsize=len(PALETTES))
def _colours(theme: str) -> Image.Image:
    """The palette image of a theme: its colours and every shade its text makes on them."""
    c = palette(theme)
    pairs = (
        (c.text, c.band), (c.muted, c.band), (c.muted, c.background),
        (c.text, c.background), (c.text, c.zebra), (c.text, c.highlight),
        (c.dim, c.background), (c.dim, c.zebra), (c.dim, c.highlight),
    )  # fmt: skip
    colours = list(dict.fromkeys([c.rule, c.accent, *blends(pairs)]))
    image = Image.new("P", (1, 1))
    image.putpalette([channel for colour in colours for channel in colour])
    return image
