"""Rated games: which count, rated with their end exactly once, rebuilt exactly from the games."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from matches import FirstLegalMove, GameView, ManualClock, MatchService, Status
from matches.ratings import Season, rate_game
from matches.recompute import differences, rebuild, stored
from matches.storage import Store
from store import open_store

GUILD, OTHER_GUILD = 1, 2
ALICE, BOB, CAROL, BOT = 100, 200, 300, 999
OSKA_RECORD = '[Game "Oska"]\n\n1. e1-f2 e5-d4 *\n'

Env = tuple[MatchService, ManualClock, Store]


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    store = await open_store(f"sqlite:///{tmp_path / 'k.db'}")
    clock = ManualClock()
    service = MatchService(
        store, bot_user_id=BOT, picker=FirstLegalMove(), clock=clock, rng=random.Random(1)
    )
    yield service, clock, store
    await store.close()


async def begin(
    service: MatchService,
    one: int,
    two: int,
    channel: int,
    *,
    guild: int = GUILD,
    **options: object,
) -> GameView:
    offered = await service.challenge(
        guild_id=guild, channel_id=channel, challenger_id=one, game="oska", opponent_id=two,
        first="challenger", **options,  # type: ignore[arg-type]
    )  # fmt: skip
    return await service.accept(offered.id, two)


async def both_move(service: MatchService, view: GameView) -> GameView:
    for _ in range(2):
        mover = view.to_move_id
        assert mover is not None
        view = (await service.move(mover, view.state.legal_moves()[0], game_id=view.id)).view
    return view


async def test_a_won_game_moves_both_ratings_once(env: Env) -> None:
    service, _, store = env
    view = await both_move(service, await begin(service, ALICE, BOB, 10))
    await service.resign(BOB, game_id=view.id)
    changes = await store.changes_of_game(view.id)
    assert [(c.user_id, round(c.before.rating), round(c.after.rating)) for c in changes] == [
        (ALICE, 1500, 1662), (BOB, 1500, 1338),
    ]  # fmt: skip
    alice, bob = (
        await store.standing(GUILD, "oska", ALICE),
        await store.standing(GUILD, "oska", BOB),
    )
    assert alice is not None and bob is not None
    assert (alice.games, alice.wins, alice.streak, alice.best_win) == (1, 1, 1, 1500)
    assert (bob.games, bob.losses, bob.streak) == (1, 1, 0)
    # Another server's pool knows nothing of it.
    assert await store.standing(OTHER_GUILD, "oska", ALICE) is None


@pytest.mark.parametrize(
    "how",
    ["rated-false", "variant", "imported", "kamen", "abandoned", "one-side-moved", "no-move"],
)
async def test_games_that_do_not_count(env: Env, how: str) -> None:
    service, _, store = env
    if how == "kamen":
        view = await service.challenge(
            guild_id=GUILD, channel_id=10, challenger_id=ALICE, game="oska", opponent_id=BOT
        )
        view = await both_move(service, view) if view.to_move_id == ALICE else view
    elif how == "imported":
        offered = await service.import_record(
            guild_id=GUILD, channel_id=10, user_id=ALICE, text=OSKA_RECORD, game="oska",
            opponent_id=BOB,
        )  # fmt: skip
        view = await both_move(service, await service.accept(offered.id, BOB))
    elif how == "rated-false":
        view = await both_move(service, await begin(service, ALICE, BOB, 10, rated=False))
    elif how == "variant":
        view = await both_move(
            service, await begin(service, ALICE, BOB, 10, variant=["capture=huff"])
        )
    else:
        view = await begin(service, ALICE, BOB, 10)
        if how == "one-side-moved":
            view = (await service.move(ALICE, view.state.legal_moves()[0], game_id=view.id)).view
        elif how == "abandoned":
            view = await both_move(service, view)
    if how == "abandoned":
        await service.abandon_channel(10)
    else:
        await service.resign(ALICE, game_id=view.id)
    assert (await service.view(game_id=view.id)).status is Status.FINISHED
    assert await store.changes_of_game(view.id) == []
    assert await store.standing(GUILD, "oska", ALICE) is None


async def test_a_retried_end_never_rates_twice(env: Env) -> None:
    service, _, store = env
    view = await both_move(service, await begin(service, ALICE, BOB, 10))
    await service.resign(BOB, game_id=view.id)
    with pytest.raises(Exception):  # noqa: B017 - the game is over; how it says so is its own test
        await service.resign(BOB, game_id=view.id)
    assert len(await store.changes_of_game(view.id)) == 2
    bob = await store.standing(GUILD, "oska", BOB)
    assert bob is not None and bob.games == 1


async def test_a_failure_inside_the_end_leaves_neither_the_end_nor_the_rating(env: Env) -> None:
    service, _, store = env
    view = await both_move(service, await begin(service, ALICE, BOB, 10))
    row = (await service.view(game_id=view.id)).row

    def broken(*_: object) -> object:
        raise RuntimeError("the process died here")

    finished = dataclasses.replace(row, status=Status.FINISHED, result="1-0")
    with pytest.raises(RuntimeError):
        await store.finish_rated(finished, broken)  # type: ignore[arg-type]
    assert (await service.view(game_id=view.id)).status is Status.ACTIVE
    assert await store.changes_of_game(view.id) == []
    # The end written again (a retry, after a restart) rates it, once.
    await service.resign(BOB, game_id=view.id)
    assert len(await store.changes_of_game(view.id)) == 2


async def test_two_games_of_one_player_ending_at_once_are_both_rated_in_turn(env: Env) -> None:
    service, _, store = env
    one = await both_move(service, await begin(service, ALICE, BOB, 10))
    two = await both_move(service, await begin(service, ALICE, CAROL, 11))
    await asyncio.gather(service.resign(BOB, game_id=one.id), service.resign(CAROL, game_id=two.id))
    alice = await store.standing(GUILD, "oska", ALICE)
    assert alice is not None and (alice.games, alice.wins, alice.streak) == (2, 2, 2)
    changes = await store.rating_changes(GUILD, "oska", ALICE)
    # The second game started from the first one's result: nothing was lost in the race.
    assert changes[1].before == changes[0].after
    assert differences(await stored(store), await rebuild(store)) == []


async def test_recompute_gives_exactly_the_stored_ratings_and_season_tables(env: Env) -> None:
    service, clock, store = env
    season = await store.start_season(Season(GUILD, "Winter", clock()))
    assert season is not None
    chooser = random.Random(7)
    players = [ALICE, BOB, CAROL]
    for number in range(12):
        one, two = chooser.sample(players, 2)
        view = await both_move(service, await begin(service, one, two, 100 + number))
        clock.advance(timedelta(hours=chooser.randint(1, 60)))
        if chooser.random() < 0.3:
            await service.offer_draw(one, game_id=view.id)
            await service.accept_draw(two, game_id=view.id)
        else:
            await service.resign(chooser.choice((one, two)), game_id=view.id)
        if number == 8:
            await store.end_season(season.id, clock())
    now = await stored(store)
    assert len({c.game_id for c in now.changes}) == 12
    assert {line.season_id for line in now.scores} == {season.id}
    assert sum(line.games for line in now.scores) == 2 * 9  # the games before its end
    assert differences(now, await rebuild(store)) == []
    # A rating changed by hand is found, and a rebuild written puts it right.
    wrong = now.standings[0]
    await store.replace_ratings(None, [*now.standings[1:], wrong.__class__(
        wrong.guild_id, wrong.game, wrong.user_id, wrong.glicko.__class__(2999.0),
    )], now.changes, now.scores)  # fmt: skip
    assert len(differences(await stored(store), await rebuild(store))) == 1
    rebuilt = await rebuild(store)
    await store.replace_ratings(None, rebuilt.standings, rebuilt.changes, rebuilt.scores)
    assert await stored(store) == now


def test_rate_game_refuses_a_game_without_a_result() -> None:
    from datetime import UTC, datetime

    from matches.ratings import RatingInputs, Standing
    from matches.records import StoredGame

    moment = datetime(2026, 1, 1, tzinfo=UTC)
    row = StoredGame(GUILD, 10, "oska", Status.FINISHED, ALICE, moment, moment,
                     first_id=ALICE, second_id=BOB)  # fmt: skip
    read = RatingInputs((Standing(GUILD, "oska", ALICE), Standing(GUILD, "oska", BOB)))
    with pytest.raises(ValueError):
        rate_game(row, read)


async def test_five_players_after_ten_games_are_all_ranked(env: Env) -> None:
    # A small server: each of five players meets each other once, ten games in all.
    service, _, store = env
    players = [ALICE, BOB, CAROL, 400, 500]
    channel = 20
    for index, one in enumerate(players):
        for two in players[index + 1 :]:
            view = await both_move(service, await begin(service, one, two, channel))
            await service.resign(two, game_id=view.id)
            channel += 1
    board = await service.community.leaderboard(GUILD, "oska")
    # Everyone is still provisional (RD above 110), and everyone is ranked all the same.
    assert all(line.standing.provisional for line in board.lines)
    assert [line.rank for line in board.lines] == [1, 2, 3, 4, 5]
    assert [line.standing.user_id for line in board.lines] == players  # ALICE won all four
    ratings = [line.standing.rating for line in board.lines]
    assert ratings == sorted(ratings, reverse=True)
    for line in board.lines:
        assert await store.rank(GUILD, "oska", line.standing.user_id) == line.rank
    [game] = (await service.community.profile(GUILD, 500)).games
    assert game.rank == 5
