"""The computer opponent, thinking in a process pool so the event loop never waits.

`PooledPicker` is the `matches.MovePicker` the service calls on the bot's
turn: it sends plain values (game, variant, moves, level) to `think` in a
worker process and awaits the move. `think` is the one function that knows
where the AI lives (`games.ai.player.play_move`); every registered game has an
adapter there (checked at start-up, `games.ai.check_games`). A worker that
dies is replaced, and the move of that turn falls back to a random legal one,
so a game is never left waiting.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Protocol

from games.ai.player import play_move, warm_up
from games.base import GameState

log = logging.getLogger(__name__)


def think(game: str, variant: str, moves: Sequence[str], level: str, seed: int | None) -> str:
    """A move for the player to move, from plain values: what a worker process runs."""
    return play_move(game, variant, moves, level, None, seed)


def _worker_start(parent: int) -> None:
    """In each worker: leave when the bot is gone (even SIGKILLed), then load the tables."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="watch-the-bot", daemon=True).start()
    warm_up()


class Opponent(Protocol):
    """A `matches.MovePicker` with a life: started when the bot is ready, closed at the end."""

    async def pick(self, state: GameState, level: str) -> str: ...

    async def start(self) -> None: ...

    def close(self) -> None: ...


class PooledPicker:
    """A `MovePicker` that runs `think` in a pool of worker processes."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._random = random.Random()

    @property
    def pool(self) -> Executor:
        if self._pool is None:
            # spawn, not fork: the parent has threads (aiosqlite) that a fork would copy mid-flight.
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=context,
                initializer=_worker_start,
                initargs=(os.getpid(),),
            )
        return self._pool

    async def start(self) -> None:
        """Start the workers now (they load the Oska tables), so the first move does not wait."""
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self.pool, warm_up)

    async def pick(self, state: GameState, level: str) -> str:
        args = (
            state.spec.name,
            str(state.variant),
            state.moves,
            level,
            self._random.getrandbits(32),
        )
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.pool, think, *args)
        except BrokenProcessPool:
            log.exception("the AI worker died; starting a new one, and playing at random this turn")
            self.close()
        except Exception:
            log.exception(
                "the AI failed in game %s after %d moves; playing at random",
                *args[:1],
                len(state.moves),
            )
        return self._random.choice(state.legal_moves())

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
