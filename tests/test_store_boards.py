"""The store's record of messages, clocks, heartbeat and players' settings (migration 5).

What a public board shows, the last turn notification, the clocks moved
across a downtime, Kamen's heartbeat, and random game ids: on real SQLite files
and on PostgreSQL (`store`), or on SQLite alone where the test is about it.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]  # asyncpg ships no type hints
import pytest

from matches.marks import Marks
from matches.records import Status, StoredGame, UserSettings
from matches.storage import Store
from store.games import ID_LIMIT
from store.postgres import PostgresStore
from store.schema import migrations
from store.sqlite import SqliteStore
from tests import store_support
from tests.store_support import NOW, a_game

DAY = timedelta(days=1)

# `store` is each backend in turn; `sqlite_store` a SQLite file alone.
store_url, store = store_support.store_url, store_support.any_store
sqlite_store = store_support.store


def column(path: Path, sql: str, *params: Any) -> list[Any]:
    db = sqlite3.connect(path)
    try:
        return [row[0] for row in db.execute(sql, params)]
    finally:
        db.close()


async def stored_column(store: Store, sql: str, *params: Any) -> list[Any]:
    """One column as the database holds it, read beside the store (`$1` placeholders)."""
    if isinstance(store, SqliteStore):
        return column(store.path, re.sub(r"\$\d+", "?", sql), *params)
    assert isinstance(store, PostgresStore)
    db = await asyncpg.connect(store.dsn)
    try:
        return [row[0] for row in await db.fetch(sql, *params)]
    finally:
        await db.close()


# ------------------------------------------------------------------------ ids


async def test_game_ids_are_random_and_below_2_to_the_53(store: Store) -> None:
    games = [await store.create_game(a_game(channel_id=c)) for c in range(20)]
    ids = [game.id for game in games]
    assert all(0 < game_id < ID_LIMIT == 2**53 for game_id in ids)
    assert len(set(ids)) == 20
    # Not counted out one by one (a chance of 2e-9 that 20 draws fall within 10**6).
    assert max(ids) - min(ids) > 10**6


async def test_a_clashing_id_is_drawn_again(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    draws: Iterator[int] = iter([41, 41, 99])
    monkeypatch.setattr("store.games.secrets.randbelow", lambda _: next(draws))
    first = await store.create_game(a_game(channel_id=1))
    second = await store.create_game(a_game(channel_id=2))
    assert (first.id, second.id) == (42, 100)
    assert await store.get_game(42) == first and await store.get_game(100) == second


# ---------------------------------------------------------------------- boards


async def test_the_ply_column_follows_the_moves(store: Store) -> None:
    game = await store.create_game(a_game(moves=("a1-b2",)))
    saved = await store.update_game(replace(game, moves=("a1-b2", "a5-b4", "c1-d2")))
    assert saved is not None and saved.ply == 3
    assert await stored_column(store, "SELECT ply FROM games WHERE id = $1", game.id) == [3]


async def test_set_board_and_set_ping_leave_the_version_alone(store: Store) -> None:
    game = await store.create_game(a_game())
    await store.set_board(game.id, 555, 0, Status.ACTIVE)
    await store.set_ping(game.id, 556)
    shown = await store.get_game(game.id)
    assert shown is not None and shown.version == 0
    assert (shown.message_id, shown.board_ply, shown.board_status) == (555, 0, Status.ACTIVE)
    assert shown.ping_message_id == 556 and shown.board_current
    # A move does not overwrite what the messages show; the board now lags.
    moved = await store.update_game(replace(game, moves=("a1-b2",)))
    assert moved is not None and moved.version == 1
    assert (moved.message_id, moved.board_ply, moved.ping_message_id) == (555, 0, 556)
    assert not moved.board_current
    await store.set_ping(game.id, None)
    after = await store.get_game(game.id)
    assert after is not None and after.ping_message_id is None and after.version == 1


async def test_a_move_writes_the_marks_it_carries_in_its_own_statement(store: Store) -> None:
    game = await store.create_game(a_game())
    await store.set_board(game.id, 555, 0, Status.CHALLENGE)
    await store.set_ping(game.id, 556)
    # The board of the game's start, shown while its first move was being played.
    marks = Marks.board(557, 0, Status.ACTIVE)
    moved = await store.update_game(replace(game, moves=("a1-b2",)), marks)
    assert moved is not None and moved.version == 1 and moved.moves == ("a1-b2",)
    assert (moved.message_id, moved.board_ply, moved.board_status) == (557, 0, Status.ACTIVE)
    assert moved.ping_message_id == 556  # not carried: left as it was
    assert await store.get_game(game.id) == moved
    pinged = await store.update_game(replace(moved, moves=("a1-b2", "g5-f4")), Marks.ping(None))
    assert pinged is not None and pinged.ping_message_id is None and pinged.message_id == 557
    # A move that lost its race writes neither itself nor its marks.
    stale = await store.update_game(replace(moved, moves=("a1-b2", "e5-d4")), Marks.ping(9))
    assert stale is None and await store.get_game(game.id) == pinged


async def test_marks_are_written_for_many_games_at_once_without_a_version(store: Store) -> None:
    first = await store.create_game(a_game(channel_id=1))
    second = await store.create_game(a_game(channel_id=2, moves=("a1-b2",)))
    await store.set_ping(second.id, 600)
    await store.write_marks({
        first.id: Marks.board(700, 0, Status.ACTIVE).then(Marks.ping(701)),
        second.id: Marks.message(702),
        123: Marks.ping(703),  # a game gone (forgotten): passed over
    })  # fmt: skip
    one, two = await store.get_game(first.id), await store.get_game(second.id)
    assert one is not None and two is not None and (one.version, two.version) == (0, 0)
    assert (one.message_id, one.board_ply, one.board_status) == (700, 0, Status.ACTIVE)
    assert one.ping_message_id == 701 and one.board_current
    assert (two.message_id, two.board_ply, two.ping_message_id) == (702, None, 600)
    assert await store.get_game(123) is None


async def test_lagging_boards_are_the_games_whose_board_is_behind(store: Store) -> None:
    async def shown(game: StoredGame) -> StoredGame:
        await store.set_board(game.id, 900 + game.channel_id, game.ply, game.status)
        found = await store.get_game(game.id)
        assert found is not None
        return found

    never = await store.create_game(a_game(channel_id=1))  # no board at all
    current = await shown(await store.create_game(a_game(channel_id=2)))
    was_shown = await shown(await store.create_game(a_game(channel_id=3)))
    behind = await store.update_game(replace(was_shown, moves=("a1-b2",), updated_at=NOW + DAY))
    was_playing = await shown(await store.create_game(a_game(channel_id=4)))
    ended = await store.update_game(
        replace(was_playing, status=Status.FINISHED, result="1-0", updated_at=NOW - 6 * DAY)
    )
    old = await store.create_game(
        a_game(channel_id=5, status=Status.FINISHED, result="1-0", updated_at=NOW - 8 * DAY)
    )
    closed = await store.create_game(
        a_game(channel_id=6, status=Status.DECLINED, updated_at=NOW - DAY)
    )
    waiting = await store.create_game(a_game(channel_id=7, status=Status.CHALLENGE))
    assert behind is not None and ended is not None
    lagging = await store.lagging_boards(now=NOW)
    # Least recently changed first; not the current board, nor the old game. An open
    # challenge whose message was never recorded is lagging too: its message is its board.
    ids = [g.id for g in lagging]
    assert ids[:2] == [ended.id, closed.id] and ids[4:] == [behind.id]
    assert set(ids[2:4]) == {never.id, waiting.id}  # changed at the same time; ids are random
    assert current.board_current
    assert not {current.id, old.id} & {g.id for g in lagging}
    assert [g.id for g in await store.lagging_boards(2, now=NOW)] == [ended.id, closed.id]
    await store.set_board(behind.id, 903, 1, Status.ACTIVE)
    assert behind.id not in {g.id for g in await store.lagging_boards(now=NOW)}


async def test_open_games_in_a_channel(store: Store) -> None:
    active = await store.create_game(a_game(channel_id=10))
    asked = await store.create_game(
        a_game(channel_id=10, status=Status.CHALLENGE, created_at=NOW + DAY)
    )
    await store.create_game(a_game(channel_id=10, status=Status.FINISHED, result="1-0"))
    await store.create_game(a_game(channel_id=11))
    assert await store.open_games_in(10) == [active, asked]
    assert await store.open_games_in(12) == []


# ---------------------------------------------------------------------- clocks


async def test_shift_clocks_moves_every_running_clock(store: Store) -> None:
    five = timedelta(minutes=5)
    timed = await store.create_game(
        a_game(channel_id=1, move_seconds=300, deadline=NOW + five, remind_at=NOW + 2 * five)
    )
    reminded = await store.create_game(
        a_game(channel_id=2, move_seconds=300, deadline=NOW + five)
    )  # the reminder already sent
    untimed = await store.create_game(a_game(channel_id=3))
    challenge = await store.create_game(
        a_game(channel_id=4, status=Status.CHALLENGE, deadline=NOW + DAY)
    )
    shifted = await store.shift_clocks(timedelta(minutes=6))
    assert [g.id for g in sorted(shifted, key=lambda g: g.id)] == sorted([timed.id, reminded.id])
    for before in (timed, reminded):
        after = await store.get_game(before.id)
        assert after is not None and after in shifted and after.version == 1
        assert after.deadline == NOW + timedelta(minutes=11)
    first = await store.get_game(timed.id)
    second = await store.get_game(reminded.id)
    assert first is not None and first.remind_at == NOW + timedelta(minutes=16)
    assert second is not None and second.remind_at is None
    assert await store.get_game(untimed.id) == untimed  # no clock: nothing to give back
    assert await store.get_game(challenge.id) == challenge  # only games being played


async def test_a_shards_lease_is_one_holders_and_its_renewal_is_the_shards_beat(
    store: Store,
) -> None:
    hold = timedelta(seconds=30)
    assert await store.last_beat() is None
    assert await store.take_shard(0, 2, "first", NOW, NOW + hold) == ("first", None)
    # Held: another process is refused it, and told by whom.
    assert await store.take_shard(0, 2, "second", NOW, NOW + hold) == ("first", None)
    assert await store.take_shard(1, 2, "second", NOW, NOW + hold) == ("second", None)
    assert await store.live_shard_counts(NOW) == {2}
    later = NOW + timedelta(seconds=10)
    assert await store.renew_shards([0, 1], "first", later, later + hold) == [0]
    assert await store.last_beat() == later
    # The first process dies: its lease lapses, and the next holder learns its last beat.
    lapsed = later + hold
    assert await store.take_shard(0, 2, "second", lapsed, lapsed + hold) == ("second", later)
    assert await store.renew_shards([0], "first", lapsed, lapsed + hold) == []  # lost
    # A clean stop lets the lease lapse at once; its beat stays.
    await store.drop_shards([0, 1], "second")
    assert await store.live_shard_counts(lapsed) == set()
    assert await store.take_shard(0, 4, "third", lapsed, lapsed + hold) == ("third", later)
    assert await store.live_shard_counts(lapsed) == {4}


async def test_user_settings_default_then_saved(store: Store) -> None:
    assert await store.user_settings(7) == UserSettings(7, pings=True)
    assert await store.save_user_settings(UserSettings(7, pings=False), NOW) == UserSettings(
        7, pings=False
    )
    assert await store.user_settings(7) == UserSettings(7, pings=False)
    assert await store.user_settings(8) == UserSettings(8)
    await store.save_user_settings(UserSettings(7), NOW)
    assert await store.user_settings(7) == UserSettings(7, pings=True)


# ------------------------------------------------------------------ migration


async def test_migration_5_counts_the_moves_and_knows_no_board(tmp_path: Path) -> None:
    path = tmp_path / "v4.db"
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
    )
    for migration in migrations()[:4]:
        for statement in migration.statements("sqlite"):
            db.execute(statement)
        db.execute("INSERT INTO schema_migrations VALUES (?, ?, 0)", (migration.number, "x"))
    insert = (
        "INSERT INTO games (id, guild_id, channel_id, message_id, game, status, challenger_id,"
        " moves, created_at, updated_at) VALUES (?, 1, ?, 77, 'oska', 'active', 100, ?, 0, 0)"
    )
    db.execute(insert, (1, 10, ""))
    db.execute(insert, (2, 11, "a1-b2 a5-b4 c1-d2"))
    db.commit()
    db.close()
    async with SqliteStore(path) as store:
        assert await store.schema_version() == len(migrations())
        fresh, played = await store.get_game(1), await store.get_game(2)
        assert fresh is not None and played is not None
        assert (fresh.board_ply, fresh.board_status, fresh.ping_message_id) == (None, None, None)
        assert played.message_id == 77 and not played.board_current
        assert await store.user_settings(100) == UserSettings(100)
    assert column(path, "SELECT ply FROM games ORDER BY id") == [0, 3]
