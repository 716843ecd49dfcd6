"""Lasca: the 7x7 board, its 25 playing squares, columns drawn as stacks.

A column is seen from the side, as a stack of discs, bottom piece lowest, so
every prisoner's colour shows on its edge. Rank is shown by shape as well as
colour: an officer's edge carries a stripe of its owner's colour and the
commander's face, if it is an officer, a crown. A column taller than
`VISIBLE_PIECES` shows its top pieces and a badge counting the rest.

Under the board a legend shows both sides' soldier and officer, named in the
reader's language. The player to move's columns that may move are framed
(gold with corner wedges when the rules compel a capture); a column picked
sits on a square of the frame's colour, with dots where it may land.

Squares and labels are drawn once per size and perspective; a stack is built
once per size and column text (`bbW`) and pasted, the legend once per locale.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache, partial
from typing import cast

from PIL import Image, ImageDraw

import words
from games.base import Side, Variant
from games.lasca import FILES, QUIET_LIMIT, SQUARES, LascaState
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
from render.draw import (
    cross,
    crown,
    ellipse,
    fitted,
    indexed,
    palette,
    pill,
    spot,
    sprite,
    write,
)
from render.scene import (
    Box,
    Caption,
    Layout,
    Painter,
    Scene,
    caption_box,
    caption_items,
    marks,
)
from render.theme import (
    DISC_WIDTH,
    FACE_HEIGHT,
    PIECE_THICKNESS,
    RGB,
    SIZES,
    VISIBLE_PIECES,
    Scale,
    Theme,
    font,
)

_COORD = {name: (FILES.index(name[0]), int(name[1])) for name in SQUARES}


@dataclass(frozen=True)
class _Geometry:
    layout: Layout
    perspective: Side
    square: int
    board: Box
    boxes: dict[tuple[int, int], Box]  # (file, rank) -> the square's box, every square
    legend: Box  # the band under the file letters: how a soldier and an officer look


@lru_cache(maxsize=16)  # read-only once made: every frame, centre() and layout() ask for it
def _geometry(size: int, perspective: Side) -> _Geometry:
    scale = Scale(size)
    margin, label = scale(SIZES.margin), scale(SIZES.label)
    top = scale(SIZES.caption) + scale(6)
    square = (size - top - label - scale(SIZES.legend) - margin) // 7
    left = margin + label
    flipped = perspective is Side.SECOND
    boxes = {}
    for file in range(7):
        for rank in range(1, 8):
            column = 6 - file if flipped else file
            row = rank - 1 if flipped else 7 - rank
            x, y = left + column * square, top + row * square
            boxes[file, rank] = (x, y, x + square, y + square)
    centres = {}
    for name, coord in _COORD.items():
        x0, y0, x1, y1 = boxes[coord]
        centres[name] = ((x0 + x1) // 2, (y0 + y1) // 2)
    width = left + 7 * square + label + margin
    layout = Layout(width, size, caption_box(scale, width), centres)
    board = (left, top, left + 7 * square, top + 7 * square)
    legend = (margin, board[3] + label, width - margin, board[3] + label + scale(SIZES.legend))
    return _Geometry(layout, perspective, square, board, boxes, legend)


def layout(size: int, perspective: Side, theme: Theme) -> Layout:
    """Where each playing square's centre is, for hit-testing and tests."""
    return _geometry(size, perspective).layout


# ------------------------------------------------------------------ pieces


@dataclass(frozen=True)
class _Look:
    face: RGB
    side: RGB
    edge: RGB
    stripe: RGB | None  # an officer's edge stripe, its owner's colour


def _looks(theme: Theme) -> dict[str, _Look]:
    return {
        "w": _Look(theme.white_face, theme.white_side, theme.outline, None),
        "b": _Look(theme.black_face, theme.black_side, theme.black_edge, None),
        "W": _Look(
            theme.white_officer_face, theme.white_officer_side, theme.outline, theme.white_face
        ),
        "B": _Look(
            theme.black_officer_face, theme.black_officer_side, theme.outline, theme.black_face
        ),
    }


@dataclass(frozen=True)
class _Pieces:
    """The sprites of one size: a disc of each piece, crowns, and what a stack measures."""

    width: int
    face: int
    thickness: int
    discs: dict[str, Image.Image]
    crowns: dict[str, Image.Image]


@lru_cache(maxsize=8)
def _pieces(square: int, theme: Theme) -> _Pieces:
    width = round(square * DISC_WIDTH) | 1
    face = round(square * FACE_HEIGHT)
    thickness = round(square * PIECE_THICKNESS)
    looks = _looks(theme)
    discs = {piece: _disc(width, face, thickness, look) for piece, look in looks.items()}
    crown_width = round(width * 0.46) | 1
    crowns = {
        "W": _crown(crown_width, theme.white_face, theme.outline),
        "B": _crown(crown_width, theme.black_face, theme.white_face),
    }
    return _Pieces(width, face, thickness, discs, crowns)


def _disc(width: int, face: int, thickness: int, look: _Look) -> Image.Image:
    """One piece seen from a little above: its face and the edge below it."""

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        rx, ry = width * k / 2 - k / 2, face * k / 2 - k / 2
        cx, top = width * k / 2, face * k / 2
        bottom = top + thickness * k
        line = max(1.0, k * 1.2)
        ellipse(draw, (cx, bottom), rx, ry, look.side, look.edge, line)
        draw.rectangle((cx - rx, top, cx + rx, bottom), fill=look.side)
        draw.line((cx - rx, top, cx - rx, bottom), fill=look.edge, width=round(line))
        draw.line((cx + rx, top, cx + rx, bottom), fill=look.edge, width=round(line))
        if look.stripe is not None:
            middle = (top + bottom) / 2
            box = (cx - rx, middle - ry, cx + rx, middle + ry)
            draw.arc(box, 0, 180, fill=look.stripe, width=round(thickness * k * 0.34))
        ellipse(draw, (cx, top), rx, ry, look.face, look.edge, line)

    return sprite(width, face + thickness, paint)


def _crown(width: int, fill: RGB, edge: RGB) -> Image.Image:
    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        crown(draw, (width * k / 2, width * k / 2), width * k * 0.9, fill, edge)

    return sprite(width, width, paint)


@lru_cache(maxsize=512)
def _stack(square: int, theme: Theme, column: str) -> Image.Image:
    """The column as one sprite: its top pieces, bottom to top, crowned if an officer leads."""
    pieces = _pieces(square, theme)
    height = pieces.face + len(column) * pieces.thickness
    image = Image.new("RGBA", (pieces.width, height), (0, 0, 0, 0))
    for level, piece in enumerate(column):
        disc = pieces.discs[piece]
        image.alpha_composite(disc, (0, (len(column) - 1 - level) * pieces.thickness))
    top = column[-1]
    if top in pieces.crowns:
        mark = pieces.crowns[top]
        image.alpha_composite(
            mark, ((pieces.width - mark.width) // 2, (pieces.face - mark.height) // 2)
        )
    return image


@lru_cache(maxsize=64)
def _badge(pixels: int, text: str, theme: Theme) -> Image.Image:
    """A pill saying how many pieces of a tall column are not drawn."""
    face = font(pixels)
    width = round(face.getlength(text)) + pixels
    height = round(pixels * 1.45)
    return pill(text, face, (width, height), (theme.badge, theme.badge_text, theme.badge_text))


# -------------------------------------------------------------------- kit


@dataclass(frozen=True)
class _Kit:
    geometry: _Geometry
    scale: Scale
    base: Image.Image
    marks: dict[str, Image.Image]  # `dot`, `dot!` (may land), `x` (captured, empty), `corner_x`
    chips: tuple[Image.Image, Image.Image]
    palette: Image.Image
    board: Image.Image  # `base` mapped onto `palette`
    theme: Theme


@lru_cache(maxsize=4)  # a kit holds a whole board image; a bot uses one size, two sides
def _kit(size: int, perspective: Side, theme: Theme) -> _Kit:
    geometry = _geometry(size, perspective)
    scale = Scale(size)
    square = geometry.square
    chip = scale(SIZES.chip + 2)  # a disc is flatter than a stone
    kit = _Kit(
        geometry=geometry,
        scale=scale,
        base=_base(geometry, scale, theme),
        marks={
            "dot": spot(scale(SIZES.dot), (theme.hint, theme.hint_edge)),
            "dot!": spot(scale(SIZES.dot), (theme.must, theme.must_edge), sight=True),
            "x": _cross(round(square * 0.6) | 1, scale, theme),
            "corner_x": _cross(round(square * 0.34) | 1, scale, theme),
        },
        chips=(_stack(chip, theme, "w"), _stack(chip, theme, "b")),
        palette=Image.new("P", (1, 1)),
        board=Image.new("P", (1, 1)),
        theme=theme,
    )
    return _with_palette(kit, theme)


def _cross(size: int, scale: Scale, theme: Theme) -> Image.Image:
    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        c = size * k / 2
        cross(draw, (c, c), size * k * 0.3, scale(SIZES.cross) * k, theme.taken, theme.taken_edge)

    return sprite(size, size, paint)


def _base(geometry: _Geometry, scale: Scale, theme: Theme) -> Image.Image:
    layout = geometry.layout
    base = Image.new("RGB", (layout.width, layout.height), theme.panel)
    draw = ImageDraw.Draw(base)
    for (file, rank), box in geometry.boxes.items():
        playing = (file + rank) % 2 == 1
        draw.rectangle(_inclusive(box), fill=theme.dark_square if playing else theme.light_square)
    face = font(scale(SIZES.label_font))
    left, _, right, bottom = geometry.board
    label = scale(SIZES.label)
    for (file, rank), (x0, y0, x1, y1) in geometry.boxes.items():
        if file == 0:
            write(draw, (left - label / 2, (y0 + y1) / 2), str(rank), face, theme.muted)
            write(draw, (right + label / 2, (y0 + y1) / 2), str(rank), face, theme.muted)
        if rank == 1:
            write(draw, ((x0 + x1) / 2, bottom + label / 2), FILES[file], face, theme.muted)
    return base


def _inclusive(box: Box) -> Box:
    x0, y0, x1, y1 = box
    return (x0, y0, x1 - 1, y1 - 1)


def _with_palette(kit: _Kit, theme: Theme) -> _Kit:
    """The kit with a palette made from a frame holding every piece, mark and tile."""
    names = list(SQUARES)
    columns = dict(
        zip(names, ("w", "b", "W", "B", "wbWB", "BWbw", "bbbwwwW", "wwwbbbB"), strict=False)
    )
    kinds = ("from", "path", "to", "chosen", "chosen!") * 2
    plan = _Plan(
        columns=columns,
        tiles={name: kind for name, kind in zip(names, kinds, strict=False)},
        captured=frozenset(names[8:12]),
        dots={name: index % 2 == 1 for index, name in enumerate(names[12:16])},
        origins={name: index % 2 == 1 for index, name in enumerate(names[:4])},
    )
    # Specimen text, never shown: it seeds the palette with shades of antialiased glyphs
    # (not words for players, so not in `words`; new text would shift every image's palette).
    words = Caption(
        "White to move: Ann", "Move 12: Black played c5xe3, taking d4", "Lasca", Side.FIRST
    )
    specimen = drawn_whole(kit, _items(kit, plan, words, theme), _draw)
    colours = palette(theme.colours(), [specimen, *kit.chips])
    return replace(kit, palette=colours, board=indexed(kit.base, colours))


# ------------------------------------------------------------------ frames


@dataclass(frozen=True)
class _Plan:
    columns: dict[str, str]
    tiles: dict[str, str]  # square -> `from`, `path` or `to`
    captured: frozenset[str]
    dots: dict[str, bool]  # where the column picked may land: True for a forced capture
    origins: dict[str, bool]  # the columns that may move: True for a forced capture


def _items(
    kit: _Kit, plan: _Plan, words: Caption, theme: Theme, locale: str | None = None
) -> list[Item]:
    """What goes on the board, in drawing order, as items `_draw` draws."""
    geometry = kit.geometry
    items = []
    for square, kind in plan.tiles.items():
        items.append(Item(geometry.boxes[_COORD[square]], ("tile", kind, square)))
    for square, forced in plan.origins.items():
        items.append(Item(geometry.boxes[_COORD[square]], ("frame", forced, square)))
    centres = geometry.layout.centres
    for square, forced in plan.dots.items():
        kind = "dot!" if forced else "dot"
        items.append(sprite_item(kit.marks[kind], centres[square], ("mark", kind)))
    for square, column in plan.columns.items():
        items.extend(_column_items(kit, theme, square, column, locale))
    for square in plan.captured:
        if plan.columns.get(square):
            x0, y0, _, _ = geometry.boxes[_COORD[square]]
            items.append(paste_item(kit.marks["corner_x"], (x0 + 1, y0 + 1), ("mark", "corner_x")))
        else:
            items.append(sprite_item(kit.marks["x"], centres[square], ("mark", "x")))
    if kit.board.size == (1, 1):  # the kit is being made: its palette's specimen
        chip = kit.chips[words.side] if words.side is not None else None
        items += caption_items(kit.geometry.layout.caption, words, kit.scale, theme, chip)
    else:
        items += _caption(kit.scale.size, kit.geometry.perspective, theme, words)
    legend = _legend(kit.scale.size, geometry.legend, theme, locale)
    items.append(paste_item(legend, geometry.legend[:2], ("legend", locale)))
    return items


@lru_cache(maxsize=256)
def _caption(size: int, perspective: Side, theme: Theme, words: Caption) -> tuple[Item, ...]:
    kit = _kit(size, perspective, theme)
    chip = kit.chips[words.side] if words.side is not None else None
    return tuple(caption_items(kit.geometry.layout.caption, words, kit.scale, theme, chip))


def _draw(kit: _Kit, canvas: Image.Image, what: What, offset: tuple[int, int]) -> None:
    """Draw one of `_items`' items on `canvas`, whose top left is at `offset` of the frame."""
    kind, theme, scale = what[0], kit.theme, kit.scale
    if kind == "text":
        draw_text(canvas, what, offset)
        return
    if kind in ("tile", "frame"):
        x0, y0, x1, y1 = _inclusive(kit.geometry.boxes[_COORD[str(what[2])]])
        box = (x0 - offset[0], y0 - offset[1], x1 - offset[0], y1 - offset[1])
        draw = ImageDraw.Draw(canvas)
        edge = scale(SIZES.edge)
        if kind == "frame":
            _frame(draw, box, edge, theme, bool(what[1]))
            return
        fills = {
            "from": theme.came_from_dark,
            "path": theme.went_to,
            "to": theme.went_to,
            "chosen": theme.hint,
            "chosen!": theme.must,
        }
        draw.rectangle(box, fill=fills[str(what[1])])
        if what[1] == "to":
            draw.rectangle(box, outline=theme.went_to_edge, width=edge)
        return
    if kind == "mark":
        image = kit.marks[str(what[1])]
    elif kind == "stack":
        image = _stack(kit.geometry.square, theme, str(what[1]))
    elif kind == "badge":
        image = _badge(scale(SIZES.badge_font), str(what[1]), theme)
    elif kind == "chip":
        image = kit.chips[cast(Side, what[1])]
    else:  # the legend
        image = _legend(scale.size, kit.geometry.legend, theme, cast(str | None, what[1]))
    put_at(canvas, image, what, offset)


_patch = patches(_kit, _draw)


def _frame(draw: ImageDraw.ImageDraw, box: Box, edge: int, theme: Theme, forced: bool) -> None:
    """The frame of a column that may move: green lined with light, unlike the plain dark
    frame of the square reached; gold lined with dark and wedged in the corners when the
    move is a capture the rules compel."""
    x0, y0, x1, y1 = box
    colour, lining = (theme.must, theme.must_edge) if forced else (theme.hint, theme.hint_edge)
    width = edge + 1 if not forced else edge + 2
    draw.rectangle(box, outline=colour, width=width)
    draw.rectangle(
        (x0 + width, y0 + width, x1 - width, y1 - width), outline=lining, width=max(1, edge // 3)
    )
    if forced:
        wedge = (x1 - x0) // 5
        for cx, cy, dx, dy in ((x0, y0, 1, 1), (x1, y0, -1, 1), (x0, y1, 1, -1), (x1, y1, -1, -1)):
            corner = [(cx, cy), (cx + dx * wedge, cy), (cx, cy + dy * wedge)]
            draw.polygon(corner, fill=colour, outline=lining)


@lru_cache(maxsize=8)
def _legend(size: int, box: Box, theme: Theme, locale: str | None) -> Image.Image:
    """The legend band: both sides' soldier, named, then both sides' officer, named."""
    scale = Scale(size)
    width, height = box[2] - box[0], box[3] - box[1]
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    chip = scale(SIZES.legend + 10)  # a square whose disc is as tall as the band allows
    gap = scale(6)
    names = (
        ("wb", words.say("board.lasca.legend.soldiers", locale)),
        ("WB", words.say("board.lasca.legend.officers", locale)),
    )
    x = 0
    for index, (pieces, name) in enumerate(names):
        if index:
            x += scale(18)
        for piece in pieces:
            disc = _stack(chip, theme, piece)
            image.alpha_composite(disc, (x, (height - disc.height) // 2))
            x += disc.width + gap // 2
        x += gap
        text, face = fitted(name, scale(SIZES.legend_font), width - x, scale(SIZES.smallest_font))
        write(draw, (x, height / 2), text, face, theme.muted, anchor="lm")
        x += round(face.getlength(text))
    return image


def _column_items(
    kit: _Kit, theme: Theme, square: str, column: str, locale: str | None
) -> list[Item]:
    hidden = len(column) - VISIBLE_PIECES + 1 if len(column) > VISIBLE_PIECES else 0
    shown = column[hidden:]
    stack = _stack(kit.geometry.square, theme, shown)
    items = [sprite_item(stack, kit.geometry.layout.centres[square], ("stack", shown))]
    if hidden:
        text = words.say("board.lasca.hidden", locale, count=hidden)
        badge = _badge(kit.scale(SIZES.badge_font), text, theme)
        _, _, x1, y1 = kit.geometry.boxes[_COORD[square]]
        at = (x1 - badge.width - 1, y1 - badge.height - 1)
        items.append(paste_item(badge, at, ("badge", text)))
    return items


def paint(state: LascaState, scene: Scene) -> Image.Image:
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
    columns = {square: column for square in SQUARES if (column := state.column(square))}
    hints = scene.hints
    if hints.selected is not None:
        tiles[hints.selected] = "chosen!" if hints.forced else "chosen"
    origins = dict.fromkeys(hints.origins - {hints.selected}, hints.forced)
    dots = dict.fromkeys(hints.targets, hints.forced)
    plan = _Plan(columns, tiles, frozenset(seen.captured), dots, origins)
    items = _items(kit, plan, scene.caption, scene.theme, scene.locale)
    patch = partial(_patch, scene.size, scene.perspective, scene.theme)
    return compose(kit.board, items, patch)


def note(state: LascaState, locale: str | None = None) -> str:
    """How near the 80-move draw is, once it is worth knowing."""
    if state.quiet_moves >= 40:
        return words.say("board.lasca.quiet", locale, count=state.quiet_moves, limit=QUIET_LIMIT)
    return ""


def compulsory(variant: Variant) -> bool:
    """Capturing is compulsory in Lasca under every variant (games/RULES.md)."""
    return True


PAINTER = Painter(layout, paint, note, "board.taking", compulsory)
