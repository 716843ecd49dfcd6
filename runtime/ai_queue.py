"""The fair queue in front of Kamen's worker processes: moves by game, oldest first, and
deferred jobs (post-game reviews) only when no move can start.

`FairQueue` hands at most `slots` jobs at a time to its executor (a process
pool with that many workers), so the order is decided here, not by the
pool's own first-come queue:

- a move is tagged by its game (`submit(key, fn, *args)`): at most one move of
  a game is in a worker at a time, and among the games with a move waiting,
  the one whose move was asked longest ago goes first, so a game that asks
  again and again cannot hold the others back;
- a deferred job (`submit_deferred(fn, *args)`) waits in its own lane and
  starts only when a worker is free and no move can start. A job cannot be
  stopped once started, so with one worker a move asked during a deferred
  job waits for that job's end (keep them short); with more workers the
  deferred jobs leave one worker to the moves (`deferred_slots`);
- a ponder (`submit_ponder(key, fn, *args)`: Kamen thinking on a player's
  time, games/ai/ponder.py) waits in a lane behind the deferred jobs and
  shares their slots; a game has at most one waiting (a newer one replaces
  it, and the game's next move drops it: its position is gone). A ponder
  can be stopped: the queue clears its `stop` signal when a ponder starts
  and sets it whenever a move or a deferred job is asked while one runs,
  and the ponder (reading the signal every few milliseconds) ends, so that
  move waits a slice of a ponder, not all of it.

The pool is made by `make_pool` on first use. One that breaks (a worker
died) is dropped and the next job starts a new one; the job that was in the
dead worker raises `BrokenProcessPool` to its caller. A caller that stops
waiting (its task cancelled) takes its job out of the queue if it has not
started; a started one runs on and its answer is dropped.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import deque
from collections.abc import Callable, Hashable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class StopSignal(Protocol):
    """What the queue does with the ponders' stop signal (a `multiprocessing.Event`)."""

    def set(self) -> None: ...

    def clear(self) -> None: ...


@dataclass(eq=False, slots=True)
class Job:
    """A call waiting for a worker: `key` is its game, None for a deferred job
    (a ponder has its game's key and `ponder` set)."""

    order: int
    key: Hashable | None
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    result: asyncio.Future[Any]
    ponder: bool = False
    asked: float = 0.0  # the event loop's time when it was submitted

    @property
    def lane(self) -> str:
        """Its lane, as the metrics name it: move, deferred or ponder."""
        return "ponder" if self.ponder else "deferred" if self.key is None else "move"

    @property
    def deferred(self) -> bool:
        """Whether it runs in the deferred jobs' slots (a deferred job or a ponder)."""
        return self.key is None or self.ponder


class FairQueue:
    """Moves by game, oldest first, then deferred jobs, at most `slots` at a time in `make_pool`'s
    executor (see the module)."""

    def __init__(
        self,
        make_pool: Callable[[], Executor],
        slots: int,
        *,
        deferred_slots: int | None = None,
        stop: StopSignal | None = None,
    ) -> None:
        if slots < 1:
            raise ValueError("a queue needs at least one slot")
        self.slots = slots
        self.deferred_slots = max(1, slots - 1) if deferred_slots is None else deferred_slots
        self._make_pool = make_pool
        self._pool: Executor | None = None
        self._moves: dict[Hashable, deque[Job]] = {}
        self._deferred: deque[Job] = deque()
        self._ponders: dict[Hashable, Job] = {}  # by game, the oldest first
        self._stop = stop
        self._running_ponders = 0
        self._busy: set[Hashable] = set()  # games with a move in a worker
        self._running = 0
        self._running_deferred = 0
        self._order = itertools.count()
        # Told how long each job waited for its worker, by lane (the metrics).
        self.on_start: Callable[[str, float], None] | None = None

    @property
    def started(self) -> bool:
        """Whether a pool is up (made by a job, not yet broken or closed)."""
        return self._pool is not None

    @property
    def running(self) -> int:
        """Jobs in a worker now."""
        return self._running

    @property
    def pondering(self) -> int:
        """Ponders in a worker now."""
        return self._running_ponders

    def waiting(self) -> int:
        """Moves asked for and not started yet (deferred jobs not counted)."""
        return sum(1 for jobs in self._moves.values() for job in jobs if not job.result.done())

    def depth(self) -> dict[str, int]:
        """Jobs asked for and not started yet, by lane."""
        deferred = sum(1 for job in self._deferred if not job.result.done())
        ponders = sum(1 for job in self._ponders.values() if not job.result.done())
        return {"move": self.waiting(), "deferred": deferred, "ponder": ponders}

    async def submit(self, key: Hashable, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a worker, for the game `key`: after the moves asked before it."""
        if key is None:
            raise ValueError("a move needs its game's key")
        job = self._job(key, fn, args)
        self._moves.setdefault(key, deque()).append(job)
        stale = self._ponders.pop(key, None)  # the position it was for is gone
        if stale is not None:
            stale.result.cancel()
        self._interrupt()
        self._pump()
        result: T = await job.result
        return result

    async def submit_deferred(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a worker once no move waits for one (a review, say)."""
        job = self._job(None, fn, args)
        self._deferred.append(job)
        self._interrupt()
        self._pump()
        result: T = await job.result
        return result

    async def submit_ponder(self, key: Hashable, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a worker for the game `key` once no move and no deferred job
        waits; it replaces a ponder of that game still waiting (cancelled), and is
        cancelled itself when the game's move is asked before it starts. `fn` should
        end soon after the stop signal is set."""
        if key is None:
            raise ValueError("a ponder needs its game's key")
        job = self._job(key, fn, args, ponder=True)
        old = self._ponders.pop(key, None)
        if old is not None:
            old.result.cancel()
        self._ponders[key] = job
        self._pump()
        result: T = await job.result
        return result

    def close(self) -> None:
        """Shut the pool down and cancel what waits; the queue can be used again afterwards
        (a new pool is made by the next job)."""
        waiting = [job for jobs in self._moves.values() for job in jobs] + list(self._deferred)
        waiting += self._ponders.values()
        self._moves.clear()
        self._deferred.clear()
        self._ponders.clear()
        self._interrupt()  # a running ponder ends now, not at its limit
        for job in waiting:
            job.result.cancel()
        if self._pool is not None:
            self._drop(self._pool)

    # ------------------------------------------------------------------ inside

    def _job(
        self,
        key: Hashable | None,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        *,
        ponder: bool = False,
    ) -> Job:
        loop = asyncio.get_running_loop()
        result: asyncio.Future[Any] = loop.create_future()
        return Job(next(self._order), key, fn, args, result, ponder, loop.time())

    def _interrupt(self) -> None:
        """Tell the running ponders to end: something else wants their worker."""
        if self._running_ponders and self._stop is not None:
            self._stop.set()

    def _pump(self) -> None:
        """Start jobs while a slot is free: the oldest move that may start, else a deferred
        job, else a ponder."""
        while self._running < self.slots:
            job = self._next_move() or self._next_deferred() or self._next_ponder()
            if job is None:
                return
            self._start(job)

    def _next_move(self) -> Job | None:
        best: Job | None = None
        for key in list(self._moves):
            jobs = self._moves[key]
            while jobs and jobs[0].result.done():  # its caller stopped waiting
                jobs.popleft()
            if not jobs:
                del self._moves[key]
            elif key not in self._busy and (best is None or jobs[0].order < best.order):
                best = jobs[0]
        if best is not None:
            assert best.key is not None
            self._moves[best.key].popleft()
            if not self._moves[best.key]:
                del self._moves[best.key]
        return best

    def _next_deferred(self) -> Job | None:
        while self._deferred and self._deferred[0].result.done():
            self._deferred.popleft()
        if not self._deferred or self._running_deferred >= self.deferred_slots:
            return None
        return self._deferred.popleft()

    def _next_ponder(self) -> Job | None:
        for key, job in list(self._ponders.items()):
            if job.result.done():
                del self._ponders[key]
        if not self._ponders or self._running_deferred >= self.deferred_slots:
            return None
        return self._ponders.pop(next(iter(self._ponders)))

    def _start(self, job: Job) -> None:
        self._running += 1
        if self.on_start is not None:
            self.on_start(job.lane, asyncio.get_running_loop().time() - job.asked)
        if job.deferred:
            self._running_deferred += 1
        else:
            self._busy.add(job.key)
        if job.ponder:
            self._running_ponders += 1
            if self._stop is not None:
                self._stop.clear()
        pool = self._current_pool()
        try:
            future = pool.submit(job.fn, *job.args)
        except BrokenProcessPool:  # it broke before its manager told us: once more on a new one
            self._drop(pool)
            pool = self._current_pool()
            try:
                future = pool.submit(job.fn, *job.args)
            except Exception as error:
                self._finished(job, pool, error)
                return
        except Exception as error:
            self._finished(job, pool, error)
            return
        asyncio.wrap_future(future).add_done_callback(lambda done: self._done(job, pool, done))

    def _done(self, job: Job, pool: Executor, done: asyncio.Future[Any]) -> None:
        if done.cancelled():
            self._finished(job, pool, None, cancelled=True)
        elif (error := done.exception()) is not None:
            self._finished(job, pool, error)
        else:
            self._finished(job, pool, None, done.result())

    def _finished(
        self,
        job: Job,
        pool: Executor,
        error: BaseException | None,
        value: Any = None,
        *,
        cancelled: bool = False,
    ) -> None:
        self._running -= 1
        if job.deferred:
            self._running_deferred -= 1
        else:
            self._busy.discard(job.key)
        if job.ponder:
            self._running_ponders -= 1
        if isinstance(error, BrokenProcessPool) and pool is self._pool:
            self._drop(pool)
        if not job.result.done():
            if cancelled:
                job.result.cancel()
            elif error is not None:
                job.result.set_exception(error)
            else:
                job.result.set_result(value)
        self._pump()

    def _current_pool(self) -> Executor:
        if self._pool is None:
            self._pool = self._make_pool()
        return self._pool

    def _drop(self, pool: Executor) -> None:
        pool.shutdown(wait=False, cancel_futures=True)
        if pool is self._pool:
            self._pool = None
