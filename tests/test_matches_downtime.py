"""Clocks that are fair across Kamen's downtime: the heartbeat, and the time given back.

Kamen beats every few seconds (the renewal of its shards' leases); at start-up, the
shards leased, `Runner.credit_downtime()` gives every running clock of those shards
the time since their last beat, when that is more than 30 s, and returns the games it
changed with the time away, for the bot to tell their players. Driven by a
ManualClock on a real SQLite file, with the store closed and opened again as a
restart would (by a new process: another holder of the leases).
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path

from matches import FirstLegalMove, GameView, ManualClock, MatchService, OutOfTime, Status
from matches.runner import Runner
from store import open_store
from tests.matches_support import refused

GUILD = 1
ALICE, BOB, BOT = 100, 200, 999
MINUTE = timedelta(minutes=1)
BEAT = timedelta(seconds=10)


@asynccontextmanager
async def running(path: Path, clock: ManualClock) -> AsyncIterator[tuple[MatchService, Runner]]:
    """Kamen running on `path`: a store opened, a service built, its one shard leased (a
    killed process's lease must have lapsed); closed, the lease left, when it stops."""
    store = await open_store(f"sqlite:///{path}")
    try:
        service = MatchService(
            store, bot_user_id=BOT, picker=FirstLegalMove(), clock=clock, rng=random.Random(0)
        )
        runner = Runner(service)
        assert await runner.leases.take()
        yield service, runner
    finally:
        await store.close()


async def five_minute_game(service: MatchService, channel: int = 10) -> GameView:
    offered = await service.challenge(
        guild_id=GUILD, channel_id=channel, challenger_id=ALICE, game="oska", opponent_id=BOB,
        first="challenger", time="5m",
    )  # fmt: skip
    return await service.accept(offered.id, BOB)


async def alive_for(
    service: MatchService, runner: Runner, clock: ManualClock, span: timedelta
) -> None:
    """Kamen running for `span`, beating every 10 s, its sweeper finding nothing to do."""
    end = clock() + span
    while clock() < end:
        await runner.leases.renew()
        assert [event.kind for event in await service.sweep()] == []
        clock.advance(BEAT)
    await runner.leases.renew()


async def test_six_minutes_down_across_a_five_minute_move_loses_nobody_the_game(
    tmp_path: Path,
) -> None:
    path, clock = tmp_path / "k.db", ManualClock()
    async with running(path, clock) as (service, runner):
        view = await five_minute_game(service)
        untimed = await service.challenge(
            guild_id=GUILD, channel_id=11, challenger_id=ALICE, game="oska", opponent_id=BOB,
            time="none", rated=False,
        )  # fmt: skip
        untimed = await service.accept(untimed.id, BOB)
        # 30 s of Alice's 5 minutes gone
        await alive_for(service, runner, clock, timedelta(seconds=30))
        deadline, remind_at = view.deadline, view.row.remind_at
        assert deadline is not None and remind_at is not None
    clock.advance(6 * MINUTE)  # Kamen is down: no heartbeat
    async with running(path, clock) as (service, runner):
        credited = await runner.credit_downtime()
        assert [(game.id, away) for game, away in credited] == [(view.id, 6 * MINUTE)]
        game, _ = credited[0]
        assert game.deadline == deadline + 6 * MINUTE
        assert game.row.remind_at == remind_at + 6 * MINUTE
        assert await service.sweep() == []  # no loss on time, and the reminder not yet due
        # The move sent the instant Kamen is back lands, with 4.5 minutes still on the clock.
        moved = await service.move(ALICE, "e1-f2", game_id=view.id)
        assert moved.view.status is Status.ACTIVE and moved.view.ply == 1
        assert (await service.view(game_id=untimed.id)).deadline is None


async def test_kamens_own_clock_is_given_back_too(tmp_path: Path) -> None:
    """Killed while thinking: Kamen does not lose on time for its own downtime."""
    path, clock = tmp_path / "k.db", ManualClock()
    async with running(path, clock) as (service, runner):
        offered = await service.challenge(
            guild_id=GUILD, channel_id=10, challenger_id=ALICE, game="oska", opponent_id=BOT,
            first="challenger", time="5m",
        )  # fmt: skip
        moved = await service.move(ALICE, "e1-f2", game_id=offered.id)
        assert moved.view.bot_to_move
        await runner.leases.renew()
    clock.advance(6 * MINUTE)
    async with running(path, clock) as (service, runner):
        credited = await runner.credit_downtime()
        assert [(game.id, away) for game, away in credited] == [(offered.id, 6 * MINUTE)]
        assert await service.sweep() == []
        [turn] = await service.bot_turns()
        played = await service.play_bot_move(turn.id, expected_ply=turn.ply)
        assert played is not None and played.view.ply == 2 and not played.view.bot_to_move


async def test_without_the_credit_the_downtime_is_lost_on_time(tmp_path: Path) -> None:
    """What the credit prevents: the same downtime, swept at once, loses Alice the game."""
    path, clock = tmp_path / "k.db", ManualClock()
    async with running(path, clock) as (service, runner):
        view = await five_minute_game(service)
        await runner.leases.renew()
    clock.advance(6 * MINUTE)
    async with running(path, clock) as (service, runner):
        with refused(OutOfTime):
            await service.move(ALICE, "e1-f2", game_id=view.id)
        [timeout] = await service.sweep()
        assert timeout.kind == "timeout" and timeout.user_id == ALICE


async def test_a_short_gap_is_not_downtime(tmp_path: Path) -> None:
    path, clock = tmp_path / "k.db", ManualClock()
    async with running(path, clock) as (service, runner):
        view = await five_minute_game(service)
        await runner.leases.renew()
    clock.advance(timedelta(seconds=30))  # a quick restart: nothing to give back
    async with running(path, clock) as (service, runner):
        assert await runner.credit_downtime() == []
        assert (await service.view(game_id=view.id)).deadline == view.deadline


async def test_the_first_start_and_a_second_credit_give_nothing(tmp_path: Path) -> None:
    path, clock = tmp_path / "k.db", ManualClock()
    async with running(path, clock) as (service, runner):
        view = await five_minute_game(service)
        assert await runner.credit_downtime() == []  # never beat before: nothing is known
    clock.advance(2 * MINUTE)
    async with running(path, clock) as (service, runner):
        credited = await runner.credit_downtime()
        assert [away for _, away in credited] == [2 * MINUTE]
        # The credit beat for it: called again, it gives nothing twice.
        assert await runner.credit_downtime() == []
        assert view.deadline is not None
        assert (await service.view(game_id=view.id)).deadline == view.deadline + 2 * MINUTE


async def test_finished_games_and_challenges_keep_their_times(tmp_path: Path) -> None:
    path, clock = tmp_path / "k.db", ManualClock()
    async with running(path, clock) as (service, runner):
        over = await five_minute_game(service, 10)
        over = await service.resign(ALICE, game_id=over.id)
        waiting = await service.challenge(
            guild_id=GUILD, channel_id=11, challenger_id=ALICE, game="oska", opponent_id=BOB
        )
        await runner.leases.renew()
    clock.advance(10 * MINUTE)
    async with running(path, clock) as (service, runner):
        assert await runner.credit_downtime() == []
        assert (await service.view(game_id=over.id)).version == over.version
        assert (await service.view(game_id=waiting.id)).deadline == waiting.deadline
