"""Replay GIFs and the demo set: a frame per move, each showing what `board` shows."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from PIL import Image, ImageChops

import render
from games import oska
from games.base import GameState, Outcome, Side, Termination
from games.record import record_of
from games.registry import GAMES
from render.__main__ import main
from render.gif import FIRST_MS, LAST_MS


def sixty_moves(game: str) -> GameState:
    """The first 60 moves of the first seeded random game that lasts that long."""
    for seed in range(100):
        state = random_game(game, seed, 60)
        if len(state.moves) == 60:
            return state
    raise LookupError(f"no random {game} game lasted 60 moves")


def random_game(game: str, seed: int, plies: int) -> GameState:
    rng = random.Random(seed)
    state = GAMES[game].new()
    while (legal := state.legal_moves()) and len(state.moves) < plies:
        state = state.play(rng.choice(legal))
    return state


def frames(data: bytes) -> list[Image.Image]:
    """Every frame as a viewer shows it (Pillow composes the partial frames)."""
    gif = Image.open(io.BytesIO(data))
    out = []
    for index in range(getattr(gif, "n_frames", 1)):
        gif.seek(index)
        out.append(gif.convert("RGB"))
    return out


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


@pytest.mark.parametrize("game", list(GAMES))
def test_a_replay_has_the_start_and_one_frame_per_move_each_as_board_draws_it(game: str) -> None:
    state = random_game(game, 7, 60)
    data = render.replay(state, size=320)
    shown = frames(data)
    assert len(shown) == len(state.moves) + 1
    position = GAMES[game].start(state.variant)
    expected = [render.frame(position, size=320).convert("RGB")]
    for move in state.moves:
        info = position.describe(move)
        position = position.play(move)
        last = info if info.path else render.last_move_of(position)
        expected.append(render.frame(position, last_move=last, size=320).convert("RGB"))
    for index in (0, 1, len(shown) // 2, len(shown) - 1):
        assert same(shown[index], expected[index]), f"frame {index} differs"


def test_frames_differ_where_the_move_was_played() -> None:
    state = GAMES["oska"].new().play("a1-b2")
    first, second = frames(render.replay(state))
    x, y = render.centre("oska", "b2")
    assert first.getpixel((x, y)) != second.getpixel((x, y))


def test_a_sixty_move_replay_stays_under_two_mebibytes() -> None:
    for game in ("lasca", "oware"):
        state = sixty_moves(game)
        data = render.replay(state)
        assert len(data) <= 2 * 1024 * 1024
        assert Image.open(io.BytesIO(data)).size == render.image_size(game)


def test_the_first_and_last_frames_are_held_longer() -> None:
    state = random_game("oska", 3, 6)
    gif = Image.open(io.BytesIO(render.replay(state, frame_ms=500)))
    durations = []
    for index in range(getattr(gif, "n_frames", 1)):
        gif.seek(index)
        durations.append(gif.info["duration"])
    assert durations[0] == FIRST_MS
    assert durations[-1] == LAST_MS
    assert set(durations[1:-1]) == {500}


def test_a_record_replays_with_its_players_and_an_outcome_on_the_last_frame() -> None:
    state = random_game("oska", 5, 8)
    record = record_of(GAMES["oska"], state, first="Ann", second="Bob")
    resigned = Outcome(Side.SECOND, Termination.RESIGNATION, side=Side.FIRST)
    shown = frames(render.replay(record, outcome=resigned))
    expected = render.frame(state, players=("Ann", "Bob"), outcome=resigned).convert("RGB")
    assert same(shown[-1], expected)
    unnamed = render.frame(state, outcome=resigned).convert("RGB")
    assert not same(shown[-1], unnamed)


def test_a_position_set_up_from_text_replays_as_one_frame() -> None:
    state = oska.from_text(
        "5 r . . r\n4 . . .\n3 . .\n2 . . .\n1 b . . b\nBlue to move", oska.SPEC.variant()
    )
    shown = frames(render.replay(state))
    assert len(shown) == 1
    assert same(shown[0], render.frame(state).convert("RGB"))


def test_the_demo_writes_every_image_a_player_should_see(tmp_path: Path) -> None:
    assert main(["demo", str(tmp_path)]) == 0
    pngs = sorted(tmp_path.glob("*.png"))
    gifs = sorted(tmp_path.glob("*.gif"))
    for game in GAMES:
        assert any(path.name.startswith(f"{game}-1-start") for path in pngs)
        assert any(path.name.startswith(game) and "end" in path.name for path in pngs)
        assert any(path.name.startswith(game) for path in gifs)
    for path in [*pngs, *gifs]:
        image = Image.open(path)
        assert max(image.size) <= 640
        assert path.stat().st_size <= (40 if path.suffix == ".png" else 2048) * 1024
