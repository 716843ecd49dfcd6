"""Replay GIFs last about 30 seconds at most, whatever the game's length.

A short game keeps its pace (`FRAME_MS` a move); a long one plays faster, never
under a delay viewers honour; a very long one skips moves evenly. The start,
and the last move with the final position, keep their hold. Durations are
read back from the GIF, as a viewer reads them.
"""

from __future__ import annotations

import io
import random
from itertools import pairwise

import pytest
from PIL import Image, ImageChops

import render
import render.gif as gif
from games.base import GameState
from games.registry import GAMES
from render.gif import FASTEST_MS, FIRST_MS, FRAME_MS, HONOURED_MS, LAST_MS, LONGEST_MS, timing


def random_game(game: str, seed: int, plies: int) -> GameState:
    rng = random.Random(seed)
    state = GAMES[game].new()
    while (legal := state.legal_moves()) and len(state.moves) < plies:
        state = state.play(rng.choice(legal))
    return state


def long_oware(plies: int = 150) -> GameState:
    """The first `plies` moves of the first seeded random Oware game that lasts that long."""
    for seed in range(100):
        state = random_game("oware", seed, plies)
        if len(state.moves) == plies:
            return state
    raise LookupError(f"no random Oware game lasted {plies} moves")


def shown(data: bytes) -> tuple[list[int], list[Image.Image]]:
    """Each frame's delay in ms and its picture, as a viewer shows them."""
    image = Image.open(io.BytesIO(data))
    durations, frames = [], []
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        durations.append(int(image.info["duration"]))
        frames.append(image.convert("RGB"))
    return durations, frames


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


def test_a_150_move_oware_replay_lasts_at_most_30_seconds_and_shows_every_move() -> None:
    state = long_oware(150)
    durations, frames = shown(render.replay(state, size=320))
    assert sum(durations) <= LONGEST_MS
    assert len(frames) == len(state.moves) + 1  # fast enough without skipping a move
    assert durations[0] == FIRST_MS and durations[-1] == LAST_MS
    assert all(FASTEST_MS <= delay < FRAME_MS for delay in durations[1:-1])
    assert same(frames[-1], render.frame(state, size=320).convert("RGB"))
    start = GAMES["oware"].new()
    assert same(frames[0], render.frame(start, size=320).convert("RGB"))


def test_a_short_game_keeps_its_pace() -> None:
    state = random_game("oska", 3, 12)
    durations, frames = shown(render.replay(state, size=320))
    assert len(frames) == len(state.moves) + 1
    assert durations == [FIRST_MS, *[FRAME_MS] * (len(state.moves) - 1), LAST_MS]
    slow = shown(render.replay(state, size=320, frame_ms=2000))[0]
    assert slow[1:-1] == [2000] * (len(state.moves) - 1)  # the caller's pace, still under 30 s


def test_a_very_long_game_skips_moves_evenly_and_keeps_its_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A 10-second cap makes a 60-move game "very long": 45 of its 59 middle moves fit.
    monkeypatch.setattr(gif, "LONGEST_MS", 10_000)
    state = long_oware(60)
    durations, frames = shown(render.replay(state, size=320))
    assert sum(durations) <= 10_000
    assert len(frames) == 1 + (10_000 - FIRST_MS - LAST_MS) // FASTEST_MS + 1
    assert durations[0] == FIRST_MS and durations[-1] == LAST_MS
    assert set(durations[1:-1]) == {FASTEST_MS}
    start = GAMES["oware"].new()
    assert same(frames[0], render.frame(start, size=320).convert("RGB"))
    before_last = GAMES["oware"].replay(state.variant, state.moves[:-1])
    last_move = before_last.describe(state.moves[-1])
    ending = render.frame(state, last_move=last_move, size=320).convert("RGB")
    assert same(frames[-1], ending)  # the last move is the one highlighted at the end


@pytest.mark.parametrize("positions", [1, 2, 3, 20, 29, 30, 61, 151, 248, 400, 5000])
def test_the_timing_of_any_length_fits_and_spreads_the_moves_shown(positions: int) -> None:
    frames, durations = timing(positions)
    assert frames[0] == 0 and frames[-1] == positions - 1
    assert frames == sorted(set(frames))
    assert sum(durations) <= LONGEST_MS
    assert durations[-1] == LAST_MS
    assert all(delay % 10 == 0 and delay >= FASTEST_MS for delay in durations)
    gaps = [b - a for a, b in pairwise(frames[1:-1])]
    assert not gaps or max(gaps) - min(gaps) <= 1  # moves kept at even steps


def test_no_delay_is_ever_under_what_viewers_honour() -> None:
    for positions in (5, 100, 1000):
        _, durations = timing(positions, frame_ms=1)
        assert min(durations) >= HONOURED_MS
    state = random_game("oska", 3, 8)
    assert min(shown(render.replay(state, size=320, frame_ms=5))[0]) >= HONOURED_MS
