"""The PostgreSQL store's own guarantees: migrations, racing processes, reads beside a stalled
write, a cancelled write, exactly-once ratings, and what it says when the server is missing.

The contract both backends share is tested in tests/test_store*.py; here is what only
PostgreSQL's side has to show, on fresh databases of this machine's server.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import asyncpg  # type: ignore[import-untyped]  # asyncpg ships no type hints
import pytest

from matches.marks import Marks
from matches.ratings import Season, rate_game
from matches.records import Status
from matches.storage import StoreError
from store import open_store
from store.postgres import PostgresStore
from store.schema import migrations
from tests.store_support import NOW, a_game, fresh_postgres


@pytest.fixture
async def url() -> AsyncIterator[str]:
    async with fresh_postgres() as made:
        yield made


@pytest.fixture
async def store(url: str) -> AsyncIterator[PostgresStore]:
    opened = PostgresStore(url)
    await opened.open()
    yield opened
    await opened.close()


async def fetch(url: str, sql: str, *params: object) -> list[asyncpg.Record]:
    db = await asyncpg.connect(url)
    try:
        return list(await db.fetch(sql, *params))
    finally:
        await db.close()


# ----------------------------------------------------------------- migrations


@pytest.mark.parametrize("before", [2, 3])
async def test_a_database_of_the_old_postgresql_history_joins_the_one_history(
    url: str, before: int
) -> None:
    """PostgreSQL once had a history of its own: 1 the schema of 0001-0014, 2 claims, 3 reviews."""
    old = [("schema", 1, 14), ("claims", 15, 15), ("reviews_and_puzzles", 16, 16)][:before]
    db = await asyncpg.connect(url)
    try:
        await db.execute(
            "CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL,"
            " applied_at DOUBLE PRECISION NOT NULL)"
        )
        for number, (name, first, last) in enumerate(old, 1):
            for migration in migrations()[first - 1 : last]:
                for statement in migration.statements("postgresql"):
                    await db.execute(statement)
            await db.execute("INSERT INTO schema_migrations VALUES ($1, $2, 0)", number, name)
        await db.execute(
            "INSERT INTO games (id, guild_id, channel_id, game, status, challenger_id,"
            " opponent_id, first_id, second_id, moves, ply, created_at, updated_at)"
            " VALUES (7, 1, 10, 'oska', 'active', 100, 200, 100, 200, 'a1-b2', 1, 0, 0)"
        )
    finally:
        await db.close()
    async with PostgresStore(url) as store:
        assert await store.schema_version() == len(migrations()) == 26
        game = await store.get_game(7)
        assert game is not None and game.moves == ("a1-b2",)
        await store.save_review(7, "{}", NOW)  # the table of migration 16, made or kept
        assert await store.review(7) == "{}"
    rows = await fetch(url, "SELECT version, name FROM schema_migrations ORDER BY version")
    assert [(row[0], row[1]) for row in rows] == [(m.number, m.name) for m in migrations()]


async def test_a_server_that_does_not_answer_is_named_without_its_password() -> None:
    with pytest.raises(StoreError, match=r"cannot open .*kamen:\*\*\*@127\.0\.0\.1:1/"):
        await open_store("postgresql://kamen:secret@127.0.0.1:1/kamen")


# ---------------------------------------------------------- stalled and cancelled


# ---------------------------------------------------------------------- ratings


async def test_two_ends_of_one_game_at_once_rate_it_once(store: PostgresStore) -> None:
    season = await store.start_season(Season(1, "Spring", NOW - timedelta(days=1)))
    assert season is not None
    game = await store.create_game(a_game(moves=("e1-f2", "e5-d4")))
    ended = dataclasses.replace(
        game, status=Status.FINISHED, result="1-0", updated_at=NOW + timedelta(minutes=1)
    )
    attempts = await asyncio.gather(*(store.finish_rated(ended, rate_game) for _ in range(4)))
    assert sum(attempt is not None for attempt in attempts) == 1
    changes = await store.changes_of_game(game.id)
    assert [change.user_id for change in changes] == [100, 200]
    assert all(change.season_id == season.id for change in changes)
    winner = await store.standing(1, "oska", 100)
    assert winner is not None and winner.games == 1 and winner.wins == 1
    [line] = [s for s in await store.season_table(season.id, "oska") if s.user_id == 100]
    assert line.points == 1 and line.games == 1


async def test_rebuilt_ratings_keep_their_numbers_and_new_ones_come_after(
    store: PostgresStore,
) -> None:
    first = await store.create_game(a_game(channel_id=1, moves=("e1-f2", "e5-d4")))
    ended = dataclasses.replace(first, status=Status.FINISHED, result="1-0")
    assert await store.finish_rated(ended, rate_game) is not None
    standings, changes, scores = await store.all_ratings()
    await store.replace_ratings(None, standings, changes, scores)
    assert await store.all_ratings() == (standings, changes, scores)
    second = await store.create_game(a_game(channel_id=2, moves=("e1-f2", "e5-d4")))
    ended = dataclasses.replace(second, status=Status.FINISHED, result="0-1")
    rated = await store.finish_rated(ended, rate_game)
    assert rated is not None
    assert min(change.seq for change in rated.changes) > max(change.seq for change in changes)


async def test_games_of_one_player_ending_together_each_rate_from_the_last(
    store: PostgresStore,
) -> None:
    """Eight connections end eight games of user 100 at once: none reads a stale rating."""
    games = [
        await store.create_game(
            a_game(channel_id=c, opponent_id=200 + c, second_id=200 + c, moves=("e1-f2", "e5-d4"))
        )
        for c in range(8)
    ]
    ends = [dataclasses.replace(g, status=Status.FINISHED, result="1-0") for g in games]
    rated = await asyncio.gather(*(store.finish_rated(end, rate_game) for end in ends))
    assert all(r is not None for r in rated)
    mine = await store.rating_changes(1, "oska", 100)
    assert len(mine) == 8
    for earlier, later in itertools.pairwise(mine):
        assert later.before == earlier.after  # each rated from the one before it
    standing = await store.standing(1, "oska", 100)
    assert standing is not None and (standing.games, standing.wins) == (8, 8)


# ------------------------------------------------------- connections back to their pools


async def backends(url: str) -> list[str]:
    """The last statement of each connection of Kamen's pools to the database at `url`."""
    sql = """
        SELECT query FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()
            AND backend_type = 'client backend'"""
    return [row[0] for row in await fetch(url, sql)]


async def test_a_connection_goes_back_to_its_pool_without_a_reset_query(url: str) -> None:
    store = PostgresStore(url, writers=1, readers=1)
    await store.open()
    try:
        game = await store.create_game(a_game())
        assert await store.get_game(game.id) == game
        # No `RESET ALL` (nor the rest of asyncpg's reset) after each: one round trip each.
        last = await backends(url)
        assert len(last) == 2 and all(
            query.lstrip().startswith(("SELECT", "INSERT")) for query in last
        )
        assert not any("RESET" in query or "unlock_all" in query for query in last)
    finally:
        await store.close()


async def test_nothing_of_a_session_outlives_its_use(url: str) -> None:
    """What makes the reset needless: locks are the transaction's, a write not synced sets
    `synchronous_commit` for its own transaction only."""
    store = PostgresStore(url, writers=1, readers=1)
    await store.open()
    try:
        game = await store.create_game(a_game())

        async def locked(tx: Any) -> None:
            await tx.lock(f"game {game.id}")
            held = await tx.fetch("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'")
            assert held[0][0] == 1

        await store.db.write(locked)
        await store.write_marks({game.id: Marks.ping(77)}, durable=False)
        stored = await store.get_game(game.id)
        assert stored is not None and stored.ping_message_id == 77 and stored.version == 0
        async with store.db._pool(writing=True).acquire() as db:  # the one write connection
            assert await db.fetchval("SHOW synchronous_commit") == "on"
            assert (
                await db.fetchval("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'") == 0
            )
    finally:
        await store.close()
