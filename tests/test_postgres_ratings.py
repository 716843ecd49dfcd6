"""Rated games through the service (every test of tests/test_ratings.py): exactly-once
ratings, a failed end that writes nothing, two games of one player ending at once,
again on PostgreSQL.

The tests are tests/test_ratings.py's own, collected here a second time with an `env`
whose store is a fresh PostgreSQL database: where SQLite has one writer, these
races are real ones between connections.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests import test_ratings
from tests.matches_support import service_on
from tests.store_support import fresh_postgres
from tests.test_ratings import BOT, Env


@pytest.fixture
async def env() -> AsyncIterator[Env]:
    async with fresh_postgres(migrated=True) as url, service_on(url, BOT) as made:
        yield made


globals().update(
    {name: test for name, test in vars(test_ratings).items() if name.startswith("test_")}
)
