"""Challenges through the service on a real SQLite file: every way one begins and ends."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from matches import (
    BadInput,
    CannotChallengeYourself,
    ChallengeClosed,
    ChallengeExpired,
    ChallengeRepeated,
    FirstLegalMove,
    GameAlreadyHere,
    GameView,
    ManualClock,
    MatchService,
    NoGameHere,
    NotAPlayer,
    NotChallenged,
    Status,
    SweepKind,
)
from store import open_store
from tests.matches_support import refused

GUILD, CHANNEL, THREAD = 1, 10, 11
ALICE, BOB, CAROL, BOT = 100, 200, 300, 999


class Env:
    def __init__(self, service: MatchService, clock: ManualClock, path: Path) -> None:
        self.service, self.clock, self.path = service, clock, path

    def rows(self) -> list[tuple[int, str]]:
        """The games as the file holds them (id, status), read past the service."""
        db = sqlite3.connect(self.path)
        try:
            return list(db.execute("SELECT id, status FROM games ORDER BY created_at, channel_id"))
        finally:
            db.close()


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    path = tmp_path / "kamen.db"
    store = await open_store(f"sqlite:///{path}")
    clock = ManualClock()
    service = MatchService(
        store, bot_user_id=BOT, picker=FirstLegalMove(), clock=clock, rng=random.Random(7)
    )
    yield Env(service, clock, path)
    await store.close()


async def challenge(env: Env, **options: object) -> GameView:
    values: dict[str, object] = {
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "challenger_id": ALICE,
        "game": "oska",
        "opponent_id": BOB,
    }
    values.update(options)
    # deliberately untyped: the bad-input tests pass values of the wrong type
    return await env.service.challenge(**values)  # type: ignore[arg-type]


# ------------------------------------------------------------------ accepting


@pytest.mark.parametrize(
    ("first", "players"), [("challenger", (ALICE, BOB)), ("opponent", (BOB, ALICE))]
)
async def test_a_challenge_accepted_starts_the_game(
    env: Env, first: str, players: tuple[int, int]
) -> None:
    offered = await challenge(env, first=first, variant="capture=huff")
    assert offered.status is Status.CHALLENGE and offered.players is None
    assert offered.deadline == env.clock() + timedelta(hours=24)
    game = await env.service.accept(offered.id, BOB)
    assert game.status is Status.ACTIVE and game.players == players
    assert game.to_move_id == players[0] and game.ply == 0
    assert str(game.state.variant) == "capture=huff"
    assert game.deadline == env.clock() + timedelta(days=3)  # the server's default
    assert env.rows() == [(offered.id, "active")]


async def test_random_first_is_decided_by_the_injected_chance(tmp_path: Path) -> None:
    store = await open_store(f"sqlite:///{tmp_path}/k.db")
    try:
        firsts = set()
        for seed in range(8):
            service = MatchService(store, clock=ManualClock(), rng=random.Random(seed))
            offered = await service.challenge(
                guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="lasca",
                opponent_id=BOB,
            )  # fmt: skip
            firsts.add((await service.accept(offered.id, BOB, channel_id=100 + seed)).players)
    finally:
        await store.close()
    assert firsts == {(ALICE, BOB), (BOB, ALICE)}


async def test_only_the_challenged_user_can_accept(env: Env) -> None:
    offered = await challenge(env)
    with refused(NotChallenged, "Only the challenged user"):
        await env.service.accept(offered.id, CAROL)
    with refused(CannotChallengeYourself, "your own challenge"):
        await env.service.accept(offered.id, ALICE)
    assert env.rows() == [(offered.id, "challenge")]


async def test_a_challenge_cannot_be_accepted_twice(env: Env) -> None:
    offered = await challenge(env)
    await env.service.accept(offered.id, BOB)
    with refused(ChallengeClosed, "already accepted"):
        await env.service.accept(offered.id, BOB)


async def test_you_cannot_challenge_yourself_and_nothing_is_written(env: Env) -> None:
    with pytest.raises(CannotChallengeYourself):
        await challenge(env, opponent_id=ALICE)
    assert env.rows() == []


async def test_an_open_challenge_is_taken_by_anyone_but_its_author(env: Env) -> None:
    offered = await challenge(env, opponent_id=None, first="challenger")
    assert offered.opponent_id is None
    with pytest.raises(CannotChallengeYourself):
        await env.service.accept(offered.id, ALICE)
    game = await env.service.accept(offered.id, CAROL)
    assert game.players == (ALICE, CAROL) and game.opponent_id == CAROL


async def test_accepting_into_a_thread_moves_the_game_there(env: Env) -> None:
    offered = await challenge(env)
    game = await env.service.accept(offered.id, BOB, channel_id=THREAD)
    assert game.channel_id == THREAD
    assert (await env.service.view(channel_id=THREAD)).id == game.id
    with pytest.raises(NoGameHere):
        await env.service.view(channel_id=CHANNEL)


async def test_accepting_into_a_busy_channel_is_refused_and_the_challenge_stays(env: Env) -> None:
    first = await challenge(env)
    second = await challenge(env, challenger_id=CAROL)
    await env.service.accept(first.id, BOB)
    with pytest.raises(GameAlreadyHere):
        await env.service.accept(second.id, BOB)
    assert (await env.service.view(game_id=second.id)).status is Status.CHALLENGE
    assert (await env.service.accept(second.id, BOB, channel_id=THREAD)).status is Status.ACTIVE


async def test_without_threads_a_busy_channel_refuses_new_challenges(env: Env) -> None:
    await env.service.accept((await challenge(env)).id, BOB)
    await challenge(env, challenger_id=CAROL)  # threads on (the default): it may get one
    settings = await env.service.set_threads(GUILD, False)
    assert settings.threads is False and (await env.service.settings(GUILD)).threads is False
    with pytest.raises(GameAlreadyHere):
        await challenge(env, challenger_id=CAROL)
    assert await challenge(env, challenger_id=CAROL, channel_id=12, game="oware")


async def test_the_same_challenge_twice_is_refused_naming_the_first(env: Env) -> None:
    first = await challenge(env)
    with pytest.raises(ChallengeRepeated) as caught:
        await challenge(env, channel_id=12)  # the same offer, from anywhere
    assert caught.value.params["id"] == first.id
    assert caught.value.params["channel_id"] == first.channel_id
    # Any difference makes it another challenge: the rules, the time, the game.
    assert await challenge(env, game="lasca")
    assert await challenge(env, time="5m")
    # Once the first is answered, the same challenge may be made again.
    await env.service.decline(first.id, BOB)
    assert await challenge(env)


async def test_a_player_may_play_in_several_channels(env: Env) -> None:
    for channel in (20, 21, 22):
        offered = await challenge(env, channel_id=channel, game="oware")
        await env.service.accept(offered.id, BOB)
    games = await env.service.open_games_of(ALICE)
    assert sorted(game.channel_id for game in games) == [20, 21, 22]
    assert len(await env.service.active_games(GUILD)) == 3


# --------------------------------------------------- declining and cancelling


async def test_decline_is_for_the_challenged_user_only(env: Env) -> None:
    offered = await challenge(env)
    with refused(NotChallenged, "cancel it"):
        await env.service.decline(offered.id, ALICE)
    with pytest.raises(NotChallenged):
        await env.service.decline(offered.id, CAROL)
    declined = await env.service.decline(offered.id, BOB)
    assert declined.status is Status.DECLINED and declined.deadline is None
    with refused(ChallengeClosed, "declined"):
        await env.service.accept(offered.id, BOB)


async def test_an_open_challenge_cannot_be_declined(env: Env) -> None:
    offered = await challenge(env, opponent_id=None)
    with pytest.raises(NotChallenged):
        await env.service.decline(offered.id, BOB)


async def test_cancel_is_for_the_challenger_only(env: Env) -> None:
    offered = await challenge(env)
    with refused(NotAPlayer, "Only the challenger"):
        await env.service.cancel(offered.id, BOB)
    cancelled = await env.service.cancel(offered.id, ALICE)
    assert cancelled.status is Status.CANCELLED
    with refused(ChallengeClosed, "cancelled"):
        await env.service.accept(offered.id, BOB)
    assert env.rows() == [(offered.id, "cancelled")]


# ------------------------------------------------------------------- expiring


async def test_a_challenge_expires_after_24_hours(env: Env) -> None:
    late = await challenge(env)
    in_time = await challenge(env, channel_id=12, game="lasca")
    env.clock.advance(timedelta(hours=24) - timedelta(seconds=1))
    assert (await env.service.accept(in_time.id, BOB)).status is Status.ACTIVE
    env.clock.advance(1)
    with pytest.raises(ChallengeExpired):
        await env.service.accept(late.id, BOB)
    assert env.rows() == [(late.id, "expired"), (in_time.id, "active")]
    with pytest.raises(ChallengeExpired):
        await env.service.cancel(late.id, ALICE)


async def test_the_sweeper_expires_challenges_once(env: Env) -> None:
    offered = await challenge(env)
    assert await env.service.sweep() == []
    env.clock.advance(timedelta(hours=24))
    events = await env.service.sweep()
    assert [(e.kind, e.user_id, e.view.id) for e in events] == [
        (SweepKind.EXPIRED, ALICE, offered.id)
    ]
    assert events[0].view.status is Status.EXPIRED
    assert await env.service.sweep() == []


async def test_the_expiry_time_can_be_configured(tmp_path: Path) -> None:
    store = await open_store(f"sqlite:///{tmp_path}/k.db")
    clock = ManualClock()
    service = MatchService(store, clock=clock, challenge_ttl=timedelta(hours=1))
    try:
        offered = await service.challenge(
            guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oska", opponent_id=BOB
        )
        assert offered.deadline == clock() + timedelta(hours=1)
        clock.advance(timedelta(hours=1))
        with pytest.raises(ChallengeExpired):
            await service.accept(offered.id, BOB)
    finally:
        await store.close()


# ------------------------------------------------------------------------ bot


async def test_a_challenge_to_the_bot_starts_at_once_and_the_bot_moves(env: Env) -> None:
    game = await challenge(env, opponent_id=BOT, first="opponent", level="hard", game="lasca")
    assert game.status is Status.ACTIVE and game.ai_level == "7"
    assert game.players == (BOT, ALICE) and game.bot_id == BOT and game.bot_to_move
    assert [view.id for view in await env.service.bot_turns()] == [game.id]
    moved = await env.service.play_bot_move(game.id)
    assert moved is not None and moved.move == game.state.legal_moves()[0]
    assert moved.mover_id == BOT and not moved.view.bot_to_move
    assert await env.service.bot_turns() == []
    assert await env.service.play_bot_move(game.id) is None  # not its turn


async def test_the_bot_plays_at_medium_unless_asked(env: Env) -> None:
    game = await challenge(env, opponent_id=BOT, first="challenger")
    assert game.ai_level == "3" and not game.bot_to_move


async def test_no_bot_without_a_picker(tmp_path: Path) -> None:
    store = await open_store(f"sqlite:///{tmp_path}/k.db")
    try:
        service = MatchService(store, bot_user_id=BOT, clock=ManualClock())
        with refused(BadInput, "no computer opponent"):
            await service.challenge(
                guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oska",
                opponent_id=BOT,
            )  # fmt: skip
    finally:
        await store.close()


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"game": "chess"}, "not a game here"),
        ({"game": "o" * 33}, "too long"),
        ({"variant": "capture=sometimes"}, "capture=forced"),
        ({"variant": "colour=red"}, "unknown option"),
        ({"variant": "capture=huff " * 30}, "too long"),
        ({"game": "oware", "variant": ["grandslam=forbidden", "must-play-12=maybe"]}, "on"),
        ({"time": "soon"}, "not a time control"),
        ({"time": "30s"}, "between 1 minute and 14 days"),
        ({"time": timedelta(days=15)}, "between 1 minute and 14 days"),
        ({"first": "me"}, "who plays first"),
        ({"level": "hard"}, "against the bot"),
        ({"opponent_id": BOT, "level": "grandmaster"}, "not a level"),
        ({"channel_id": -5}, "channel id"),
        ({"guild_id": True}, "server id"),
        ({"challenger_id": 2**64}, "user id"),
        ({"opponent_id": 0}, "user id"),
    ],
)
async def test_bad_input_is_refused_and_nothing_is_written(
    env: Env, options: dict[str, object], words: str
) -> None:
    with refused(BadInput, words):
        await challenge(env, **options)
    assert env.rows() == []


async def test_time_controls_are_read_in_the_usual_units(env: Env) -> None:
    for text, seconds in (("5m", 300), ("5 min", 300), ("1h", 3600), ("3d", 259200)):
        offered = await challenge(env, time=text)
        assert offered.move_seconds == seconds
        await env.service.cancel(offered.id, ALICE)  # or the next would repeat it
    assert (await challenge(env, time="none", rated=False)).move_seconds is None


async def test_unknown_game_ids_and_empty_channels(env: Env) -> None:
    with refused(NoGameHere, "#42"):
        await env.service.accept(42, BOB)
    with refused(NoGameHere, "no game in this channel"):
        await env.service.view(channel_id=CHANNEL)


async def test_games_that_start_at_once_need_a_free_channel(env: Env) -> None:
    game = await env.service.accept((await challenge(env)).id, BOB)
    with pytest.raises(GameAlreadyHere):
        await challenge(env, challenger_id=CAROL, opponent_id=BOT)
    with pytest.raises(GameAlreadyHere):
        await env.service.import_record(
            guild_id=GUILD, channel_id=CHANNEL, user_id=CAROL, text='[Game "Oska"]\n\n*\n'
        )
    assert env.rows() == [(game.id, "active")]
