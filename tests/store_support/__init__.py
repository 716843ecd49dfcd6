"""What the store's tests share: a game row to start from, and a fresh SQLite store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from matches.records import Status, StoredGame
from store.sqlite import SqliteStore

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def a_game(**changes: Any) -> StoredGame:
    """An active Oska game between users 100 and 200, with `changes` made to it."""
    game = StoredGame(
        guild_id=1,
        channel_id=10,
        game="oska",
        status=Status.ACTIVE,
        challenger_id=100,
        created_at=NOW,
        updated_at=NOW,
        opponent_id=200,
        first_id=100,
        second_id=200,
    )
    return replace(game, **changes)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    """A store on a fresh file of the test's own, open for the test."""
    opened = SqliteStore(tmp_path / "kamen.db")
    await opened.open()
    yield opened
    await opened.close()
