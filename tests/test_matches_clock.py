"""Time controls and the sweeper: reminders, losses on time, restarts, several sweepers."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from pathlib import Path

import pytest

from games.base import Outcome, Side, Termination
from matches import (
    Ending,
    FirstLegalMove,
    GameView,
    ManualClock,
    MatchService,
    OutOfTime,
    Status,
    Store,
    SweepEvent,
    SweepKind,
)
from matches.runner import Runner
from store import open_store
from words.games import outcome_text

GUILD, CHANNEL = 1, 10
ALICE, BOB, BOT = 100, 200, 999
HOUR = timedelta(hours=1)


def service_on(store: Store, clock: ManualClock) -> MatchService:
    return MatchService(
        store, bot_user_id=BOT, picker=FirstLegalMove(), clock=clock, rng=random.Random(1)
    )


async def timed_game(service: MatchService, time: str = "1h", game: str = "oska") -> GameView:
    offered = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game=game, opponent_id=BOB,
        first="challenger", time=time,
    )  # fmt: skip
    return await service.accept(offered.id, BOB)


async def test_each_move_starts_a_fresh_clock_for_the_next_player(tmp_path: Path) -> None:
    clock = ManualClock()
    store = await open_store(f"sqlite:///{tmp_path}/k.db")
    try:
        service = service_on(store, clock)
        game = await timed_game(service)
        assert game.move_seconds == 3600 and game.deadline == clock() + HOUR
        clock.advance(HOUR / 3)
        moved = await service.move(ALICE, "a1-b2", channel_id=CHANNEL)
        assert moved.view.deadline == clock() + HOUR and moved.view.to_move_id == BOB
        ended = await service.resign(BOB, channel_id=CHANNEL)
        assert ended.deadline is None
        assert await service.sweep(clock() + 10 * HOUR) == []
    finally:
        await store.close()


async def test_reminder_once_then_loss_on_time_across_a_restart(tmp_path: Path) -> None:
    url, clock = f"sqlite:///{tmp_path}/k.db", ManualClock()
    store = await open_store(url)
    game = await timed_game(service_on(store, clock))
    await service_on(store, clock).move(ALICE, "a1-b2", channel_id=CHANNEL)
    await store.close()

    # The bot restarts: a new store and a new service on the same file.
    clock.advance(HOUR / 2 - timedelta(seconds=1))
    store = await open_store(url)
    try:
        service = service_on(store, clock)
        assert await service.sweep() == []
        clock.advance(1)
        reminders = await service.sweep()
        assert [(e.kind, e.user_id, e.view.id) for e in reminders] == [
            (SweepKind.REMINDER, BOB, game.id)
        ]
        assert reminders[0].view.deadline == clock() + HOUR / 2
        assert await service.sweep(clock() + HOUR / 4) == []  # reminded once only
        clock.advance(HOUR / 2)
        timeouts = await service.sweep()
        assert [(e.kind, e.user_id) for e in timeouts] == [(SweepKind.TIMEOUT, BOB)]
        view = timeouts[0].view
        assert view.status is Status.FINISHED and view.ending is Ending.TIME
        assert view.result == "1-0" and view.reason is Termination.TIME
        assert view.outcome == Outcome(Side.FIRST, Termination.TIME, Side.SECOND)
        assert outcome_text(view.outcome, view.game) == "Red ran out of time"
        assert view.winner_id == ALICE
        assert await service.sweep(clock() + 100 * HOUR) == []
    finally:
        await store.close()


async def test_a_move_after_the_deadline_is_refused_until_the_sweeper_ends_it(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    store = await open_store(f"sqlite:///{tmp_path}/k.db")
    try:
        service = service_on(store, clock)
        game = await timed_game(service, time="5m")
        clock.advance(timedelta(minutes=5))
        with pytest.raises(OutOfTime):
            await service.move(ALICE, "a1-b2", channel_id=CHANNEL)
        assert (await service.view(game_id=game.id)).ply == 0
        events = await service.sweep()
        assert [(e.kind, e.user_id) for e in events] == [(SweepKind.TIMEOUT, ALICE)]
        assert events[0].view.result == "0-1"
    finally:
        await store.close()


async def test_a_move_in_time_beats_a_sweeper_that_read_before_it(tmp_path: Path) -> None:
    clock = ManualClock()
    store = await open_store(f"sqlite:///{tmp_path}/k.db")
    try:
        service = service_on(store, clock)
        await timed_game(service)
        clock.advance(HOUR * 0.75)
        due = await store.due(clock())
        assert len(due) == 1  # the reminder is due ...
        await service.move(ALICE, "a1-b2", channel_id=CHANNEL)  # ... but Alice moves first
        assert await service.clocks._sweep_one(due[0], clock()) is None
        assert await service.sweep() == []  # Bob's fresh clock is not half gone
    finally:
        await store.close()


async def test_two_sweepers_on_one_file_act_once_on_each_deadline(tmp_path: Path) -> None:
    url, clock = f"sqlite:///{tmp_path}/k.db", ManualClock()
    one, two = await open_store(url), await open_store(url)
    try:
        first, second = service_on(one, clock), service_on(two, clock)
        for channel in range(20, 25):
            offered = await first.challenge(
                guild_id=GUILD, channel_id=channel, challenger_id=ALICE, game="oware",
                opponent_id=BOB, time="1h",
            )  # fmt: skip
            await first.accept(offered.id, BOB)
        clock.advance(HOUR)
        events = await asyncio.gather(first.sweep(), second.sweep())
        kinds = [event.kind for batch in events for event in batch]
        assert len(kinds) == 5 and set(kinds) == {SweepKind.TIMEOUT}
        assert len({event.view.id for batch in events for event in batch}) == 5
    finally:
        await one.close()
        await two.close()


async def test_the_runners_sweeper_announces_what_it_finds(tmp_path: Path) -> None:
    clock = ManualClock()
    store = await open_store(f"sqlite:///{tmp_path}/k.db")
    try:
        service = service_on(store, clock)
        game = await timed_game(service, time="10m")
        clock.advance(timedelta(minutes=10))
        heard: list[SweepEvent] = []
        done = asyncio.Event()

        async def announce(event: SweepEvent) -> None:
            heard.append(event)
            done.set()

        runner = Runner(service, sweep_every=0.01)
        runner.sweeper.listen(announce)
        assert await runner.lease()
        runner.start()
        await asyncio.wait_for(done.wait(), timeout=5)
        await runner.stop()
        assert [(e.kind, e.view.id) for e in heard] == [(SweepKind.TIMEOUT, game.id)]
    finally:
        await store.close()


async def test_the_bot_resumes_its_turns_after_a_restart(tmp_path: Path) -> None:
    url, clock = f"sqlite:///{tmp_path}/k.db", ManualClock()
    store = await open_store(url)
    game = await service_on(store, clock).challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="lasca", opponent_id=BOT,
        first="opponent", time="1d",
    )  # fmt: skip
    await store.close()
    store = await open_store(url)
    try:
        service = service_on(store, clock)
        pending = await service.bot_turns()
        assert [(view.id, view.to_move) for view in pending] == [(game.id, Side.FIRST)]
        moved = await service.play_bot_move(game.id)
        assert moved is not None and moved.view.to_move_id == ALICE
        assert moved.view.deadline == clock() + timedelta(days=1)
        assert await service.bot_turns() == []
    finally:
        await store.close()
