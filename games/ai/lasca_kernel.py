"""Lasca's search kernel: the move generator and the board evaluation, in C where built.

`games/ai/lasca_kernel.c` is the engine's `generate` and `apply` (games/lasca.py)
and lasca_eval's board evaluation over the same bare boards, with the same
results in the same order: the generator about 6 times faster, the evaluation
about 20 (0.6 against 4.1 and 12.8 microseconds a board). pip compiles it into
`_lasca_kernel` when it installs Kamen where a C compiler is at hand; where
none is, this module gives the engine's own functions and `COMPILED` is
False: the same rules and values, only slower (a search sees less in its
time). The search (lasca_game.py) calls only what is here. The tests
compare the two on the positions of random games of both variants.

Where built, the kernel also searches: `think` is the timed search of `hard`
and `max` (search.py's, in C: lasca_kernel.c with timed_search.h), used by
lasca_game.LascaGame.think; None where the kernel was not built (then
search.py searches with the functions here).

Sides are 0 (White) and 1 (Black), as in the search's positions.
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Callable

from games import lasca as engine

MoveData = engine.MoveData
Board = tuple[str, ...]

try:
    from games.ai import _lasca_kernel as _compiled
except ImportError:  # built without a C compiler
    _compiled = None  # type: ignore[assignment]

COMPILED = _compiled is not None


def python_generate(board: Board, side: int, continues: bool) -> dict[str, MoveData]:
    """Every legal move of `side`, canonical text to move data (the engine's)."""
    return engine.generate(board, engine.OTHER[1 - side], continues)


def python_apply(board: Board, side: int, data: MoveData) -> tuple[Board, bool]:
    """The board after `side`'s move and whether it was irreversible (the engine's)."""
    return engine.apply(board, engine.OTHER[1 - side], data)


generate: Callable[[Board, int, bool], dict[str, MoveData]]
apply: Callable[[Board, int, MoveData], tuple[Board, bool]]
if _compiled is not None:
    generate, apply = _compiled.generate, _compiled.apply
else:
    generate, apply = python_generate, python_apply


Think = Callable[..., tuple[int, int, int, int]]
think: Think | None = None if _compiled is None else _compiled.think
"""The timed search in C (lasca_kernel.c, `think`), None when the kernel was not built."""


def compiled_evaluation(weights: tuple[int, ...]) -> Callable[[Board, int], int] | None:
    """The C board evaluation for the values of a `lasca_eval.Weights`, in the
    order of its fields; None when the kernel was not built."""
    if _compiled is None:
        return None
    return functools.partial(_compiled.evaluate, struct.pack(f"{len(weights)}q", *weights))
