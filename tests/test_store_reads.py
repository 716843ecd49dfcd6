"""Reads never wait behind writes, and a write once started lands whole, on both engines.

A write waits while another connection holds what it needs: on SQLite the
file's one write lock (a slow disk, a backup, another process), on PostgreSQL
the game's row. Readers go on meanwhile (WAL; MVCC), and the store must let
them: its reads may not queue behind its own stalled write. A write whose
caller gives up (a timeout, a closed interaction) still lands, whole, and its
connection is free again after.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from matches.records import GuildSettings
from store.kamen import KamenStore
from tests import store_support
from tests.store_support import NOW, HeldLock, a_game

store_url, store = store_support.store_url, store_support.any_store


async def test_reads_return_while_a_write_waits_for_the_lock(
    store: KamenStore, store_url: str
) -> None:
    slow = await store.create_game(a_game(channel_id=10))
    other = await store.create_game(a_game(channel_id=11))
    await store.save_guild_settings(GuildSettings(1, threads=False), NOW)
    async with HeldLock(store_url, slow.id) as lock:
        # A move in the slow game: the store's own write, now waiting for the lock.
        writing = asyncio.ensure_future(store.update_game(replace(slow, moves=("a1-b2",))))
        await lock.waited_on()
        game = await store.get_game(other.id)
        games = await store.active_games(1)
        settings = await store.guild_settings(1)
        # Every read connection at once, and more: none waits for the write.
        seen = await asyncio.gather(*(store.get_game(slow.id) for _ in range(6)))
        # The reads came back before the other connection let go of the lock.
        assert not lock.released and not writing.done()
        assert game == other and all(found == slow for found in seen)
        assert {g.id for g in games} == {slow.id, other.id}
        assert settings == GuildSettings(1, threads=False)
    # Once the lock is gone, the waiting write lands (the other's update bumped no version).
    saved = await writing
    assert saved is not None and saved.moves == ("a1-b2",) and saved.version == 1


async def test_the_other_reads_of_the_service_do_not_wait_either(
    store: KamenStore, store_url: str
) -> None:
    slow = await store.create_game(a_game(channel_id=10))
    other = await store.create_game(a_game(channel_id=11))
    async with HeldLock(store_url, slow.id) as lock:
        writing = asyncio.ensure_future(store.update_game(replace(slow, moves=("a1-b2",))))
        await lock.waited_on()
        assert await store.active_game_in(11) == other
        assert await store.active_counts() == {1: 2}
        assert {g.id for g in await store.open_games_of(100)} == {slow.id, other.id}
        assert await store.due(NOW) == []
        assert await store.schema_version() > 0
        assert not lock.released
    assert await writing is not None


async def test_a_write_whose_caller_gives_up_still_lands_whole(
    store: KamenStore, store_url: str
) -> None:
    game = await store.create_game(a_game())
    async with HeldLock(store_url, game.id) as lock:
        writing = asyncio.ensure_future(store.update_game(replace(game, moves=("a1-b2",))))
        await lock.waited_on()
        writing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await writing
    # The write goes on without its caller, and its connection is free for the next one.
    async with asyncio.timeout(5):
        while (stored := await store.get_game(game.id)) is None or stored.version == 0:
            await asyncio.sleep(0.01)
    assert stored.moves == ("a1-b2",) and stored.version == 1
    await store.set_ping(game.id, 5)
    again = await store.get_game(game.id)
    assert again is not None and again.ping_message_id == 5
