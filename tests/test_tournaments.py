"""Tournaments through the service: whole round robins, Swiss and arenas, played to the end.

No test tells the service that a game ended: it hears the end itself and moves the
tournament on (in the background: `service.events.settled()` waits for it).
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import timedelta
from pathlib import Path

import pytest

import words
from matches import FirstLegalMove, GameView, ManualClock, MatchService
from matches.errors import BadInput
from matches.storage import Store
from matches.tournament_records import Format, Stage, StoredPairing, Tournament
from matches.tournaments import Progress
from store import open_store

GUILD, CHANNEL, OWNER = 1, 10, 99

Env = tuple[MatchService, ManualClock, Store]


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    store = await open_store(f"sqlite:///{tmp_path / 'k.db'}")
    clock = ManualClock()
    service = MatchService(
        store, bot_user_id=999, picker=FirstLegalMove(), clock=clock, rng=random.Random(1)
    )
    yield service, clock, store
    await store.close()


async def signed_up(service: MatchService, players: list[int], **options: object) -> int:
    made = await service.tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        by=OWNER,
        game="oska",
        name="Cup",
        **options,  # type: ignore[arg-type]
    )
    for user in players:
        await service.tournaments.join(GUILD, made.id, user)
    return made.id


async def play(service: MatchService, pairing: StoredPairing, chooser: random.Random) -> None:
    """Open the pairing's game, each side moves once, then it ends by chance."""
    view = await opened_and_moved(service, pairing)
    await finish(service, pairing, view, chooser)


async def opened_and_moved(service: MatchService, pairing: StoredPairing) -> GameView:
    """The pairing's game opened, and each side's first move played."""
    channels = 1000 + pairing.id
    view = await service.tournaments.start_game(pairing.id, pairing.tournament_id, channels)
    assert view is not None
    for _ in range(2):
        mover = view.to_move_id
        assert mover is not None
        view = (await service.move(mover, view.state.legal_moves()[0], game_id=view.id)).view
    return view


async def finish(
    service: MatchService, pairing: StoredPairing, view: GameView, chooser: random.Random
) -> None:
    """The game ends by chance: a draw agreed, or either player resigns."""
    how = chooser.random()
    assert pairing.second_id is not None
    if how < 0.25:
        await service.offer_draw(pairing.first_id, game_id=view.id)
        await service.accept_draw(pairing.second_id, game_id=view.id)
    else:
        loser = pairing.first_id if how < 0.6 else pairing.second_id
        await service.resign(loser, game_id=view.id)


async def heard(service: MatchService, told: list[Progress]) -> Progress:
    """What the service's own reaction to the one game that just ended did."""
    await service.events.settled()
    assert len(told) == 1, told
    return told.pop()


async def run_to_the_end(service: MatchService, progress: Progress, seed: int) -> Progress:
    chooser = random.Random(seed)
    told: list[Progress] = []
    stop = service.tournaments.on_progress(told.append)
    waiting = [p for p in progress.new if not p.done]
    while waiting:
        pairing = waiting.pop(0)
        now = {p.id: p for p in await service.tournaments.pairings(pairing.tournament_id)}
        if now[pairing.id].done:  # settled meanwhile (a withdrawal): no game to play
            continue
        await play(service, pairing, chooser)
        progress = await heard(service, told)
        [game] = [p for p in progress.new if p.id == pairing.id] or [
            p
            for p in await service.tournaments.pairings(pairing.tournament_id)
            if p.id == pairing.id
        ]
        assert game.done, "the game's result was written when it ended"
        waiting += [p for p in progress.new if not p.done]
    stop()
    return progress


async def test_a_tournament_hears_its_games_end_by_itself(env: Env) -> None:
    """No bot and nobody telling it: a tournament game that ends scores and moves on."""
    service, _, store = env
    told: list[Progress] = []
    service.tournaments.on_progress(told.append)
    tid = await signed_up(service, [1, 2], format="round-robin")
    [pairing] = (await service.tournaments.start(GUILD, tid)).new
    view = await opened_and_moved(service, pairing)
    await service.resign(pairing.first_id, game_id=view.id)
    await service.events.settled()
    [progress] = told
    assert progress.finished and progress.tournament.stage is Stage.FINISHED
    [result] = await store.pairings(tid)
    assert result.score == 0.0 and result.game_id == view.id
    # A game outside any tournament is heard too, and tells no tournament's listener.
    other = await service.challenge(guild_id=GUILD, channel_id=CHANNEL, challenger_id=1,
                                    game="oska", opponent_id=2)  # fmt: skip
    other = await service.accept(other.id, 2)
    await service.resign(1, game_id=other.id)
    await service.events.settled()
    assert told == [progress]


async def test_a_four_player_round_robin_plays_every_pair_once(env: Env) -> None:
    service, _, store = env
    tid = await signed_up(service, [1, 2, 3, 4], format="round-robin")
    started = await service.tournaments.start(GUILD, tid)
    assert started.tournament.stage is Stage.RUNNING and len(started.new) == 2
    end = await run_to_the_end(service, started, 4)
    assert end.finished and end.tournament.stage is Stage.FINISHED
    made = await store.pairings(tid)
    pairs = Counter(frozenset((p.first_id, p.second_id)) for p in made)
    assert len(pairs) == 6 and set(pairs.values()) == {1}
    assert sorted(Counter(p.round for p in made).values()) == [2, 2, 2]
    lines = await service.tournaments.standings(tid)
    assert sum(line.points for line in lines) == 6 and all(line.games == 3 for line in lines)
    # The games were rated games like any other.
    for p in made:
        assert p.game_id is not None and len(await store.changes_of_game(p.game_id)) == 2


async def test_a_five_player_swiss_of_three_rounds_gives_byes_and_no_repeats(env: Env) -> None:
    service, _, store = env
    tid = await signed_up(service, [1, 2, 3, 4, 5], format="swiss", rounds=3)
    started = await service.tournaments.start(GUILD, tid)
    assert len(started.new) == 3 and sum(p.second_id is None for p in started.new) == 1
    end = await run_to_the_end(service, started, 5)
    assert end.tournament.stage is Stage.FINISHED
    made = await store.pairings(tid)
    games = [frozenset((p.first_id, p.second_id)) for p in made if p.second_id is not None]
    assert len(games) == len(set(games)) == 6
    byes = Counter(p.first_id for p in made if p.second_id is None)
    assert sum(byes.values()) == 3 and max(byes.values()) == 1
    lines = await service.tournaments.standings(tid)
    assert sum(line.points for line in lines) == 6 + 3


async def test_two_results_at_once_make_exactly_one_next_round(env: Env) -> None:
    service, _, store = env
    tid = await signed_up(service, [1, 2, 3, 4], format="round-robin")
    started = await service.tournaments.start(GUILD, tid)
    chooser = random.Random(1)
    views = [await opened_and_moved(service, pairing) for pairing in started.new]
    # Both games end at once: the service hears both ends at once.
    await asyncio.gather(
        *(finish(service, p, view, chooser) for p, view in zip(started.new, views, strict=True))
    )
    await service.events.settled()
    made = await store.pairings(tid)
    assert Counter(p.round for p in made) == {1: 2, 2: 2}
    tournament = await store.tournament(tid)
    assert tournament is not None and tournament.round == 2


async def test_a_withdrawn_players_games_are_lost_by_forfeit(env: Env) -> None:
    service, _, store = env
    tid = await signed_up(service, [1, 2, 3, 4], format="round-robin")
    started = await service.tournaments.start(GUILD, tid)
    await service.tournaments.leave(GUILD, tid, 4)
    unplayed = [p for p in started.new if 4 in (p.first_id, p.second_id)]
    [lost] = [p for p in await store.pairings(tid) if p.id == unplayed[0].id]
    assert lost.forfeit and lost.score == (0.0 if lost.first_id == 4 else 1.0)
    end = await run_to_the_end(service, started, 7)
    assert end.tournament.stage is Stage.FINISHED
    [four] = [line for line in await service.tournaments.standings(tid) if line.player == 4]
    assert four.points == 0 and four.losses == 3


async def test_an_arena_pairs_again_until_its_window_closes(env: Env) -> None:
    service, clock, store = env
    tid = await signed_up(service, [1, 2, 3, 4], format="arena", minutes=10)
    started = await service.tournaments.start(GUILD, tid)
    assert len(started.new) == 2
    chooser = random.Random(3)
    told: list[Progress] = []
    service.tournaments.on_progress(told.append)
    progress = started
    for _ in range(3):  # three waves of games, a minute each
        for pairing in [p for p in progress.new if not p.done]:
            await play(service, pairing, chooser)
            clock.advance(timedelta(seconds=30))
            progress = await heard(service, told)
    waves = len(await store.pairings(tid))
    assert waves >= 6
    clock.advance(timedelta(minutes=10))
    for pairing in [p for p in await store.pairings(tid) if not p.done]:
        await play(service, pairing, chooser)
        await heard(service, told)
    [done] = [t for t in await service.tournaments.catch_up()] or [
        await service.tournaments.advance(tid)
    ]
    assert done.tournament.stage is Stage.FINISHED
    assert all(p.done for p in await store.pairings(tid))


async def test_refusals(env: Env) -> None:
    service, _, _ = env
    with pytest.raises(BadInput):
        await service.tournaments.create(guild_id=GUILD, channel_id=CHANNEL, by=OWNER,
                                         game="oska", format="knockout", name="Cup")  # fmt: skip
    with pytest.raises(BadInput):
        await service.tournaments.create(guild_id=GUILD, channel_id=CHANNEL, by=OWNER,
                                         game="oska", format="swiss", name="Cup")  # fmt: skip
    tid = await signed_up(service, [1, 2], format="swiss", rounds=2)
    with pytest.raises(BadInput):  # Swiss needs three
        await service.tournaments.start(GUILD, tid)
    with pytest.raises(BadInput):  # another server's tournament is nobody's here
        await service.tournaments.join(GUILD + 1, tid, 3)


async def test_catching_up_finds_results_missed_and_games_never_opened(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, _, store = env
    tid = await signed_up(service, [1, 2, 3, 4], format="round-robin")
    started = await service.tournaments.start(GUILD, tid)
    first, second = started.new

    # The first game is played, but its end is not heard (the process died before).
    async def died(game_id: int) -> None:
        return None

    monkeypatch.setattr(service.tournaments, "game_ended", died)
    await play(service, first, random.Random(2))
    await service.events.settled()
    monkeypatch.undo()
    [unheard] = [p for p in await store.pairings(tid) if p.id == first.id]
    assert not unheard.done
    # The second game was never opened (the bot died before making its thread).
    found = await service.tournaments.catch_up()
    [result] = [p for p in await store.pairings(tid) if p.id == first.id]
    assert result.done  # the missed result, written
    assert [p.id for progress in found for p in progress.new] == [second.id]


async def test_standings_kept_between_results_count_a_late_result_in_its_place(
    env: Env,
) -> None:
    """The standings a process keeps take each new result; one written late by another
    process, that ended before the last one counted, is counted in the order the games
    ended: an arena's doubled wins follow that order."""
    service, clock, store = env
    now = clock()
    arena = Tournament(GUILD, CHANNEL, "Arena", "oska", Format.ARENA, OWNER, now, minutes=60)
    signup = await store.create_tournament(arena)
    for user in (1, 2, 3, 4, 5):
        await store.join_tournament(signup.id, user, now)
    joined = await store.tournament(signup.id)
    assert joined is not None
    made = dataclasses.replace(joined, stage=Stage.RUNNING, started_at=now)
    at = [now + timedelta(minutes=m) for m in range(5)]
    games = [
        StoredPairing(made.id, 0, 1, 2, score=1.0, ended_at=at[1]),
        StoredPairing(made.id, 0, 1, 3),  # lost by 1, written late below
        StoredPairing(made.id, 0, 1, 4, score=1.0, ended_at=at[3]),
        StoredPairing(made.id, 0, 1, 5, score=1.0, ended_at=at[4]),
    ]
    written = await store.update_tournament(made, games)
    assert written is not None
    late = written[1][1]

    async def points_of(player: int) -> float:
        lines = await service.tournaments.standings(made.id)
        return next(line.points for line in lines if line.player == player)

    # Three wins in a row so far: 2 + 2 + 4 (the third doubled).
    assert await points_of(1) == 8
    await store.record_result(late.id, 0.0, at[2])
    # In the order played: a win, a loss, two wins: no streak of three.
    assert await points_of(1) == 6
    assert await points_of(3) == 2


def before_next(store: Store, method: str, other: Callable[[], Awaitable[object]]) -> None:
    """The store's next call of `method` comes second: `other` runs just before it (as
    another player's press, or another process's write, landing in between)."""
    real = getattr(store, method)

    async def racing(*args: object, **kwargs: object) -> object:
        setattr(store, method, real)  # once
        await other()
        return await real(*args, **kwargs)

    setattr(store, method, racing)


def race_once(store: Store, found: Tournament, **change: object) -> None:
    """The store's next tournament write comes second: another write of `found`, with
    `change`, lands just before it (as when the bot records a message meanwhile)."""
    changed = dataclasses.replace(found, **change)  # type: ignore[arg-type]
    before_next(store, "update_tournament", lambda: store.update_tournament(changed))


async def test_a_cancel_that_races_another_write_of_the_tournament_still_cancels(
    env: Env,
) -> None:
    service, _, store = env
    tid = await signed_up(service, [1, 2], format="round-robin")
    # The bot records the sign-up message just before.
    race_once(store, await service.tournaments.find(GUILD, tid), message_id=555)
    cancelled = await service.tournaments.cancel(GUILD, tid, "rain")
    assert cancelled.stage is Stage.CANCELLED and cancelled.reason == "rain"
    assert cancelled.message_id == 555  # the other write kept


async def test_a_message_remembered_while_another_write_races_keeps_both(env: Env) -> None:
    """The adapter records its sign-up and standings messages through the part, which
    reads the tournament again when another write came between."""
    service, _, store = env
    tid = await signed_up(service, [1, 2], format="round-robin")
    # The standings message is recorded just before.
    race_once(store, await service.tournaments.find(GUILD, tid), standings_id=777)
    assert await service.tournaments.remember_messages(tid, message_id=555)
    now = await service.tournaments.latest(GUILD)
    assert (now.id, now.message_id, now.standings_id) == (tid, 555, 777)
    assert [t.id for t in await service.tournaments.of_server(GUILD)] == [tid]
    with pytest.raises(BadInput):
        await service.tournaments.latest(GUILD + 1)  # a server without any


# ------------------------------------------------------------ sign-up racing the start
# Join, Leave and Start are each one transaction on the tournament's row: whichever lands
# first, the pairings the start makes are those of the players as they are when it lands.


def paired(pairings: list[StoredPairing]) -> set[int]:
    return {u for p in pairings for u in (p.first_id, p.second_id) if u is not None}


async def playing(service: MatchService, tid: int) -> set[int]:
    return {e.user_id for e in await service.tournaments.entrants(tid) if e.playing}


@pytest.mark.parametrize("format", ["swiss", "round-robin"])
async def test_a_join_landing_while_the_start_pairs_is_paired_too(env: Env, format: str) -> None:
    service, _, store = env
    tid = await signed_up(service, [1, 2, 3, 4], format=format, rounds=3)
    # The start has read the four players; player 5 joins before it writes.
    before_next(store, "update_tournament", lambda: service.tournaments.join(GUILD, tid, 5))
    started = await service.tournaments.start(GUILD, tid)
    assert await playing(service, tid) == {1, 2, 3, 4, 5}
    assert paired(list(started.new)) == {1, 2, 3, 4, 5}  # nobody left without a game or bye
    assert paired(await store.pairings(tid)) == {1, 2, 3, 4, 5}


async def test_a_join_landing_after_the_start_is_refused(env: Env) -> None:
    service, _, store = env
    tid = await signed_up(service, [1, 2, 3, 4], format="swiss", rounds=3)
    # Player 5 pressed Join while it was open; the start lands before the join is written.
    starting: list[Progress] = []

    async def start() -> None:
        starting.append(await service.tournaments.start(GUILD, tid))

    before_next(store, "join_tournament", start)
    with pytest.raises(BadInput) as refused:
        await service.tournaments.join(GUILD, tid, 5)
    assert refused.value.code == "tournament.closed"
    assert words.explain(refused.value) == "**Cup** has already started: joining is closed."
    assert await playing(service, tid) == {1, 2, 3, 4}  # not a player with no game
    [started] = starting
    assert paired(await store.pairings(tid)) == {1, 2, 3, 4} == paired(list(started.new))
    # No bye point for a player who never played: 5 is not in the standings.
    assert 5 not in {line.player for line in await service.tournaments.standings(tid)}


async def test_a_leave_landing_while_the_start_pairs_is_never_paired(env: Env) -> None:
    service, _, store = env
    tid = await signed_up(service, [1, 2, 3, 4], format="round-robin")
    # The start has read the four players; player 4 leaves (from the sign-up) before it writes.
    before_next(
        store, "update_tournament", lambda: service.tournaments.leave(GUILD, tid, 4, signup=True)
    )
    started = await service.tournaments.start(GUILD, tid)
    assert started.tournament.stage is Stage.RUNNING
    assert await playing(service, tid) == {1, 2, 3}
    assert 4 not in paired(await store.pairings(tid))


@pytest.mark.parametrize("format", ["round-robin", "swiss", "arena"])
async def test_a_player_who_left_before_the_start_is_in_no_standings(env: Env, format: str) -> None:
    service, _, _ = env
    options: dict[str, object] = {"format": format}
    if format == "swiss":
        options["rounds"] = 2
    if format == "arena":
        options["minutes"] = 30
    tid = await signed_up(service, [1, 2, 3, 4, 5], **options)
    await service.tournaments.leave(GUILD, tid, 5, signup=True)  # Leave, before the start
    assert {line.player for line in await service.tournaments.standings(tid)} == {1, 2, 3, 4}
    started = await service.tournaments.start(GUILD, tid)
    # While it runs, and once it is over: the four who played, ranked 1 to 4 at most.
    lines = await service.tournaments.standings(tid)
    assert {line.player for line in lines} == {1, 2, 3, 4}
    if format != "arena":
        end = await run_to_the_end(service, started, 3)
        assert end.finished
        lines = await service.tournaments.standings(tid)
        assert {line.player for line in lines} == {1, 2, 3, 4}
        assert all(line.games > 0 and 1 <= line.rank <= 4 for line in lines)
    # A player who withdrew after the start took part: they stay, their games lost.
    tid = await signed_up(service, [1, 2, 3, 4], format="round-robin")
    await service.tournaments.start(GUILD, tid)
    await service.tournaments.leave(GUILD, tid, 4)
    assert {line.player for line in await service.tournaments.standings(tid)} == {1, 2, 3, 4}


async def test_a_withdrawal_landing_after_the_start_forfeits_the_pairing_it_made(
    env: Env,
) -> None:
    service, _, store = env
    tid = await signed_up(service, [1, 2, 3, 4], format="round-robin")
    starting: list[Progress] = []

    async def start() -> None:
        starting.append(await service.tournaments.start(GUILD, tid))

    # Player 4 asked to leave while the sign-up was open; the start lands first.
    before_next(store, "leave_tournament", start)
    left = await service.tournaments.leave(GUILD, tid, 4)
    assert left.tournament.stage is Stage.RUNNING  # a withdrawal, as the leave landed
    [started] = starting
    [theirs] = [p for p in started.new if 4 in (p.first_id, p.second_id)]
    [now] = [p for p in await store.pairings(tid) if p.id == theirs.id]
    assert now.done and now.forfeit and now.score == (0.0 if now.first_id == 4 else 1.0)
    assert now.game_id is None  # never played
    assert await playing(service, tid) == {1, 2, 3}


async def test_a_withdrawal_while_its_game_is_being_opened_opens_no_game(env: Env) -> None:
    service, _, store = env
    tid = await signed_up(service, [1, 2, 3, 4], format="round-robin")
    started = await service.tournaments.start(GUILD, tid)
    [theirs] = [p for p in started.new if 4 in (p.first_id, p.second_id)]
    # The adapter made the game's thread; player 4 withdraws before the game is opened in it.
    await service.tournaments.thread_made(theirs.id, 777)
    await service.tournaments.leave(GUILD, tid, 4)
    assert await service.tournaments.start_game(theirs.id, tid, 777) is None
    [now] = [p for p in await store.pairings(tid) if p.id == theirs.id]
    assert now.done and now.forfeit and now.game_id is None
    assert await store.open_games_in(777) == []


async def test_leave_on_the_sign_up_after_the_start_is_refused_and_says_how(env: Env) -> None:
    service, _, store = env
    tid = await signed_up(service, [1, 2, 3, 4], format="round-robin")
    before_next(store, "leave_tournament", lambda: service.tournaments.start(GUILD, tid))
    with pytest.raises(BadInput) as refused:
        await service.tournaments.leave(GUILD, tid, 4, signup=True)
    assert refused.value.code == "tournament.leave-started"
    assert await playing(service, tid) == {1, 2, 3, 4}  # still in, still paired
    assert 4 in paired([p for p in await store.pairings(tid) if not p.done])
    await service.tournaments.cancel(GUILD, tid, "rain")
    with pytest.raises(BadInput) as over:
        await service.tournaments.join(GUILD, tid, 6)
    assert over.value.code == "tournament.over"


async def test_joins_and_leaves_at_once_with_the_start_leave_no_one_unpaired(env: Env) -> None:
    service, _, store = env
    tid = await signed_up(service, list(range(1, 11)), format="swiss", rounds=3)
    presses: list[Awaitable[object]] = [
        service.tournaments.join(GUILD, tid, user) for user in range(11, 21)
    ]
    presses += [service.tournaments.leave(GUILD, tid, user, signup=True) for user in (2, 4, 6)]
    results = await asyncio.gather(
        service.tournaments.start(GUILD, tid), *presses, return_exceptions=True
    )
    refusals = [r for r in results if isinstance(r, BaseException)]
    assert all(isinstance(r, BadInput) and r.code in ("tournament.closed",
               "tournament.leave-started") for r in refusals), refusals  # fmt: skip
    assert not isinstance(results[0], BaseException)
    everyone = await playing(service, tid)
    assert paired(await store.pairings(tid)) == everyone
