"""Domain events: each way a game ends says so exactly once, after the commit."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from games.base import Side, Termination
from matches import (
    Audited,
    Event,
    FirstLegalMove,
    GameFinished,
    GameStarted,
    GameView,
    ManualClock,
    MatchService,
    MovePlayed,
    Status,
)
from store import open_store

GUILD, CHANNEL = 1, 10
ALICE, BOB, BOT = 100, 200, 999
# Oska: Blue's a1-b2 ... a game Blue wins by the rules (taken from the play tests' passing line).
FOOLS = ("e1-f2", "e5-d4", "c1-d2", "a5-b4", "d2-e3", "b4-c3", "e3-f4", "g5xe3", "a1-b2")


class Recorder:
    """A subscriber that reads the store when told, to see what had been committed."""

    def __init__(self, service: MatchService) -> None:
        self.service = service
        self.events: list[Event] = []
        self.seen: list[Status] = []

    async def __call__(self, event: Event) -> None:
        assert not isinstance(event, Audited)  # no manager acts here
        self.events.append(event)
        self.seen.append((await self.service.view(game_id=event.game_id)).status)

    def finished(self) -> list[GameFinished]:
        return [event for event in self.events if isinstance(event, GameFinished)]


# The service, its clock and the subscriber that records what it was told.
Env = tuple[MatchService, ManualClock, Recorder]


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    store = await open_store(f"sqlite:///{tmp_path / 'k.db'}")
    clock = ManualClock()
    service = MatchService(
        store, bot_user_id=BOT, picker=FirstLegalMove(), clock=clock, rng=random.Random(1)
    )
    recorder = Recorder(service)
    service.events.subscribe(recorder)
    yield service, clock, recorder
    await store.close()


async def start(service: MatchService, time: str | None = None) -> GameView:
    offered = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oska",
        opponent_id=BOB, first="challenger", time=time,
    )  # fmt: skip
    return await service.accept(offered.id, BOB)


async def test_a_game_started_and_its_moves(env: Env) -> None:
    service, _, recorder = env
    view = await start(service)
    assert recorder.events == [GameStarted(view.id, GUILD, CHANNEL, "oska", (ALICE, BOB), None)]
    await service.move(ALICE, "a1-b2", channel_id=CHANNEL)
    assert recorder.events[-1] == MovePlayed(view.id, GUILD, "oska", 1, "a1-b2", Side.FIRST, ALICE)


async def test_a_game_ended_by_the_rules(env: Env) -> None:
    service, _, recorder = env
    view = await start(service)
    while view.status is Status.ACTIVE:
        user = view.to_move_id
        assert user is not None
        view = (await service.move(user, view.state.legal_moves()[0], game_id=view.id)).view
    outcome = view.state.outcome()
    assert outcome is not None
    finished = recorder.finished()
    ratings = finished[0].ratings
    assert finished == [
        GameFinished(view.id, GUILD, "oska", (ALICE, BOB), outcome.result, outcome.reason, True,
                     ratings)
    ]  # fmt: skip
    # Rated in the same write: both players, first player first, from the start rating.
    assert [change.user_id for change in ratings] == [ALICE, BOB]
    assert [change.before.rating for change in ratings] == [1500, 1500]
    assert recorder.seen[-1] is Status.FINISHED  # told after the commit


# Ended before both sides moved: aborted, not rated (each of the next three).
async def test_resignation(env: Env) -> None:
    service, _, recorder = env
    view = await start(service)
    await service.resign(BOB, channel_id=CHANNEL)
    assert recorder.finished() == [
        GameFinished(view.id, GUILD, "oska", (ALICE, BOB), "1-0", Termination.RESIGNATION, False)
    ]
    assert recorder.seen[-1] is Status.FINISHED


async def test_agreement(env: Env) -> None:
    service, _, recorder = env
    view = await start(service)
    await service.offer_draw(ALICE, channel_id=CHANNEL)
    assert recorder.finished() == []
    await service.accept_draw(BOB, channel_id=CHANNEL)
    assert recorder.finished() == [
        GameFinished(view.id, GUILD, "oska", (ALICE, BOB), "1/2-1/2", Termination.AGREEMENT, False)
    ]


async def test_agreement_by_offering_back(env: Env) -> None:
    service, _, recorder = env
    await start(service)
    await service.offer_draw(ALICE, channel_id=CHANNEL)
    await service.offer_draw(BOB, channel_id=CHANNEL)
    assert [event.reason for event in recorder.finished()] == [Termination.AGREEMENT]


async def test_time(env: Env) -> None:
    service, clock, recorder = env
    view = await start(service, time="1h")
    clock.advance(3601)
    await service.sweep()
    await service.sweep()  # nothing more to do: no second event
    assert recorder.finished() == [
        GameFinished(view.id, GUILD, "oska", (ALICE, BOB), "0-1", Termination.TIME, False)
    ]
    assert recorder.seen[-1] is Status.FINISHED


async def test_games_against_kamen_or_oneself_are_not_rated(env: Env) -> None:
    service, _, recorder = env
    against_bot = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oska", opponent_id=BOT
    )
    await service.resign(ALICE, game_id=against_bot.id)
    record = '[Game "Oska"]\n[Result "*"]\n\n1. a1-b2 *\n'
    study = await service.import_record(
        guild_id=GUILD, channel_id=CHANNEL + 1, user_id=ALICE, text=record
    )
    await service.resign(ALICE, game_id=study.id)
    assert [event.rated for event in recorder.finished()] == [False, False]
    assert [type(event) for event in recorder.events if not isinstance(event, MovePlayed)] == [
        GameStarted, GameFinished, GameStarted, GameFinished,
    ]  # fmt: skip


async def test_a_failing_subscriber_loses_no_move(
    env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    service, _, recorder = env

    def broken(event: Event) -> None:
        raise RuntimeError("the rating service is down")

    service.events.subscribe(broken)
    view = await start(service)
    result = await service.move(ALICE, "a1-b2", channel_id=CHANNEL)
    assert result.view.moves == ("a1-b2",)
    assert (await service.view(game_id=view.id)).moves == ("a1-b2",)
    assert isinstance(recorder.events[-1], MovePlayed)  # the others are still told
    assert "a subscriber failed" in caplog.text


async def test_automatic_passes_are_moves_of_the_passing_player(env: Env) -> None:
    service, _, recorder = env
    view = await start(service)
    for move in FOOLS:
        user = view.to_move_id
        assert user is not None
        view = (await service.move(user, move, game_id=view.id)).view
    result = await service.move(BOB, "c3xa1", game_id=view.id)
    assert result.passes == (Side.FIRST,)
    played = [event for event in recorder.events if isinstance(event, MovePlayed)][-2:]
    assert [(e.move, e.side, e.mover_id) for e in played] == [
        ("c3xa1", Side.SECOND, BOB), ("pass", Side.FIRST, ALICE),
    ]  # fmt: skip


async def test_a_game_in_a_deleted_channel_is_abandoned_and_not_rated(env: Env) -> None:
    service, _, recorder = env
    view = await start(service)
    await service.move(ALICE, "a1-b2", channel_id=CHANNEL)
    await service.abandon_channel(CHANNEL)
    await service.abandon_channel(CHANNEL)  # told again (a second event): nothing more happens
    assert recorder.finished() == [
        GameFinished(view.id, GUILD, "oska", (ALICE, BOB), "*", Termination.ABANDONED, False)
    ]
    assert recorder.seen[-1] is Status.FINISHED


async def test_work_left_for_later_does_not_hold_up_the_move(
    env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """A subscriber's work left to `later` runs after the change's caller has its answer;
    `settled` waits for it, and work that fails is logged while the game goes on."""
    service, _, recorder = env
    release = asyncio.Event()
    done: list[Event] = []

    async def slow(event: Event) -> None:
        await release.wait()
        done.append(event)

    async def broken() -> None:
        raise RuntimeError("a subscriber's bug")

    def leaves_work(event: Event) -> None:
        service.events.later(slow(event), "the slow work")
        service.events.later(broken(), "the broken work")

    service.events.subscribe(leaves_work)
    view = await start(service)
    last = recorder.events[-1]
    assert not isinstance(last, Audited)
    assert done == [] and last.game_id == view.id  # answered, still waiting
    release.set()
    await service.events.settled()
    assert [type(event) for event in done] == [GameStarted]
    assert any(r.message == "the broken work failed" for r in caplog.records)
