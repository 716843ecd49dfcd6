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
  deferred jobs leave one worker to the moves (`deferred_slots`).

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
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(eq=False, slots=True)
class Job:
    """A call waiting for a worker: `key` is its game, None for a deferred job."""

    order: int
    key: Hashable | None
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    result: asyncio.Future[Any]


class FairQueue:
    """Moves by game, oldest first, then deferred jobs, at most `slots` at a time in `make_pool`'s
    executor (see the module)."""

    def __init__(
        self,
        make_pool: Callable[[], Executor],
        slots: int,
        *,
        deferred_slots: int | None = None,
    ) -> None:
        if slots < 1:
            raise ValueError("a queue needs at least one slot")
        self.slots = slots
        self.deferred_slots = max(1, slots - 1) if deferred_slots is None else deferred_slots
        self._make_pool = make_pool
        self._pool: Executor | None = None
        self._moves: dict[Hashable, deque[Job]] = {}
        self._deferred: deque[Job] = deque()
        self._busy: set[Hashable] = set()  # games with a move in a worker
        self._running = 0
        self._running_deferred = 0
        self._order = itertools.count()

    @property
    def started(self) -> bool:
        """Whether a pool is up (made by a job, not yet broken or closed)."""
        return self._pool is not None

    @property
    def running(self) -> int:
        """Jobs in a worker now."""
        return self._running

    def waiting(self) -> int:
        """Moves asked for and not started yet (deferred jobs not counted)."""
        return sum(1 for jobs in self._moves.values() for job in jobs if not job.result.done())

    async def submit(self, key: Hashable, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a worker, for the game `key`: after the moves asked before it."""
        if key is None:
            raise ValueError("a move needs its game's key")
        job = self._job(key, fn, args)
        self._moves.setdefault(key, deque()).append(job)
        self._pump()
        result: T = await job.result
        return result

    async def submit_deferred(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a worker once no move waits for one (a review, say)."""
        job = self._job(None, fn, args)
        self._deferred.append(job)
        self._pump()
        result: T = await job.result
        return result

    def close(self) -> None:
        """Shut the pool down and cancel what waits; the queue can be used again afterwards
        (a new pool is made by the next job)."""
        waiting = [job for jobs in self._moves.values() for job in jobs] + list(self._deferred)
        self._moves.clear()
        self._deferred.clear()
        for job in waiting:
            job.result.cancel()
        if self._pool is not None:
            self._drop(self._pool)

    # ------------------------------------------------------------------ inside

    def _job(self, key: Hashable | None, fn: Callable[..., Any], args: tuple[Any, ...]) -> Job:
        result: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        return Job(next(self._order), key, fn, args, result)

    def _pump(self) -> None:
        """Start jobs while a slot is free: the oldest move that may start, else a deferred job."""
        while self._running < self.slots:
            job = self._next_move() or self._next_deferred()
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

    def _start(self, job: Job) -> None:
        self._running += 1
        if job.key is None:
            self._running_deferred += 1
        else:
            self._busy.add(job.key)
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
        if job.key is None:
            self._running_deferred -= 1
        else:
            self._busy.discard(job.key)
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
