"""The pictures the bot sends: a board after each move, a replay GIF on request.

A board PNG costs about 2 ms of CPU (render's budget is 5 ms), most of it in
Pillow's C code (patches pasted, zlib), which lets go of the interpreter: so it
is drawn in a thread of `RENDERING` (`drawn`), and the event loop goes on
answering other servers meanwhile, on the machine's other core. Measured: a
thread drawing boards without pause leaves a busy Python loop 82 % of its
speed. A thread rather than a process: no process more of memory, no pipe for
the state and the bytes, and render's caches shared. A replay GIF of a
60-move game takes about 0.25 s to build: it is built in a worker thread
from the game's state and outcome (values that pickle, should the pool
become one of processes). Measured on the 2-core machine while a 60-move GIF
is built, the event loop's lag is 4 ms at the 99th percentile and 8 ms at
most, the same in a thread as with a process pool (which costs a process
more of memory and the GIF's bytes through a pipe); `replay_of` takes any
executor, should that change. The result drawn is the service's
(`view.outcome`); no reason is worded here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from functools import partial
from typing import TypeVar

import render
from games.base import GameState, MoveInfo, Outcome, Side
from matches import GameView
from matches.live_clocks import LiveClock, clock_text

BOARD_SIZE = 640
# The threads that draw boards: two, for the machine's cores; render's caches are shared.
RENDERING = ThreadPoolExecutor(max_workers=2, thread_name_prefix="kamen-render")
T = TypeVar("T")


async def drawn(draw: Callable[[], T]) -> T:
    """`draw()` (a board, a chart) in a thread of `RENDERING`, off the event loop."""
    return await asyncio.get_running_loop().run_in_executor(RENDERING, draw)


def board_png(
    state: GameState,
    *,
    last_move: MoveInfo | None = None,
    players: tuple[str, str] | None = None,
    outcome: Outcome | None = None,
    locale: str | None = None,
    clock: LiveClock | None = None,
    hints: bool = False,
    selected: str | None = None,
    perspective: Side = Side.FIRST,
) -> bytes:
    """The board of `state` as a PNG, the last move highlighted, worded in `locale`; a live
    clock's times shown on it; `perspective` is the side at the bottom."""
    return render.board(
        state,
        last_move=last_move,
        hints=hints,
        selected=selected,
        perspective=perspective,
        size=BOARD_SIZE,
        players=players,
        outcome=outcome,
        locale=locale,
        clocks=None if clock is None else (clock_text(clock.left[0]), clock_text(clock.left[1])),
    )


def board_alt(
    state: GameState,
    *,
    players: tuple[str, str] | None = None,
    outcome: Outcome | None = None,
    locale: str | None = None,
) -> str:
    """The board image's alt text: the position in words, for a screen reader."""
    return render.describe(state, locale=locale, players=players, outcome=outcome)


def replay_gif(
    state: GameState,
    players: tuple[str, str] | None,
    outcome: Outcome | None,
    locale: str | None = None,
) -> bytes:
    """A GIF of a whole game (its moves replayed from the start): what a worker runs."""
    return render.replay(state, size=BOARD_SIZE, players=players, outcome=outcome, locale=locale)


async def replay_of(
    view: GameView,
    players: tuple[str, str] | None,
    pool: Executor | None,
    *,
    locale: str | None = None,
) -> bytes:
    """The replay GIF of a game, built off the event loop (in `pool`, else a thread).

    The outcome is the service's (`view.outcome`): the engine's for a game ended by
    the rules, else the resignation, the agreement or the loss on time. The frames
    are worded in `locale` (English when None).
    """
    loop = asyncio.get_running_loop()
    build = partial(replay_gif, view.state, players, view.outcome, locale)
    return await loop.run_in_executor(pool, build)
