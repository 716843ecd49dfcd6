"""The yardstick for `bench.render`: the same boards drawn the straightforward Pillow way.

Each call draws the whole picture from nothing on an RGB canvas with
`ImageDraw` (rounded bricks, squares, stones and discs as ellipses, seeds,
badges, coordinates, the caption's three lines), with the real renderer's
layout and words (`render.boards.scene`, each game's geometry), and saves it
with Pillow's default PNG settings. Nothing drawn is kept between calls; only
the font objects are (`render.theme.font`), as any program loads a font once.
Shapes are drawn once at their size (no supersampling), so this draws less
carefully than the real renderer: a yardstick that favours the naive side.
"""

from __future__ import annotations

import io
import math

from PIL import Image, ImageDraw

import words
from games.base import GameState, MoveInfo, Side
from games.lasca import FILES as LASCA_FILES
from games.lasca import SQUARES as LASCA_SQUARES
from games.lasca import LascaState
from games.oska import OskaState
from games.oware import PITS, OwareState
from render import lasca, oska, oware
from render.boards import scene
from render.scene import Scene, marks, sides
from render.theme import (
    DISC_WIDTH,
    FACE_HEIGHT,
    PIECE_THICKNESS,
    PIT,
    RGB,
    SEED,
    SEEDS_DRAWN,
    SIZES,
    STONE,
    STORE_SEEDS_DRAWN,
    VISIBLE_PIECES,
    Scale,
    Theme,
    font,
)

Draw = ImageDraw.ImageDraw


def board(state: GameState, last_move: MoveInfo | None = None, **options: object) -> bytes:
    """The PNG of `state` drawn naively; `options` are `render.board`'s."""
    seen = scene(state, last_move=last_move, **options)  # type: ignore[arg-type]
    if isinstance(state, OskaState):
        image = _oska(state, seen)
    elif isinstance(state, LascaState):
        image = _lasca(state, seen)
    elif isinstance(state, OwareState):
        image = _oware(state, seen)
    else:
        raise TypeError(f"no naive painter for {state.spec.name}")
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def _dot(
    draw: Draw,
    centre: tuple[float, float],
    r: float,
    fill: RGB | None,
    outline: RGB | None = None,
    width: int = 0,
) -> None:
    x, y = centre
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=width)


def _cross(draw: Draw, centre: tuple[float, float], arm: float, stroke: int, t: Theme) -> None:
    x, y = centre
    for width, colour in ((stroke + 2, t.taken_edge), (stroke, t.taken)):
        draw.line((x - arm, y - arm, x + arm, y + arm), fill=colour, width=width)
        draw.line((x - arm, y + arm, x + arm, y - arm), fill=colour, width=width)


def _caption(
    image: Image.Image, box: tuple[int, int, int, int], seen: Scene, chip: RGB | None
) -> None:
    draw = ImageDraw.Draw(image)
    scale, t, words_ = Scale(seen.size), seen.theme, seen.caption
    x0, y0, _, y1 = box
    line = (y1 - y0) / 4
    x = x0
    if chip is not None:
        r = scale(SIZES.chip) / 2
        _dot(draw, (x + r, y0 + line), r, chip, t.outline, 1)
        x += round(2 * r) + scale(10)
    draw.text(
        (x, y0 + line), words_.title, font=font(scale(SIZES.title_font)), fill=t.text, anchor="lm"
    )
    small = font(scale(SIZES.line_font))
    draw.text((x0, y0 + line * 2.25), words_.move, font=small, fill=t.text, anchor="lm")
    ink = t.text if words_.finished else t.muted
    draw.text((x0, y0 + line * 3.3), words_.note, font=small, fill=ink, anchor="lm")


def _oska(state: OskaState, seen: Scene) -> Image.Image:
    geometry = oska._geometry(seen.size, seen.perspective)
    layout, t, scale = geometry.layout, seen.theme, Scale(seen.size)
    image = Image.new("RGB", (layout.width, layout.height), t.panel)
    draw = ImageDraw.Draw(image)
    width, height = geometry.brick
    gap, corner = scale(SIZES.gap), font(scale(SIZES.corner_font))
    seen_marks = marks(seen)
    fills = {seen_marks.came_from: t.came_from, seen_marks.went_to: t.went_to}
    fills.update(dict.fromkeys(seen_marks.passed, t.went_to))
    if seen.hints.selected:
        fills[seen.hints.selected] = t.must if seen.hints.forced else t.hint
    for name, (x, y) in layout.centres.items():
        box = (
            x - width / 2 + gap / 2,
            y - height / 2 + gap / 2,
            x + width / 2 - gap / 2,
            y + height / 2 - gap / 2,
        )
        edge = t.went_to_edge if name == seen_marks.went_to else None
        draw.rounded_rectangle(
            box,
            scale(SIZES.radius),
            fill=fills.get(name, t.brick),
            outline=edge,
            width=scale(SIZES.edge),
        )
        draw.text((box[0] + scale(5), box[1] + scale(5)), name, font=corner, fill=t.brick_label)
    label = font(scale(SIZES.label_font))
    left, _, right, bottom = geometry.board
    for row, y in geometry.rows.items():
        for at in (left - scale(SIZES.label) / 2, right + scale(SIZES.label) / 2):
            draw.text((at, y), str(row), font=label, fill=t.muted, anchor="mm")
    for file, x in geometry.files.items():
        draw.text(
            (x, bottom + scale(SIZES.label) / 2),
            "abcdefg"[file],
            font=label,
            fill=t.muted,
            anchor="mm",
        )
    r = height * STONE / 2
    colours = ((t.blue, t.blue_rim), (t.red, t.red_rim))
    for square in (*seen_marks.captured, *seen_marks.forfeited):
        centre = layout.centres[square]
        _dot(draw, centre, r * 0.86, None, t.muted, scale(SIZES.ring))
        _cross(draw, centre, r * 0.42, scale(SIZES.cross), t)
    for side in Side:
        face, rim = colours[side]
        for square in state.stones(side):
            centre = layout.centres[square]
            _dot(draw, centre, r, t.outline)
            _dot(draw, centre, r * 0.9, rim)
            _dot(draw, centre, r * 0.8, face)
            _dot(draw, centre, r * 0.56, None, rim, max(1, round(r * 0.07)))
    _hints(draw, seen, layout.centres, r * 1.17, scale)
    _caption(
        image,
        layout.caption,
        seen,
        colours[seen.caption.side][0] if seen.caption.side is not None else None,
    )
    return image


def _hints(
    draw: Draw, seen: Scene, centres: dict[str, tuple[int, int]] | object, r: float, scale: Scale
) -> None:
    hints, t = seen.hints, seen.theme
    points: dict[str, tuple[int, int]] = centres  # type: ignore[assignment]
    ink, edge = (t.must, t.must_edge) if hints.forced else (t.hint, t.hint_edge)
    for square in hints.origins - {hints.selected}:
        _dot(draw, points[square], r, None, edge, scale(SIZES.ring) + 2)
        _dot(draw, points[square], r - 1, None, ink, scale(SIZES.ring))
    for square in hints.targets:
        _dot(draw, points[square], scale(SIZES.dot), ink, edge, 2)


def _lasca(state: LascaState, seen: Scene) -> Image.Image:
    geometry = lasca._geometry(seen.size, seen.perspective)
    layout, t, scale = geometry.layout, seen.theme, Scale(seen.size)
    image = Image.new("RGB", (layout.width, layout.height), t.panel)
    draw = ImageDraw.Draw(image)
    seen_marks = marks(seen)
    fills = {seen_marks.came_from: t.came_from_dark, seen_marks.went_to: t.went_to}
    fills.update(dict.fromkeys(seen_marks.passed, t.went_to))
    coords = {name: (LASCA_FILES.index(name[0]), int(name[1])) for name in LASCA_SQUARES}
    label = font(scale(SIZES.label_font))
    left, _, right, bottom = geometry.board
    for (file, rank), (x0, y0, x1, y1) in geometry.boxes.items():
        playing = (file + rank) % 2 == 1
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=t.dark_square if playing else t.light_square)
        if file == 0:
            for x in (left - scale(SIZES.label) / 2, right + scale(SIZES.label) / 2):
                draw.text((x, (y0 + y1) / 2), str(rank), font=label, fill=t.muted, anchor="mm")
        if rank == 1:
            draw.text(
                ((x0 + x1) / 2, bottom + scale(SIZES.label) / 2),
                LASCA_FILES[file],
                font=label,
                fill=t.muted,
                anchor="mm",
            )
    for square, fill in fills.items():
        if square is not None:
            x0, y0, x1, y1 = geometry.boxes[coords[square]]
            edge = t.went_to_edge if square == seen_marks.went_to else None
            draw.rectangle(
                (x0, y0, x1 - 1, y1 - 1), fill=fill, outline=edge, width=scale(SIZES.edge)
            )
    cell = geometry.square
    width, face, thick = cell * DISC_WIDTH, cell * FACE_HEIGHT, cell * PIECE_THICKNESS
    looks = {
        "w": (t.white_face, t.white_side, t.outline),
        "b": (t.black_face, t.black_side, t.black_edge),
        "W": (t.white_officer_face, t.white_officer_side, t.outline),
        "B": (t.black_officer_face, t.black_officer_side, t.outline),
    }
    badge = font(scale(SIZES.badge_font))
    for name in LASCA_SQUARES:
        column = state.column(name)
        if not column:
            continue
        cx, cy = layout.centres[name]
        shown = column[-VISIBLE_PIECES:]
        top = cy - (face + len(shown) * thick) / 2 + face / 2
        for level, piece in enumerate(shown):
            y = top + (len(shown) - 1 - level) * thick
            fill, side, edge = looks[piece]
            _disc(draw, (cx, y), width / 2, face / 2, thick, (fill, side, edge))
        if shown[-1] in "WB":
            w = width * 0.42 / 2
            ink = t.white_face if shown[-1] == "W" else t.black_face
            draw.polygon(
                [
                    (cx - w, top + w * 0.7),
                    (cx - w, top - w * 0.7),
                    (cx - w / 2, top),
                    (cx, top - w * 0.9),
                    (cx + w / 2, top),
                    (cx + w, top - w * 0.7),
                    (cx + w, top + w * 0.7),
                ],
                fill=ink,
                outline=t.outline,
            )
        if len(column) > VISIBLE_PIECES:
            text = words.say(
                "board.lasca.hidden", seen.locale, count=len(column) - VISIBLE_PIECES + 1
            )
            rim, low = cx + cell / 2, cy + cell / 2
            length = badge.getlength(text) + scale(SIZES.badge_font)
            box = (rim - length - 1, low - scale(SIZES.badge_font) * 1.45 - 1, rim - 1, low - 1)
            draw.rounded_rectangle(box, (box[3] - box[1]) / 2, fill=t.badge, outline=t.badge_text)
            draw.text(
                ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
                text,
                font=badge,
                fill=t.badge_text,
                anchor="mm",
            )
    for name in seen_marks.captured:
        _cross(draw, layout.centres[name], cell * 0.18, scale(SIZES.cross), t)
    _hints(draw, seen, layout.centres, cell * 0.5, scale)
    lx, ly, _, ly1 = geometry.legend
    x = lx
    for piece, key in (
        ("wb", "board.lasca.legend.soldiers"),
        ("WB", "board.lasca.legend.officers"),
    ):
        for one in piece:
            _disc(draw, (x + 14, (ly + ly1) / 2 - 3), 13, 6, 5, looks[one])
            x += 30
        text = words.say(key, seen.locale)
        draw.text(
            (x, (ly + ly1) / 2),
            text,
            font=font(scale(SIZES.legend_font)),
            fill=t.muted,
            anchor="lm",
        )
        x += round(font(scale(SIZES.legend_font)).getlength(text)) + scale(18)
    chip = t.white_face if seen.caption.side is Side.FIRST else t.black_face
    _caption(image, layout.caption, seen, chip if seen.caption.side is not None else None)
    return image


def _disc(
    draw: Draw,
    centre: tuple[float, float],
    rx: float,
    ry: float,
    thick: float,
    look: tuple[RGB, RGB, RGB],
) -> None:
    fill, side, edge = look
    x, y = centre
    draw.ellipse((x - rx, y + thick - ry, x + rx, y + thick + ry), fill=side, outline=edge)
    draw.rectangle((x - rx, y, x + rx, y + thick), fill=side)
    draw.ellipse((x - rx, y - ry, x + rx, y + ry), fill=fill, outline=edge)


def _oware(state: OwareState, seen: Scene) -> Image.Image:
    geometry = oware._geometry(seen.size, seen.perspective)
    layout, t, scale = geometry.layout, seen.theme, Scale(seen.size)
    image = Image.new("RGB", (layout.width, layout.height), t.panel)
    draw = ImageDraw.Draw(image)
    radius = scale(SIZES.radius) * 2
    draw.rounded_rectangle(geometry.plate, radius, fill=t.wood, outline=t.wood_edge, width=scale(3))
    pit = geometry.cell * PIT / 2
    seed = pit * SEED
    label, count = font(scale(SIZES.label_font)), font(scale(SIZES.count_font))
    last = seen.last
    sown = set(last.path) if last else set()
    taken = set(last.captured) if last else set()
    for index, name in enumerate(PITS):
        x, y = layout.centres[name]
        out = geometry.outward[name]
        edge = geometry.plate[3] if out > 0 else geometry.plate[1]
        draw.text(
            (x, edge + out * scale(SIZES.label) / 2), name, font=label, fill=t.muted, anchor="mm"
        )
        _dot(draw, (x, y), pit, t.pit_shade)
        _dot(draw, (x, y + scale(2)), pit * 0.93, t.pit)
        if name in sown:
            _dot(draw, (x, y), pit + scale(SIZES.ring), None, t.went_to, scale(SIZES.ring))
        seeds = state.pits[index]
        _seeds(
            draw,
            (x, y - out * pit * 0.1),
            min(seeds, SEEDS_DRAWN),
            SEEDS_DRAWN,
            pit * 0.8 - seed,
            pit * 0.8 - seed,
            seed,
            t,
        )
        if name in taken:
            _cross(draw, (x, y), pit * 0.4, scale(SIZES.cross), t)
        text = str(seeds)
        half = max(count.size * 0.78, count.getlength(text) / 2 + count.size / 4)
        by = y + out * pit * 1.02
        draw.rounded_rectangle(
            (x - half, by - count.size * 0.78, x + half, by + count.size * 0.78),
            count.size * 0.78,
            fill=t.count,
            outline=t.seed,
            width=2,
        )
        draw.text((x, by), text, font=count, fill=t.count_text, anchor="mm")
    _hints(draw, seen, layout.centres, pit + scale(SIZES.ring), scale)
    names = sides(state.spec, seen.locale)
    for side in Side:
        x0, y0, x1, y1 = geometry.stores[side]
        draw.rounded_rectangle(
            (x0, y0, x1, y1), radius, fill=t.pit, outline=t.pit_shade, width=scale(3)
        )
        name_y, count_y = y0 + scale(14), y1 - scale(19)
        draw.text(
            ((x0 + x1) / 2, name_y),
            names[side],
            font=font(scale(SIZES.store_name_font)),
            fill=t.text,
            anchor="mm",
        )
        stored = state.stores[side]
        draw.text(
            ((x0 + x1) / 2, count_y),
            str(stored),
            font=font(scale(SIZES.store_count_font)),
            fill=t.text,
            anchor="mm",
        )
        rx, ry = (x1 - x0 - scale(10)) / 2 - seed, (count_y - name_y - scale(34)) / 2 - seed
        middle = ((x0 + x1) / 2, (name_y + count_y) / 2)
        _seeds(draw, middle, min(stored, STORE_SEEDS_DRAWN), STORE_SEEDS_DRAWN, rx, ry, seed, t)
    _caption(image, layout.caption, seen, None)
    return image


def _seeds(
    draw: Draw,
    centre: tuple[float, float],
    count: int,
    full: int,
    rx: float,
    ry: float,
    seed: float,
    t: Theme,
) -> None:
    golden = math.pi * (3 - math.sqrt(5))
    for i in range(count):
        d = math.sqrt((i + 0.5) / full)
        x = centre[0] + rx * d * math.cos(i * golden)
        y = centre[1] + ry * d * math.sin(i * golden)
        _dot(draw, (x, y), seed, t.seed, t.seed_edge, 1)
