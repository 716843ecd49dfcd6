"""The manager's kit, on a SQLite file and on PostgreSQL: voids, suspensions, the limits on
challenges, and the audit log they are all written to.

A void leaves the ratings and season tables exactly as rating every other game
would have made them; a tournament's voided game is lost by both players. A
suspended player is refused every challenge, accept and tournament join on that
server, saying until when, and the suspension ends by itself. The limits are
checked wherever a game is started.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from matches import BadInput, GameView, ManualClock, MatchService, NoGameHere
from matches.ratings import Season, counts
from matches.recompute import differences, rate_all, rebuild, stored
from matches.records import AuditAction
from tests import store_support
from tests.matches_support import Env, refused, service_on

GUILD, OTHER_GUILD = 1, 2
ALICE, BOB, CAROL, MANAGER, BOT = 100, 200, 300, 400, 999
STUDY = '[Game "Oska"]\n\n1. e1-f2 e5-d4 *\n'

store_url = store_support.store_url


@pytest.fixture
async def env(store_url: str) -> AsyncIterator[Env]:
    async with service_on(store_url, BOT) as made:
        yield made


async def challenge(
    service: MatchService, one: int, two: int | None, channel: int = 10, *, guild: int = GUILD
) -> GameView:
    return await service.challenge(
        guild_id=guild, channel_id=channel, challenger_id=one, game="oska", opponent_id=two,
        first="challenger",
    )  # fmt: skip


async def rated(
    service: MatchService, clock: ManualClock, winner: int, loser: int, *, guild: int = GUILD
) -> int:
    """A rated game `winner` wins (the loser resigns after a move each); its id."""
    clock.advance(timedelta(minutes=5))
    view = await challenge(service, winner, loser, 10 + winner + loser, guild=guild)
    view = await service.accept(view.id, loser)
    for _ in range(2):
        mover = view.to_move_id
        assert mover is not None
        view = (await service.move(mover, view.state.legal_moves()[0], game_id=view.id)).view
    await service.resign(loser, game_id=view.id)
    return view.id


# ------------------------------------------------------------------------ voids


async def test_a_void_leaves_the_ratings_and_season_exactly_as_if_the_game_was_never_rated(
    env: Env,
) -> None:
    service, clock, store = env
    await rated(service, clock, ALICE, BOB)
    season = await store.start_season(Season(GUILD, "Spring", clock.advance(timedelta(minutes=1))))
    assert season is not None
    voided = await rated(service, clock, BOB, CAROL)
    await rated(service, clock, ALICE, CAROL)
    await rated(service, clock, CAROL, BOB)
    await rated(service, clock, BOB, ALICE, guild=OTHER_GUILD)
    other_before = await stored(store, OTHER_GUILD)
    # What rating every game but the voided one gives: the ratings as if it had never been.
    games = [g for g in await store.finished_games(GUILD) if counts(g) and g.id != voided]
    expected = rate_all(games, await store.seasons(GUILD), (await stored(store, GUILD)).changes)
    bob_before = await store.standing(GUILD, "oska", BOB)

    done = await service.managers.void(GUILD, MANAGER, voided, "Bob and Carol are one person")

    now = await stored(store, GUILD)
    assert now.standings == expected.standings
    assert now.scores == expected.scores
    assert [(c.game_id, c.user_id, c.after) for c in now.changes] == [
        (c.game_id, c.user_id, c.after) for c in expected.changes
    ]
    assert await store.changes_of_game(voided) == []
    table = await store.season_table(season.id, "oska")
    assert {line.user_id: line.games for line in table} == {ALICE: 1, BOB: 1, CAROL: 2}
    assert differences(await stored(store), await rebuild(store)) == []  # recompute agrees
    assert await stored(store, OTHER_GUILD) == other_before  # another server untouched
    # What the manager is shown: each player's rating before and after.
    assert done.before[0] == bob_before and done.after[0] == await store.standing(
        GUILD, "oska", BOB
    )
    assert done.before[0] is not None and done.after[0] is not None
    assert done.before[0].games == 3 and done.after[0].games == 2
    assert done.game.row.voided == "Bob and Carol are one person"
    assert (await service.view(game_id=voided)).row.voided == "Bob and Carol are one person"
    [entry] = (await service.managers.audit(GUILD)).entries
    assert (entry.action, entry.actor_id, entry.game_id) == (AuditAction.VOID, MANAGER, voided)
    assert entry.reason == "Bob and Carol are one person"


async def test_a_void_is_refused_twice_unrated_unfinished_and_from_another_server(
    env: Env,
) -> None:
    service, clock, _ = env
    game = await rated(service, clock, ALICE, BOB)
    await service.managers.void(GUILD, MANAGER, game, "cheating")
    with refused(BadInput, r"already voided \(cheating\)", code="managers.void.already"):
        await service.managers.void(GUILD, MANAGER, game, "again")
    unrated = await service.challenge(
        guild_id=GUILD, channel_id=30, challenger_id=ALICE, game="oska", opponent_id=BOT
    )
    await service.resign(ALICE, game_id=unrated.id)
    with refused(BadInput, "was not rated", code="managers.void.unrated"):
        await service.managers.void(GUILD, MANAGER, unrated.id, "no")
    running = await service.accept((await challenge(service, ALICE, CAROL, 31)).id, CAROL)
    with refused(BadInput, "is not over", code="managers.void.not-over"):
        await service.managers.void(GUILD, MANAGER, running.id, "no")
    elsewhere = await rated(service, clock, ALICE, BOB, guild=OTHER_GUILD)
    with pytest.raises(NoGameHere):
        await service.managers.void(GUILD, MANAGER, elsewhere, "not ours")
    with refused(BadInput, "Give a reason", code="managers.reason.empty"):
        await service.managers.void(OTHER_GUILD, MANAGER, elsewhere, "  ")
    assert (await service.view(game_id=elsewhere)).row.voided is None
    assert len((await service.managers.audit(GUILD)).entries) == 1


async def test_a_tournament_games_void_is_a_double_forfeit(env: Env) -> None:
    service, _, _ = env
    cup = await service.tournaments.create(
        guild_id=GUILD, channel_id=71, by=MANAGER, game="oska", format="round-robin", name="Cup"
    )
    for user in (ALICE, BOB):
        await service.tournaments.join(GUILD, cup.id, user)
    await service.tournaments.start(GUILD, cup.id)
    [pairing] = await service.tournaments.pairings(cup.id)
    game = await service.tournaments.start_game(pairing.id, cup.id, 73)
    assert game is not None
    for _ in range(2):
        mover = game.to_move_id
        assert mover is not None
        game = (await service.move(mover, game.state.legal_moves()[0], game_id=game.id)).view
    loser = pairing.second_id
    assert loser is not None
    await service.resign(loser, game_id=game.id)
    await service.events.settled()
    before = {line.player: line.points for line in await service.tournaments.standings(cup.id)}
    assert before == {pairing.first_id: 1.0, loser: 0.0}

    await service.managers.void(GUILD, MANAGER, game.id, "arranged result")

    lines = await service.tournaments.standings(cup.id)
    assert {line.player: (line.points, line.losses) for line in lines} == {
        pairing.first_id: (0.0, 1), loser: (0.0, 1),
    }  # fmt: skip
    [rescored] = await service.tournaments.pairings(cup.id)
    assert rescored.voided and rescored.score == 0.0 and rescored.forfeit


# ------------------------------------------------------------------ suspensions


async def test_a_suspended_player_is_refused_challenges_accepts_and_joins_until_it_ends(
    env: Env,
) -> None:
    service, clock, _ = env
    suspension = await service.managers.suspend(GUILD, MANAGER, BOB, 2, "spamming challenges")
    until = int(suspension.until.timestamp())
    assert suspension.until == clock() + timedelta(days=2)
    text = rf"suspended on this server until <t:{until}:f> \(<t:{until}:R>\): no challenges"
    with refused(BadInput, text, code="managers.gate.suspended", until=until):
        await challenge(service, BOB, ALICE)
    with refused(BadInput, code="managers.gate.suspended"):
        await challenge(service, BOB, None)  # an open challenge too
    offered = await challenge(service, ALICE, BOB)
    with refused(BadInput, "cannot accept challenges", code="managers.accept.suspended"):
        await service.accept(offered.id, BOB)
    with refused(BadInput, code="managers.accept.suspended"):
        await service.may_accept(offered.id, BOB)
    cup = await service.tournaments.create(
        guild_id=GUILD, channel_id=71, by=MANAGER, game="oska", format="round-robin", name="Cup"
    )
    with refused(BadInput, "cannot join tournaments", code="managers.join.suspended"):
        await service.tournaments.join(GUILD, cup.id, BOB)
    # Their challenge made before the suspension waits, but nobody may take it up.
    clock.advance(timedelta(days=2, seconds=1))
    earlier = await challenge(service, BOB, None)
    await service.managers.suspend(GUILD, MANAGER, BOB, 2, "spamming challenges")
    until = int((clock() + timedelta(days=2)).timestamp())
    text = rf"its author may not play on this server until <t:{until}:f>"
    with refused(BadInput, text, code="managers.accept.challenger-suspended", until=until):
        await service.accept(earlier.id, CAROL)
    with refused(BadInput, code="managers.accept.challenger-suspended"):
        await service.may_accept(earlier.id, CAROL)
    # Kamen's games stay open to them, and so does every other server.
    kamen = await challenge(service, BOB, BOT, 40)
    assert kamen.players is not None and BOB in kamen.players
    await challenge(service, BOB, ALICE, guild=OTHER_GUILD)

    clock.advance(timedelta(days=2, seconds=1))  # it ends by itself

    assert await service.managers.suspended(GUILD, BOB) is None
    await challenge(service, BOB, CAROL)
    await service.tournaments.join(GUILD, cup.id, BOB)


async def test_unsuspending_lifts_it_and_both_are_in_the_audit_log(env: Env) -> None:
    service, _, _ = env
    await service.managers.suspend(GUILD, MANAGER, BOB, 7, "rude")
    await service.managers.unsuspend(GUILD, MANAGER, BOB)
    await challenge(service, BOB, ALICE)
    with refused(BadInput, "is not suspended", code="managers.unsuspend.none"):
        await service.managers.unsuspend(GUILD, MANAGER, BOB)
    with refused(BadInput, "from 1 to 3650", code="managers.suspend.days"):
        await service.managers.suspend(GUILD, MANAGER, BOB, 0, "rude")
    entries = (await service.managers.audit(GUILD)).entries
    assert [(e.action, e.user_id) for e in entries] == [
        (AuditAction.UNSUSPEND, BOB), (AuditAction.SUSPEND, BOB),
    ]  # fmt: skip


# ---------------------------------------------------------------------- limits


async def test_the_challenge_cooldown_makes_a_person_wait_between_two_challenges(
    env: Env,
) -> None:
    service, clock, _ = env
    await service.managers.set_challenge_cooldown(GUILD, 60)
    await challenge(service, ALICE, BOB)
    at = int((clock() + timedelta(seconds=60)).timestamp())
    with refused(BadInput, rf"next one can be made <t:{at}:R>", code="managers.gate.cooldown"):
        await challenge(service, ALICE, CAROL, 11)
    await challenge(service, BOB, CAROL, 12)  # another person: no wait
    await challenge(service, ALICE, BOT, 13)  # Kamen: no wait
    clock.advance(timedelta(seconds=60))
    await challenge(service, ALICE, CAROL, 11)


async def test_the_open_challenges_limit_counts_a_persons_open_challenges_here(
    env: Env,
) -> None:
    service, _, _ = env
    await service.managers.set_open_challenges(GUILD, 2)
    first = await challenge(service, ALICE, BOB)
    await challenge(service, ALICE, None, 11)
    with refused(BadInput, "already have 2 open challenges", code="managers.gate.open", limit=2):
        await challenge(service, ALICE, CAROL, 12)
    await challenge(service, ALICE, CAROL, 12, guild=OTHER_GUILD)  # another server's
    await service.cancel(first.id, ALICE)
    await challenge(service, ALICE, CAROL, 12)
    await service.managers.set_open_challenges(GUILD, None)
    await challenge(service, ALICE, BOB, 13)


async def test_games_start_only_in_the_game_channels_and_the_refusal_names_them(
    env: Env,
) -> None:
    service, _, _ = env
    await service.managers.toggle_game_channel(GUILD, 10)
    settings = await service.managers.toggle_game_channel(GUILD, 20)
    assert settings.game_channels == (10, 20)
    text = r"Games are started only in <#10> <#20> on this server\."
    with refused(BadInput, text, code="managers.gate.channels"):
        await challenge(service, ALICE, BOB, 11)
    with refused(BadInput, code="managers.gate.channels"):
        await challenge(service, ALICE, BOT, 11)
    with refused(BadInput, code="managers.gate.channels"):
        await service.import_record(
            guild_id=GUILD, channel_id=11, user_id=ALICE, text=STUDY, opponent_id=BOT
        )
    with refused(BadInput, code="managers.gate.channels"):
        await service.import_record(guild_id=GUILD, channel_id=11, user_id=ALICE, text=STUDY)
    await challenge(service, ALICE, BOB, 20)
    await challenge(service, ALICE, BOB, 11, guild=OTHER_GUILD)
    assert (await service.managers.toggle_game_channel(GUILD, 10)).game_channels == (20,)
    await service.managers.clear_game_channels(GUILD)
    await challenge(service, ALICE, BOT, 11)


# -------------------------------------------------------------------- the log


async def test_the_audit_log_pages_newest_first_and_records_settings_changes(
    env: Env,
) -> None:
    service, _, _ = env
    for number in range(12):
        await service.managers.suspend(GUILD, MANAGER, 1000 + number, 1, f"reason {number}")
    before = await service.settings(GUILD)
    after = await service.managers.set_challenge_cooldown(GUILD, 30)
    await service.managers.settings_changed(GUILD, MANAGER, before, after)
    await service.managers.settings_changed(GUILD, MANAGER, after, after)  # nothing: no line
    first = await service.managers.audit(GUILD)
    assert (first.page, first.pages, len(first.entries)) == (0, 2, 10)
    assert first.entries[0].action is AuditAction.SETTINGS
    assert first.entries[0].details == "challenge_cooldown=30"
    assert [e.reason for e in first.entries[1:]] == [f"reason {n}" for n in range(11, 2, -1)]
    second = await service.managers.audit(GUILD, 1)
    assert [e.reason for e in second.entries] == ["reason 2", "reason 1", "reason 0"]
    assert (await service.managers.audit(GUILD, 9)).page == 1  # past the last: the last
    assert (await service.managers.audit(OTHER_GUILD)).entries == ()


async def test_removing_a_player_and_cancelling_a_tournament_are_in_the_audit_log(
    env: Env,
) -> None:
    service, _, _ = env
    cup = await service.tournaments.create(
        guild_id=GUILD, channel_id=71, by=MANAGER, game="oska", format="round-robin", name="Cup"
    )
    for user in (ALICE, BOB, CAROL):
        await service.tournaments.join(GUILD, cup.id, user)
    await service.tournaments.leave(GUILD, cup.id, CAROL, reason="no-show", by=MANAGER)
    await service.tournaments.leave(GUILD, cup.id, BOB)  # Bob himself: not a manager's act
    await service.tournaments.cancel(GUILD, cup.id, "rain", by=MANAGER)
    entries = (await service.managers.audit(GUILD)).entries
    assert [(e.action, e.actor_id, e.user_id, e.reason, e.details) for e in entries] == [
        (AuditAction.TOURNAMENT_CANCEL, MANAGER, None, "rain", f"tournament={cup.id}"),
        (AuditAction.TOURNAMENT_REMOVE, MANAGER, CAROL, "no-show", f"tournament={cup.id}"),
    ]
