"""Oware: two rows of six pits between the two stores.

The player whose perspective it is sits at the bottom, their pits lettered
left to right (A-F for South, a-f for North) and their store at their right
hand; sowing runs counter-clockwise. Every pit has its count written in a
badge on its outer side, and up to `SEEDS_DRAWN` seeds drawn as dots; each
store shows its side's name, seeds and count.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from typing import cast

from PIL import Image, ImageDraw

import words
from games.base import MoveInfo, Side, Variant
from games.oware import LAST, PITS, SPEC, OwareState
from render.compose import (
    Item,
    What,
    compose,
    draw_text,
    drawn_whole,
    patches,
    put_at,
    sprite_item,
    text_item,
)
from render.draw import cross, ellipse, indexed, palette, pill, put, ring, sprite, write
from render.scene import (
    Box,
    Caption,
    Layout,
    Painter,
    Point,
    Scene,
    caption_box,
    caption_items,
    sides,
)
from render.theme import (
    PIT,
    RGB,
    SEED,
    SEEDS_DRAWN,
    SIZES,
    STORE_SEEDS_DRAWN,
    Scale,
    Theme,
    font,
)

_GOLDEN = math.pi * (3 - math.sqrt(5))


@dataclass(frozen=True)
class _Geometry:
    layout: Layout
    perspective: Side
    cell: int
    plate: Box
    stores: tuple[Box, Box]  # South's, North's
    outward: dict[str, int]  # pit -> -1 (top row) or 1 (bottom row)


@lru_cache(maxsize=16)  # read-only once made: every frame, centre() and layout() ask for it
def _geometry(size: int, perspective: Side) -> _Geometry:
    scale = Scale(size)
    margin, label, pad = scale(SIZES.margin), scale(SIZES.label), scale(SIZES.plate_pad)
    store = scale(SIZES.store)
    cell = (size - 2 * margin - 2 * store - 4 * pad) // 6
    top = scale(SIZES.caption) + scale(4) + label
    plate = (margin, top, size - margin, top + 2 * cell + 2 * pad)
    pits_left = margin + store + 2 * pad
    upper, lower = plate[1] + pad + cell // 2, plate[1] + pad + cell + cell // 2
    bottom_side = Side(perspective)
    centres: dict[str, Point] = {}
    outward: dict[str, int] = {}
    for index, pit in enumerate(PITS):
        side, place = Side(index // 6), index % 6
        if side is bottom_side:
            centres[pit] = (pits_left + place * cell + cell // 2, lower)
            outward[pit] = 1
        else:
            centres[pit] = (pits_left + (5 - place) * cell + cell // 2, upper)
            outward[pit] = -1
    right = (size - margin - pad - store, plate[1] + pad, size - margin - pad, plate[3] - pad)
    left = (margin + pad, plate[1] + pad, margin + pad + store, plate[3] - pad)
    # Each side's store is at its owner's right hand.
    stores = (right, left) if bottom_side is Side.FIRST else (left, right)
    height = plate[3] + label + margin
    layout = Layout(size, height, caption_box(scale, size), centres)
    return _Geometry(layout, perspective, cell, plate, stores, outward)


def layout(size: int, perspective: Side, theme: Theme) -> Layout:
    """Where each pit's centre is, for hit-testing and tests."""
    return _geometry(size, perspective).layout


# ------------------------------------------------------------------ sprites


def _spiral(count: int, rx: float, ry: float, full: int) -> list[tuple[float, float]]:
    """Seed positions: a sunflower spiral that `full` seeds would fill to the radii.

    Fewer seeds keep the same spacing, gathered in the middle, so a pit's
    seeds look like a heap and not like a ring.
    """
    return [
        (rx * math.sqrt((i + 0.5) / full) * math.cos(i * _GOLDEN),
         ry * math.sqrt((i + 0.5) / full) * math.sin(i * _GOLDEN))
        for i in range(count)
    ]  # fmt: skip


@lru_cache(maxsize=512)
def _heap(width: int, height: int, seed: int, count: int, full: int, theme: Theme) -> Image.Image:
    """`count` seeds as one sprite of `width` x `height`."""

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        r = seed * k / 2
        rx, ry = width * k / 2 - r - k, height * k / 2 - r - k
        for dx, dy in _spiral(count, rx, ry, full):
            ellipse(
                draw,
                (width * k / 2 + dx, height * k / 2 + dy),
                r,
                r,
                theme.seed,
                theme.seed_edge,
                max(1.0, k * 1.1),
            )

    return sprite(width | 1, height | 1, paint)


def _ring(diameter: int, colour: RGB, stroke: int) -> Image.Image:
    """A plain ring round a pit: the one just sown."""

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        r = diameter * k / 2
        ellipse(draw, (r, r), r - k, r - k, None, colour, stroke * k)

    return sprite(diameter | 1, diameter | 1, paint)


@lru_cache(maxsize=128)
def _count(pixels: int, number: int, theme: Theme) -> Image.Image:
    """A pit's count in a round badge."""
    face = font(pixels)
    text = str(number)
    diameter = max(round(pixels * 1.55), round(face.getlength(text)) + pixels // 2) | 1
    height = round(pixels * 1.55) | 1
    colours = (theme.count, theme.seed, theme.count_text)
    return pill(text, face, (diameter, height), colours, stroke=1.5, text_dy=0.5)


@dataclass(frozen=True)
class _Kit:
    geometry: _Geometry
    scale: Scale
    base: Image.Image
    pit: int  # diameter
    seed: int
    sown: Image.Image
    playable: Image.Image
    chosen: Image.Image  # the pit picked: a bolder ring
    lands: Image.Image  # where the pit picked sows its last seed: a beaded ring
    taken: Image.Image
    palette: Image.Image
    board: Image.Image  # `base` mapped onto `palette`
    theme: Theme


@lru_cache(maxsize=4)  # a kit holds a whole board image; a bot uses one size, two sides
def _kit(size: int, perspective: Side, theme: Theme) -> _Kit:
    geometry = _geometry(size, perspective)
    scale = Scale(size)
    pit = round(geometry.cell * PIT) | 1
    seed = round(pit * SEED) | 1

    def taken(draw: ImageDraw.ImageDraw, k: float) -> None:
        c = pit * k / 2
        cross(draw, (c, c), pit * k * 0.2, scale(SIZES.cross) * k, theme.taken, theme.taken_edge)

    around = pit + 2 * scale(SIZES.ring)
    hint = (theme.hint, theme.hint_edge)
    kit = _Kit(
        geometry=geometry,
        scale=scale,
        base=_base(geometry, scale, theme, pit),
        pit=pit,
        seed=seed,
        sown=_ring(pit + 2 * scale(SIZES.ring), theme.went_to, scale(SIZES.ring)),
        playable=ring(around, scale(SIZES.ring) - 1, (theme.hint, theme.hint_edge)),
        chosen=ring(around + 2 * scale(4), scale(SIZES.ring) + scale(6), hint),
        lands=ring(around + 2 * scale(2), scale(SIZES.ring) + scale(4), hint, dotted=True),
        taken=sprite(pit, pit, taken),
        palette=Image.new("P", (1, 1)),
        board=Image.new("P", (1, 1)),
        theme=theme,
    )
    return _with_palette(kit, theme)


def _base(geometry: _Geometry, scale: Scale, theme: Theme, pit: int) -> Image.Image:
    layout = geometry.layout
    base = Image.new("RGB", (layout.width, layout.height), theme.panel)
    draw = ImageDraw.Draw(base)
    radius = scale(SIZES.radius) * 2
    draw.rounded_rectangle(
        geometry.plate, radius, fill=theme.wood, outline=theme.wood_edge, width=scale(3)
    )

    def hollow(paint_draw: ImageDraw.ImageDraw, k: float) -> None:
        r = pit * k / 2
        ellipse(paint_draw, (r, r), r - k / 2, r - k / 2, theme.pit_shade)
        ellipse(paint_draw, (r, r + k * scale(2)), r * 0.94, r * 0.92, theme.pit)

    hole = sprite(pit, pit, hollow)
    face = font(scale(SIZES.label_font))
    label = scale(SIZES.label)
    for pit_name, centre in layout.centres.items():
        put(base, hole, centre)
        x = centre[0]
        edge = geometry.plate[3] if geometry.outward[pit_name] > 0 else geometry.plate[1]
        write(draw, (x, edge + geometry.outward[pit_name] * label / 2), pit_name, face, theme.muted)
    for box in geometry.stores:
        draw.rounded_rectangle(box, radius, fill=theme.pit, outline=theme.pit_shade, width=scale(3))
    return base


def _with_palette(kit: _Kit, theme: Theme) -> _Kit:
    """The kit with a palette made from a frame holding every mark and a crowd of seeds."""
    pits = tuple(range(12))
    plan = _Plan(pits, (10, 30), frozenset("AB"), frozenset("cd"), frozenset("EF"), "f", "a")
    # Specimen text, never shown: it seeds the palette with shades of antialiased glyphs
    # (not words for players, so not in `words`; new text would shift every image's palette).
    words = Caption(
        "South to move: Ann", "Move 12: North played e, capturing B and C", "Oware", None
    )
    specimen = drawn_whole(kit, _items(kit, plan, words, theme, SPEC.side_names), _draw)
    colours = palette(theme.colours(), [specimen])
    return replace(kit, palette=colours, board=indexed(kit.base, colours))


# ------------------------------------------------------------------ frames


@dataclass(frozen=True)
class _Plan:
    pits: tuple[int, ...]
    stores: tuple[int, int]
    sown: frozenset[str]
    taken: frozenset[str]
    playable: frozenset[str]
    chosen: str | None = None  # the pit picked
    lands: str | None = None  # where its last seed goes


def _items(
    kit: _Kit, plan: _Plan, words: Caption, theme: Theme, names: tuple[str, str]
) -> list[Item]:
    """What goes on the board, in drawing order, as items `_draw` draws; `names` are the
    sides' names written on their stores."""
    geometry = kit.geometry
    centres = geometry.layout.centres
    items = []
    rings = [(kit.playable, "playable", pit_name) for pit_name in plan.playable]
    rings += [(kit.sown, "sown", pit_name) for pit_name in plan.sown]
    if plan.chosen is not None:
        rings.append((kit.chosen, "chosen", plan.chosen))
    if plan.lands is not None:
        rings.append((kit.lands, "lands", plan.lands))
    items += [sprite_item(image, centres[pit], ("ring", kind)) for image, kind, pit in rings]
    badge_pixels = kit.scale(SIZES.count_font)
    inner = round(kit.pit * 0.8)
    radius = kit.pit / 2
    for index, pit_name in enumerate(PITS):
        seeds = plan.pits[index]
        x, y = centres[pit_name]
        if seeds:
            drawn = min(seeds, SEEDS_DRAWN)
            heap = _heap(inner, inner, kit.seed, drawn, SEEDS_DRAWN, theme)
            # Off the badge, which covers the pit's outer rim.
            at = (x, y - geometry.outward[pit_name] * radius * 0.1)
            items.append(sprite_item(heap, at, ("heap", inner, inner, drawn, SEEDS_DRAWN)))
        if pit_name in plan.taken:
            items.append(sprite_item(kit.taken, (x, y), ("taken",)))
        badge = _count(badge_pixels, seeds, theme)
        at = (x, y + geometry.outward[pit_name] * radius * 1.02)
        items.append(sprite_item(badge, at, ("count", seeds)))
    for side in Side:
        items += _store_items(kit, theme, geometry.stores[side], names[side], plan.stores[side])
    if kit.board.size == (1, 1):  # the kit is being made: its palette's specimen
        items += caption_items(kit.geometry.layout.caption, words, kit.scale, theme, None)
    else:
        items += _caption(kit.scale.size, kit.geometry.perspective, theme, words)
    return items


@lru_cache(maxsize=256)
def _caption(size: int, perspective: Side, theme: Theme, words: Caption) -> tuple[Item, ...]:
    kit = _kit(size, perspective, theme)
    return tuple(caption_items(kit.geometry.layout.caption, words, kit.scale, theme, None))


def _store_items(kit: _Kit, theme: Theme, box: Box, name: str, seeds: int) -> list[Item]:
    x0, y0, x1, y1 = box
    scale = kit.scale
    name_y, count_y = y0 + scale(14), y1 - scale(19)
    items = [
        text_item(((x0 + x1) / 2, name_y), name, scale(SIZES.store_name_font), theme.text),
        text_item(((x0 + x1) / 2, count_y), str(seeds), scale(SIZES.store_count_font), theme.text),
    ]
    if seeds:
        width, height = x1 - x0 - scale(10), (count_y - name_y) - scale(34)
        drawn = min(seeds, STORE_SEEDS_DRAWN)
        heap = _heap(width, height, kit.seed, drawn, STORE_SEEDS_DRAWN, theme)
        at = ((x0 + x1) / 2, (name_y + count_y) / 2)
        items.append(sprite_item(heap, at, ("heap", width, height, drawn, STORE_SEEDS_DRAWN)))
    return items


def _draw(kit: _Kit, canvas: Image.Image, what: What, offset: tuple[int, int]) -> None:
    """Draw one of `_items`' items on `canvas`, whose top left is at `offset` of the frame."""
    kind = what[0]
    if kind == "text":
        draw_text(canvas, what, offset)
        return
    if kind == "ring":
        image = {"playable": kit.playable, "sown": kit.sown, "chosen": kit.chosen,
                 "lands": kit.lands}[str(what[1])]  # fmt: skip
    elif kind == "heap":
        width, height, drawn, full = cast(tuple[int, int, int, int], what[1:5])
        image = _heap(width, height, kit.seed, drawn, full, kit.theme)
    elif kind == "taken":
        image = kit.taken
    else:  # a pit's count
        image = _count(kit.scale(SIZES.count_font), cast(int, what[1]), kit.theme)
    put_at(canvas, image, what, offset)


_patch = patches(_kit, _draw)


def paint(state: OwareState, scene: Scene) -> Image.Image:
    """The frame of `state` as a palette image."""
    kit = _kit(scene.size, scene.perspective, scene.theme)
    last = scene.last
    sown = frozenset(last.path) if last else frozenset()
    taken = frozenset(last.captured) if last else frozenset()
    hints = scene.hints
    # A sowing of 12 or more seeds can end in its own pit's neighbour or go round: one target.
    lands = next(iter(hints.targets), None)
    plan = _Plan(state.pits, state.stores, sown, taken, hints.origins, hints.selected, lands)
    names = sides(state.spec, scene.locale)
    items = _items(kit, plan, scene.caption, scene.theme, names)
    patch = partial(_patch, scene.size, scene.perspective, scene.theme)
    return compose(kit.board, items, patch)


def note(state: OwareState, locale: str | None = None) -> str:
    """The must-play-12 obligation of the player to move, which the board cannot show."""
    if state.obliged[state.to_move]:
        side = sides(state.spec, locale)[state.to_move]
        return words.say("board.oware.must-play-12", locale, side=side)
    return ""


def lands(state: OwareState, move: MoveInfo) -> str:
    """The pit a sowing's last seed falls in: where the move ends."""
    origin = PITS.index(move.path[0])
    return PITS[LAST[origin][state.pits[origin]]]


def compulsory(variant: Variant) -> bool:
    """Oware never compels a capture: a capture is where the last seed happens to fall."""
    return False


PAINTER = Painter(layout, paint, note, "board.capturing", compulsory, lands)
