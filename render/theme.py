"""Every colour, proportion and the font of Kamen's images, in one place.

Colours are chosen to survive the common colour-vision deficiencies (the tests
simulate protanopia, deuteranopia and tritanopia and measure the distances
that matter), and every meaning carried by a colour is carried by a shape too:
officers wear a crown, the square a piece went to has a border, a captured
piece leaves a cross.

Sizes are written in pixels of a 640-pixel image and scaled with `Scale`, so a
smaller image is the same picture, not a different layout.

The image carries its own dark panel, so it reads the same on Discord's light
and dark themes; the board colours are light enough to stand out on it.
"""

# The theme's defaults call `rgb` once, at import, and hold immutable tuples.
# ruff: noqa: RUF009

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

RGB = tuple[int, int, int]

FONT_FILE = Path(__file__).with_name("fonts") / "DejaVuSans-Bold-subset.ttf"
_CMAP_FILE = Path(__file__).with_name("fonts") / "DejaVuSans-Bold-subset.cmap.txt"

REFERENCE = 640
"""The longest side the sizes below are written for, and the largest allowed."""
SMALLEST = 320
"""Below this the coordinates and counts stop being readable."""


def rgb(code: str) -> RGB:
    """`#RRGGBB` with every channel rounded down to a multiple of 4.

    Pillow maps a colour onto a palette through a cache indexed by the top six
    bits of each channel and picks the entry nearest to the cell's corner; a
    colour on that corner always maps to itself, so a pixel probed in the PNG
    is exactly the theme's colour.
    """
    value = code.lstrip("#")
    return tuple(int(value[i : i + 2], 16) & 0xFC for i in (0, 2, 4))  # type: ignore[return-value]


@dataclass(frozen=True)
class Theme:
    """The colours of every image. Hashable, so caches can be keyed by it."""

    # The panel every image sits on, and its text.
    panel: RGB = rgb("#1E2228")
    text: RGB = rgb("#F4F4F0")
    muted: RGB = rgb("#A8B0BC")
    outline: RGB = rgb("#16181C")

    # The last move and the hints, on every board.
    came_from: RGB = rgb("#C8ECF4")
    came_from_dark: RGB = rgb("#6C9CA0")  # on Lasca's dark squares, where pale would read as light
    went_to: RGB = rgb("#5CC4DC")
    went_to_edge: RGB = rgb("#10708C")
    taken: RGB = rgb("#D82C8C")
    taken_edge: RGB = rgb("#FFFFFF")
    hint: RGB = rgb("#0C6C50")
    hint_edge: RGB = rgb("#E8F4EC")
    # A capture the rules compel: gold lined with dark, where a hint is green lined with light.
    must: RGB = rgb("#F4C430")
    must_edge: RGB = rgb("#3C2A08")

    # Oska: sand bricks, blue and red stones.
    brick: RGB = rgb("#E8D4AC")
    brick_label: RGB = rgb("#8C7050")
    blue: RGB = rgb("#2C68E0")
    blue_rim: RGB = rgb("#1C449C")
    red: RGB = rgb("#D8402C")
    red_rim: RGB = rgb("#982818")

    # Lasca: White's pieces white (soldiers) and red (officers), Black's
    # black and blue (games/RULES.md); an officer's crown is its owner's colour.
    light_square: RGB = rgb("#F0E4C8")
    dark_square: RGB = rgb("#A08058")
    white_face: RGB = rgb("#F8F4EC")
    white_side: RGB = rgb("#D4CCBC")
    black_face: RGB = rgb("#303034")
    black_side: RGB = rgb("#1C1C20")
    black_edge: RGB = rgb("#74747C")  # lighter, so stacked black pieces stay apart
    white_officer_face: RGB = rgb("#D83C2C")
    white_officer_side: RGB = rgb("#A02818")
    black_officer_face: RGB = rgb("#3068D4")
    black_officer_side: RGB = rgb("#1C4498")
    badge: RGB = rgb("#283C58")
    badge_text: RGB = rgb("#F4F4F0")

    # Oware: a wooden board with dark pits and pale seeds.
    wood: RGB = rgb("#B8844C")
    wood_edge: RGB = rgb("#7C5430")
    pit: RGB = rgb("#6C4428")
    pit_shade: RGB = rgb("#503018")
    seed: RGB = rgb("#F4E8D0")
    seed_edge: RGB = rgb("#3C2814")
    count: RGB = rgb("#16181C")
    count_text: RGB = rgb("#F4F4F0")

    def colours(self) -> tuple[RGB, ...]:
        """Every colour of the theme: each one is kept exactly in the palette."""
        return tuple(getattr(self, field.name) for field in fields(self))


THEME = Theme()


@dataclass(frozen=True)
class Sizes:
    """Proportions shared by the three boards, in pixels of a 640-pixel image."""

    margin: int = 14
    caption: int = 104  # the band of three lines at the top
    title_font: int = 25
    line_font: int = 17
    label: int = 26  # the band of coordinates beside the board
    label_font: int = 17
    corner_font: int = 12  # the name written in an Oska brick's corner
    badge_font: int = 14
    count_font: int = 17
    gap: int = 6  # mortar between Oska bricks
    radius: int = 8  # rounded corners
    edge: int = 4  # the border of the square a piece went to
    cross: int = 5  # the stroke of a captured piece's cross
    ring: int = 5  # the stroke of a ring: a stone or pit that may move, a pit sown, a ghost
    dot: int = 11  # the radius of a dot where the piece picked may go
    chip: int = 26  # the piece before the caption's title
    smallest_font: int = 12  # a caption line shrinks to this before it is cut
    store: int = 66  # the width of an Oware store
    plate_pad: int = 12  # between the Oware board's edge and its pits
    store_name_font: int = 14
    store_count_font: int = 26
    legend: int = 34  # Lasca's band under the board saying how soldiers and officers look
    legend_font: int = 17


SIZES = Sizes()

# Oska: a brick is this much wider than high; a stone fills this much of its height.
BRICK_RATIO = 1.3
STONE = 0.80

# Lasca: a disc's width, its face's height and the thickness of one piece,
# as fractions of a square; at most this many pieces are drawn, the rest counted.
DISC_WIDTH = 0.86
FACE_HEIGHT = 0.36
PIECE_THICKNESS = 0.12
VISIBLE_PIECES = 5

# Oware: pits in a row, the pit's share of its cell, the seed's share of a pit,
# and the most seeds drawn as dots (the count is always written).
PIT = 0.86
SEED = 0.2
SEEDS_DRAWN = 15
STORE_SEEDS_DRAWN = 20


@dataclass(frozen=True)
class Scale:
    """Pixels of an image whose longest side is `size`."""

    size: int

    @property
    def factor(self) -> float:
        return self.size / REFERENCE

    def __call__(self, pixels: float) -> int:
        """`pixels` of the reference image, at this size (at least 1)."""
        return max(1, round(pixels * self.factor))


def check_size(size: int) -> None:
    """Refuse sizes the layout is not made for (DESIGN.md §5: at most 640 px)."""
    if not SMALLEST <= size <= REFERENCE:
        raise ValueError(f"size must be between {SMALLEST} and {REFERENCE} pixels, not {size}")


# ---------------------------------------------------------------- the font


@lru_cache(maxsize=64)
def font(pixels: int) -> ImageFont.FreeTypeFont:
    """The shipped font at `pixels`; never a system font, so images look the same anywhere."""
    return ImageFont.truetype(str(FONT_FILE), pixels)


@lru_cache(maxsize=1)
def _covered() -> frozenset[int]:
    points: set[int] = set()
    for line in _CMAP_FILE.read_text().splitlines():
        if line and not line.startswith("#"):
            first, _, last = line.partition("-")
            points.update(range(int(first, 16), int(last, 16) + 1))
    return frozenset(points)


def printable(text: str) -> str:
    """`text` with every character the font lacks (emoji, CJK) replaced by `?`.

    Players' names come from Discord and may hold anything; a box per missing
    glyph reads worse than a question mark.
    """
    covered = _covered()
    return "".join(ch if ord(ch) in covered else "?" for ch in text)
