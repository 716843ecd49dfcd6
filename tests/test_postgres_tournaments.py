"""Tournaments through the service (every test of tests/test_tournaments.py): whole
events played out, two results at once making exactly one next round, a cancel racing
a write, again on PostgreSQL.

The tests are tests/test_tournaments.py's own, collected here a second time with an `env`
whose store is a fresh PostgreSQL database: where SQLite has one writer, these
races are real ones between connections.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from matches import FirstLegalMove, ManualClock, MatchService
from store import open_store
from tests import test_tournaments
from tests.store_support import fresh_postgres
from tests.test_tournaments import Env


@pytest.fixture
async def env() -> AsyncIterator[Env]:
    async with fresh_postgres() as url:
        store = await open_store(url)
        clock = ManualClock()
        service = MatchService(
            store, bot_user_id=999, picker=FirstLegalMove(), clock=clock, rng=random.Random(1)
        )
        try:
            yield service, clock, store
        finally:
            await store.close()


globals().update(
    {name: test for name, test in vars(test_tournaments).items() if name.startswith("test_")}
)
