"""The service's background work, in one runner that any adapter starts and stops.

Each job is a pass done again and again on its interval; each item a pass found
(a game whose deadline passed, a board that lags, a season to announce, a
tournament moved on) goes to the listeners the adapter gave it
(`runner.sweeper.listen(announce)`), one by one, and the adapter only shows it.
An item that fails is logged once with its ids, counted (`on_failure`), and
tried again later and later (`BACKOFF_FIRST` doubling up to `BACKOFF_MOST`);
the others go on. A pass that fails is logged and tried again, further apart.
A pass or an item failing for longer than `STALLED` is `stalled`, for the
health check to say.

A process does the work of the servers of its own shards, and no other: it
holds their leases (`matches.shards`) before it starts, and its passes read
the games, seasons and tournaments of those shards only. A shard nobody serves
waits, its clocks too: the process that takes its lease over gives them the
time since the shard's last beat back (`credit_downtime`, before the first
sweep).

- `heartbeat`: renews this process's leases, which is each shard's heartbeat
  (every 10 s): hands the moment written. A lease another process took over
  (this one missed its renewals) stops the runner: `lost` is set.
- `sweeper`: the deadlines passed (challenges expired, reminders, losses on
  time), every 5 s, and at once again after a full batch: hands `SweepEvent`s.
- `boards`: the public boards that lag behind their game (every 30 s, and
  soon after the adapter says one may lag: `boards.wake()`): hands their views.
- `seasons`: the seasons whose date has come are ended, and each ended season
  not yet announced is claimed (`Seasons.due`), every 5 s: hands them.
- `tournaments`: the tournaments due to start or end, the results missed while
  Kamen was stopped, the pairings whose game was never opened
  (`Tournaments.catch_up`), every 5 s (1 s at least): hands their `Progress`.

Beside the jobs, the boards shown that no write of their game has carried yet
(`matches.marks`) are written each second in one transaction
(`MatchService.write_behind`), and once more as the runner stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import inspect
import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Generic, TypeVar

from matches.claims import process_name
from matches.leases import LeaseLost, Leases
from matches.ratings import Season
from matches.service import MatchService
from matches.shards import Shards
from matches.tournaments import Progress
from matches.views import GameView, SweepEvent

log = logging.getLogger(__name__)

T = TypeVar("T")
Listener = Callable[[T], Awaitable[object] | None]

SWEEP_BATCH = 100  # deadlines acted on per sweep; a full batch is followed by another at once
UPKEEP_EVERY = 1.0  # seconds at least between two passes of the tournaments' upkeep
# After an adapter said a board may lag: Discord's trouble may last a moment.
WOKEN_AFTER = 3.5
LAGGING_READ = 100  # lagging boards read per pass (each is replayed: a pass must stay short)
LEASE_HOLDS = 3  # a lease holds for this many heartbeats: a process that misses them loses it
STOP_GRACE = 10.0  # seconds `stop` waits for the service's reactions in flight
BACKOFF_FIRST = 2.0  # seconds before a failed item (or pass) is tried again; doubled each time
BACKOFF_MOST = 300.0
STALLED = timedelta(minutes=1)  # failing this long, a pass or an item is `stalled`
# Seconds between two writes of the boards' bookkeeping left behind (`matches.marks`):
# what a process killed loses at most (those boards are repaired), one commit for all.
WRITE_BEHIND = 1.0


@dataclasses.dataclass
class _Failing:
    """An item (or a pass) that failed: since when, how often, when it is tried again."""

    since: datetime
    tries: int
    next_try: datetime


def _itself(item: object) -> str:
    return repr(item)


def _never(items: Sequence[object]) -> bool:
    return False


class Job(Generic[T]):
    """One piece of background work: `work` done every `interval` seconds, each item it
    found told to the listeners; `name_of(item)` names an item in the log (with its ids)
    and keeps its failures apart from the others'."""

    def __init__(
        self,
        name: str,
        work: Callable[[], Awaitable[Sequence[T]]],
        interval: float,
        *,
        name_of: Callable[[T], str] = _itself,
        again: Callable[[Sequence[T]], bool] = _never,
        woken_after: float = 0.0,
        clock: Callable[[], datetime] | None = None,
        on_failure: Callable[[str], None] | None = None,
    ) -> None:
        self.name = name
        self.interval = interval
        self._work = work
        self._name_of = name_of
        self._again = again  # whether a pass that found this much is followed by one at once
        self._woken_after = woken_after
        self._clock = clock or (lambda: datetime.now(UTC))
        self._on_failure = on_failure
        self._listeners: list[Listener[T]] = []
        self._woken = asyncio.Event()
        self.failing: dict[str, _Failing] = {}  # by item's name; the pass's own as ""
        self.passes = 0  # passes done

    def listen(self, listener: Listener[T]) -> Callable[[], None]:
        """Hand each item a pass found to `listener` (a function or a coroutine function),
        after the listeners before it; returns a function to stop."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def wake(self) -> None:
        """Do the next pass soon (`woken_after` seconds from now, or at the interval's end
        when that comes first)."""
        self._woken.set()

    async def pass_once(self) -> list[T]:
        """One pass: the items found, each told to every listener (those whose last
        failure is too recent are left for a later pass). Raises what the work raised."""
        items = list(await self._work())
        self.passes += 1
        now = self._clock()
        for item in items:
            name = self._name_of(item)
            failing = self.failing.get(name)
            if failing is not None and failing.next_try > now:
                continue
            error: Exception | None = None
            for listener in list(self._listeners):
                try:
                    heard = listener(item)
                    if inspect.isawaitable(heard):
                        await heard
                except Exception as failed:  # the other listeners are told all the same
                    error = error or failed
            if error is not None:
                self._failed(name, now, error)
            elif self.failing.pop(name, None) is not None:
                log.info("the %s pass: %s went through at last", self.name, name)
        return items

    def _failed(self, name: str, now: datetime, error: Exception) -> None:
        """Log a failure (its first with the traceback), count it, and back off."""
        failing = self.failing.get(name) or _Failing(now, 0, now)
        failing.tries += 1
        wait = min(BACKOFF_FIRST * 2 ** (failing.tries - 1), BACKOFF_MOST)
        failing.next_try = now + timedelta(seconds=wait)
        what = f"the {self.name} pass failed" + (f" for {name}" if name else "")
        if name not in self.failing:
            log.error("%s; trying again in %g s", what, wait, exc_info=error)
        else:
            log.warning(
                "%s again (%d tries: %s); trying again in %g s", what, failing.tries, error, wait
            )
        self.failing[name] = failing
        if self._on_failure is not None:
            self._on_failure(self.name)

    def stalled(self, now: datetime) -> list[str]:
        """What has been failing for longer than `STALLED`: the pass itself, or items."""
        return [
            f"the {self.name} pass" + (f" for {name}" if name else "")
            + f" has failed {failing.tries} times since {failing.since:%H:%M:%S}"
            for name, failing in self.failing.items()
            if now - failing.since > STALLED
        ]  # fmt: skip

    async def run_forever(self) -> None:
        """Pass now, then every `interval` seconds; a failed pass is logged, not fatal, and
        tried again later and later."""
        while True:
            self._woken.clear()
            items: list[T] = []
            pause = self.interval
            try:
                items = await self.pass_once()
            except LeaseLost:
                raise
            except Exception as error:
                self._failed("", self._clock(), error)
                pause = max(pause, (self.failing[""].next_try - self._clock()).total_seconds())
            else:
                self.failing.pop("", None)
            if items and self._again(items):
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._woken.wait(), pause)
                await asyncio.sleep(min(self._woken_after, self.interval))


class Runner:
    """The service's background jobs for the servers of `shards` (by default, one process
    serving everything); the adapter listens to them, `lease`s, `start`s and `stop`s it.
    `repair_soon_after` is the pause between `boards.wake()` and the repair pass;
    `on_failure(job)` counts each failure of a pass or an item."""

    def __init__(
        self,
        service: MatchService,
        shards: Shards | None = None,
        *,
        sweep_every: float = 5.0,
        beat_every: float = 10.0,
        repair_every: float = 30.0,
        repair_soon_after: float = WOKEN_AFTER,
        on_failure: Callable[[str], None] | None = None,
    ) -> None:
        self.service = service
        self.shards = shards or Shards()
        hold = timedelta(seconds=LEASE_HOLDS * beat_every)
        self.leases = Leases(service.store, service.clock, self.shards, process_name(), hold)
        self.lost = asyncio.Event()  # another process took a lease of this one's over
        self.lost_by: LeaseLost | None = None
        self._stopping = asyncio.Event()
        upkeep_every = max(sweep_every, UPKEEP_EVERY)
        self.heartbeat: Job[datetime] = Job(
            "heartbeat", self._beat, beat_every, on_failure=on_failure
        )
        self.sweeper: Job[SweepEvent] = Job(
            "sweeper", self._sweep, sweep_every, again=lambda events: len(events) >= SWEEP_BATCH,
            name_of=lambda event: f"game #{event.view.id} ({event.kind})", on_failure=on_failure,
        )  # fmt: skip
        self.boards: Job[GameView] = Job(
            "boards", self._lagging, repair_every, woken_after=repair_soon_after,
            name_of=lambda view: f"game #{view.id}", on_failure=on_failure,
        )  # fmt: skip
        self.seasons: Job[Season] = Job(
            "seasons", self._seasons_due, sweep_every,
            name_of=lambda season: f"season #{season.id} of server {season.guild_id}",
            on_failure=on_failure,
        )  # fmt: skip
        self.tournaments: Job[Progress] = Job(
            "tournaments", self._upkeep, upkeep_every,
            name_of=lambda done: f"tournament #{done.tournament.id}"
            f" of server {done.tournament.guild_id}",
            on_failure=on_failure,
        )  # fmt: skip
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def jobs(self) -> tuple[Job[Any], ...]:
        return (self.heartbeat, self.boards, self.sweeper, self.seasons, self.tournaments)

    def serves(self, guild_id: int | None) -> bool:
        """Whether this process serves the server `guild_id` (None: a direct message)."""
        return self.shards.serves(guild_id)

    async def lease(self, poll: float | None = None) -> bool:
        """Wait until this process holds the lease of every shard it serves (another
        process's lapses when it stops renewing it), looking every `poll` seconds: True
        then, False if the runner was stopped first."""
        while not await self.leases.take():
            with contextlib.suppress(TimeoutError):
                pause = poll if poll is not None else self.heartbeat.interval
                await asyncio.wait_for(self._stopping.wait(), pause)
            if self._stopping.is_set():
                return False
        return True

    def troubles(self) -> list[str]:
        """What keeps this process from its work, said for a person: shards whose lease
        another process holds (or took over), passes and items failing for longer than
        `STALLED`."""
        said = [
            f"waiting for shard {shard} of {self.shards.count}: served by another process"
            f" ({holder})"
            for shard, holder in sorted(self.leases.waiting_for.items())
        ]
        if self.lost.is_set():
            said.append("another process took this one's shards over: stopping")
        now = datetime.now(UTC)
        return said + [stalled for job in self.jobs for stalled in job.stalled(now)]

    def start(self) -> None:
        """Run every job in a task of its own, until `stop` (again: nothing more)."""
        if self._tasks:
            return
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._run(job), name=job.name) for job in self.jobs]
        self._tasks.append(loop.create_task(self._write_behind(), name="write-behind"))

    async def _run(self, job: Job[Any]) -> None:
        try:
            await job.run_forever()
        except LeaseLost as lost:
            log.error("%s", lost)
            self.lost_by = lost
            self.lost.set()

    async def stop(self) -> None:
        """Stop the jobs, wait for the service's reactions in flight (before the adapter
        closes the store, so that none is cut off in the middle of a write), and let this
        process's leases lapse for the next process to take at once."""
        self._stopping.set()
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
        await self.service.reviews.stop()  # a deep review cut off is made again when asked
        if not self.lost.is_set():  # else the games are another process's to keep now
            try:
                await self.service.write_behind()
            except Exception:  # the boards not written are repaired at the next start
                log.exception("the boards' bookkeeping could not be written")
            try:
                await self.leases.release()
            except Exception:  # the leases lapse by themselves all the same
                log.exception("the leases could not be let go")

    async def credit_downtime(self) -> list[tuple[GameView, timedelta]]:
        """Give the time each shard just leased was served by nobody back to its running
        clocks, then beat: the games whose clocks moved, with the time away, for the
        adapter to tell. Called after `lease`, before `start`."""
        credited = await self.service.credit_downtime(
            list(self.leases.held.values()), self.shards.count
        )
        await self.leases.renew()
        for lease in self.leases.held:
            self.leases.held[lease] = dataclasses.replace(self.leases.held[lease], last_beat=None)
        return credited

    async def _write_behind(self) -> None:
        while True:
            await asyncio.sleep(WRITE_BEHIND)
            try:
                await self.service.write_behind()
            except Exception as error:  # kept for the next try; the repair pass writes too
                log.warning("the boards' bookkeeping is not written yet: %s", error)

    # ---------------------------------------------------------------- the passes

    async def _beat(self) -> list[datetime]:
        return [await self.leases.renew()]

    # A pass is done only while this process's leases are current: one frozen past their
    # hold may have been replaced, and does nothing until its renewal tells it.

    async def _sweep(self) -> list[SweepEvent]:
        if not self.leases.current():
            return []
        return await self.service.sweep(batch=SWEEP_BATCH, shards=self.shards)

    async def _lagging(self) -> list[GameView]:
        if not self.leases.current():
            return []
        return await self.service.lagging_boards(LAGGING_READ, shards=self.shards)

    async def _seasons_due(self) -> list[Season]:
        if not self.leases.current():
            return []
        return await self.service.seasons.due(shards=self.shards)

    async def _upkeep(self) -> list[Progress]:
        if not self.leases.current():
            return []
        return await self.service.tournaments.catch_up(shards=self.shards)
