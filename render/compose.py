"""Frames composed in palette mode from patches drawn once.

A board frame is its kit's static board (drawn once per size, perspective and
theme) with things put on it: stones, marks, badges, the caption's lines. A
painter says each thing as an `Item`: the box it covers and `what`, a hashable
description the painter can draw again from (`("stone", side, x, y)`), in the
order they are drawn. Items whose boxes overlap are drawn together, in that
order, as one patch: cut from the RGB board, drawn on with blending, mapped
onto the kit's palette. A patch depends on nothing but its items, so it is
cached by them (`patch` is the painter's bounded `lru_cache`): a red stone on
c3 beside nothing is drawn and mapped once, and a frame is the palette-mode
board with its patches pasted on, with no blending and no colour mapping.

Every pixel is what drawing the items in order on the whole RGB board and
mapping the whole image would give: the palette lookup is per pixel, and the
items are drawn at whole-pixel offsets, which move Pillow's shapes and text
without changing them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol, TypeVar, cast

from PIL import Image, ImageDraw

from games.base import Side
from render.draw import indexed
from render.theme import RGB, Theme, font

Box = tuple[int, int, int, int]
What = tuple[Hashable, ...]


@dataclass(frozen=True, slots=True)
class Item:
    """One thing put on a board: the box it covers and what it is (hashable, drawable)."""

    box: Box
    what: What


Patch = Callable[[Box, tuple[What, ...]], Image.Image]
"""Draws items (in order) on the RGB board's `box` and maps it to the palette: a painter's
cached function."""


def compose(board: Image.Image, items: Iterable[Item], patch: Patch) -> Image.Image:
    """The palette-mode `board` with `items` drawn on it, a patch for each group of them."""
    canvas = board.copy()
    width, height = board.size
    for box, whats in groups(items, width, height):
        canvas.paste(patch(box, whats), box[:2])
    return canvas


def groups(items: Iterable[Item], width: int, height: int) -> list[tuple[Box, tuple[What, ...]]]:
    """The items gathered where their boxes overlap, each group in drawing order with the box
    it covers, clipped to `width` x `height`. Groups' boxes never overlap, so their patches can
    be pasted in any order."""
    found: list[tuple[int, int, int, int, list[tuple[int, What]]]] = []
    for order, item in enumerate(items):
        x0, y0, x1, y1 = item.box
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
        if x0 >= x1 or y0 >= y1:
            continue
        members = [(order, item.what)]
        merged = True
        while merged:  # a grown box can reach groups the item itself did not
            merged = False
            for index in range(len(found) - 1, -1, -1):
                g0, h0, g1, h1, theirs = found[index]
                if g0 < x1 and x0 < g1 and h0 < y1 and y0 < h1:
                    x0, y0, x1, y1 = min(x0, g0), min(y0, h0), max(x1, g1), max(y1, h1)
                    members = theirs + members
                    del found[index]
                    merged = True
        found.append((x0, y0, x1, y1, members))
    return [
        ((x0, y0, x1, y1), tuple(what for _, what in sorted(members, key=_first)))
        for x0, y0, x1, y1, members in found
    ]


def _first(member: tuple[int, What]) -> int:
    return member[0]


# ------------------------------------------------------------------- text


def text_item(
    xy: tuple[float, float], text: str, pixels: int, fill: RGB, anchor: str = "mm"
) -> Item:
    """A line of text as an item: `("text", x, y, text, pixels, fill, anchor)`."""
    left, top, right, bottom = font(pixels).getbbox(text, anchor=anchor)
    x, y = xy
    # A pixel more on each side: antialiasing may reach past the glyphs' box. The anchor
    # stays inside, so its offset in a patch is never negative: Pillow places text by the
    # whole and the fractional part of each coordinate, which a whole-pixel shift keeps.
    x0 = min(math.floor(x + left) - 1, math.floor(x))
    y0 = min(math.floor(y + top) - 1, math.floor(y))
    box = (x0, y0, math.ceil(x + right) + 1, math.ceil(y + bottom) + 1)
    return Item(box, ("text", x, y, text, pixels, fill, anchor))


def draw_text(canvas: Image.Image, what: What, offset: tuple[int, int]) -> None:
    """Draw a `text_item` on `canvas`, whose top left is at `offset` of the frame."""
    _, x, y, text, pixels, fill, anchor = cast(tuple[str, float, float, str, int, RGB, str], what)
    at = (x - offset[0], y - offset[1])
    ImageDraw.Draw(canvas).text(at, text, font=font(pixels), fill=fill, anchor=anchor)


def sprite_item(image: Image.Image, centre: tuple[float, float], what: What) -> Item:
    """A sprite centred on `centre` as `render.draw.put` places it; `what` names it, and its
    place is added to it."""
    x = round(centre[0]) - image.width // 2
    y = round(centre[1]) - image.height // 2
    return Item((x, y, x + image.width, y + image.height), (*what, x, y))


def paste_item(image: Image.Image, xy: tuple[int, int], what: What) -> Item:
    """A sprite with its top left at `xy`; `what` names it, and its place is added to it."""
    x, y = xy
    return Item((x, y, x + image.width, y + image.height), (*what, x, y))


def put_at(canvas: Image.Image, image: Image.Image, what: What, offset: tuple[int, int]) -> None:
    """Paste a sprite item's `image`, blending, at the place its `what` ends with."""
    x, y = cast(tuple[int, int], what[-2:])
    at = (x - offset[0], y - offset[1])
    canvas.paste(image, at, image)


# A painter's patches kept: about 4 MiB, most a piece or two, some a caption line.
PATCHES_KEPT = 512


class Kit(Protocol):
    """What `patches` and `drawn_whole` read of a painter's kit (its static board)."""

    @property
    def base(self) -> Image.Image: ...  # the static board in RGB

    @property
    def palette(self) -> Image.Image: ...  # the palette its frames are mapped onto


K = TypeVar("K", bound=Kit)
Draw = Callable[[K, Image.Image, What, tuple[int, int]], None]
PatchOf = Callable[[int, Side, Theme, Box, tuple[What, ...]], Image.Image]


def patches(kit_of: Callable[[int, Side, Theme], K], draw: Draw[K]) -> PatchOf:
    """A painter's `patch` for `compose`, by size, perspective, theme, box and items: the
    items drawn with `draw` in order on that box cut from the kit's RGB board, mapped onto
    its palette; kept (`PATCHES_KEPT`), so each is drawn and mapped once."""

    @lru_cache(maxsize=PATCHES_KEPT)
    def patch(
        size: int, perspective: Side, theme: Theme, box: Box, whats: tuple[What, ...]
    ) -> Image.Image:
        kit = kit_of(size, perspective, theme)
        canvas = kit.base.crop(box)
        for what in whats:
            draw(kit, canvas, what, box[:2])
        return indexed(canvas, kit.palette)

    return patch


def drawn_whole(kit: K, items: Iterable[Item], draw: Draw[K]) -> Image.Image:
    """A frame in RGB, its items drawn with `draw` on the kit's whole board (what a
    painter's palette is made from)."""
    canvas = kit.base.copy()
    for item in items:
        draw(kit, canvas, item.what, (0, 0))
    return canvas
