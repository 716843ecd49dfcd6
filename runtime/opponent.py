"""The computer opponent, thinking in a process pool so the event loop never waits.

`PooledPicker` is the `matches.MovePicker` the service calls on the bot's
turn: it sends plain values (game, variant, moves, level) to `think` in a
worker process and awaits the move. `think` is the one function that knows
where the AI lives (`games.ai.player.play_move`); every registered game has an
adapter there (checked at start-up, `games.ai.check_games`).

The moves go through a `runtime.ai_queue.FairQueue`: one move per game in a
worker at a time, the game that asked longest ago first, and deferred jobs
(`submit_deferred`, for post-game reviews) only when no move waits. A move is
tagged with its game by `thinking_for(game_id)` around the call (the asking
task when no game is given). The workers run at a lower CPU priority
(`WORKER_NICENESS`) than the bot, so a move typed by a player is answered
while Kamen thinks, and give the memory a search freed back to the system
(`malloc_trim` after each job). A worker that dies is replaced, and the move
of that turn falls back to a random legal one, so a game is never left waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextvars import ContextVar
from typing import Any, Protocol, TypeVar

from games.ai.player import play_move, warm_up
from games.base import GameState
from runtime.ai_queue import FairQueue

log = logging.getLogger(__name__)

T = TypeVar("T")

# Added to a worker's niceness: 10 gives it about a tenth of the CPU weight of the bot's event
# loop (nice 0) when both want the same core; with a core free it still runs at full speed.
WORKER_NICENESS = 10

_GAME: ContextVar[Hashable | None] = ContextVar("kamen_ai_game", default=None)


@contextlib.contextmanager
def thinking_for(game: Hashable) -> Iterator[None]:
    """Tag the moves asked inside (in this task) with their game, for the fair queue."""
    token = _GAME.set(game)
    try:
        yield
    finally:
        _GAME.reset(token)


def think(game: str, variant: str, moves: Sequence[str], level: str, seed: int | None) -> str:
    """A move for the player to move, from plain values: what a worker process runs."""
    return play_move(game, variant, moves, level, None, seed)


def _trimming(fn: Callable[..., T], *args: Any) -> T:
    """In a worker: `fn(*args)`, then the memory its search freed goes back to the system
    (glibc keeps freed blocks for reuse otherwise; a search's tables are tens of MiB)."""
    try:
        return fn(*args)
    finally:
        _release_memory()


def _release_memory() -> None:
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.malloc_trim(0)  # about 0.2 ms
    except (OSError, AttributeError):  # not glibc (musl, macOS): nothing to do
        pass


def _worker_start(parent: int) -> None:
    """In each worker: yield the CPU to the bot, leave when the bot is gone (even SIGKILLed),
    then load the tables."""
    os.nice(WORKER_NICENESS)  # before the watcher: Linux keeps a niceness per thread

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="watch-the-bot", daemon=True).start()
    warm_up()


class Opponent(Protocol):
    """A `matches.MovePicker` with a life: started when the bot is ready, closed at the end;
    it also runs deferred work (reviews) in its workers when no move waits."""

    async def pick(self, state: GameState, level: str) -> str: ...

    async def start(self) -> None: ...

    async def submit_deferred(self, fn: Callable[..., T], *args: Any) -> T: ...

    def close(self) -> None: ...


class PooledPicker:
    """A `MovePicker` that runs `think` in a pool of worker processes, through a fair queue."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self.queue = FairQueue(self._new_pool, workers)
        self._random = random.Random()

    def _new_pool(self) -> ProcessPoolExecutor:
        # spawn, not fork: the parent has threads (aiosqlite) that a fork would copy mid-flight.
        context = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(
            self.workers,
            mp_context=context,
            initializer=_worker_start,
            initargs=(os.getpid(),),
        )

    async def start(self) -> None:
        """Start every worker now (each loads the Oska tables), so the first move does not wait.
        Once: later calls return at once while the pool is up."""
        if self.queue.started:
            return
        # One job per worker at once: the pool starts a process for each (none is idle yet).
        await asyncio.gather(
            *(self.queue.submit(("warm-up", index), warm_up) for index in range(self.workers))
        )

    async def pick(self, state: GameState, level: str) -> str:
        args = (
            state.spec.name,
            str(state.variant),
            state.moves,
            level,
            self._random.getrandbits(32),
        )
        key = _GAME.get()
        if key is None:
            key = ("task", id(asyncio.current_task()))
        try:
            return await self.queue.submit(key, _trimming, think, *args)
        except BrokenProcessPool:
            log.exception("the AI worker died; starting a new one, and playing at random this turn")
        except Exception:
            log.exception(
                "the AI failed in game %s after %d moves; playing at random",
                *args[:1],
                len(state.moves),
            )
        return self._random.choice(state.legal_moves())

    async def submit_deferred(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a worker once no move waits (`fn` must be importable: a module's
        function); its errors, and `BrokenProcessPool` if the worker dies, reach the caller."""
        return await self.queue.submit_deferred(_trimming, fn, *args)

    def close(self) -> None:
        self.queue.close()
