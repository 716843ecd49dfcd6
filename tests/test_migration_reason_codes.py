"""Migration 4 turns the reasons stored as English sentences into Termination codes.

The database is made with migrations 1-3 only, and filled with rows as the
code before the migration wrote them: a sentence in `reason`, how the game
ended in `ending`.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from games.base import Termination
from store.schema import migrations
from store.sqlite import SqliteStore

# (ending, reason) as written before migration 4, and the code each becomes.
STORED = [
    ("resigned", "Blue resigned", Termination.RESIGNATION),
    ("resigned", "Black resigned", Termination.RESIGNATION),
    ("time", "Red ran out of time", Termination.TIME),
    ("time", "North ran out of time", Termination.TIME),
    ("agreed", "drawn by agreement", Termination.AGREEMENT),
    # Oska
    ("rules", "neither player can move", Termination.BLOCKED),
    ("rules", "both players have every stone home", Termination.GOAL),
    ("rules", "both players have lost every stone", Termination.ELIMINATION),
    ("rules", "Blue has every stone home", Termination.GOAL),
    ("rules", "Red has every stone home", Termination.GOAL),
    (
        "rules",
        "Blue has lost every stone, so every stone it has left is home",
        Termination.GOAL_STONELESS,
    ),
    (
        "rules",
        "Red has lost every stone, so every stone it has left is home",
        Termination.GOAL_STONELESS,
    ),
    ("rules", "Blue has lost every stone", Termination.ELIMINATION),
    ("rules", "Red has lost every stone", Termination.ELIMINATION),
    # Lasca
    ("rules", "White cannot move", Termination.NO_MOVES),
    ("rules", "Black has no columns left", Termination.ELIMINATION),
    ("rules", "threefold repetition", Termination.REPETITION),
    ("rules", "80 moves without a capture or a soldier move", Termination.MOVE_LIMIT),
    # Oware
    ("rules", "South has captured 25 seeds", Termination.TWENTY_FIVE),
    ("rules", "North has captured 31 seeds", Termination.TWENTY_FIVE),
    ("rules", "position repeated; 24 each", Termination.REPETITION),
    ("rules", "South has no seeds; South 20 - North 28", Termination.NO_SEEDS),
    ("rules", "North cannot be fed; South 30 - North 18", Termination.CANNOT_FEED),
]


def make_version_3(path: Path) -> None:
    """A database as migrations 1-3 leave it, with rows as that code wrote them."""
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
    )
    for migration in migrations()[:3]:
        for statement in migration.statements("sqlite"):
            db.execute(statement)
        db.execute(
            "INSERT INTO schema_migrations VALUES (?, ?, 0)", (migration.number, migration.name)
        )
    insert = (
        "INSERT INTO games (guild_id, channel_id, game, status, challenger_id, opponent_id,"
        " first_id, second_id, moves, result, ending, reason, created_at, updated_at, version)"
        " VALUES (1, ?, 'oska', ?, 100, 200, 100, 200, 'a1-b2', ?, ?, ?, 0, 0, 3)"
    )
    for index, (ending, reason, _) in enumerate(STORED):
        db.execute(insert, (1000 + index, "finished", "1-0", ending, reason))
    db.execute(insert, (1, "active", None, None, None))  # a game still being played
    db.commit()
    db.close()


async def test_every_stored_reason_becomes_its_code(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    make_version_3(path)
    async with SqliteStore(path) as store:
        assert await store.schema_version() == len(migrations())
        for index, (_, text, code) in enumerate(STORED, start=1):
            game = await store.get_game(index)
            assert game is not None
            assert game.reason is code, text
        playing = await store.get_game(len(STORED) + 1)
        assert playing is not None and playing.reason is None and playing.result is None
    db = sqlite3.connect(path)
    columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    db.close()
    assert "ending" not in columns and "reason" in columns


def test_the_engines_write_no_text_the_migration_does_not_know() -> None:
    """Every Termination an engine or the service produces today is covered above."""
    covered = {code for _, _, code in STORED}
    assert covered == set(Termination) - {Termination.ABANDONED}


@pytest.mark.parametrize("unknown", ["something else entirely"])
async def test_an_unknown_text_becomes_no_code(tmp_path: Path, unknown: str) -> None:
    """A sentence no code knows is dropped: a game ended by the rules gets its outcome
    from its moves again."""
    path = tmp_path / "odd.db"
    make_version_3(path)
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET reason = ? WHERE id = 6", (unknown,))
    db.commit()
    db.close()
    async with SqliteStore(path) as store:
        game = await store.get_game(6)
        assert game is not None and game.reason is None
