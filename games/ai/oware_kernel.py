"""Oware's search kernel: legal moves, their order, a move and the evaluation, in C where built.

Where built, the kernel also searches: `think` is the timed search of `hard`
and `max` (search.py's, in C: oware_kernel.c with timed_search.h), used by
oware_game.OwareGame.think; None where the kernel was not built (then
search.py searches with the functions here).

`games/ai/oware_kernel.c` does what the Python functions here do, with the
same results, several times faster. pip compiles it into `_oware_kernel` when
it installs Kamen where a C compiler is at hand; where none is, `COMPILED` is
False and the search (oware_game.py, oware_eval.py) uses the Python ones,
which replay the engine's own sowing, capture and feeding helpers
(`games.oware`). The tests compare the two on the positions of random games
of every variant.

Pits are 12 counts in sowing order (South's A-F, then North's a-f), stores a
pair, sides 0 (South) and 1 (North).
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Callable, Sequence

from games import oware as engine

Pits = tuple[int, ...]
Played = tuple[Pits, tuple[int, int], bool, tuple[bool, bool], int]

try:
    from games.ai import _oware_kernel as _compiled
except ImportError:  # built without a C compiler
    _compiled = None  # type: ignore[assignment]

COMPILED = _compiled is not None


def python_legal(pits: Pits, side: int, obliged: bool, forbid_slam: bool) -> list[int]:
    """The pits `side` may play, in pit order: feeding the opponent first, then
    a pit of more than 11 when `obliged` (must-play-12), then no grand slam when
    `forbid_slam`, each rule only while some move keeps to it."""
    base = 6 * side
    moves = [i for i in range(base, base + 6) if pits[i]]
    if not moves:
        return []
    start = 6 - base
    if not any(pits[start : start + 6]):
        need = engine.NEED
        moves = [i for i in moves if pits[i] >= need[i]]
        if not moves:
            return []
    if obliged:
        moves = [i for i in moves if pits[i] > 11] or moves
    if forbid_slam:
        slam = engine.would_grand_slam
        moves = [i for i in moves if not slam(pits, i)] or moves
    return moves


def capture_hint(pits: Pits, origin: int) -> int:
    """The seeds the last seed's pit will hold if the move captures there
    (2 or 3), else 0: a cheap first guess at a move's capture, for ordering."""
    n = pits[origin]
    last = engine.LAST[origin][n]
    if (last < 6) == (origin < 6):
        return 0
    after = pits[last] + engine.DELTA[origin][n][last]
    return after if after in (2, 3) else 0


def python_by_capture(pits: Pits, moves: Sequence[int]) -> list[int]:
    """The moves, those whose hint captures more first, else in their order."""
    return sorted(moves, key=lambda m: capture_hint(pits, m), reverse=True)


def python_capturing(pits: Pits, moves: Sequence[int]) -> list[int]:
    """The moves whose last seed captures, by the hint, in their order."""
    return [m for m in moves if capture_hint(pits, m)]


def python_play(
    pits: Pits,
    stores: tuple[int, int],
    side: int,
    origin: int,
    grandslam: int,
    must_play_12: bool,
    obliged: tuple[bool, bool],
) -> Played:
    """`side` plays `origin`: the pits and stores after it, whether it
    captured, the must-play-12 obligations after it, and whether the next
    player is starved (the engine's `starved`: 0, NO_SEEDS or CANNOT_FEED)."""
    new, low, high = engine.sow(pits, origin)
    takes = False
    if engine.is_grand_slam(new, low, high):
        if grandslam != engine.OPPONENT_TAKES:
            low = high = 0
        else:
            takes = True
    if high:
        stores = engine.capture(new, stores, side, low, high, takes)
    if must_play_12:
        grew = [before <= 11 < now for before, now in zip(pits, new, strict=True)]
        if side:
            obliged = (obliged[0] or any(grew[:6]), any(grew[6:]))
        else:
            obliged = (any(grew[:6]), obliged[1] or any(grew[6:]))
    after = tuple(new)
    return after, stores, bool(high), obliged, engine.starved(after, side)


legal: Callable[[Pits, int, bool, bool], list[int]]
by_capture: Callable[[Pits, Sequence[int]], list[int]]
capturing: Callable[[Pits, Sequence[int]], list[int]]
play: Callable[[Pits, tuple[int, int], int, int, int, bool, tuple[bool, bool]], Played]
if _compiled is not None:
    legal, by_capture, capturing = _compiled.legal, _compiled.by_capture, _compiled.capturing
    play = _compiled.play
else:
    legal, by_capture, capturing = python_legal, python_by_capture, python_capturing
    play = python_play


Think = Callable[..., tuple[int, int, int, int]]
think: Think | None = None if _compiled is None else _compiled.think
"""The timed search in C (oware_kernel.c, `think`), None when the kernel was not built."""


def compiled_evaluation(
    weights: tuple[int, ...],
) -> Callable[[Pits, tuple[int, int], int], int] | None:
    """The C evaluation with oware_eval's weights (store, row seed, target,
    playable, kroo, tempo): pits, stores and the side to move to its score;
    None when the kernel was not built."""
    if _compiled is None:
        return None
    return functools.partial(_compiled.evaluate, struct.pack(f"{len(weights)}q", *weights))
