"""The service's runner: the background work done without any bot, handed to listeners.

Each test starts a `Runner` on a service over a real SQLite file, listens to one
job as an adapter would, and waits for what the job hands over (never a sleep):
a season ended by its date, a tournament started at its time, a lagging board,
a heartbeat; a pass that fails is logged and the next one does the work, an item
that fails is logged once and tried again later, and a runner does the work of
the servers of its own shards only.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import pytest

from matches import FirstLegalMove, GameView, ManualClock, MatchService, SweepEvent, SweepKind
from matches.ratings import Season
from matches.runner import Job, Runner
from matches.shards import Shards
from matches.storage import Store
from matches.tournament_records import Stage
from store import open_store

GUILD, CHANNEL, MANAGER = 1, 10, 50
ALICE, BOB, BOT = 100, 200, 999
WAIT = 10.0  # seconds at most for a signal that should come at once

T = TypeVar("T")
Env = tuple[MatchService, ManualClock, Store, Path]


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    store = await open_store(f"sqlite:///{tmp_path / 'k.db'}")
    clock = ManualClock(datetime.now(UTC))  # lagging boards are those of recent games
    service = service_on(store, clock)
    yield service, clock, store, tmp_path
    await store.close()


def service_on(store: Store, clock: ManualClock, holder: str | None = None) -> MatchService:
    return MatchService(
        store,
        bot_user_id=BOT,
        picker=FirstLegalMove(),
        clock=clock,
        rng=random.Random(1),
        claim_holder=holder,
    )


async def fast(service: MatchService, **options: Any) -> Runner:
    """A runner whose passes come every 10 ms, unless `options` say otherwise, its shards
    leased (a process does its work once they are)."""
    every: dict[str, Any] = {"sweep_every": 0.01, "beat_every": 0.01, "repair_every": 0.01}
    runner = Runner(service, **(every | options))
    assert await runner.lease()
    return runner


def heard(job: Job[T], wanted: Callable[[T], bool] = bool) -> Callable[[], Awaitable[T]]:
    """Listen to `job`; the function returned waits for the first pass that is `wanted`."""
    told: asyncio.Queue[T] = asyncio.Queue()
    job.listen(told.put_nowait)

    async def first() -> T:
        while True:
            done = await asyncio.wait_for(told.get(), WAIT)
            if wanted(done):
                return done

    return first


async def test_a_season_whose_date_came_is_ended_and_handed_to_the_announcer(env: Env) -> None:
    service, clock, _, _ = env
    season = await service.seasons.start(GUILD, "Spring", "30d", CHANNEL, MANAGER)
    clock.advance(timedelta(days=31))
    runner = await fast(service)
    announced: list[Season] = []

    async def announce(ended: Season) -> None:
        await service.seasons.announced(ended)
        announced.append(ended)

    runner.seasons.listen(announce)
    passed = heard(runner.seasons)
    runner.start()
    try:
        ended = await passed()
    finally:
        await runner.stop()
    assert ended.id == season.id and ended.ended_at == season.ends_at
    assert announced == [ended]
    now = await service.seasons.get(GUILD, season.id)
    assert now is not None and now.announced
    # Handed to one announcer only: a pass of a second runner finds nothing left to announce.
    assert await (await fast(service)).seasons.pass_once() == []


async def test_seasons_of_servers_another_process_serves_are_left_to_it(env: Env) -> None:
    service, clock, _, _ = env
    await service.seasons.start(GUILD, "Spring", "1d", CHANNEL, MANAGER)  # on shard 0 of 2
    clock.advance(timedelta(days=2))
    elsewhere = await fast(service, shards=Shards.of(2, [1]))
    assert await elsewhere.seasons.pass_once() == []
    [ended] = await (await fast(service, shards=Shards.of(2, [0]))).seasons.pass_once()
    assert ended.guild_id == GUILD


async def test_a_tournament_due_starts_and_its_pairings_are_handed_over(env: Env) -> None:
    service, clock, _, tmp_path = env
    made = await service.tournaments.create(
        guild_id=GUILD, channel_id=CHANNEL, by=MANAGER, game="oska", format="round-robin",
        name="Cup", starts_at=clock() + timedelta(minutes=30),
    )  # fmt: skip
    for user in (ALICE, BOB):
        await service.tournaments.join(GUILD, made.id, user)
    clock.advance(timedelta(hours=1))
    # A process serving the other shard: not its tournament (GUILD is on shard 0 of 2).
    other_store = await open_store(f"sqlite:///{tmp_path / 'k.db'}")
    try:
        other = await fast(service_on(other_store, clock, holder="the other process"),
                     shards=Shards.of(2, [1]))  # fmt: skip
        assert await other.tournaments.pass_once() == []
    finally:
        await other_store.close()
    runner = await fast(service, shards=Shards.of(2, [0]))
    passed = heard(runner.tournaments)
    runner.start()
    try:
        started = await passed()  # then its pairing again, as a game not yet opened
    finally:
        await runner.stop()
    assert started.tournament.id == made.id and started.tournament.stage is Stage.RUNNING
    [pairing] = started.new
    assert {pairing.first_id, pairing.second_id} == {ALICE, BOB}


async def test_the_sweeper_a_failed_pass_is_logged_and_the_next_one_does_the_work(
    env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    service, clock, _, _ = env
    offered = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oska", opponent_id=BOB,
        first="challenger", time="10m",
    )  # fmt: skip
    game = await service.accept(offered.id, BOB)
    clock.advance(timedelta(minutes=10))
    real_sweep = service.sweep
    failures = 0

    async def sweep_failing_once(
        now: datetime | None = None, *, batch: int = 100, shards: Shards | None = None
    ) -> list[SweepEvent]:
        nonlocal failures
        if failures == 0:
            failures += 1
            raise ConnectionError("the database went away for a moment")
        return await real_sweep(now, batch=batch, shards=shards)

    service.sweep = sweep_failing_once  # type: ignore[method-assign]
    runner = await fast(service)
    passed = heard(runner.sweeper)
    with caplog.at_level(logging.ERROR, logger="matches.runner"):
        runner.start()
        try:
            event = await passed()
        finally:
            await runner.stop()
    assert (event.kind, event.view.id) == (SweepKind.TIMEOUT, game.id)
    assert failures == 1
    [failed] = [record for record in caplog.records if "sweeper pass failed" in record.message]
    assert failed.exc_info is not None and failed.exc_info[0] is ConnectionError


async def test_a_listener_that_fails_is_logged_and_the_others_are_still_told(
    env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    service, _, store, _ = env
    runner = await fast(service)
    assert await runner.leases.take()

    def broken(moment: datetime) -> None:
        raise RuntimeError("an announcer's bug")

    runner.heartbeat.listen(broken)
    passed = heard(runner.heartbeat)
    with caplog.at_level(logging.ERROR, logger="matches.runner"):
        [moment] = await runner.heartbeat.pass_once()
    assert await passed() == moment
    assert any("heartbeat pass failed" in r.message for r in caplog.records)
    assert await store.last_beat() == moment  # the heartbeat was written all the same


async def test_the_heartbeat_is_written_on_its_interval(env: Env) -> None:
    service, clock, store, _ = env
    runner = await fast(service)
    beats = heard(runner.heartbeat)
    assert await runner.lease()
    runner.start()
    try:
        first = await beats()
        clock.advance(timedelta(minutes=5))
        later = await beats()
        while later == first:  # a pass between the two lines above wrote the old moment
            later = await beats()
    finally:
        await runner.stop()
    assert later == first + timedelta(minutes=5) and await store.last_beat() == later


async def test_a_lagging_board_is_handed_over_soon_after_the_adapter_says_so(env: Env) -> None:
    service, _, _, _ = env
    # Passes an hour apart: only `wake` brings the second one.
    runner = await fast(service, repair_every=3600.0, repair_soon_after=0.0)
    lagging = heard(runner.boards)
    runner.start()
    try:
        while runner.boards.passes == 0:  # the first pass, at the start: nothing lags
            await asyncio.sleep(0.01)
        offered = await service.challenge(
            guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oska",
            opponent_id=BOB, first="challenger",
        )  # fmt: skip
        runner.boards.wake()  # its message could not be posted: its board lags
        view: GameView = await lagging()
    finally:
        await runner.stop()
    assert view.id == offered.id and runner.boards.passes == 2


async def test_stopping_waits_for_the_services_reactions_in_flight(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The adapter closes the store after `stop`: no reaction is cut off by it."""
    service, _, _, _ = env
    runner = await fast(service)
    release, waiting = asyncio.Event(), asyncio.Event()
    finished: list[str] = []

    async def slow() -> None:
        await release.wait()
        finished.append("the reaction")

    real_settled = service.events.settled

    async def settled() -> None:
        waiting.set()
        await real_settled()

    monkeypatch.setattr(service.events, "settled", settled)
    service.events.subscribe(lambda event: service.events.later(slow(), "the reaction"))
    runner.start()
    offered = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oska", opponent_id=BOB,
    )  # fmt: skip
    await service.accept(offered.id, BOB)  # a game started: the reaction begins
    stopping = asyncio.create_task(runner.stop())
    await asyncio.wait_for(waiting.wait(), WAIT)  # the jobs are stopped; the reaction runs on
    assert finished == [] and not stopping.done()
    release.set()
    await asyncio.wait_for(stopping, WAIT)
    assert finished == ["the reaction"]


async def test_one_process_serves_a_shard_and_gives_its_downtime_back_once(env: Env) -> None:
    service, clock, _, tmp_path = env
    offered = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oska", opponent_id=BOB,
        first="challenger", time="10m",
    )  # fmt: skip
    game = await service.accept(offered.id, BOB)
    assert game.deadline is not None
    first = Runner(service)
    assert await first.lease()  # the one process, which dies without a word
    assert await first.credit_downtime() == []  # and beats
    clock.advance(timedelta(minutes=6))  # Kamen was away, then two processes start together
    other_store = await open_store(f"sqlite:///{tmp_path / 'k.db'}")
    try:
        runners = [Runner(service_on(store, clock)) for store in (first.service.store, other_store)]
        taken = await asyncio.gather(*(runner.leases.take() for runner in runners))
        assert sorted(taken) == [False, True]  # one serves the shard, the other waits
        [serving] = [runner for runner, took in zip(runners, taken, strict=True) if took]
        [waiting] = [runner for runner, took in zip(runners, taken, strict=True) if not took]
        [(credited, away)] = await serving.credit_downtime()
        assert waiting.troubles() == [
            f"waiting for shard 0 of 1: served by another process ({serving.leases.holder})"
        ]
        assert not await waiting.leases.take()  # renewed by the credit: held
    finally:
        await other_store.close()
    assert (credited.id, away) == (game.id, timedelta(minutes=6))
    assert (await service.view(game_id=game.id)).deadline == game.deadline + away  # once


async def test_an_item_that_fails_is_tried_again_later_and_later_and_then_said_stalled(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = ManualClock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))
    failures: list[str] = []

    async def found() -> list[int]:
        return [1, 2]

    job: Job[int] = Job("tournaments", found, 1.0, name_of=lambda n: f"tournament #{n}",
                        clock=clock, on_failure=failures.append)  # fmt: skip
    told: list[int] = []

    def announce(number: int) -> None:
        if number == 1:
            raise RuntimeError("Discord said no")
        told.append(number)

    job.listen(announce)
    with caplog.at_level(logging.WARNING, logger="matches.runner"):
        await job.pass_once()
        await job.pass_once()  # at once: #1 waits its turn, #2 goes on
        clock.advance(timedelta(seconds=2))
        await job.pass_once()  # tried again: fails again, now 4 s apart
    assert told == [2, 2, 2] and failures == ["tournaments", "tournaments"]
    [first, again] = [r for r in caplog.records if "tournament #1" in r.message]
    assert first.levelno == logging.ERROR and first.exc_info is not None  # logged once in full
    assert again.levelno == logging.WARNING and "2 tries" in again.message
    assert job.stalled(clock()) == []
    clock.advance(timedelta(minutes=2))
    assert job.stalled(clock()) == [
        "the tournaments pass for tournament #1 has failed 2 times since 12:00:00"
    ]
