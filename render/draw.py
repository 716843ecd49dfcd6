"""The drawing tools the three boards share.

A board image is made of pieces prepared once per size (the static board,
antialiased sprites drawn four times larger and scaled down), put together in
RGB and mapped onto a fixed palette of at most 256 colours, a patch at a time
(`render.compose`). Mapping onto a fixed palette is a nearest-colour lookup,
about a millisecond for a whole board, where computing a palette per image
would cost ten; the palette-mode image then makes a PNG that is small and fast
to encode, and GIF frames that share one palette.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Iterable, Sequence

from PIL import Image, ImageDraw, ImageFont

from render.theme import RGB, font, printable

SUPERSAMPLE = 4
"""Sprites are drawn this many times larger, then scaled down: their antialiasing."""

COLOURS = 255
"""Palette entries used; the 256th is left free for a GIF's transparent "unchanged" pixels."""

Paint = Callable[[ImageDraw.ImageDraw, float], None]
"""Draws a sprite on a canvas `SUPERSAMPLE` times larger; the float is that factor."""


def sprite(width: int, height: int, paint: Paint) -> Image.Image:
    """An antialiased RGBA sprite of `width` x `height`, drawn by `paint`."""
    big = Image.new("RGBA", (width * SUPERSAMPLE, height * SUPERSAMPLE), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), SUPERSAMPLE)
    # A box filter: each pixel the mean of the pixels it covers, with no ringing,
    # so the inside of a shape keeps the theme's exact colour.
    return big.reduce(SUPERSAMPLE)


def put(canvas: Image.Image, image: Image.Image, centre: tuple[float, float]) -> None:
    """Paste an RGBA sprite centred on `centre`, blending by its alpha."""
    # Whole-pixel centres and odd sprites put the sprite's middle pixel on the centre.
    x = round(centre[0]) - image.width // 2
    y = round(centre[1]) - image.height // 2
    canvas.paste(image, (x, y), image)


def ellipse(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    rx: float,
    ry: float,
    fill: RGB | None,
    outline: RGB | None = None,
    width: float = 0,
) -> None:
    """An ellipse by centre and radii (ImageDraw wants a bounding box)."""
    x, y = centre
    box = (x - rx, y - ry, x + rx, y + ry)
    draw.ellipse(box, fill=fill, outline=outline, width=round(width) if outline else 0)


def cross(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    arm: float,
    stroke: float,
    colour: RGB,
    edge: RGB,
) -> None:
    """An X with a contrasting edge, the mark of a captured piece."""
    x, y = centre
    for width, fill in ((stroke + 2 * max(1.0, stroke / 3), edge), (stroke, colour)):
        for dx in (-arm, arm):
            draw.line((x - dx, y - arm, x + dx, y + arm), fill=fill, width=round(width))
        # Round the ends, which ImageDraw leaves square.
        radius = width / 2
        for px, py in (
            (x - arm, y - arm),
            (x + arm, y + arm),
            (x - arm, y + arm),
            (x + arm, y - arm),
        ):
            ellipse(draw, (px, py), radius, radius, fill)


def crown(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], width: float, fill: RGB, edge: RGB
) -> None:
    """A three-pointed crown, the officer's mark (rank by shape, not colour alone)."""
    x, y = centre
    w, h = width / 2, width * 0.36
    points = [
        (x - w, y + h), (x - w, y - h), (x - w / 2, y), (x, y - h * 1.25),
        (x + w / 2, y), (x + w, y - h), (x + w, y + h),
    ]  # fmt: skip
    draw.polygon(points, fill=fill, outline=edge, width=max(1, round(width / 12)))


def ring(
    diameter: int,
    stroke: float,
    colours: tuple[RGB, RGB],
    *,
    spikes: bool = False,
    dotted: bool = False,
) -> Image.Image:
    """A hint's ring of `diameter` (its outer edge), `stroke` wide, lined on both sides.

    `colours` are the ring's and its lining's. `spikes` adds four short bars
    outward on the diagonals (the mark of a compulsory capture; the sprite is
    larger by them); `dotted` draws the ring as beads (where a sowing ends).
    """
    fill, edge = colours
    reach = 1.28 if spikes else 1.0
    size = round(diameter * reach) | 1

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        c = size * k / 2
        outer = diameter * k / 2 - k  # the lining's outer edge
        middle = outer - k - stroke * k / 2  # the middle of the ring's stroke
        if spikes:
            tip = size * k / 2 - (stroke / 2 + 1.5) * k
            for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                a = (c + dx * middle * 0.7071, c + dy * middle * 0.7071)
                b = (c + dx * tip * 0.7071, c + dy * tip * 0.7071)
                for width, colour in ((stroke + 2) * k, edge), (stroke * k, fill):
                    draw.line((a, b), fill=colour, width=round(width))
                    ellipse(draw, b, width / 2, width / 2, colour)
        if dotted:
            beads = 12
            for i in range(beads):
                angle = 2 * math.pi * (i + 0.5) / beads
                at = (c + middle * math.cos(angle), c + middle * math.sin(angle))
                ellipse(draw, at, (stroke / 2 + 1) * k, (stroke / 2 + 1) * k, edge)
                ellipse(draw, at, stroke * k / 2, stroke * k / 2, fill)
            return
        ellipse(draw, (c, c), outer, outer, None, edge, (stroke + 2) * k)
        ellipse(draw, (c, c), outer - k, outer - k, None, fill, stroke * k)

    return sprite(size, size, paint)


def spot(radius: int, colours: tuple[RGB, RGB], *, sight: bool = False) -> Image.Image:
    """A hint's dot where a move may end; with `sight`, ringed too (a capture ends there)."""
    fill, edge = colours
    size = round(radius * (3.6 if sight else 2)) | 1

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        c = size * k / 2
        inner = radius * k - k
        ellipse(draw, (c, c), inner, inner, fill, edge, 1.5 * k)
        if sight:
            stroke = max(2.0, radius / 4)
            r = size * k / 2 - k
            ellipse(draw, (c, c), r, r, None, edge, (stroke + 2) * k)
            ellipse(draw, (c, c), r - k, r - k, None, fill, stroke * k)

    return sprite(size, size, paint)


# ----------------------------------------------------------------- text


def fitted(text: str, pixels: int, width: int, smallest: int) -> tuple[str, ImageFont.FreeTypeFont]:
    """`text` and a font that make it fit `width`: smaller down to `smallest`, then cut with `…`."""
    text = printable(text)
    size = pixels
    face = font(size)
    while face.getlength(text) > width and size > smallest:
        size -= 1
        face = font(size)
    if face.getlength(text) > width:
        while text and face.getlength(text + "…") > width:
            text = text[:-1]
        text = text.rstrip() + "…"
    return text, face


def write(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    face: ImageFont.FreeTypeFont,
    fill: RGB,
    anchor: str = "mm",
) -> None:
    """Text placed by an anchor (`mm` centres it), antialiased on RGB."""
    draw.text(xy, text, font=face, fill=fill, anchor=anchor)


def pill(
    text: str,
    face: ImageFont.FreeTypeFont,
    size: tuple[int, int],
    colours: tuple[RGB, RGB, RGB],
    stroke: float = 1.0,
    text_dy: float = 0.0,
) -> Image.Image:
    """A rounded badge of `size` with `text` centred on it; colours: fill, edge, text."""
    width, height = size
    fill, edge, ink = colours

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        box = (k, k, (width - 1) * k, (height - 1) * k)
        radius = height * k / 2
        draw.rounded_rectangle(box, radius, fill=fill, outline=edge, width=round(k * stroke))

    image = sprite(width, height, paint)
    write(ImageDraw.Draw(image), (width / 2, height / 2 + text_dy), text, face, ink)
    return image


# -------------------------------------------------------------- palette


def palette(keys: Iterable[RGB], specimens: Sequence[Image.Image]) -> Image.Image:
    """A palette image of `COLOURS` colours: every key colour exactly, the rest from the specimens.

    The specimens are RGB images holding what frames will show (the board,
    each sprite on each background, text); their median-cut colours fill the
    slots the keys leave, so antialiased edges keep their shades.
    """
    exact: list[RGB] = list(dict.fromkeys(keys))
    if len(exact) > 200:
        raise ValueError(f"{len(exact)} key colours leave too little room for shades")
    sheet = _stack(specimens)
    shades = sheet.quantize(COLOURS - len(exact), method=Image.Quantize.MEDIANCUT)
    flat = shades.getpalette() or []
    taken = set(exact)
    colours = list(exact)
    for i in range(0, len(flat) - 2, 3):
        colour = (flat[i], flat[i + 1], flat[i + 2])
        if colour not in taken and len(colours) < COLOURS:
            taken.add(colour)
            colours.append(colour)
    image = Image.new("P", (1, 1))
    image.putpalette([channel for colour in colours for channel in colour])
    return image


def _stack(images: Sequence[Image.Image]) -> Image.Image:
    width = max(image.width for image in images)
    height = sum(image.height for image in images)
    sheet = Image.new("RGB", (width, height))
    y = 0
    for image in images:
        sheet.paste(image.convert("RGB"), (0, y))
        y += image.height
    return sheet


def indexed(image: Image.Image, colours: Image.Image) -> Image.Image:
    """`image` (RGB) mapped onto the palette `colours`, without dithering (flat areas stay flat)."""
    return image.quantize(palette=colours, dither=Image.Dither.NONE)


def png(image: Image.Image) -> bytes:
    """PNG bytes at zlib's level 3, chosen by `python -m bench.render --encodings`: on a
    board levels 1 and 2 take as long and make it 5-40 % larger, the RLE strategy as long
    and 40-75 % larger; level 6 takes twice as long for 13-16 % less, `optimize` ten times."""
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=3)
    return out.getvalue()
