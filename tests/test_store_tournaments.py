"""Tournaments in the store: sign-ups, rounds written once, results written once (both backends)."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import UTC, datetime, timedelta

from matches.records import Status, StoredGame
from matches.storage import Store
from matches.tournament_records import Format, Stage, StoredPairing, Tournament
from tests import store_support

NOW = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
GUILD, CHANNEL, OWNER = 1, 10, 99


# The contract tests here (`store`) run on a SQLite file and on PostgreSQL.
store_url, store = store_support.store_url, store_support.any_store


def new(**changes: object) -> Tournament:
    made = Tournament(GUILD, CHANNEL, "Winter Cup", "oska", Format.SWISS, OWNER, NOW, rounds=3,
                      move_seconds=3600, starts_at=NOW + timedelta(hours=1))  # fmt: skip
    return dataclasses.replace(made, **changes)  # type: ignore[arg-type]


async def test_a_tournament_reads_back_as_written(store: Store) -> None:
    made = await store.create_tournament(new())
    assert made.id > 0 and made.version == 0 and made.stage is Stage.SIGNUP
    assert await store.tournament(made.id) == made
    assert await store.tournaments(GUILD) == [made]
    assert await store.tournaments(GUILD + 1) == []


async def test_players_join_leave_and_join_again(store: Store) -> None:
    made = await store.create_tournament(new())
    for user in (5, 6, 7):
        await store.join_tournament(made.id, user, NOW)
    assert await store.leave_tournament(made.id, 6, NOW, "withdrew")
    assert not await store.leave_tournament(made.id, 6, NOW, "withdrew")  # already gone
    playing = [e.user_id for e in await store.entrants(made.id) if e.playing]
    assert playing == [5, 7]
    await store.join_tournament(made.id, 6, NOW)
    assert [e.user_id for e in await store.entrants(made.id) if e.playing] == [5, 6, 7]


async def test_two_results_at_once_start_exactly_one_next_round(store: Store) -> None:
    made = await store.create_tournament(new())
    started = dataclasses.replace(made, stage=Stage.RUNNING, round=1, started_at=NOW)
    written = await store.update_tournament(
        started, [StoredPairing(made.id, 1, 5, 6), StoredPairing(made.id, 1, 7, None)]
    )
    assert written is not None
    running, first = written
    assert [p.round for p in first] == [1, 1] and first[1].second_id is None

    # Both of round 1's last results were seen at once: each tries to write round 2.
    second = dataclasses.replace(running, round=2)
    attempts = await asyncio.gather(
        store.update_tournament(second, [StoredPairing(made.id, 2, 6, 5)]),
        store.update_tournament(second, [StoredPairing(made.id, 2, 6, 7)]),
    )
    assert sum(attempt is not None for attempt in attempts) == 1
    assert [p.round for p in await store.pairings(made.id)] == [1, 1, 2]
    now = await store.tournament(made.id)
    assert now is not None and now.round == 2 and now.version == running.version + 1


async def test_a_result_is_written_once_and_found_by_its_game(store: Store) -> None:
    made = await store.create_tournament(new())
    written = await store.update_tournament(made, [StoredPairing(made.id, 1, 5, 6)])
    assert written is not None
    [pairing] = written[1]
    game = await store.create_game(
        StoredGame(
            GUILD, 11, "oska", Status.ACTIVE, 5, NOW, NOW, opponent_id=6, first_id=5, second_id=6
        )
    )
    await store.set_pairing_game(pairing.id, game.id)
    found = await store.pairing_of_game(game.id)
    assert found is not None and found.id == pairing.id and not found.done
    first = await store.record_result(pairing.id, 1.0, NOW)
    assert first is not None and first.score == 1.0 and first.done
    assert await store.record_result(pairing.id, 0.0, NOW) is None  # a second result: refused
    again = await store.pairing_of_game(game.id)
    assert again is not None and again.score == 1.0


async def test_tournaments_due_to_start_or_end(store: Store) -> None:
    later = await store.create_tournament(new())
    arena = await store.create_tournament(
        new(
            format=Format.ARENA,
            stage=Stage.RUNNING,
            ends_at=NOW + timedelta(minutes=30),
            starts_at=None,
            minutes=30,
        )
    )
    assert await store.tournaments_due(NOW) == []
    assert [t.id for t in await store.tournaments_due(NOW + timedelta(hours=1))] == [
        later.id, arena.id,
    ]  # fmt: skip


async def test_a_forgotten_player_leaves_the_tournaments_too(store: Store) -> None:
    made = await store.create_tournament(new())
    await store.join_tournament(made.id, 5, NOW)
    joined = await store.join_tournament(made.id, 6, NOW)
    assert joined is not None and joined.version == made.version + 2  # each join wrote it
    written = await store.update_tournament(joined, [StoredPairing(made.id, 1, 5, 6)])
    assert written is not None
    anonymous = await store.forget_user(6)
    assert anonymous is not None and anonymous < 0
    assert {e.user_id for e in await store.entrants(made.id)} == {5, anonymous}
    [pairing] = await store.pairings(made.id)
    assert (pairing.first_id, pairing.second_id) == (5, anonymous)


async def test_results_read_since_a_moment_with_the_count_of_all(store: Store) -> None:
    made = await store.create_tournament(new())
    written = await store.update_tournament(
        made, [StoredPairing(made.id, 1, a, b) for a, b in ((5, 6), (7, 8), (9, 10))]
    )
    assert written is not None
    one, two, _ = written[1]
    await store.record_result(two.id, 1.0, NOW + timedelta(minutes=2))
    await store.record_result(one.id, 0.5, NOW + timedelta(minutes=1))
    total, ended = await store.results_since(made.id, None)
    assert total == 2 and [p.id for p in ended] == [one.id, two.id]  # in the order they ended
    total, ended = await store.results_since(made.id, NOW + timedelta(minutes=2))
    assert total == 2 and [p.id for p in ended] == [two.id]
    assert (await store.results_since(made.id + 1, None)) == (0, [])


async def test_pairings_to_settle_are_games_never_opened_or_ended_unseen(store: Store) -> None:
    made = await store.create_tournament(new())
    running = dataclasses.replace(made, stage=Stage.RUNNING, round=1, started_at=NOW)
    bye = StoredPairing(made.id, 1, 9, None, score=1.0, ended_at=NOW)
    written = await store.update_tournament(
        running, [StoredPairing(made.id, 1, 5, 6), StoredPairing(made.id, 1, 7, 8), bye]
    )
    assert written is not None
    unopened, playing, _ = written[1]
    await store.set_pairing_channel(unopened.id, 555)
    game = await store.create_game(
        StoredGame(
            GUILD, 11, "oska", Status.ACTIVE, 7, NOW, NOW, opponent_id=8, first_id=7, second_id=8
        )
    )
    await store.set_pairing_game(playing.id, game.id)
    settle = await store.pairings_to_settle()
    assert [(p.id, p.channel_id) for p in settle] == [(unopened.id, 555)]  # the game is on
    ended = await store.update_game(
        dataclasses.replace(game, status=Status.FINISHED, result="1-0", updated_at=NOW)
    )
    assert ended is not None
    assert [p.id for p in await store.pairings_to_settle()] == [unopened.id, playing.id]
    await store.record_result(playing.id, 1.0, NOW)
    assert [p.id for p in await store.pairings_to_settle()] == [unopened.id]
