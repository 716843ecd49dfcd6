"""The service's background work, in one runner that any adapter starts and stops.

Each job is a pass done again and again on its interval; what a pass did goes to
the listeners the adapter gave it (`runner.sweeper.listen(announce)`), and the
adapter only shows it. A pass that fails (or a listener) is logged and the job
goes on at its next turn: one bad game must not stop the work on all the others.

- `heartbeat`: Kamen is alive now, what the downtime credit at the next start
  measures by (every 10 s): hands the moment written.
- `sweeper`: the deadlines passed (challenges expired, reminders, losses on
  time), every 5 s, and at once again after a full batch: hands the
  `SweepEvent`s.
- `boards`: the public boards that lag behind their game (every 30 s, and
  soon after the adapter says one may lag: `boards.wake()`): hands their views.
- `seasons`: the seasons whose date has come are ended, and each ended season
  not yet announced goes to the one process that claims its announcement
  (`Seasons.due`), every 5 s: hands them.
- `tournaments`: run by the process holding the tournaments' claim (renewed
  at each pass; it lapses if that process dies and another takes it over):
  the tournaments due to start or end, the results missed while Kamen was
  stopped, the pairings whose game was never opened (`Tournaments.catch_up`),
  every 5 s (1 s at least): hands a `TournamentPass`.

Before it starts, at the process's start, `credit_downtime` gives the time
Kamen was away back to the running clocks, before the sweeper looks at any
deadline.

With several processes on one database each runs its own runner: the claims
and the versioned writes make each piece of work happen once, and `serves`
picks this process's servers (its shards) for the seasons and the boards. The
downtime credit too is given by one process alone, the one that claims it:
two processes starting together after an outage would otherwise both read the
old heartbeat and give the time back twice. The others wait for its
heartbeat; if the claiming process dies before giving the time back, its claim
lapses after `CREDIT_HOLD` and another process gives it.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Generic, TypeVar

from matches.ratings import Season
from matches.service import MatchService
from matches.tournaments import Progress
from matches.upkeep import DOWNTIME
from matches.views import GameView, SweepEvent

log = logging.getLogger(__name__)

T = TypeVar("T")
Listener = Callable[[T], Awaitable[object] | None]

SWEEP_BATCH = 100  # deadlines acted on per sweep; a full batch is followed by another at once
UPKEEP_EVERY = 1.0  # seconds at least between two passes of the tournaments' upkeep
UPKEEP_CLAIM = "tournaments"  # the claim on running the tournaments' upkeep pass
# After an adapter said a board may lag: Discord's trouble may last a moment.
WOKEN_AFTER = 3.5
LAGGING_READ = 100  # lagging boards read per pass (each is replayed: a pass must stay short)
LAGGING_READ_SHARDED = 500  # with other processes' boards among them, read past those
CREDIT = "downtime-credit"  # the claim on giving the time back
CREDIT_HOLD = 2 * DOWNTIME  # how long a claim on the credit holds if its process dies
CREDIT_POLL = 1.0  # seconds between looks while another process gives the time back
STOP_GRACE = 10.0  # seconds `stop` waits for the service's reactions in flight


@dataclass(frozen=True, slots=True)
class TournamentPass:
    """What one upkeep pass of the tournaments did, in the process holding their claim."""

    progress: tuple[Progress, ...]


def _never(done: object) -> bool:
    return False


class Job(Generic[T]):
    """One piece of background work: `work` done every `interval` seconds, its result
    (None: nothing done this time, such as a claim held elsewhere) told to the listeners."""

    def __init__(
        self,
        name: str,
        work: Callable[[], Awaitable[T | None]],
        interval: float,
        *,
        again: Callable[[T], bool] = _never,
        woken_after: float = 0.0,
    ) -> None:
        self.name = name
        self.interval = interval
        self._work = work
        self._again = again  # whether a pass that did this much is followed by one at once
        self._woken_after = woken_after
        self._listeners: list[Listener[T]] = []
        self._woken = asyncio.Event()

    def listen(self, listener: Listener[T]) -> Callable[[], None]:
        """Hand what each pass did to `listener` (a function or a coroutine function), after
        the listeners before it; returns a function to stop."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def wake(self) -> None:
        """Do the next pass soon (`woken_after` seconds from now), not at the interval's end."""
        self._woken.set()

    async def pass_once(self) -> T | None:
        """One pass, told to the listeners; a listener that fails is logged, the others
        are still told."""
        done = await self._work()
        if done is None:
            return None
        for listener in list(self._listeners):
            try:
                heard = listener(done)
                if inspect.isawaitable(heard):
                    await heard
            except Exception:
                log.exception("a listener of the %s pass failed", self.name)
        return done

    async def run_forever(self) -> None:
        """Pass now, then every `interval` seconds; a failed pass is logged, not fatal."""
        while True:
            self._woken.clear()
            done: T | None = None
            try:
                done = await self.pass_once()
            except Exception:
                log.exception("the %s pass failed; trying again in %s s", self.name, self.interval)
            if done is not None and self._again(done):
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._woken.wait(), self.interval)
                await asyncio.sleep(self._woken_after)


class Runner:
    """The service's background jobs; the adapter listens to them, `start`s and `stop`s it.

    `serves(guild_id)` says whether this process serves a server (None: all of them);
    `repair_soon_after` is the pause between `boards.wake()` and the repair pass.
    """

    def __init__(
        self,
        service: MatchService,
        *,
        sweep_every: float = 5.0,
        beat_every: float = 10.0,
        repair_every: float = 30.0,
        repair_soon_after: float = WOKEN_AFTER,
        serves: Callable[[int], bool] | None = None,
    ) -> None:
        self.service = service
        self.serves = serves
        upkeep_every = max(sweep_every, UPKEEP_EVERY)
        # Held for a few passes: a process that stops passing lets another take over.
        self._upkeep_hold = timedelta(seconds=max(3 * upkeep_every, 10.0))
        self.heartbeat: Job[datetime] = Job("heartbeat", self._beat, beat_every)
        self.sweeper: Job[list[SweepEvent]] = Job(
            "sweeper", self._sweep, sweep_every, again=lambda events: len(events) >= SWEEP_BATCH
        )
        self.boards: Job[list[GameView]] = Job(
            "boards", self._lagging, repair_every, woken_after=repair_soon_after
        )
        self.seasons: Job[list[Season]] = Job("seasons", self._seasons_due, sweep_every)
        self.tournaments: Job[TournamentPass] = Job("tournaments", self._upkeep, upkeep_every)
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def jobs(self) -> tuple[Job[Any], ...]:
        return (self.heartbeat, self.boards, self.sweeper, self.seasons, self.tournaments)

    def start(self) -> None:
        """Run every job in a task of its own, until `stop` (again: nothing more)."""
        if self._tasks:
            return
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(job.run_forever(), name=job.name) for job in self.jobs]

    async def stop(self) -> None:
        """Stop the jobs, and wait for the service's reactions in flight (before the
        adapter closes the store, so that none is cut off in the middle of a write)."""
        tasks, self._tasks = self._tasks, []
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        try:
            await asyncio.wait_for(self.service.events.settled(), STOP_GRACE)
        except TimeoutError:  # cut off: the next start's upkeep pass catches up
            log.warning("the service's reactions still running were stopped")

    async def credit_downtime(self) -> list[tuple[GameView, timedelta]]:
        """Give the time Kamen was away back to the running clocks, once for all processes:
        here if this process claims the credit, else nothing once the process that claimed
        it is done (its heartbeat is fresh). The games whose clocks moved, with the time
        away, for the adapter to tell; called at start-up, before `start`."""
        claims = self.service.claims
        waited = False
        while not await claims.take(CREDIT, CREDIT_HOLD):
            if await self.service.upkeep.beating():
                return []  # the process holding the claim gave the time back
            if not waited:
                log.info("Kamen was away: another process is giving the time back")
                waited = True
            await asyncio.sleep(CREDIT_POLL)
        try:
            return await self.service.credit_downtime()
        finally:
            await claims.drop(CREDIT)

    # ---------------------------------------------------------------- the passes

    async def _beat(self) -> datetime:
        now = self.service.clock()
        await self.service.upkeep.beat(now)
        return now

    async def _sweep(self) -> list[SweepEvent]:
        return await self.service.sweep(batch=SWEEP_BATCH)

    async def _lagging(self) -> list[GameView]:
        serves = self.serves
        if serves is None:
            return await self.service.lagging_boards(LAGGING_READ)
        # Another process's boards (its servers) may lag too: read past them.
        views = await self.service.lagging_boards(LAGGING_READ_SHARDED)
        return [view for view in views if serves(view.guild_id)]

    async def _seasons_due(self) -> list[Season]:
        return await self.service.seasons.due(serves=self.serves)

    async def _upkeep(self) -> TournamentPass | None:
        if not await self.service.claims.take(UPKEEP_CLAIM, self._upkeep_hold):
            return None  # another process runs the pass
        return TournamentPass(tuple(await self.service.tournaments.catch_up()))
