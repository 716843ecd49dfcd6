"""Rated games through the service (every test of tests/test_ratings.py): exactly-once
ratings, a failed end that writes nothing, two games of one player ending at once,
again on PostgreSQL.

The tests are tests/test_ratings.py's own, collected here a second time with an `env`
whose store is a fresh PostgreSQL database: where SQLite has one writer, these
races are real ones between connections.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from matches import FirstLegalMove, ManualClock, MatchService
from store import open_store
from tests import test_ratings
from tests.store_support import fresh_postgres
from tests.test_ratings import BOT, Env


@pytest.fixture
async def env() -> AsyncIterator[Env]:
    async with fresh_postgres() as url:
        store = await open_store(url)
        clock = ManualClock()
        service = MatchService(
            store, bot_user_id=BOT, picker=FirstLegalMove(), clock=clock, rng=random.Random(1)
        )
        try:
            yield service, clock, store
        finally:
            await store.close()


globals().update(
    {name: test for name, test in vars(test_ratings).items() if name.startswith("test_")}
)
