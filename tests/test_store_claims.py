"""Claims: work one process does alone when several share a database, on both backends.

A claim is held by one process until a time; another process gets it only once it has
lapsed (its holder died or dropped it), and many processes asking at once get it once.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

from matches.storage import Store
from store.url import open_store
from tests import store_support
from tests.store_support import NOW

store_url, store = store_support.store_url, store_support.any_store

MINUTE = timedelta(minutes=1)


async def test_a_claim_is_one_processes_until_it_lapses(store: Store) -> None:
    assert await store.take_claim("tournaments", "a", NOW, NOW + MINUTE)
    # Another process is refused while it runs, the holder renews it.
    assert not await store.take_claim("tournaments", "b", NOW + MINUTE / 2, NOW + 2 * MINUTE)
    assert await store.take_claim("tournaments", "a", NOW + MINUTE / 2, NOW + 2 * MINUTE)
    assert not await store.take_claim("tournaments", "b", NOW + MINUTE, NOW + 3 * MINUTE)
    # Its holder gone quiet, it lapses and the other process takes it over.
    assert await store.take_claim("tournaments", "b", NOW + 2 * MINUTE, NOW + 3 * MINUTE)
    assert not await store.take_claim("tournaments", "a", NOW + 2 * MINUTE, NOW + 3 * MINUTE)
    # Other work is claimed apart.
    assert await store.take_claim("downtime", "a", NOW, NOW + MINUTE)


async def test_a_dropped_claim_is_free_at_once_but_only_its_holder_drops_it(store: Store) -> None:
    assert await store.take_claim("downtime", "a", NOW, NOW + MINUTE)
    await store.drop_claim("downtime", "b")
    assert not await store.take_claim("downtime", "b", NOW, NOW + MINUTE)
    await store.drop_claim("downtime", "a")
    assert await store.take_claim("downtime", "b", NOW, NOW + MINUTE)


async def test_many_processes_asking_at_once_get_it_once(store_url: str) -> None:
    stores = [await open_store(store_url) for _ in range(4)]
    try:
        asks = [
            one.take_claim("round:7:2", f"process-{n}-{k}", NOW, NOW + MINUTE)
            for k in range(5)
            for n, one in enumerate(stores)
        ]
        taken = await asyncio.gather(*asks)
    finally:
        for one in stores:
            await one.close()
    assert taken.count(True) == 1
