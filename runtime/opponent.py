"""The computer opponent, thinking in a process pool so the event loop never waits.

`PooledPicker` is the `matches.MovePicker` the service calls on the bot's
turn: it sends plain values (game, variant, moves, level) to `think` in a
worker process and awaits the move. `think` is the one function that knows
where the AI lives (`games.ai.player.play_move`); every registered game has an
adapter there (checked at start-up, `games.ai.check_games`).

A move that needs no thinking (the only legal one, a table's answer: Oska,
Oware's settled endgames; or a level that searches two plies) is found in a
thread of the bot's own process at once (`games.ai.player.instant_move`), so it
never waits behind another game's search. The other moves go through a
`runtime.ai_queue.FairQueue`: one move per game in a
worker at a time, the game that asked longest ago first, and deferred jobs
(`submit_deferred`, for post-game reviews) only when no move waits. A move is
tagged with its game by `thinking_for(game_id)` around the call (the asking
task when no game is given). The workers run at a lower CPU priority
(`WORKER_NICENESS`) than the bot, so a move typed by a player is answered
while Kamen thinks, and give the memory a search freed back to the system
(`malloc_trim` after each job). A worker that dies is replaced, and the move
of that turn falls back to a random legal one, so a game is never left waiting.

Pondering: after Kamen's move at `hard` or `max` in Oware or Lasca
(`games.ai.ponder.wanted`), when no move waits, the picker asks the queue for
a ponder of the position after that move (`consider` in a worker, the
queue's lowest lane), which fills the worker's transposition table on the
player's time, for at most `ponder_seconds` (default: the level's budget
times five). The pool's workers get one stop signal (a spawn-context Event,
through the initializer): the queue clears it when a ponder starts and sets
it when anything else is asked, so a move waits a few milliseconds for a
ponder, not its whole time. With one worker (the default) Kamen's next move
in that game runs in the process that pondered it; with N workers the pool
gives it to whichever worker is free (no routing by game), so the warm table
is found about once in N, or less.
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

from games.ai import ponder
from games.ai.player import instant_move, play_move, warm_up
from games.ai.ponder import PonderReport, StopSignal
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


def consider(
    game: str, variant: str, moves: Sequence[str], level: str, seconds: float
) -> PonderReport:
    """Ponder the position after `moves` (the player to move): what a worker runs on the
    player's time."""
    return ponder.ponder(game, variant, moves, level, seconds)


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


def _worker_start(parent: int, stop: StopSignal | None = None) -> None:
    """In each worker: yield the CPU to the bot, leave when the bot is gone (even SIGKILLed),
    take the ponders' stop signal, then load the tables."""
    os.nice(WORKER_NICENESS)  # before the watcher: Linux keeps a niceness per thread

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="watch-the-bot", daemon=True).start()
    ponder.install(stop)
    warm_up()


class Opponent(Protocol):
    """A `matches.MovePicker` with a life: started when the bot is ready, closed at the end;
    it also runs deferred work (reviews) in its workers when no move waits."""

    async def pick(self, state: GameState, level: str) -> str: ...

    async def start(self) -> None: ...

    async def submit_deferred(self, fn: Callable[..., T], *args: Any) -> T: ...

    def close(self) -> None: ...


class PooledPicker:
    """A `MovePicker` that runs `think` in a pool of worker processes, through a fair queue,
    and ponders on the players' time (`ponder_seconds`: None for the level's default,
    0 for none)."""

    def __init__(self, workers: int = 1, *, ponder_seconds: float | None = None) -> None:
        self.workers = workers
        self.ponder_seconds = ponder_seconds
        # spawn, not fork: the parent has threads (aiosqlite) that a fork would copy mid-flight.
        self._context = multiprocessing.get_context("spawn")
        self._stop = self._context.Event()
        self.queue = FairQueue(self._new_pool, workers, stop=self._stop)
        self.ponders: set[asyncio.Task[PonderReport | None]] = set()
        self._random = random.Random()

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            self.workers,
            mp_context=self._context,
            initializer=_worker_start,
            initargs=(os.getpid(), self._stop),
        )

    async def start(self) -> None:
        """Start every worker now (each loads the Oska tables), so the first move does not wait.
        Once: later calls return at once while the pool is up."""
        if self.queue.started:
            return
        # One job per worker at once: the pool starts a process for each (none is idle yet);
        # this process maps the tables too, for the moves it answers itself (`_instant`).
        await asyncio.gather(
            asyncio.to_thread(warm_up),
            *(self.queue.submit(("warm-up", index), warm_up) for index in range(self.workers)),
        )

    async def pick(self, state: GameState, level: str) -> str:
        seed = self._random.getrandbits(32)
        quick = await self._instant(state, level, seed)
        if quick is not None:
            return quick
        args = (state.spec.name, str(state.variant), state.moves, level, seed)
        key = _GAME.get()
        if key is None:
            key = ("task", id(asyncio.current_task()))
        try:
            move: str = await self.queue.submit(key, _trimming, think, *args)
        except BrokenProcessPool:
            log.exception("the AI worker died; starting a new one, and playing at random this turn")
        except Exception:
            log.exception(
                "the AI failed in game %s after %d moves; playing at random",
                *args[:1],
                len(state.moves),
            )
        else:
            self._ponder_after(key, state, move, level)
            return move
        return self._random.choice(state.legal_moves())

    async def _instant(self, state: GameState, level: str, seed: int) -> str | None:
        """The move when it needs no thinking (`games.ai.player.instant_move`: forced, from
        a table, or a level that searches two plies), found in a thread of this process
        at once rather than queued behind other games' searches; None to ask a worker."""
        try:
            return await asyncio.to_thread(instant_move, state, level, seed)
        except Exception:
            log.exception("the instant move failed in game %s; asking a worker", state.spec.name)
            return None

    def _ponder_after(self, key: Hashable, state: GameState, move: str, level: str) -> None:
        """Ask for a ponder of the position after Kamen's `move`, when it is worth it and no
        move waits; it runs in the background (`ponders`), its failures only logged."""
        game = state.spec.name
        seconds = self.ponder_seconds
        if seconds is None:
            seconds = ponder.default_seconds(level)
        if seconds <= 0 or not ponder.wanted(game, level) or self.queue.waiting():
            return
        args = (game, str(state.variant), (*state.moves, move), level, seconds)
        task = asyncio.create_task(self._ponder(key, args))
        self.ponders.add(task)
        task.add_done_callback(self.ponders.discard)

    async def _ponder(self, key: Hashable, args: tuple[Any, ...]) -> PonderReport | None:
        try:
            report: PonderReport = await self.queue.submit_ponder(key, _trimming, consider, *args)
        except asyncio.CancelledError:  # replaced, or the game's next move came first
            return None
        except BrokenProcessPool:
            log.warning("an AI worker died while pondering; the next move starts a new one")
            return None
        except Exception:
            log.exception("pondering failed in game %s after %d moves", args[0], len(args[2]))
            return None
        log.debug("pondered %s: %s", args[0], report)
        return report

    async def submit_deferred(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a worker once no move waits (`fn` must be importable: a module's
        function); its errors, and `BrokenProcessPool` if the worker dies, reach the caller."""
        return await self.queue.submit_deferred(_trimming, fn, *args)

    def close(self) -> None:
        for task in list(self.ponders):
            task.cancel()
        self.queue.close()
