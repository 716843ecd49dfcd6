"""Oska: the hourglass of sixteen bricks, blue and red stones.

The board is five rows of bricks (4, 3, 2, 3, 4) offset by half a brick, each
brick named in its corner because the hourglass makes squares hard to name at
a glance; files a-g run under the board, rows 1-5 beside it. Blue's home is
row 1, at the bottom unless Red's perspective turns the board round.

Everything but the stones and marks is drawn once per size and perspective
(`_kit`); a frame is that board with patches of stones and marks pasted on,
each drawn once (`render.compose`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache, partial
from typing import cast

from PIL import Image, ImageDraw

from games.base import Side, Variant
from games.oska import SQUARES, OskaState
from render.compose import (
    Item,
    What,
    compose,
    draw_text,
    drawn_whole,
    paste_item,
    patches,
    put_at,
    sprite_item,
)
from render.draw import cross, ellipse, indexed, palette, put, ring, spot, sprite, write
from render.scene import Caption, Layout, Painter, Point, Scene, caption_box, caption_items, marks
from render.theme import BRICK_RATIO, RGB, SIZES, STONE, Scale, Theme, font

FILES = "abcdefg"
_COORD = {name: (FILES.index(name[0]), int(name[1])) for name in SQUARES}


@dataclass(frozen=True)
class _Geometry:
    layout: Layout
    perspective: Side
    brick: tuple[int, int]  # width, height
    board: tuple[int, int, int, int]  # the box the bricks fill
    rows: dict[int, int]  # row number -> y
    files: dict[int, int]  # file index -> x


@lru_cache(maxsize=16)  # read-only once made: every frame, centre() and layout() ask for it
def _geometry(size: int, perspective: Side) -> _Geometry:
    scale = Scale(size)
    margin, label = scale(SIZES.margin), scale(SIZES.label)
    top = scale(SIZES.caption) + scale(6)
    height = (size - top - label - margin) // 5
    width = round(height * BRICK_RATIO)
    left = margin + label
    flipped = perspective is Side.SECOND
    files = {f: left + round(((7 - f) if flipped else (f + 1)) * width / 2) for f in range(7)}
    rows = {r: top + round(((r - 1) if flipped else (5 - r)) * height + height / 2)
            for r in range(1, 6)}  # fmt: skip
    centres = {name: (files[f], rows[r]) for name, (f, r) in _COORD.items()}
    image_width = left + 4 * width + label + margin
    layout = Layout(image_width, size, caption_box(scale, image_width), centres)
    board = (left, top, left + 4 * width, top + 5 * height)
    return _Geometry(layout, perspective, (width, height), board, rows, files)


def layout(size: int, perspective: Side, theme: Theme) -> Layout:
    """Where each square's centre is, for hit-testing and tests."""
    return _geometry(size, perspective).layout


# ------------------------------------------------------------------ sprites


def _brick(kit_scale: Scale, size: tuple[int, int], fill: RGB, edge: RGB | None) -> Image.Image:
    width, height = size
    gap, radius, border = kit_scale(SIZES.gap), kit_scale(SIZES.radius), kit_scale(SIZES.edge)

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        box = (gap / 2 * k, gap / 2 * k, (width - gap / 2) * k, (height - gap / 2) * k)
        draw.rounded_rectangle(box, radius * k, fill=fill)
        if edge is not None:
            draw.rounded_rectangle(box, radius * k, outline=edge, width=round(border * k))

    return sprite(width, height, paint)


def _stone(diameter: int, face: RGB, rim: RGB, theme: Theme) -> Image.Image:
    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        r = diameter * k / 2
        c = (r, r)
        ellipse(draw, c, r - k / 2, r - k / 2, theme.outline)
        ellipse(draw, c, r * 0.90, r * 0.90, rim)
        ellipse(draw, c, r * 0.80, r * 0.80, face)
        ellipse(draw, c, r * 0.56, r * 0.56, None, rim, r * 0.07)

    return sprite(diameter | 1, diameter | 1, paint)


def _ghost(diameter: int, colour: RGB, theme: Theme, scale: Scale) -> Image.Image:
    """Where a stone was taken: its outline in its colour, crossed out."""

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        r = diameter * k / 2
        ellipse(draw, (r, r), r * 0.86, r * 0.86, None, colour, scale(SIZES.ring) * k)
        cross(draw, (r, r), r * 0.42, scale(SIZES.cross) * k, theme.taken, theme.taken_edge)

    return sprite(diameter | 1, diameter | 1, paint)


def _label(text: str, pixels: int, colour: RGB) -> Image.Image:
    face = font(pixels)
    left, top, right, bottom = (round(edge) for edge in face.getbbox(text))
    image = Image.new("RGBA", (right - left + 2, bottom - top + 2), (0, 0, 0, 0))
    ImageDraw.Draw(image).text((1 - left, 1 - top), text, font=face, fill=colour)
    return image


@dataclass(frozen=True)
class _Kit:
    """Everything drawn once per size, perspective and theme."""

    geometry: _Geometry
    scale: Scale
    base: Image.Image
    tiles: dict[str, Image.Image]  # a brick coloured for `from`, `path`, `to`, `chosen`...
    names: dict[str, tuple[Image.Image, Point]]  # each brick's corner name and where it goes
    inked_names: dict[str, dict[str, Image.Image]]  # kind -> names in an ink for that brick
    stones: tuple[Image.Image, Image.Image]  # Blue, Red
    ghosts: tuple[Image.Image, Image.Image]
    hints: dict[str, Image.Image]  # `ring`/`dot` (a move), `ring!`/`dot!` (a forced capture)
    chips: tuple[Image.Image, Image.Image]
    palette: Image.Image
    board: Image.Image  # `base` mapped onto `palette`


@lru_cache(maxsize=4)  # a kit holds a whole board image; a bot uses one size, two sides
def _kit(size: int, perspective: Side, theme: Theme) -> _Kit:
    geometry = _geometry(size, perspective)
    scale = Scale(size)
    brick = geometry.brick
    tiles = {
        "plain": _brick(scale, brick, theme.brick, None),
        "from": _brick(scale, brick, theme.came_from, None),
        "path": _brick(scale, brick, theme.went_to, None),
        "to": _brick(scale, brick, theme.went_to, theme.went_to_edge),
        # The stone picked, its moves shown: a brick of the hint's colour, or the capture's.
        "chosen": _brick(scale, brick, theme.hint, theme.hint_edge),
        "chosen!": _brick(scale, brick, theme.must, theme.must_edge),
    }
    corner = scale(SIZES.corner_font)
    names: dict[str, tuple[Image.Image, Point]] = {}
    for name, (x, y) in geometry.layout.centres.items():
        image = _label(name, corner, theme.brick_label)
        inset = scale(SIZES.gap) // 2 + scale(5)
        at = (x - brick[0] // 2 + inset, y - brick[1] // 2 + inset)
        names[name] = (image, at)
    # The bricks of the stone picked are green or gold: their names in light or dark ink.
    inked_names = {
        kind: {name: _label(name, corner, ink) for name in names}
        for kind, ink in (("chosen", theme.hint_edge), ("chosen!", theme.must_edge))
    }
    diameter = round(brick[1] * STONE)
    chip = scale(SIZES.chip)
    kit = _Kit(
        geometry=geometry,
        scale=scale,
        base=_base(geometry, scale, theme, tiles["plain"], names),
        tiles=tiles,
        names=names,
        inked_names=inked_names,
        stones=(
            _stone(diameter, theme.blue, theme.blue_rim, theme),
            _stone(diameter, theme.red, theme.red_rim, theme),
        ),
        ghosts=(
            _ghost(diameter, theme.blue, theme, scale),
            _ghost(diameter, theme.red, theme, scale),
        ),
        hints=_hints(diameter, scale, theme),
        chips=(
            _stone(chip, theme.blue, theme.blue_rim, theme),
            _stone(chip, theme.red, theme.red_rim, theme),
        ),
        palette=Image.new("P", (1, 1)),
        board=Image.new("P", (1, 1)),
    )
    return _with_palette(kit, theme)


def _hints(diameter: int, scale: Scale, theme: Theme) -> dict[str, Image.Image]:
    """Rings round a stone that may move, dots where the stone picked may go.

    A light lining keeps a move's green ring apart from the stone's dark edge;
    a forced capture's ring is gold lined with dark and spiked, its dots ringed.
    """
    around, stroke, dot = round(diameter * 1.17), scale(SIZES.ring), scale(SIZES.dot)
    move, must = (theme.hint, theme.hint_edge), (theme.must, theme.must_edge)
    return {
        "ring": ring(around, stroke, move),
        "ring!": ring(around, stroke, must, spikes=True),
        "dot": spot(dot, move),
        "dot!": spot(dot, must, sight=True),
    }


def _base(
    geometry: _Geometry,
    scale: Scale,
    theme: Theme,
    brick: Image.Image,
    names: dict[str, tuple[Image.Image, Point]],
) -> Image.Image:
    layout = geometry.layout
    base = Image.new("RGB", (layout.width, layout.height), theme.panel)
    for name, centre in layout.centres.items():
        put(base, brick, centre)
        image, at = names[name]
        base.paste(image, at, image)
    draw = ImageDraw.Draw(base)
    face = font(scale(SIZES.label_font))
    left, _, right, bottom = geometry.board
    label = scale(SIZES.label)
    for row, y in geometry.rows.items():
        write(draw, (left - label / 2, y), str(row), face, theme.muted)
        write(draw, (right + label / 2, y), str(row), face, theme.muted)
    for file, x in geometry.files.items():
        write(draw, (x, bottom + label / 2), FILES[file], face, theme.muted)
    return base


def _with_palette(kit: _Kit, theme: Theme) -> _Kit:
    """The kit with a palette made from a frame that shows every sprite on every tile."""
    squares = list(kit.geometry.layout.centres)
    kinds = ("from", "path", "to", "chosen", "chosen!", "plain") * 2
    plan = _Plan(
        stones={sq: Side(i % 2) for i, sq in enumerate(squares[:12])},
        tiles={sq: kind for sq, kind in zip(squares[:12], kinds, strict=True)},
        ghosts={squares[12]: Side.FIRST, squares[13]: Side.SECOND},
        dots={squares[14]: False, squares[15]: True},
        rings={squares[0]: False, squares[1]: True, squares[3]: False, squares[4]: True},
    )
    # Specimen text, never shown: it seeds the palette with shades of antialiased glyphs
    # (not words for players, so not in `words`; new text would shift every image's palette).
    words = Caption("Blue to move: Ann", "Move 12: Red played a5xc3, taking b4", "Oska", Side.FIRST)
    specimen = drawn_whole(kit, _items(kit, plan, words, theme), _draw)
    colours = palette(theme.colours(), [specimen, *kit.tiles.values(), *kit.chips])
    return replace(kit, palette=colours, board=indexed(kit.base, colours))


# ------------------------------------------------------------------ frames


@dataclass(frozen=True)
class _Plan:
    """What goes on the board in one frame."""

    stones: dict[str, Side]
    tiles: dict[str, str]
    ghosts: dict[str, Side]
    dots: dict[str, bool]  # where the stone picked may go: True for a forced capture
    rings: dict[str, bool]  # the stones that may move: True for a forced capture


def _items(kit: _Kit, plan: _Plan, words: Caption, theme: Theme) -> list[Item]:
    """What goes on the board, in drawing order, as items `_draw` draws."""
    centres = kit.geometry.layout.centres
    items = []
    for square, kind in plan.tiles.items():
        items.append(sprite_item(kit.tiles[kind], centres[square], ("tile", kind)))
        image, at = kit.names[square]
        ink = kind if square in kit.inked_names.get(kind, {}) else "plain"
        items.append(paste_item(image, at, ("name", ink, square)))
    for square, side in plan.ghosts.items():
        items.append(sprite_item(kit.ghosts[side], centres[square], ("ghost", side)))
    for square, forced in plan.dots.items():
        kind = "dot!" if forced else "dot"
        items.append(sprite_item(kit.hints[kind], centres[square], ("hint", kind)))
    for square, side in plan.stones.items():
        items.append(sprite_item(kit.stones[side], centres[square], ("stone", side)))
    for square, forced in plan.rings.items():
        kind = "ring!" if forced else "ring"
        items.append(sprite_item(kit.hints[kind], centres[square], ("hint", kind)))
    if kit.board.size == (1, 1):  # the kit is being made: its palette's specimen
        chip = kit.chips[words.side] if words.side is not None else None
        items += caption_items(kit.geometry.layout.caption, words, kit.scale, theme, chip)
    else:
        items += _caption(kit.scale.size, kit.geometry.perspective, theme, words)
    return items


@lru_cache(maxsize=256)
def _caption(size: int, perspective: Side, theme: Theme, words: Caption) -> tuple[Item, ...]:
    kit = _kit(size, perspective, theme)
    chip = kit.chips[words.side] if words.side is not None else None
    return tuple(caption_items(kit.geometry.layout.caption, words, kit.scale, theme, chip))


def _draw(kit: _Kit, canvas: Image.Image, what: What, offset: tuple[int, int]) -> None:
    """Draw one of `_items`' items on `canvas`, whose top left is at `offset` of the frame."""
    kind = what[0]
    if kind == "text":
        draw_text(canvas, what, offset)
        return
    name = str(what[1])
    if kind == "name":
        square = str(what[2])
        image = kit.inked_names[name][square] if name != "plain" else kit.names[square][0]
    elif kind == "tile":
        image = kit.tiles[name]
    elif kind == "hint":
        image = kit.hints[name]
    else:
        side = cast(Side, what[1])
        images = {"ghost": kit.ghosts, "stone": kit.stones, "chip": kit.chips}[str(kind)]
        image = images[side]
    put_at(canvas, image, what, offset)


_patch = patches(_kit, _draw)


def paint(state: OskaState, scene: Scene) -> Image.Image:
    """The frame of `state` as a palette image."""
    kit = _kit(scene.size, scene.perspective, scene.theme)
    seen = marks(scene)
    tiles: dict[str, str] = {}
    if seen.came_from:
        tiles[seen.came_from] = "from"
    for square in seen.passed:
        tiles[square] = "path"
    if seen.went_to:
        tiles[seen.went_to] = "to"
    mover = scene.mover if scene.mover is not None else state.to_move.other
    ghosts = {square: mover.other for square in seen.captured}
    # A huff forfeit loses one of the mover's stones; a removal (`a1:...`) the opponent's.
    removal = scene.last is not None and ":" in scene.last.text
    ghosts.update({square: mover.other if removal else mover for square in seen.forfeited})
    stones = {square: side for side in Side for square in state.stones(side)}
    hints = scene.hints
    if hints.selected is not None:
        tiles[hints.selected] = "chosen!" if hints.forced else "chosen"
    rings = dict.fromkeys(hints.origins - {hints.selected}, hints.forced)
    plan = _Plan(stones, tiles, ghosts, dict.fromkeys(hints.targets, hints.forced), rings)
    items = _items(kit, plan, scene.caption, scene.theme)
    patch = partial(_patch, scene.size, scene.perspective, scene.theme)
    return compose(kit.board, items, patch)


def note(state: OskaState, locale: str | None = None) -> str:
    """Nothing beyond the rules line: Oska has no state the board does not show."""
    return ""


def compulsory(variant: Variant) -> bool:
    """Capturing is a must under `capture=forced` only; the huffs and `optional` let one decline."""
    return variant["capture"] == "forced"


PAINTER = Painter(layout, paint, note, "board.taking", compulsory)
