"""Games always end (issue 30, item 3), on a SQLite file and on PostgreSQL.

A challenge between people that names no time takes the server's default time
control (3 days a move until the server chooses, never none); a rated one named
untimed is refused, and so is an untimed tournament. An untimed game whose player
to move has not moved for 7 days may be claimed by the other: it ends as abandoned.
A tournament player removed, leaving or forgotten after the start has their game
being played resigned, and the round goes on.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from games.base import Termination
from matches import (
    CLAIM_AFTER,
    BadInput,
    Ending,
    GameOver,
    GameView,
    MatchService,
    NotAPlayer,
    Status,
)
from matches.people import StillPlaying
from matches.storage import Store
from matches.tournament_records import Stage, StoredPairing
from matches.tournaments import Progress
from tests import store_support
from tests.matches_support import Env, refused, service_on

GUILD, CHANNEL, OWNER = 1, 10, 99
ALICE, BOB, CAROL, BOT = 100, 200, 300, 999
DAY = 86400

store_url = store_support.store_url


@pytest.fixture
async def env(store_url: str) -> AsyncIterator[Env]:
    async with service_on(store_url, BOT) as made:
        yield made


async def challenge(service: MatchService, **options: object) -> GameView:
    values: dict[str, object] = {
        "guild_id": GUILD, "channel_id": CHANNEL, "challenger_id": ALICE, "game": "oska",
        "opponent_id": BOB, "first": "challenger",
    }  # fmt: skip
    values.update(options)
    return await service.challenge(**values)  # type: ignore[arg-type]


# ------------------------------------------------------------- the server's default time


async def test_a_challenge_naming_no_time_takes_the_servers_default(env: Env) -> None:
    service, clock, _ = env
    offered = await challenge(service)
    game = await service.accept(offered.id, BOB)
    assert game.row.rated and game.move_seconds == 3 * DAY
    assert game.deadline == clock() + timedelta(days=3)
    await service.set_time_control(GUILD, "1h")
    assert (await challenge(service, channel_id=11)).move_seconds == 3600
    await service.set_time_control(GUILD, "5+3")
    live = await challenge(service, channel_id=12)
    assert live.move_seconds is None and str(live.live_control) == "5+3"
    # Another server keeps its own default.
    assert (await challenge(service, guild_id=2, channel_id=13)).move_seconds == 3 * DAY


async def test_kamen_and_a_study_stay_untimed_unless_a_time_is_named(env: Env) -> None:
    service, _, _ = env
    against_kamen = await challenge(service, opponent_id=BOT)
    assert against_kamen.status is Status.ACTIVE and against_kamen.deadline is None
    assert against_kamen.move_seconds is None and against_kamen.live_control is None
    studied = await service.import_record(
        guild_id=GUILD, channel_id=11, user_id=CAROL, text='[Game "Oska"]\n\n*\n'
    )
    assert studied.move_seconds is None and studied.deadline is None
    timed = await challenge(service, challenger_id=CAROL, opponent_id=BOT, channel_id=12,
                            time="1d")  # fmt: skip
    assert timed.move_seconds == DAY


async def test_a_rated_untimed_challenge_is_refused_and_an_unrated_one_is_not(
    env: Env,
) -> None:
    service, _, _ = env
    with refused(BadInput, r"^A rated game needs a time control: choose one with `time:`"):
        await challenge(service, time="none")
    with refused(BadInput, "rated: False", code="match.rated-needs-time"):
        await challenge(service, opponent_id=None, time="none")  # open to anyone
    assert await service.open_games_of(ALICE) == []
    unrated = await challenge(service, time="none", rated=False)
    game = await service.accept(unrated.id, BOB)
    assert game.move_seconds is None and game.deadline is None and not game.row.rated


async def test_the_servers_default_is_never_none(env: Env) -> None:
    service, _, _ = env
    assert (await service.settings(GUILD)).time_control == "3d"
    for bad in ("none", "off", "soon", "99d"):
        with pytest.raises(BadInput):
            await service.set_time_control(GUILD, bad)
    with refused(BadInput, "cannot be none", code="match.input.server-time-none"):
        await service.set_time_control(GUILD, "none")
    assert (await service.settings(GUILD)).time_control == "3d"
    assert (await service.set_time_control(GUILD, " 10+5 ")).time_control == "10+5"
    assert (await service.settings(GUILD)).time_control == "10+5"


async def test_a_tournament_naming_no_time_takes_the_servers_and_none_is_refused(
    env: Env,
) -> None:
    service, _, _ = env

    async def create(**options: object) -> int | None:
        made = await service.tournaments.create(
            guild_id=GUILD, channel_id=CHANNEL, by=OWNER, game="oska", format="round-robin",
            name="Cup", **options,  # type: ignore[arg-type]
        )  # fmt: skip
        return made.move_seconds

    assert await create() == 3 * DAY
    assert await create(time="1h") == 3600
    await service.set_time_control(GUILD, "1d")
    assert await create() == DAY
    await service.set_time_control(GUILD, "5+3")  # a tournament has no live clock
    assert await create() == 3 * DAY
    with refused(
        BadInput, r"^A tournament's games are rated and must end", code="tournament.needs-time"
    ):
        await create(time="none")


# ------------------------------------------------------------- claiming an abandoned game


async def untimed_game(service: MatchService) -> GameView:
    """Alice (first) and Bob in an unrated untimed game; Alice has moved: Bob to move."""
    offered = await challenge(service, time="none", rated=False)
    game = await service.accept(offered.id, BOB)
    return (await service.move(ALICE, "e1-f2", game_id=game.id)).view


async def test_an_untimed_game_abandoned_for_seven_days_is_claimed(env: Env) -> None:
    service, clock, _ = env
    assert timedelta(days=7) == CLAIM_AFTER
    game = await untimed_game(service)
    moved_at = clock()
    clock.advance(CLAIM_AFTER - timedelta(minutes=1))
    at = int((moved_at + CLAIM_AFTER).timestamp())
    with refused(BadInput, rf"not moved for 7 days: from <t:{at}:f> \(<t:{at}:R>\)\.$"):
        await service.claim(ALICE, game_id=game.id)
    with refused(BadInput, "It is your move", code="match.claim.your-turn"):
        await service.claim(BOB, game_id=game.id)
    with refused(NotAPlayer):
        await service.claim(CAROL, game_id=game.id)
    assert (await service.view(game_id=game.id)).status is Status.ACTIVE
    clock.advance(timedelta(minutes=1))
    ended = await service.claim(ALICE, game_id=game.id)
    assert ended.status is Status.FINISHED and ended.reason is Termination.ABANDONED
    assert ended.ending is Ending.ABANDONED and ended.result is None
    assert await service.active_games(GUILD) == []
    with refused(GameOver):
        await service.claim(ALICE, game_id=game.id)


async def test_a_move_starts_the_seven_days_again(env: Env) -> None:
    service, clock, _ = env
    game = await untimed_game(service)
    clock.advance(timedelta(days=6))
    await service.move(BOB, "e5-d4", game_id=game.id)
    clock.advance(timedelta(days=6))
    with refused(BadInput, code="match.claim.too-soon"):
        await service.claim(BOB, game_id=game.id)
    clock.advance(timedelta(days=1))
    assert (await service.claim(BOB, game_id=game.id)).reason is Termination.ABANDONED


async def test_a_timed_game_is_never_claimed(env: Env) -> None:
    service, clock, _ = env
    game = await service.accept((await challenge(service, time="14d")).id, BOB)
    await service.move(ALICE, "e1-f2", game_id=game.id)
    clock.advance(timedelta(days=8))
    with refused(BadInput, "ends on time", code="match.claim.timed"):
        await service.claim(ALICE, game_id=game.id)


# ------------------------------------------------------------- tournaments go on


async def stalled_swiss(service: MatchService) -> tuple[int, GameView, StoredPairing]:
    """A 3-player Swiss of 2 rounds, started: round 1's game opened, each side moved once,
    and the player to move never moves again; the tournament, the game and its pairing."""
    made = await service.tournaments.create(
        guild_id=GUILD, channel_id=CHANNEL, by=OWNER, game="oska", format="swiss",
        name="Cup", rounds=2,
    )  # fmt: skip
    for user in (ALICE, BOB, CAROL):
        await service.tournaments.join(GUILD, made.id, user)
    started = await service.tournaments.start(GUILD, made.id)
    [pairing] = [p for p in started.new if p.second_id is not None]
    game = await service.tournaments.start_game(pairing.id, made.id, 500)
    assert game is not None and game.move_seconds == 3 * DAY
    for _ in range(2):  # each side moves once (so the game counts for ratings), then no more
        mover = game.to_move_id
        assert mover is not None
        game = (await service.move(mover, game.state.legal_moves()[0], game_id=game.id)).view
    return made.id, game, pairing


async def assert_round_goes_on(
    service: MatchService, store: Store, tid: int, game: GameView, gone: int
) -> GameView:
    await service.events.settled()
    ended = await service.view(game_id=game.id)
    assert ended.status is Status.FINISHED and ended.reason is Termination.RESIGNATION
    assert ended.ending is Ending.RESIGNED
    assert ended.winner is not None and ended.players is not None
    assert ended.players[ended.winner.value] != gone
    assert game.id not in [view.id for view in await service.active_games(GUILD)]
    tournament = await service.tournaments.find(GUILD, tid)
    assert tournament.stage is Stage.RUNNING and tournament.round == 2
    pairings = await service.tournaments.pairings(tid)
    assert all(p.done for p in pairings if p.round == 1)
    second = [p for p in pairings if p.round == 2]
    assert second and all(gone not in (p.first_id, p.second_id) or p.done for p in second)
    winner = ended.players[ended.winner.value]
    standing = await store.standing(GUILD, "oska", winner)
    assert standing is not None and standing.games == 1 and standing.wins == 1  # rated
    return ended


async def test_removing_the_player_to_move_resigns_the_game_and_the_round_goes_on(
    env: Env,
) -> None:
    service, _, store = env
    tid, game, _ = await stalled_swiss(service)
    stalling = game.to_move_id
    assert stalling is not None
    progress = await service.tournaments.leave(GUILD, tid, stalling, reason="never moves")
    assert [view.id for view in progress.resigned] == [game.id]
    # Round 2 is paired at once: by the withdrawal, or by the game's end it heard first.
    assert progress.tournament.round == 2
    await assert_round_goes_on(service, store, tid, game, stalling)
    lines = {line.player: line for line in await service.tournaments.standings(tid)}
    assert lines[stalling].losses == 1


async def test_a_player_leaving_after_the_start_resigns_their_game(env: Env) -> None:
    service, _, store = env
    tid, game, pairing = await stalled_swiss(service)
    waiting = pairing.first_id if game.to_move_id == pairing.second_id else pairing.second_id
    assert waiting is not None
    progress = await service.tournaments.leave(GUILD, tid, waiting)
    assert [view.id for view in progress.resigned] == [game.id]
    await assert_round_goes_on(service, store, tid, game, waiting)


async def test_forgetting_a_tournament_player_resigns_their_game_and_withdraws_them(
    env: Env,
) -> None:
    service, _, store = env
    tid, game, _ = await stalled_swiss(service)
    stalling = game.to_move_id
    assert stalling is not None
    told: list[Progress] = []
    service.tournaments.on_progress(told.append)
    anonymous = await service.people.forget(stalling)
    assert anonymous < 0
    assert [view.id for p in told for view in p.resigned] == [game.id]
    await assert_round_goes_on(service, store, tid, game, anonymous)
    entrants = {e.user_id: e for e in await service.tournaments.entrants(tid)}
    assert stalling not in entrants and not entrants[anonymous].playing


async def test_forgetting_still_waits_for_a_game_outside_tournaments(env: Env) -> None:
    service, _, _ = env
    tid, game, _ = await stalled_swiss(service)
    stalling = game.to_move_id
    other = CAROL if stalling != CAROL else ALICE
    assert stalling is not None
    await challenge(service, challenger_id=stalling, opponent_id=other, channel_id=77)
    with refused(StillPlaying):
        await service.people.forget(stalling)
    assert (await service.view(game_id=game.id)).status is Status.ACTIVE
    assert (await service.tournaments.find(GUILD, tid)).round == 1
    assert [view.id for view in await service.people.open_games(stalling)] != [game.id]


async def test_a_player_forgotten_during_the_sign_up_is_out_of_it(env: Env) -> None:
    service, _, _ = env
    made = await service.tournaments.create(
        guild_id=GUILD, channel_id=CHANNEL, by=OWNER, game="oska", format="round-robin",
        name="Cup",
    )  # fmt: skip
    for user in (ALICE, BOB, CAROL):
        await service.tournaments.join(GUILD, made.id, user)
    await service.people.forget(CAROL)
    playing = [e.user_id for e in await service.tournaments.entrants(made.id) if e.playing]
    assert playing == [ALICE, BOB]
    started = await service.tournaments.start(GUILD, made.id)
    assert {u for p in started.new for u in (p.first_id, p.second_id)} <= {ALICE, BOB, None}
