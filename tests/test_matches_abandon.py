"""A channel or thread that is gone: its games end as abandoned, its challenges are
cancelled, and none of them is listed or playable any more (item 8, the service's side)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from games.base import Termination
from matches import (
    ChallengeClosed,
    Ending,
    FirstLegalMove,
    GameOver,
    ManualClock,
    MatchService,
    NoGameHere,
    Status,
)
from store import open_store
from tests.matches_support import refused

GUILD, CHANNEL, THREAD, ELSEWHERE = 1, 10, 11, 12
ALICE, BOB, CAROL, BOT = 100, 200, 300, 999


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[MatchService]:
    store = await open_store(f"sqlite:///{tmp_path / 'k.db'}")
    yield MatchService(
        store, bot_user_id=BOT, picker=FirstLegalMove(), clock=ManualClock(), rng=random.Random(1)
    )
    await store.close()


async def test_a_deleted_thread_ends_its_game_as_abandoned(service: MatchService) -> None:
    offered = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oska", opponent_id=BOB,
        first="challenger",
    )  # fmt: skip
    view = await service.accept(offered.id, BOB, channel_id=THREAD)
    await service.move(ALICE, "e1-f2", game_id=view.id)
    [ended] = await service.abandon_channel(THREAD)
    assert ended.id == view.id and ended.status is Status.FINISHED
    assert ended.reason is Termination.ABANDONED and ended.ending is Ending.ABANDONED
    assert ended.result is None and ended.ply == 1 and ended.deadline is None
    assert await service.active_games(GUILD) == []
    assert await service.open_games_of(ALICE) == []
    with refused(GameOver):
        await service.resign(BOB, game_id=view.id)
    with refused(NoGameHere):
        await service.view(channel_id=THREAD)
    record = await service.export_record(game_id=view.id)
    assert "1. e1-f2 *" in record  # a game without a result


async def test_a_deleted_channel_cancels_its_challenges_and_leaves_others(
    service: MatchService,
) -> None:
    waiting = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oska", opponent_id=BOB
    )
    anyone = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=CAROL, game="oware"
    )
    elsewhere = await service.challenge(
        guild_id=GUILD, channel_id=ELSEWHERE, challenger_id=ALICE, game="oska", opponent_id=BOT
    )
    ended = await service.abandon_channel(CHANNEL)
    assert sorted(view.id for view in ended) == sorted((waiting.id, anyone.id))
    assert {view.status for view in ended} == {Status.CANCELLED}
    with refused(ChallengeClosed, r"^This challenge was cancelled\.$"):
        await service.accept(waiting.id, BOB)
    assert [view.id for view in await service.active_games(GUILD)] == [elsewhere.id]


async def test_a_channel_with_nothing_open_ends_nothing(service: MatchService) -> None:
    view = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oska", opponent_id=BOT
    )
    await service.resign(ALICE, game_id=view.id)
    assert await service.abandon_channel(CHANNEL) == []
    assert await service.abandon_channel(ELSEWHERE) == []
    after = await service.view(game_id=view.id)
    assert after.reason is Termination.RESIGNATION and after.version == view.version + 1
