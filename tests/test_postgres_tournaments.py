"""Tournaments through the service (every test of tests/test_tournaments.py): whole
events played out, two results at once making exactly one next round, a cancel racing
a write, again on PostgreSQL.

The tests are tests/test_tournaments.py's own, collected here a second time with an `env`
whose store is a fresh PostgreSQL database: where SQLite has one writer, these
races are real ones between connections.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests import test_tournaments
from tests.matches_support import service_on
from tests.store_support import fresh_postgres
from tests.test_tournaments import Env


@pytest.fixture
async def env() -> AsyncIterator[Env]:
    async with fresh_postgres(migrated=True) as url, service_on(url, 999) as made:
        yield made


globals().update(
    {name: test for name, test in vars(test_tournaments).items() if name.startswith("test_")}
)
