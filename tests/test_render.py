"""The board images: what a player must be able to read, probed pixel by pixel.

No golden images: each test renders a position, decodes the PNG and looks at
the pixels that carry a meaning (the stone on c3 is blue, the square a stone
left is marked, an officer shows its crown), found through `render.centre`.
"""

from __future__ import annotations

import io
import random
import re
from dataclasses import replace
from textwrap import dedent
from typing import cast

import pytest
from PIL import Image

import render
from games import lasca, oska, oware
from games.base import GameSpec, GameState, MoveInfo, Outcome, Side, Termination
from games.registry import GAMES
from render.painters import PAINTERS, MissingPainter, check_games, painter_for
from render.scene import caption, squares
from render.theme import THEME, printable
from words.games import outcome_text

RGB = tuple[int, int, int]
OSKA, LASCA, OWARE = PAINTERS["oska"], PAINTERS["lasca"], PAINTERS["oware"]


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def rgb(data: bytes) -> Image.Image:
    return decode(data).convert("RGB")


def pixel(image: Image.Image, xy: tuple[int, int]) -> RGB:
    return image.getpixel(xy)  # type: ignore[return-value]


def colours_in(image: Image.Image, box: tuple[int, int, int, int]) -> set[RGB]:
    """Every colour in a box of an RGB image."""
    found = image.crop(box).getcolors(1 << 16) or []
    return {cast(RGB, colour) for _, colour in found}


def near(colour: RGB, seen: set[RGB], tolerance: int = 10) -> bool:
    """Whether an antialiased shape of `colour` shows among `seen` (thin strokes are never flat)."""
    return any(
        max(abs(a - b) for a, b in zip(colour, other, strict=True)) <= tolerance for other in seen
    )


def play(game: str, *moves: str, variant: str = "") -> GameState:
    state = GAMES[game].new(variant)
    for move in moves:
        state = state.play(move)
    return state


def random_state(game: str, seed: int, plies: int, variant: str = "") -> GameState:
    rng = random.Random(seed)
    state = GAMES[game].new(variant)
    while (legal := state.legal_moves()) and len(state.moves) < plies:
        state = state.play(rng.choice(legal))
    return state


# ------------------------------------------------------------------- format


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("size", [640, 400, 320])
def test_the_png_decodes_at_the_stated_size(game: str, size: int) -> None:
    image = decode(render.board(GAMES[game].new(), size=size))
    assert image.format == "PNG"
    assert image.size == render.image_size(game, size=size)
    assert max(image.size) == size


@pytest.mark.parametrize("size", [319, 641, 2000])
def test_a_size_beyond_the_layout_is_refused(size: int) -> None:
    with pytest.raises(ValueError, match="size"):
        render.board(GAMES["oska"].new(), size=size)


def unpainted() -> GameSpec:
    """A registered-looking game that no painter draws."""
    oska_spec = GAMES["oska"]
    return replace(oska_spec, name="czech", title="Czech draughts")


class StateOfAnotherGame:
    """An Oska position that says it belongs to a game without a painter."""

    def __init__(self, state: GameState) -> None:
        self._state = state

    @property
    def spec(self) -> GameSpec:
        return unpainted()

    def __getattr__(self, name: str) -> object:
        return getattr(self._state, name)


def test_a_state_of_a_game_without_a_painter_is_refused_naming_the_table() -> None:
    message = "Czech draughts has no painter: add one to render/painters.py PAINTERS"
    stranger = StateOfAnotherGame(GAMES["oska"].new())
    with pytest.raises(MissingPainter, match=re.escape(message)):
        render.board(stranger)  # type: ignore[arg-type]
    with pytest.raises(MissingPainter, match=re.escape(message)):
        painter_for(unpainted())


def test_every_registered_game_has_a_painter() -> None:
    assert set(PAINTERS) == set(GAMES)
    check_games(GAMES)
    check_games()  # all registered games by default
    for spec in GAMES.values():
        assert painter_for(spec) is PAINTERS[spec.name]


def test_the_start_up_check_names_every_game_without_a_painter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(GAMES, "czech", unpainted())
    with pytest.raises(MissingPainter) as refused:
        check_games(["oska", "czech", "lasca"])
    assert str(refused.value) == (
        "Czech draughts has no painter: add one to render/painters.py PAINTERS"
    )
    with pytest.raises(MissingPainter):
        render.check_games(GAMES)


@pytest.mark.parametrize("game", list(GAMES))
def test_every_square_has_its_own_centre_inside_the_image(game: str) -> None:
    names = {"oska": oska.SQUARES, "lasca": lasca.SQUARES, "oware": tuple(oware.PITS)}[game]
    width, height = render.image_size(game)
    for perspective in Side:
        centres = [render.centre(game, name, perspective=perspective) for name in names]
        assert len(set(centres)) == len(names)
        assert all(0 < x < width and 0 < y < height for x, y in centres)
    with pytest.raises(KeyError):
        render.centre(game, "z9")


# -------------------------------------------------------------------- Oska

# A stone's radius in pixels at 640: 40% of a brick's height (rows are a brick apart).
STONE_RADIUS = round((render.centre("oska", "a1")[1] - render.centre("oska", "b2")[1]) * 0.4)


def test_the_stone_that_reached_c3_is_blue_at_its_centre() -> None:
    before = play("oska", "a1-b2", "a5-b4")
    after = before.play("b2-c3")
    c3 = render.centre("oska", "c3")
    assert pixel(rgb(render.board(before)), c3) == THEME.brick
    assert pixel(rgb(render.board(after)), c3) == THEME.blue
    # From Red's side the board turns round, and c3 moves with it.
    turned = render.centre("oska", "c3", perspective=Side.SECOND)
    assert turned != c3
    assert pixel(rgb(render.board(after, perspective=Side.SECOND)), turned) == THEME.blue


def test_the_square_a_stone_left_is_highlighted_and_an_ordinary_one_is_not() -> None:
    state = play("oska", "a1-b2", "a5-b4", "b2-c3")
    image = rgb(render.board(state))
    left = pixel(image, render.centre("oska", "b2"))
    ordinary = pixel(image, render.centre("oska", "d2"))
    assert left != ordinary
    assert (left, ordinary) == (THEME.came_from, THEME.brick)


def test_the_square_reached_has_a_border_as_well_as_a_colour() -> None:
    state = play("oska", "a1-b2")
    image = rgb(render.board(state))
    x, y = render.centre("oska", "b2")
    brick_height = render.centre("oska", "a1")[1] - render.centre("oska", "b2")[1]
    inside = colours_in(image, (x - 5, y - brick_height // 2, x + 5, y))
    assert THEME.went_to in inside and THEME.went_to_edge in inside


def test_a_highlight_comes_from_the_move_given_or_else_from_the_history() -> None:
    state = play("oska", "a1-b2", "a5-b4")
    derived = rgb(render.board(state))
    given = rgb(render.board(state, last_move=MoveInfo("a1-b2", ("a1", "b2"))))
    a5, a1 = render.centre("oska", "a5"), render.centre("oska", "a1")
    assert pixel(derived, a5) == THEME.came_from
    assert pixel(given, a1) == THEME.came_from
    assert pixel(given, a5) == THEME.brick


def test_a_position_set_up_from_text_has_nothing_highlighted() -> None:
    state = oska.from_text(
        "5 r . . r\n4 . . .\n3 . .\n2 . . .\n1 b . . b\nBlue to move", oska.SPEC.variant()
    )
    assert render.last_move_of(state) is None
    image = rgb(render.board(state))
    assert pixel(image, render.centre("oska", "c1")) == THEME.brick


def test_a_captured_stone_leaves_a_cross_in_its_colour() -> None:
    before = play("oska", "a1-b2", "a5-b4", "b2-c3")
    info = before.describe("b4xd2")
    after = before.play("b4xd2")
    assert info.captured == ("c3",)
    image = rgb(render.board(after, last_move=info))
    x, y = render.centre("oska", "c3")
    assert pixel(image, (x, y)) == THEME.taken
    ring = colours_in(image, (x - STONE_RADIUS, y - 2, x - STONE_RADIUS * 2 // 3, y + 2))
    assert near(THEME.blue, ring)  # the ghost is in the taken stone's colour: Blue's
    assert not near(THEME.red, ring, 40)


def test_a_forfeited_stone_is_crossed_out_in_the_movers_colour() -> None:
    # Blue c1 could jump d2; Blue steps g1-f2 instead and forfeits c1 (huff).
    diagram = "5 r . . r\n4 . . .\n3 . .\n2 . r .\n1 . b . b\nBlue to move"
    before = oska.from_text(diagram, oska.SPEC.variant("capture=huff"))
    info = before.describe("g1-f2/c1")
    after = before.play("g1-f2/c1")
    assert info.forfeited == ("c1",)
    image = rgb(render.board(after, last_move=info))
    x, y = render.centre("oska", "c1")
    assert pixel(image, (x, y)) == THEME.taken
    ring = colours_in(image, (x - STONE_RADIUS, y - 2, x - STONE_RADIUS * 2 // 3, y + 2))
    assert near(THEME.blue, ring) and not near(THEME.red, ring, 40)


def test_a_removed_stone_is_crossed_out_in_its_owners_colour_and_said() -> None:
    # huff-opponent: Blue c1 could jump d2 and Blue stepped g1-f2; Red removes c1, then steps.
    diagram = "5 r . . r\n4 . . .\n3 . .\n2 . r .\n1 . b . b\nBlue to move"
    start = oska.from_text(diagram, oska.SPEC.variant("capture=huff-opponent"))
    before = start.play("g1-f2")
    info = before.describe("c1:g5-f4")
    after = before.play("c1:g5-f4")
    assert info.forfeited == ("c1",)
    image = rgb(render.board(after, last_move=info))
    x, y = render.centre("oska", "c1")
    assert pixel(image, (x, y)) == THEME.taken
    ring = colours_in(image, (x - STONE_RADIUS, y - 2, x - STONE_RADIUS * 2 // 3, y + 2))
    assert near(THEME.blue, ring) and not near(THEME.red, ring, 40)  # Blue's stone, not Red's
    said = caption(GAMES["oska"], OSKA, after, info, None, None).move
    assert said.endswith("Red played c1:g5-f4, removing c1"), said


def test_hints_ring_the_stones_that_may_move_and_leave_where_they_may_go_unmarked() -> None:
    # Where a stone may go is shown once it is picked (`selected`: tests/test_render_hints.py).
    state = GAMES["oska"].new()
    plain = rgb(render.board(state))
    hinted = rgb(render.board(state, hints=True))
    for target in ("b2", "d2", "f2"):
        centre = render.centre("oska", target)
        assert pixel(plain, centre) == pixel(hinted, centre) == THEME.brick
    x, y = render.centre("oska", "c1")
    ring = colours_in(hinted, (x - STONE_RADIUS * 5 // 4, y - 1, x - STONE_RADIUS + 2, y + 1))
    assert THEME.hint in ring
    assert THEME.hint not in colours_in(plain, (x - STONE_RADIUS * 5 // 4, y - 1, x, y + 1))
    assert pixel(hinted, (x, y)) == THEME.blue  # the stone itself is not covered


def test_hints_read_the_move_after_a_removal() -> None:
    # capture=huff-opponent: Blue stepped g1-f2 when c3 could jump d4; Red's moves
    # start with the removal of c3 (`c3:d4-e3`): the hints are of the move after it.
    diagram = "5 r . . .\n4 b r .\n3 b .\n2 . . b\n1 . . . .\nRed to move\nRed removes one of: c3"
    state = oska.from_text(diagram, oska.SPEC.variant("capture=huff-opponent"))
    assert state.legal_moves() == ("c3:d4-c3", "c3:d4-e3", "c3:a5xc3")
    picked = rgb(render.board(state, selected="d4"))
    assert pixel(picked, render.centre("oska", "e3")) == THEME.hint
    assert pixel(picked, render.centre("oska", "d4")) == THEME.red


# ------------------------------------------------------------------- Lasca


def _lasca(diagram: str) -> lasca.LascaState:
    return lasca.from_text(dedent(diagram), lasca.SPEC.variant())


def _square_box(image: Image.Image, square: str) -> tuple[int, int, int, int]:
    x, y = render.centre("lasca", square)
    side = render.centre("lasca", "c1")[0] - render.centre("lasca", "a1")[0]
    half = side // 4  # two squares apart
    return (x - half + 1, y - half + 1, x + half - 1, y + half - 1)


STACKS = """
    .   .   .   .
      .   .   .
    .   .   .   .
      bbW  wwB  .
    .   .   .   .
      .   bwbwbwbw   .
    w   .   .   .
    Black to move
"""


def test_every_piece_of_a_column_shows_its_colour_and_an_officer_its_crown() -> None:
    image = rgb(render.board(_lasca(STACKS)))
    white_led = colours_in(image, _square_box(image, "b4"))  # bbW
    assert {THEME.white_officer_face, THEME.white_face, THEME.black_side} <= white_led
    assert THEME.black_officer_face not in white_led
    black_led = colours_in(image, _square_box(image, "d4"))  # wwB
    assert {THEME.black_officer_face, THEME.black_face, THEME.white_side} <= black_led
    assert THEME.white_officer_face not in black_led


def test_a_prisoner_officer_keeps_its_rank_mark_on_its_edge() -> None:
    image = rgb(render.board(_lasca(STACKS.replace("bbW", "Wbb"))))
    seen = colours_in(image, _square_box(image, "b4"))
    # W at the bottom: the red edge and the white stripe of White's officer.
    assert {THEME.white_officer_side, THEME.white_face} <= seen
    soldier = rgb(render.board(_lasca(STACKS.replace("bbW", "wbb"))))
    seen = colours_in(soldier, _square_box(soldier, "b4"))
    assert THEME.white_side in seen
    assert THEME.white_officer_side not in seen and THEME.white_face not in seen


def test_a_column_taller_than_drawn_carries_a_count_badge() -> None:
    image = rgb(render.board(_lasca(STACKS)))
    assert THEME.badge not in THEME.colours()[: THEME.colours().index(THEME.badge)]
    x, y = render.centre("lasca", "d2")  # bwbwbwbw: 8 pieces
    side = render.centre("lasca", "c1")[0] - render.centre("lasca", "a1")[0]
    corner = (x + side // 8, y + side // 8, x + side // 4 - 1, y + side // 4 - 1)
    assert THEME.badge in colours_in(image, corner)
    short = rgb(render.board(_lasca(STACKS.replace("bwbwbwbw", "bwbw"))))
    assert THEME.badge not in colours_in(short, corner)


def test_a_lasca_capture_marks_from_to_and_the_jumped_square() -> None:
    before = _lasca(
        """
        .   .   .   .
          .   .   .
        .   .   .   .
          .   .   .
        .   .   .   .
          b   .   .
        w   .   .   .
        White to move
        """
    )
    info = before.describe("a1xc3")
    after = before.play("a1xc3")
    image = rgb(render.board(after, last_move=info))
    assert pixel(image, render.centre("lasca", "a1")) == THEME.came_from_dark
    assert THEME.went_to in colours_in(image, _square_box(image, "c3"))
    assert pixel(image, render.centre("lasca", "b2")) == THEME.taken
    assert pixel(image, render.centre("lasca", "e1")) == THEME.dark_square


# ------------------------------------------------------------------- Oware


def _oware(diagram: str) -> oware.OwareState:
    return oware.from_text(dedent(diagram), oware.SPEC.variant())


def test_an_oware_pit_shows_seeds_and_an_empty_one_none() -> None:
    state = play("oware", "C")
    image = rgb(render.board(state))
    x, y = render.centre("oware", "D")
    assert THEME.seed in colours_in(image, (x - 12, y - 12, x + 12, y + 12))
    x, y = render.centre("oware", "C")
    assert THEME.seed not in colours_in(image, (x - 12, y - 12, x + 12, y + 12))


def test_the_sown_pit_is_ringed_and_the_captured_pits_crossed() -> None:
    before = _oware(
        """
        North  f  e  d  c  b  a     store 21
               1  0  0  0  1  1
               0  0  0  0  2  2
        South  A  B  C  D  E  F     store 20
        South to move
        """
    )
    info = before.describe("F")
    after = before.play("F")
    assert info.captured == ("a", "b")
    image = rgb(render.board(after, last_move=info))
    for pit in info.captured:
        assert pixel(image, render.centre("oware", pit)) == THEME.taken
    x, y = render.centre("oware", "F")
    assert near(THEME.went_to, colours_in(image, (x - 60, y - 1, x, y + 1)))
    other = render.centre("oware", "E")
    assert not near(THEME.went_to, colours_in(image, (other[0] - 60, other[1] - 1, *other)), 40)


def test_north_at_the_bottom_swaps_the_rows() -> None:
    south_view = render.centre("oware", "A")
    north_view = render.centre("oware", "A", perspective=Side.SECOND)
    assert south_view[1] > north_view[1]
    assert render.centre("oware", "a", perspective=Side.SECOND)[1] == south_view[1]


# -------------------------------------------------------------- the caption


def test_the_caption_names_the_player_to_move_and_the_last_move() -> None:
    spec = GAMES["oska"]
    state = play("oska", "a1-b2")
    words = caption(spec, OSKA, state, None, None, ("Ann", "Bo"))
    assert words.title == "Bo (Red) to move"
    assert words.move == "Move 1: Blue played a1-b2"
    assert words.side is Side.SECOND


def test_a_finished_game_shows_the_result_and_its_reason() -> None:
    state = random_state("oska", 1, 200)
    outcome = state.outcome()
    assert outcome is not None
    words = caption(GAMES["oska"], OSKA, state, None, outcome, None)
    assert words.finished
    reason = outcome_text(outcome, "oska")
    assert words.note == reason[:1].upper() + reason[1:]
    assert words.title in ("Draw", "Blue wins", "Red wins")


def test_an_outcome_from_outside_the_rules_overrides_the_engine() -> None:
    state = play("lasca", "c3-d4")
    resigned = Outcome(Side.FIRST, Termination.RESIGNATION, side=Side.SECOND)
    words = caption(GAMES["lasca"], LASCA, state, None, resigned, None)
    assert (words.title, words.note) == ("White wins", "Black resigned")
    image = rgb(render.board(state, outcome=resigned))
    hinted = rgb(render.board(state, outcome=resigned, hints=True))
    assert image.tobytes() == hinted.tobytes()  # no hints once the game is over


def test_a_resignation_names_the_side_that_resigned_and_the_winner() -> None:
    state = play("oska", "a1-b2")
    resigned = Outcome(Side.SECOND, Termination.RESIGNATION, side=Side.FIRST)
    words = caption(GAMES["oska"], OSKA, state, None, resigned, ("Ann", "Bo"))
    assert (words.title, words.note) == ("Bo (Red) wins", "Blue resigned")
    assert words.side is Side.SECOND and words.finished
    drawn = Outcome(None, Termination.AGREEMENT)
    words = caption(GAMES["oska"], OSKA, state, None, drawn, ("Ann", "Bo"))
    assert (words.title, words.note, words.side) == ("Draw", "Drawn by agreement", None)


def test_the_move_line_names_what_a_capture_took() -> None:
    state = next(
        candidate
        for seed in range(300)
        if "x" in (candidate := random_state("oska", seed, 12)).moves[-1]
        and "pass" not in candidate.moves
    )
    info = render.last_move_of(state)
    assert info is not None and info.captured
    mover = "Blue" if len(state.moves) % 2 else "Red"
    number = (len(state.moves) - 1) // 2 + 1
    words = caption(GAMES["oska"], OSKA, state, info, None, None)
    expected = f"Move {number}: {mover} played {info.text}, taking {info.captured[0]}"
    assert words.move == expected
    sown = GAMES["oware"].new()
    taken = MoveInfo("A", ("A",), ("b", "c", "d"))
    words = caption(GAMES["oware"], OWARE, sown.play("A"), taken, None, None)
    assert words.move == "Move 1: South played A, capturing b, c and d"


def test_squares_are_listed_as_a_sentence_lists_them() -> None:
    assert squares(("b4",)) == "b4"
    assert squares(("b4", "d4")) == "b4 and d4"
    assert squares(("b4", "d4", "f6")) == "b4, d4 and f6"


def test_a_pass_is_written_after_the_move_before_it() -> None:
    state = None
    for seed in range(300):
        candidate = random_state("oska", seed, 200)
        moves = candidate.moves
        if "pass" in moves and moves.index("pass") > 0:
            index = moves.index("pass")
            state = play("oska", *moves[: index + 1])
            break
    assert state is not None, "no random Oska game passed"
    info = render.last_move_of(state)
    assert info is not None and info.text == state.moves[-2]
    words = caption(GAMES["oska"], OSKA, state, info, None, None)
    assert words.move.endswith("had no move and passed")
    image = rgb(render.board(state))
    assert pixel(image, render.centre("oska", info.path[0])) == THEME.came_from


def test_the_caption_says_what_the_board_cannot_show() -> None:
    obliged = oware.from_text(
        dedent(
            """
            North  f  e  d  c  b  a     store 0
                   4  4  4  4  4  4
                   0  12 4  4  4  0
            South  A  B  C  D  E  F     store 0
            South to move
            South must play a pit with more than 11 seeds
            """
        ),
        oware.SPEC.variant("must-play-12=on"),
    )
    words = caption(GAMES["oware"], OWARE, obliged, None, None, None)
    assert words.note == "South must play a pit with more than 11 seeds"
    assert words.move == "A position set up, no move played yet"
    fresh = caption(GAMES["oware"], OWARE, GAMES["oware"].new("must-play-12=on"), None, None, None)
    assert (fresh.move, fresh.note) == ("New game", "Oware, must-play-12=on")


def test_every_caption_code_the_painters_use_has_its_words_and_none_is_left_over() -> None:
    from pathlib import Path

    import words
    from words.english.board import TEXTS

    root = Path(render.__file__).parent
    used = {
        code
        for path in root.rglob("*.py")
        for code in re.findall(r"\"(board\.[a-z0-9.-]+)\"", path.read_text())
    }
    assert used
    assert sorted(code for code in used if not words.has_text(code)) == []
    assert sorted(set(TEXTS) - used) == []


def test_names_the_font_cannot_draw_are_replaced_and_long_ones_fit() -> None:
    assert printable("Jiří 🐉") == "Jiří ?"
    state = GAMES["oware"].new()
    long_names = ("A" * 80, "Ωμέγα Жук 🦀🦀🦀")
    data = render.board(state, players=long_names)
    assert decode(data).size == render.image_size("oware")


# ------------------------------------------------------- every game renders


@pytest.mark.parametrize("game", list(GAMES))
def test_every_variant_renders_its_start_and_random_positions(game: str) -> None:
    spec = GAMES[game]
    for number, variant in enumerate(spec.all_variants()):
        start = spec.start(variant)
        decode(render.board(start))
        rng = random.Random(number)
        state = start
        while (legal := state.legal_moves()) and len(state.moves) < 300:
            state = state.play(rng.choice(legal))
            if rng.random() < 0.08:
                perspective = rng.choice(list(Side))
                size = rng.choice([640, 320])
                image = decode(render.board(state, hints=True, perspective=perspective, size=size))
                assert image.size == render.image_size(game, size=size, perspective=perspective)
        decode(render.board(state, perspective=Side.SECOND))


def test_render_imports_only_pillow_games_words_and_the_standard_library() -> None:
    import ast
    import sys
    from pathlib import Path

    root = Path(render.__file__).parent
    allowed = {"PIL", "games", "render", "words", "__future__"}
    offenders = []
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top not in allowed and top not in sys.stdlib_module_names:
                    offenders.append(f"{path.name}: {name}")
    assert offenders == []
