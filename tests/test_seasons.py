"""Seasons at the service: started and ended by their rules, tables of the games played in them.

Real games are played on a SQLite file and on PostgreSQL with a manual clock: what counts
in a season is what the rated games that ended while it ran did, and nothing
else. A season's end by date happens once, whoever asks and however often,
and is handed out for announcing until it is recorded as announced.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from matches import BadInput, FirstLegalMove, GameView, ManualClock, MatchService
from matches.seasons import FinalTable
from matches.shards import Shards
from matches.storage import Store
from store import open_store
from tests import store_support

GUILD, OTHER_GUILD = 1, 1 << 22  # on shards 0 and 1 of 2
ALICE, BOB, CAROL, BOT = 100, 200, 300, 999
MANAGER = 50
CHANNEL = 77
START = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)

Env = tuple[MatchService, ManualClock, Store]


store_url = store_support.store_url


@pytest.fixture
async def env(store_url: str) -> AsyncIterator[Env]:
    """The service on a fresh database of each engine in turn."""
    store = await open_store(store_url)
    clock = ManualClock(START)
    service = MatchService(
        store, bot_user_id=BOT, picker=FirstLegalMove(), clock=clock, rng=random.Random(1)
    )
    yield service, clock, store
    await store.close()


async def play(
    service: MatchService,
    winner: int | None,
    loser: int,
    *,
    channel: int = 10,
    guild: int = GUILD,
    rated: bool = True,
) -> GameView:
    """A game of Oska in which both move; `winner` wins by resignation, or None: a draw."""
    first = winner if winner is not None else ALICE
    second = loser
    offered = await service.challenge(
        guild_id=guild, channel_id=channel, challenger_id=first, game="oska", opponent_id=second,
        first="challenger", rated=rated,
    )  # fmt: skip
    view = await service.accept(offered.id, second)
    for _ in range(2):
        mover = view.to_move_id
        assert mover is not None
        view = (await service.move(mover, view.state.legal_moves()[0], game_id=view.id)).view
    if winner is None:
        await service.offer_draw(first, game_id=view.id)
        return (await service.accept_draw(second, game_id=view.id)).view
    return await service.resign(loser, game_id=view.id)


def lines(table: FinalTable) -> list[tuple[int, float, int, int, int, int]]:
    return [(s.user_id, s.points, s.games, s.wins, s.draws, s.losses) for s in table.lines]


# ---------------------------------------------------------------- starting


@pytest.mark.parametrize(
    ("ends", "at"),
    [
        (None, None),
        ("2027-03-31", datetime(2027, 4, 1, tzinfo=UTC)),  # to the end of that day
        ("2027-03-31 18:00", datetime(2027, 3, 31, 18, 0, tzinfo=UTC)),
        (" 30d ", START + timedelta(days=30)),
        ("2w", START + timedelta(weeks=2)),
        ("12H", START + timedelta(hours=12)),
    ],
)
async def test_a_manager_starts_a_season_with_its_end_as_written(
    env: Env, ends: str | None, at: datetime | None
) -> None:
    service, _, store = env
    season = await service.seasons.start(GUILD, "  Spring   2027 ", ends, CHANNEL, MANAGER)
    assert (season.name, season.started_at, season.ends_at) == ("Spring 2027", START, at)
    assert season.channel_id == CHANNEL and season.ended_at is None
    assert await store.running_season(GUILD) == season


@pytest.mark.parametrize(
    ("name", "ends", "code"),
    [
        ("", None, "season.bad-name"),
        ("   ", None, "season.bad-name"),
        ("x" * 51, None, "season.bad-name"),
        (42, None, "season.bad-name"),
        ("Spring", "next friday", "season.bad-ends"),
        ("Spring", "2027-02-30", "season.bad-ends"),
        ("Spring", "2027-03-31 25:00", "season.bad-ends"),
        ("Spring", "99999999d", "season.bad-ends"),
        ("Spring", 30, "season.bad-ends"),
        ("Spring", "2027-02-28", "season.ends-past"),
        ("Spring", "0d", "season.ends-past"),
        ("Spring", "2030-01-01", "season.ends-too-far"),
    ],
)
async def test_a_bad_name_or_end_is_refused_saying_what_is_wrong(
    env: Env, name: object, ends: object, code: str
) -> None:
    service, _, store = env
    with pytest.raises(BadInput) as refused:
        await service.seasons.start(GUILD, name, ends, CHANNEL, MANAGER)
    assert refused.value.code == code
    assert await store.running_season(GUILD) is None


async def test_a_second_running_season_is_refused_until_the_first_ends(env: Env) -> None:
    service, clock, _ = env
    await service.seasons.start(GUILD, "Spring", None, CHANNEL, MANAGER)
    with pytest.raises(BadInput) as refused:
        await service.seasons.start(GUILD, "Summer", None, CHANNEL, MANAGER)
    assert refused.value.code == "season.already-running"
    assert refused.value.params == {"name": "Spring"}
    # Another server runs its own.
    await service.seasons.start(OTHER_GUILD, "Summer", None, CHANNEL, MANAGER)
    clock.advance(timedelta(days=3))
    ended = await service.seasons.end(GUILD, MANAGER)
    assert ended.name == "Spring" and ended.ended_at == clock.now
    summer = await service.seasons.start(GUILD, "Summer", None, CHANNEL, MANAGER)
    assert summer.started_at == clock.now


async def test_ending_when_none_runs_is_refused(env: Env) -> None:
    service, _, _ = env
    with pytest.raises(BadInput) as refused:
        await service.seasons.end(GUILD, MANAGER)
    assert refused.value.code == "season.none-running"
    await service.seasons.start(GUILD, "Spring", None, CHANNEL, MANAGER)
    await service.seasons.end(GUILD, MANAGER)
    with pytest.raises(BadInput):
        await service.seasons.end(GUILD, MANAGER)


# ---------------------------------------------------------------- ending by date


async def test_a_season_ends_at_its_date_once_and_is_handed_out_until_announced(
    env: Env,
) -> None:
    service, clock, store = env
    season = await service.seasons.start(GUILD, "Spring", "30d", CHANNEL, MANAGER)
    assert await service.seasons.due() == []
    clock.advance(timedelta(days=45))  # Kamen was away when it came
    [ended] = await service.seasons.due()
    assert ended.id == season.id and ended.ended_at == season.ends_at
    assert await store.running_season(GUILD) is None
    # Claimed by the pass that ended it: no other pass takes it meanwhile...
    assert await service.seasons.due() == []
    # ...but once the claim has lapsed unannounced (a crash before the post), it does.
    clock.advance(timedelta(minutes=6))
    [again] = await service.seasons.due()
    assert again.ended_at == season.ends_at
    await service.seasons.announced(again)
    assert await service.seasons.due() == []
    assert await service.seasons.get(GUILD, season.id) == dataclasses.replace(again, announced=True)


async def test_two_processes_at_the_date_end_it_once(env: Env, store_url: str) -> None:
    service, clock, _ = env
    other_store = await open_store(store_url)
    try:
        other = MatchService(other_store, bot_user_id=BOT, clock=clock)
        await service.seasons.start(GUILD, "Spring", "1d", CHANNEL, MANAGER)
        clock.advance(timedelta(days=2))
        mine, theirs = await asyncio.gather(service.seasons.due(), other.seasons.due())
        assert len(mine) + len(theirs) == 1  # the one that ended it announces it
        # A process that does not serve the server leaves its seasons alone.
        await service.seasons.start(OTHER_GUILD, "Elsewhere", "1d", CHANNEL, MANAGER)
        clock.advance(timedelta(days=2))
        handed = await other.seasons.due(shards=Shards.of(2, [0]))
        assert [s.guild_id for s in handed] == [GUILD] * len(handed)
        assert await other_store.running_season(OTHER_GUILD) is not None
    finally:
        await other_store.close()


# ---------------------------------------------------------------- what counts


async def test_the_final_table_counts_only_rated_games_ended_during_the_season(
    env: Env,
) -> None:
    service, clock, _ = env
    await service.seasons.set_champion_games(GUILD, 2)  # a champion after two games
    await play(service, ALICE, BOB)  # before the season: not in it
    clock.advance(timedelta(hours=1))
    season = await service.seasons.start(GUILD, "Spring", "7d", CHANNEL, MANAGER)
    clock.advance(timedelta(hours=1))
    await play(service, BOB, ALICE)
    await play(service, None, CAROL, channel=11)  # Alice and Carol draw
    await play(service, CAROL, BOB, channel=12)
    await play(service, ALICE, CAROL, channel=13, rated=False)  # not rated: not counted
    await play(service, ALICE, BOB, channel=14, guild=OTHER_GUILD)  # another server's
    clock.advance(timedelta(days=8))
    await play(service, ALICE, BOB, channel=15)  # after its date: not in it
    [ended] = await service.seasons.due()
    oska, lasca, oware = await service.seasons.final(ended)
    assert (oska.game, lasca.game, oware.game) == ("oska", "lasca", "oware")
    assert lines(oska) == [
        (CAROL, 1.5, 2, 1, 1, 0),
        (BOB, 1.0, 2, 1, 0, 1),
        (ALICE, 0.5, 2, 0, 1, 1),
    ]
    assert oska.champion == CAROL and oska.games == 3
    assert all(line.performance is not None for line in oska.lines)
    assert lasca.lines == () and lasca.champion is None
    assert await service.seasons.champions(season) == {"oska": CAROL}


async def test_past_seasons_stay_listed_with_their_champions(env: Env) -> None:
    service, clock, _ = env
    await service.seasons.set_champion_games(GUILD, 1)  # a champion after one game
    winter = await service.seasons.start(GUILD, "Winter", None, CHANNEL, MANAGER)
    clock.advance(60)
    await play(service, ALICE, BOB)
    clock.advance(60)
    await service.seasons.end(GUILD, MANAGER)
    clock.advance(60)
    spring = await service.seasons.start(GUILD, "Spring", "30d", CHANNEL, MANAGER)
    clock.advance(60)
    await play(service, BOB, CAROL)
    listed = await service.seasons.list(GUILD)
    assert [(s.season.name, s.champions) for s in listed] == [
        ("Spring", (("oska", BOB),)),
        ("Winter", (("oska", ALICE),)),
    ]
    assert listed[0].season.ended_at is None and listed[1].season.ended_at is not None
    assert (await service.seasons.previous(spring)) == listed[1].season
    assert (await service.seasons.previous(winter)) is None
    assert await service.seasons.list(OTHER_GUILD) == []


async def test_the_champions_role_is_a_server_setting(env: Env) -> None:
    service, _, _ = env
    assert (await service.settings(GUILD)).champion_role_id is None
    await service.seasons.set_champion_role(GUILD, 4242)
    assert (await service.settings(GUILD)).champion_role_id == 4242
    await service.seasons.set_champion_role(GUILD, None)
    assert (await service.settings(GUILD)).champion_role_id is None
    with pytest.raises(BadInput) as refused:
        await service.seasons.set_champion_role(GUILD, -3)
    assert refused.value.code == "season.role.bad"


async def test_a_leader_with_fewer_games_than_the_servers_minimum_is_no_champion(
    env: Env,
) -> None:
    service, clock, store = env
    assert (await service.settings(GUILD)).champion_games == 5  # the default
    season = await service.seasons.start(GUILD, "Spring", "7d", CHANNEL, MANAGER)
    clock.advance(timedelta(hours=1))
    await play(service, ALICE, BOB)  # one lucky game: Alice leads with 2300
    clock.advance(timedelta(days=8))
    [ended] = await service.seasons.due()
    oska, _, _ = await service.seasons.final(ended)
    assert lines(oska) == [(ALICE, 1.0, 1, 1, 0, 0), (BOB, 0.0, 1, 0, 0, 1)]
    assert oska.champion is None and oska.too_few and oska.minimum == 5
    assert await service.seasons.champions(season) == {}
    assert [s.champions for s in await service.seasons.list(GUILD)] == [()]

    # The server asks one game of its champions: the same table crowns Alice.
    await service.seasons.set_champion_games(GUILD, 1)
    oska, _, _ = await service.seasons.final(ended)
    assert oska.champion == ALICE and not oska.too_few
    assert await service.seasons.champions(season) == {"oska": ALICE}
    # Another server keeps its own minimum.
    assert (await service.settings(OTHER_GUILD)).champion_games == 5
    for bad in (0, 101, -1, True, "3"):
        with pytest.raises(BadInput) as refused:
            await service.seasons.set_champion_games(GUILD, bad)  # type: ignore[arg-type]
        assert refused.value.code == "season.champion-games.bad"
    assert (await store.guild_settings(GUILD)).champion_games == 1
