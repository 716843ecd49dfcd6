"""Board images in the reader's language: Czech captions and names, no missing glyph.

The captions are compared as words (`Caption` values), not pixels; the glyph
test draws every Czech sentence an image can carry, one character at a time,
with the shipped font, and compares each with the font's missing glyph.
"""

from __future__ import annotations

import io
import random
import string
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

import render
from games.base import GameState, Outcome, Side, Termination
from games.oware import OwareState
from games.registry import GAMES
from render.painters import painter_for
from render.scene import Caption, caption
from render.theme import SIZES, Scale, font, printable
from words import say
from words.catalogue import LANGUAGES, forms_of
from words.english import TEXTS as ENGLISH
from words.games import side_names, title

CZECH = LANGUAGES["cs"].texts
NAMES = ("Anna", "Bartoloměj")


def play(game: str, *moves: str) -> GameState:
    state = GAMES[game].new()
    for move in moves:
        state = state.play(move)
    return state


def finished(game: str, seed: int) -> GameState:
    """A seeded random game of `game` played to its end."""
    rng = random.Random(seed)
    state = GAMES[game].new()
    while legal := state.legal_moves():
        state = state.play(rng.choice(legal))
    assert state.outcome() is not None
    return state


def caption_of(state: GameState, locale: str | None, outcome: Outcome | None = None) -> Caption:
    last = render.last_move_of(state)
    ending = outcome if outcome is not None else state.outcome()
    return caption(state.spec, painter_for(state.spec), state, last, ending, NAMES, locale)


def text_of(words: Caption) -> str:
    return "\n".join((words.title, words.move, words.note))


def english_names(game: str) -> set[str]:
    """The English side names and title, where Czech says them otherwise (Oska is Oska)."""
    czech = {*side_names(game, "cs"), title(game, "cs")}
    return {*side_names(game, "en"), title(game, "en")} - czech


# A middle game of each game whose last move captured (Oska's and Lasca's from the
# demo set's seeded search, Oware's with seeds in both stores).
MIDDLE = {
    "oska": "e1-d2 e5-d4 a1-b2 a5-b4 d2-e3 d4xf2",
    "lasca": (
        "c3-b4 a5xc3 d2xb4 b6-a5 e3-d4 c5xe3 f2xd4 e5-f4 g3xe5 d6xf4xd2 c1xe3 a7-b6 e3-f4 "
        "g5xe3xc1 g1-f2 c1xe3xc5 b4xd6 f4-e3 c5xa7 e3xg1 c3-b4 a5xc3 a3-b4 e7xc5xa3xc1 a1-b2 "
        "c3xa1 e1-f2 g1xe3 a7-b6 c7xa5 b6-a7 e3-f2 a7-b6 f2-e1 b6-a7 d4-e3 a7-b6 e5-f4 b6-a7 "
        "f6-g5 a7-b6 d6-c5 b6xd4xf2"
    ),
    "oware": "B e A c A e E d D b A e B d F e",
}


# ------------------------------------------------------------ the captions


def test_a_czech_oska_caption_is_worded_in_czech() -> None:
    words = caption_of(play("oska", *MIDDLE["oska"].split()), "cs")
    assert words.title == "Na tahu je Anna (Modrý)"
    assert words.move == "Tah 3: Červený táhl d4xf2, vzal na e3"
    assert words.note == "Modrý musí brát: braní je povinné"  # c3 can jump d4
    english = caption_of(play("oska", *MIDDLE["oska"].split()), None)
    assert english.title == "Anna (Blue) to move"
    assert english.move == "Move 3: Red played d4xf2, taking e3"
    assert english.note == "Blue must capture: capturing is compulsory"
    calm = caption_of(play("oska", *MIDDLE["oska"].split()[:4]), "cs")
    assert calm.note == "Oska, standardní pravidla"


def test_a_czech_lasca_caption_names_laska_and_its_sides_in_czech() -> None:
    words = caption_of(play("lasca", *MIDDLE["lasca"].split()), "cs")
    assert words.title == "Na tahu je Bartoloměj (Černý)"
    assert words.move == "Tah 22: Bílý táhl b6xd4xf2, vzal na c5 i e3"  # an officer
    assert words.note == "Černý musí brát: braní je povinné"
    assert caption_of(play("lasca"), "cs").note == "Laska, standardní pravidla"
    assert not any(name in text_of(words) for name in english_names("lasca"))


def test_a_czech_oware_caption_and_its_stores_are_in_czech() -> None:
    state = play("oware", *MIDDLE["oware"].split())
    words = caption_of(state, "cs")
    assert words.title == "Na tahu je Anna (Jih)"
    assert words.move.startswith("Tah 8: Sever táhl e, sklidil semínka z ")
    assert words.note == "Oware, standardní pravidla"
    assert not any(name in text_of(words) for name in english_names("oware"))
    # Below the caption the words are the stores' names: Jih and Sever, not South and North.
    below = Scale(640)(SIZES.caption)
    czech, english = (render.frame(state, locale=locale) for locale in ("cs", None))
    assert differ(czech, english, below)


def test_below_the_caption_an_oska_board_has_no_words_to_translate() -> None:
    state = play("oska", *MIDDLE["oska"].split())
    czech, english = (render.frame(state, locale=locale) for locale in ("cs", None))
    assert differ(czech, english, 0)
    assert not differ(czech, english, Scale(640)(SIZES.caption))


@pytest.mark.parametrize(
    ("game", "seed", "title_line", "note"),
    [
        ("oska", 0, "Vyhrává Bartoloměj (Červený)", "Červený má všechny kameny v cíli"),
        ("lasca", 0, "Vyhrává Anna (Bílý)", "Černý už nemá žádný sloupec"),
        ("oware", 1, "Vyhrává Bartoloměj (Sever)", "Sever sklidil 28 semínek"),
    ],
)
def test_a_finished_game_says_who_won_and_why_in_czech(
    game: str, seed: int, title_line: str, note: str
) -> None:
    words = caption_of(finished(game, seed), "cs")
    assert words.finished
    assert (words.title, words.note) == (title_line, note)
    assert words.move.startswith("Tah ")
    assert not any(name in text_of(words) for name in english_names(game))


def test_a_resignation_and_a_draw_are_worded_in_czech() -> None:
    state = play("oska", *MIDDLE["oska"].split())
    resigned = Outcome(Side.SECOND, Termination.RESIGNATION, side=Side.FIRST)
    words = caption_of(state, "cs", resigned)
    assert (words.title, words.note) == ("Vyhrává Bartoloměj (Červený)", "Modrý se vzdal")
    drawn = caption_of(state, "cs", Outcome(None, Termination.AGREEMENT))
    assert (drawn.title, drawn.note) == ("Remíza", "Remíza dohodou")


def test_an_oware_obligation_is_worded_in_czech() -> None:
    rng = random.Random(3)
    state = GAMES["oware"].new("must-play-12=on")
    assert isinstance(state, OwareState)
    while not state.obliged[state.to_move]:  # a pit of 12 or more seeds for the side to move
        after = state.play(rng.choice(state.legal_moves()))
        assert isinstance(after, OwareState)
        state = after
    words = caption_of(state, "cs")
    side = side_names("oware", "cs")[state.to_move]
    assert words.note == f"{side} musí hrát jamku s více než 11 semínky"


def test_a_locale_without_a_catalogue_and_none_are_english() -> None:
    state = play("lasca", *MIDDLE["lasca"].split())
    english = caption_of(state, None)
    assert english.note == "Black must capture: capturing is compulsory"
    assert caption_of(state, "en-GB") == english
    assert caption_of(state, "ja") == english
    assert caption_of(state, "cs") != english


def differ(one: Image.Image, other: Image.Image, top: int) -> bool:
    """Whether two frames differ anywhere from row `top` down."""
    box = (0, top, one.width, one.height)
    a, b = one.convert("RGB").crop(box), other.convert("RGB").crop(box)
    return ImageChops.difference(a, b).getbbox() is not None


# ------------------------------------------------------------- the glyphs

SAMPLES: dict[str, Any] = {
    "number": 12,
    "move": "c3xe5",
    "squares": "d4",
    "init": ("b2", "d4"),
    "last": "f6",
    "variant": "capture=huff",
    "a": 24,
    "b": 19,
    "name": NAMES[1],
    "first_left": "2:41",
    "second_left": "0:09.5",
    "clocks": "Modrý 2:41 · Červený 0:09.5",
    "note": "Modrý musí brát",
}


def fields(code: str) -> set[str]:
    return {
        name
        for form in forms_of(CZECH[code])
        for _, name, _, _ in string.Formatter().parse(form)
        if name
    }


def params_for(game: str, code: str, count: int) -> dict[str, Any]:
    """Sample parameters for `code`: `game`'s side names and title in Czech, `count` for counts."""
    first, second = side_names(game, "cs")
    named: Mapping[str, Any] = {
        **SAMPLES,
        "count": count,
        "limit": count,
        "side": first,
        "winner": second,
        "first": first,
        "second": second,
        "title": title(game, "cs"),
        "player": f"{NAMES[0]} ({first})",
        "line": f"Tah 3: {second} táhl d4xf2",
    }
    missing = fields(code) - set(named)
    assert not missing, f"{code}: no sample for {missing}"
    return {name: named[name] for name in fields(code)}


def czech_sentences() -> Iterator[tuple[str, str]]:
    """Every Czech sentence an image can carry, with sample parameters, by its code."""
    shared = [
        code
        for code in CZECH
        if code.startswith("board.") or (code.startswith("outcome.") and code.count(".") == 1)
    ]
    for game in GAMES:
        own = [code for code in CZECH if code.startswith(f"outcome.{game}.")]
        names = [f"{game}.title", f"{game}.side.first", f"{game}.side.second"]
        for code in (*shared, *own, *names):
            for count in (1, 3, 5):  # each Czech plural form
                text = say(code, "cs", **params_for(game, code, count))
                yield code, text
                # An outcome alone on its line starts with a capital.
                yield code, text[:1].upper() + text[1:]


def glyph(face: ImageFont.FreeTypeFont, char: str) -> tuple[bytes, float]:
    """What a reader sees of one character drawn alone: its pixels and its advance."""
    size = int(face.size)
    image = Image.new("L", (size * 2, size * 2))
    ImageDraw.Draw(image).text((size // 2, size // 2), char, font=face, fill=255)
    return image.tobytes(), face.getlength(char)


def missing_glyphs(text: str, face: ImageFont.FreeTypeFont) -> set[str]:
    """The characters of `text` the font draws as its missing glyph (`.notdef`).

    The subset font's `.notdef` is blank, not a box: a missing letter would leave
    a gap as wide as `.notdef`, which no space of the font is.
    """
    notdef = glyph(face, "\ue000")  # a private-use code point, in no font of ours
    return {char for char in set(text) if glyph(face, char) == notdef}


def test_the_missing_glyph_check_sees_a_missing_glyph() -> None:
    face = font(Scale(640)(SIZES.line_font))
    assert missing_glyphs("Kamen 石 ✓ \u00a0", face) == {"石"}
    assert missing_glyphs("Příliš žluťoučký kůň úpěl ďábelské ódy", face) == set()
    assert missing_glyphs("PŘÍLIŠ ŽLUŤOUČKÝ KŮŇ ÚPĚL ĎÁBELSKÉ ÓDY", face) == set()


def test_every_czech_board_code_is_translated() -> None:
    board = {code for code in ENGLISH if code.startswith("board.")}
    assert board <= set(CZECH)
    assert all(all(forms_of(CZECH[code])) for code in board)


def test_every_czech_word_an_image_carries_has_its_glyph_in_the_shipped_font() -> None:
    faces = {font(Scale(640)(pixels)) for pixels in (SIZES.title_font, SIZES.smallest_font)}
    seen: dict[str, str] = {}
    for code, text in czech_sentences():
        seen[code] = text
        assert printable(text) == text, f"{code}: {text!r} has characters the font lacks"
        for face in faces:
            assert not missing_glyphs(text, face), f"{code}: {text!r}"
    # Czech diacritics did reach the check, and every board code was said.
    letters = set("".join(seen.values()))
    assert {"á", "é", "í", "ý", "ř", "č", "ě", "ů", "Č"} <= letters
    assert {code for code in ENGLISH if code.startswith("board.")} <= set(seen)
    assert {"oska.side.first", "lasca.title", "oware.side.second"} <= set(seen)


# ------------------------------------------------------------- the replay


def test_a_czech_replay_gif_has_a_czech_frame_per_move() -> None:
    state = play("oska", *MIDDLE["oska"].split())
    data = render.replay(state, locale="cs", size=400)
    gif = Image.open(io.BytesIO(data))
    frames = getattr(gif, "n_frames", 1)
    assert gif.format == "GIF"
    assert frames == len(state.moves) + 1
    gif.seek(frames - 1)
    last = gif.convert("RGB")
    czech = render.frame(state, locale="cs", size=400).convert("RGB")
    english = render.frame(state, size=400).convert("RGB")
    assert ImageChops.difference(last, czech).getbbox() is None
    assert ImageChops.difference(last, english).getbbox() is not None
    assert data != render.replay(state, size=400)
