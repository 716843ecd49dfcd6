"""Oware's search kernel in C: the same moves, order, positions and values as the Python."""

from __future__ import annotations

import random
import shutil

import pytest

from games import oware as engine
from games.ai import oware_eval, oware_kernel
from games.ai.oware_game import OwarePos

Pits = tuple[int, ...]


def _position(rng: random.Random) -> tuple[Pits, tuple[int, int]]:
    """48 seeds dealt at random: stores up to 24 each (now and then only a few
    seeds left on the board), the rest in the pits, now and then heaped (a
    kroo), mostly on one row (feeding), in 1s and 2s (captures) or North's in a
    run of them (a grand slam)."""
    if rng.random() < 0.3:  # an endgame: a few seeds left, starving is near
        south = rng.randint(16, 24)
        stores = (south, rng.randint(max(0, 40 - south), min(24, 47 - south)))
    else:
        stores = (rng.randint(0, 24), rng.randint(0, 24))
    pits = [0] * 12
    left = 48 - sum(stores)
    style = rng.randrange(5)
    if style == 4:  # North holds only a run of 1s and 2s from a: a grand slam is near
        for pit in range(6, 6 + rng.randint(1, 6)):
            pits[pit] = min(left, rng.randint(1, 2))
            left -= pits[pit]
    while left:
        if style == 0:
            pit = rng.randrange(12)
        elif style == 1:
            pit = rng.choice((rng.randrange(12), rng.randrange(6)))  # South heaps
        elif style == 2:
            pit = rng.randrange(6, 12) if rng.random() < 0.9 else rng.randrange(6)
        elif style == 4:
            pit = rng.randrange(6)
        else:
            pit = rng.randrange(12)
            if pits[pit] >= 2 and rng.random() < 0.8:
                continue
        pits[pit] += 1
        left -= 1
    return tuple(pits), stores


def test_the_kernel_is_built_where_a_c_compiler_is() -> None:
    assert shutil.which("cc") or shutil.which("gcc"), "this test needs a C compiler"
    assert oware_kernel.COMPILED


@pytest.mark.parametrize("grandslam", [engine.FORBIDDEN, engine.NOCAPTURE, engine.OPPONENT_TAKES])
def test_moves_order_and_play_are_the_pythons(grandslam: int) -> None:
    rng = random.Random(grandslam)
    seen = {"slam": 0, "obliged": 0, "starved": 0, "capture": 0}
    for _ in range(6000):
        pits, stores = _position(rng)
        side = rng.randrange(2)
        for must in (False, True):
            obliged = (rng.random() < 0.5, rng.random() < 0.5)
            flag = must and obliged[side]
            forbid = grandslam == engine.FORBIDDEN
            moves = oware_kernel.legal(pits, side, flag, forbid)
            own = [m for m in range(6 * side, 6 * side + 6) if pits[m]]
            seen["slam"] += any(engine.would_grand_slam(pits, m) for m in own)
            assert moves == oware_kernel.python_legal(pits, side, flag, forbid), (pits, side)
            assert oware_kernel.by_capture(pits, moves) == oware_kernel.python_by_capture(
                pits, moves
            )
            assert oware_kernel.capturing(pits, moves) == oware_kernel.python_capturing(pits, moves)
            for move in moves:
                args = (pits, stores, side, move, grandslam, must, obliged)
                played = oware_kernel.play(*args)
                assert played == oware_kernel.python_play(*args), args
                seen["obliged"] += played[3] != obliged
                seen["starved"] += played[4] != 0
                seen["capture"] += played[2]
    assert all(count > 50 for count in seen.values()), seen  # every rule was met


def test_the_evaluation_is_pythons() -> None:
    rng = random.Random(11)
    for _ in range(5000):
        pits, stores = _position(rng)
        pos = OwarePos(pits, stores, rng.randrange(2), (False, False), (), 0)
        assert oware_eval.evaluate(pos) == oware_eval.python_evaluate(pos), pits


def test_bad_pits_are_refused_not_crashed_on() -> None:
    start = (4,) * 12
    with pytest.raises(TypeError):
        oware_kernel.legal(start[:11], 0, False, True)
    with pytest.raises(ValueError):
        oware_kernel.legal((*start[:11], 49), 0, False, True)
    with pytest.raises(ValueError):
        oware_kernel.play(start, (0, 0), 0, 7, 0, False, (False, False))  # North's pit
    with pytest.raises(ValueError):
        oware_kernel.play((0,) * 12, (24, 24), 0, 2, 0, False, (False, False))  # empty pit
    with pytest.raises(ValueError):
        oware_kernel.by_capture(start, [0, 1, 2, 3, 4, 5, 0])
