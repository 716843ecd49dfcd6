"""The store on real SQLite files and on PostgreSQL: pragmas, migrations, versioned
writes, queries, URLs. The tests of the contract (`store`) run on both backends."""

from __future__ import annotations

import asyncio
import inspect
import secrets
import sqlite3
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from games.base import Termination
from matches.records import FirstChoice, GuildSettings, Status, UserSettings
from matches.storage import ChannelBusy, Store, StoreError
from store import DEFAULT_DATABASE_URL, database_url, open_store, store_for
from store.games import GAMES
from store.postgres import DIALECT as POSTGRES
from store.postgres import PostgresStore
from store.schema import migrations
from store.sqlite import DIALECT as SQLITE
from store.sqlite import SqliteStore
from tests import store_support
from tests.store_support import NOW, a_game

# The contract tests here (`store`) run on a SQLite file and on PostgreSQL.
store_url, store = store_support.store_url, store_support.any_store
empty_url = store_support.empty_url

# ----------------------------------------------------------------- connection


async def test_open_creates_the_folder_and_sets_the_pragmas(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "kamen.db"
    store = await open_store(f"sqlite:///{path}")
    try:
        assert path.exists()
        assert isinstance(store, SqliteStore)
        # The pragmas are per connection: ask the store's own, the writer and the readers.
        writer = store.db._db
        assert writer is not None and len(store.db._reading) == 2

        async def pragmas(db: Any) -> dict[str, Any]:
            found = {}
            for name in ("journal_mode", "foreign_keys", "synchronous", "busy_timeout"):
                found[name] = next(iter(await db.execute_fetchall(f"PRAGMA {name}")))[0]
            found["query_only"] = next(iter(await db.execute_fetchall("PRAGMA query_only")))[0]
            return found

        assert await pragmas(writer) == {
            "journal_mode": "wal",
            "foreign_keys": 1,
            "synchronous": 2,  # FULL
            "busy_timeout": 10_000,
            "query_only": 0,
        }
        for reader in store.db._reading:  # they never write, so they never take the write lock
            assert (await pragmas(reader))["query_only"] == 1
    finally:
        await store.close()


async def test_a_fresh_database_has_every_migration(store: Store) -> None:
    assert await store.schema_version() == len(migrations())
    assert len(migrations()) == 26


def test_migrations_split_into_statements() -> None:
    first = migrations()[0]
    statements = first.statements("sqlite")
    assert statements[0].startswith("CREATE TABLE games")
    assert all(sqlite3.complete_statement(s) for s in statements)
    assert not any(s.lstrip().startswith("--") for s in statements)


@pytest.mark.parametrize("backend", [SqliteStore, PostgresStore])
def test_both_stores_meet_the_store_protocol(backend: type) -> None:
    """The protocol is the contract both backends meet: same names, same parameters."""
    wanted = [name for name in vars(Store) if not name.startswith("_")]
    assert "update_game" in wanted and "due" in wanted
    for name in wanted:
        mine, contract = getattr(backend, name), getattr(Store, name)
        assert inspect.iscoroutinefunction(mine), name
        assert inspect.signature(mine).parameters.keys() == (
            inspect.signature(contract).parameters.keys()
        ), name


async def test_a_closed_store_refuses_work(store_url: str) -> None:
    with pytest.raises(StoreError, match="not open"):
        await store_for(store_url).get_game(1)


def test_each_engine_gets_the_statement_written_once_in_its_own_spelling() -> None:
    sql = (
        "SELECT id FROM games INDEXED BY games_by_guild WHERE guild_id = :guild"
        " AND status = 'a:b' AND (first_id = :user OR second_id = :user)"
        ' AND updated_at::text <> :at ORDER BY game COLLATE "C"'
    )
    assert POSTGRES.arguments(sql, {"guild": 1, "user": 2, "at": "x", "unused": 3}) == (
        "SELECT id FROM games WHERE guild_id = $1 AND status = 'a:b'"
        " AND (first_id = $2 OR second_id = $2) AND updated_at::text <> $3"
        ' ORDER BY game COLLATE "C"',
        (1, 2, "x"),
    )
    assert SQLITE.prepare(sql)[0] == sql.replace('COLLATE "C"', "COLLATE BINARY")


async def test_a_sqlite_older_than_the_sql_needs_is_refused_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("store.sqlite.sqlite3.sqlite_version_info", (3, 38, 5))
    monkeypatch.setattr("store.sqlite.sqlite3.sqlite_version", "3.38.5")
    with pytest.raises(StoreError, match=r"SQLite is 3\.38\.5; Kamen needs 3\.39\.0 or newer"):
        await SqliteStore(tmp_path / "k.db").open()
    assert not (tmp_path / "k.db").exists()


# ----------------------------------------------------------------- migrations
# On both engines: one history, applied once, all or nothing, never backwards.


async def test_opening_twice_applies_nothing_again(empty_url: str) -> None:
    async with store_for(empty_url) as store:
        game = await store.create_game(a_game())
    async with store_for(empty_url) as store:
        assert await store.schema_version() == len(migrations())
        assert await store.get_game(game.id) == game


async def test_processes_opening_a_fresh_database_at_once_apply_each_migration_once(
    empty_url: str,
) -> None:
    stores = [store_for(empty_url) for _ in range(4)]
    await asyncio.gather(*(store.open() for store in stores))
    try:
        latest = len(migrations())
        assert [await store.schema_version() for store in stores] == [latest] * 4
        applied = await stores[0].db.read("SELECT version, name FROM schema_migrations")
        assert sorted((row[0], row[1]) for row in applied) == [
            (m.number, m.name) for m in migrations()
        ]
    finally:
        for store in stores:
            await store.close()


async def test_a_failed_upgrade_leaves_the_database_as_it_was(
    empty_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A package name of its own: Python keeps a package imported by another test.
    name = f"broken_{secrets.token_hex(4)}"
    package = tmp_path / name
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "0001_one.sql").write_text("CREATE TABLE one (x BIGINT);\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr("store.schema.PACKAGE", name)
    async with store_for(empty_url) as store:
        assert await store.schema_version() == 1
    (package / "0002_two.sql").write_text(
        "CREATE TABLE two (x BIGINT);\nINSERT INTO nowhere VALUES (1);\n"
    )
    with pytest.raises(Exception, match="nowhere"):
        await store_for(empty_url).open()
    (package / "0002_two.sql").unlink()
    async with store_for(empty_url) as store:
        assert await store.schema_version() == 1
        assert [tuple(row) for row in await store.db.read("SELECT count(*) FROM one")] == [(0,)]
        with pytest.raises(Exception, match="two"):
            await store.db.read("SELECT count(*) FROM two")


async def test_a_database_newer_than_the_code_is_refused(empty_url: str) -> None:
    async with store_for(empty_url) as store:
        await store.db.execute("INSERT INTO schema_migrations VALUES (99, 'future', 0)")
    with pytest.raises(StoreError, match="schema version 99"):
        await store_for(empty_url).open()


def test_each_statement_of_a_migration_runs_on_the_engines_it_names() -> None:
    first, claims = migrations()[0], migrations()[14]
    sqlite, postgres = first.statements("sqlite"), first.statements("postgresql")
    assert sqlite[0].startswith("CREATE TABLE games") and "INTEGER PRIMARY KEY" in sqlite[0]
    assert postgres[0].startswith("CREATE TABLE games") and "BIGINT" in postgres[0]
    assert sqlite[0] != postgres[0]
    # 0002 to 0014 brought SQLite to the schema PostgreSQL started with whole.
    assert all(not m.statements("postgresql") for m in migrations()[1:14])
    assert all(m.statements("sqlite") for m in migrations()[:14])
    assert claims.statements("sqlite") == claims.statements("postgresql") != []
    with pytest.raises(ValueError, match="no engine"):
        first.statements("oracle")


def make_version_1(path: Path) -> None:
    """A database as the first migration alone left it, with a challenge and a game."""
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
    )
    first = migrations()[0]
    for statement in first.statements("sqlite"):
        db.execute(statement)
    db.execute("INSERT INTO schema_migrations VALUES (1, ?, 0)", (first.name,))
    created = NOW.timestamp()
    db.execute(
        "INSERT INTO games (guild_id, channel_id, game, status, challenger_id, opponent_id,"
        " created_at, updated_at) VALUES (1, 10, 'lasca', 'challenge', 100, 200, ?, ?)",
        (created, created),
    )
    db.execute(
        "INSERT INTO games (guild_id, channel_id, game, status, challenger_id, opponent_id,"
        " first_id, second_id, moves, created_at, updated_at, version)"
        " VALUES (1, 11, 'oska', 'active', 100, 200, 100, 200, 'a1-b2 a5-b4', ?, ?, 2)",
        (created, created),
    )
    db.commit()
    db.close()


async def test_a_version_1_database_is_upgraded_in_place(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    make_version_1(path)
    async with SqliteStore(path) as store:
        assert await store.schema_version() == len(migrations())
        challenge = await store.get_game(1)
        game = await store.get_game(2)
        assert challenge is not None and game is not None
        # The old challenge was given the default 24 hours by migration 2.
        assert challenge.deadline == NOW + timedelta(hours=24)
        assert game.moves == ("a1-b2", "a5-b4") and game.version == 2
        assert game.move_seconds is None and game.deadline is None
        saved = await store.update_game(replace(game, moves=(*game.moves, "c1-d2")))
        assert saved is not None and saved.version == 3
        assert await store.guild_settings(1) == GuildSettings(1, threads=True)
    db = sqlite3.connect(path)
    versions = [row[0] for row in db.execute("SELECT version FROM schema_migrations")]
    db.close()
    assert versions == list(range(1, len(migrations()) + 1))


async def test_games_against_kamen_keep_their_strength_when_the_levels_are_numbered(
    tmp_path: Path,
) -> None:
    path = tmp_path / "named.db"
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
    )
    [numbered] = [m for m in migrations() if m.name == "numbered_levels"]
    before = [m for m in migrations() if m.number < numbered.number]
    for migration in before:
        for statement in migration.statements("sqlite"):
            db.execute(statement)
        db.execute(
            "INSERT INTO schema_migrations VALUES (?, ?, 0)", (migration.number, migration.name)
        )
    created = NOW.timestamp()
    for channel, level in enumerate(("easy", "medium-hard", "max", None)):
        db.execute(
            "INSERT INTO games (guild_id, channel_id, game, status, challenger_id, opponent_id,"
            " ai_level, created_at, updated_at) VALUES (1, ?, 'oware', 'challenge', 100, 200,"
            " ?, ?, ?)",
            (10 + channel, level, created, created),
        )
    db.commit()
    db.close()
    async with SqliteStore(path) as store:
        found = [await store.get_game(number) for number in (1, 2, 3, 4)]
    assert [game.ai_level if game else "missing" for game in found] == ["1", "5", "8", None]


# ---------------------------------------------------------------------- games


async def test_a_game_round_trips_every_field(store: Store) -> None:
    game = a_game(
        message_id=55,
        variant="capture=huff",
        first_choice=FirstChoice.OPPONENT,
        ai_level="hard",
        moves=("a1-b2", "a5-b4", "c1-d2/a1"),
        draw_offer_by=200,
        move_seconds=300,
        deadline=NOW + timedelta(minutes=5),
        remind_at=NOW + timedelta(minutes=2, seconds=30),
    )
    created = await store.create_game(game)
    assert created.id > 0 and created.version == 0
    assert created == replace(game, id=created.id)
    assert await store.get_game(created.id) == created
    assert await store.get_game(created.id + 1) is None


async def test_an_update_lands_only_on_the_version_it_read(store: Store) -> None:
    game = await store.create_game(a_game())
    first = await store.update_game(replace(game, moves=("a1-b2",)))
    second = await store.update_game(replace(game, moves=("c1-d2",)))
    assert first is not None and first.version == 1
    assert second is None
    stored = await store.get_game(game.id)
    assert stored is not None and stored.moves == ("a1-b2",)


async def test_writes_racing_on_one_version_land_once(store: Store) -> None:
    game = await store.create_game(a_game())
    moves = ("a1-b2", "c1-d2", "e1-f2", "g1-h2")
    attempts = await asyncio.gather(
        *(store.update_game(replace(game, moves=(move,))) for move in moves)
    )
    landed = [saved for saved in attempts if saved is not None]
    assert len(landed) == 1 and landed[0].version == 1
    assert await store.get_game(game.id) == landed[0]


async def test_one_active_game_per_channel(store: Store) -> None:
    await store.create_game(a_game(channel_id=10))
    with pytest.raises(ChannelBusy):
        await store.create_game(a_game(channel_id=10))
    challenge = await store.create_game(a_game(channel_id=10, status=Status.CHALLENGE))
    with pytest.raises(ChannelBusy):
        await store.update_game(replace(challenge, status=Status.ACTIVE))
    assert await store.update_game(replace(challenge, status=Status.ACTIVE, channel_id=12))


async def test_a_finished_game_frees_its_channel(store: Store) -> None:
    game = await store.create_game(a_game(channel_id=10))
    assert await store.update_game(replace(game, status=Status.FINISHED, result="1-0"))
    assert await store.active_game_in(10) is None
    assert (await store.create_game(a_game(channel_id=10))).channel_id == 10


async def test_moves_with_whitespace_are_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="whitespace"):
        await store.create_game(a_game(moves=("a1 b2",)))


async def test_set_message_leaves_the_version_alone(store: Store) -> None:
    game = await store.create_game(a_game())
    await store.set_message(game.id, 777)
    stored = await store.get_game(game.id)
    assert stored is not None and stored.message_id == 777 and stored.version == 0
    saved = await store.update_game(replace(game, moves=("a1-b2",)))
    assert saved is not None and saved.message_id == 777  # not overwritten by the move


async def test_queries_by_channel_guild_and_player(store: Store) -> None:
    minute = timedelta(minutes=1)
    one = await store.create_game(a_game(channel_id=10))
    two = await store.create_game(
        a_game(channel_id=11, guild_id=2, first_id=300, second_id=100, created_at=NOW + minute)
    )
    await store.create_game(a_game(channel_id=12, status=Status.FINISHED, result="1-0"))
    challenge = await store.create_game(
        a_game(channel_id=13, status=Status.CHALLENGE, challenger_id=400, opponent_id=100,
               first_id=None, second_id=None, created_at=NOW + 2 * minute)
    )  # fmt: skip
    later = await store.create_game(a_game(channel_id=14, created_at=NOW + 3 * minute))
    earlier = await store.create_game(a_game(channel_id=15, created_at=NOW - minute))
    assert await store.active_game_in(10) == one
    assert await store.active_game_in(12) is None
    # Oldest first, whatever the (random) ids.
    assert await store.active_games(1) == [earlier, one, later]
    assert await store.active_games(2) == [two]
    assert await store.active_counts() == {1: 3, 2: 1}
    assert [g.id for g in await store.open_games_of(100)] == [
        earlier.id, one.id, two.id, challenge.id, later.id
    ]  # fmt: skip
    assert [g.id for g in await store.open_games_of(400)] == [challenge.id]


async def test_due_finds_deadlines_and_reminders_earliest_first(store: Store) -> None:
    hour = timedelta(hours=1)
    late = await store.create_game(a_game(channel_id=1, deadline=NOW - hour))
    remind = await store.create_game(
        a_game(channel_id=2, deadline=NOW + hour, remind_at=NOW - 2 * hour)
    )
    both = await store.create_game(
        a_game(channel_id=3, deadline=NOW - 3 * hour, remind_at=NOW - 4 * hour)
    )
    await store.create_game(a_game(channel_id=4, deadline=NOW + hour, remind_at=NOW + hour))
    await store.create_game(a_game(channel_id=5, status=Status.FINISHED, deadline=NOW - hour))
    expired = await store.create_game(
        a_game(channel_id=6, status=Status.CHALLENGE, deadline=NOW, first_id=None, second_id=None)
    )
    due = await store.due(NOW)
    assert [g.id for g in due] == [both.id, remind.id, late.id, expired.id]
    assert [g.id for g in await store.due(NOW, limit=2)] == [both.id, remind.id]


# ------------------------------------------------------------------- settings


async def test_guild_settings_default_then_saved(store: Store) -> None:
    assert await store.guild_settings(5) == GuildSettings(5, threads=True)
    assert await store.save_guild_settings(GuildSettings(5, threads=False), NOW) == GuildSettings(
        5, threads=False
    )
    assert await store.guild_settings(5) == GuildSettings(5, threads=False)
    await store.save_guild_settings(GuildSettings(5, threads=True), NOW)
    assert await store.guild_settings(5) == GuildSettings(5, threads=True)
    assert await store.guild_settings(6) == GuildSettings(6, threads=True)


async def test_languages_are_kept_per_server_and_per_user_beside_the_other_settings(
    store: Store,
) -> None:
    await store.save_guild_settings(GuildSettings(5, threads=False, language="cs"), NOW)
    await store.save_guild_settings(GuildSettings(6), NOW)
    assert await store.guild_settings(5) == GuildSettings(5, threads=False, language="cs")
    assert await store.server_languages() == {5: "cs"}
    await store.save_user_settings(UserSettings(7, pings=False, language="cs"), NOW)
    assert await store.user_settings(7) == UserSettings(7, pings=False, language="cs")
    assert await store.user_settings(8) == UserSettings(8, pings=True, language=None)
    await store.save_user_settings(UserSettings(8), NOW)
    assert await store.player_languages() == {7: "cs"}
    await store.save_guild_settings(GuildSettings(5, threads=False, language=None), NOW)
    assert await store.server_languages() == {}


# ----------------------------------------------------------------------- URLs


def test_database_url_from_the_environment() -> None:
    assert database_url({}) == DEFAULT_DATABASE_URL == "sqlite:///data/kamen.db"
    assert database_url({"DATABASE_URL": "  "}) == DEFAULT_DATABASE_URL
    assert database_url({"DATABASE_URL": "sqlite:////srv/k.db"}) == "sqlite:////srv/k.db"


def test_sqlite_urls_name_relative_and_absolute_paths() -> None:
    relative = store_for("sqlite:///data/kamen.db")
    absolute = store_for("sqlite:////srv/kamen/k.db?synchronous=normal")
    assert isinstance(relative, SqliteStore) and isinstance(absolute, SqliteStore)
    assert relative.path == Path("data/kamen.db") and relative.db.synchronous == "FULL"
    assert absolute.path == Path("/srv/kamen/k.db") and absolute.db.synchronous == "NORMAL"


def test_postgresql_urls_open_the_postgresql_store() -> None:
    for url in ("postgresql://kamen@db:5432/kamen", "postgres://kamen:pw@db/kamen?sslmode=require"):
        store = store_for(url)
        assert isinstance(store, PostgresStore) and store.dsn == url


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("data/kamen.db", "no scheme"),
        ("mysql://host/db", "not supported"),
        ("postgresql://u@host", "name the database"),
        ("postgres://u:secret@host/", "u:\\*\\*\\*@host"),
        ("sqlite://host/k.db", "three slashes"),
        ("sqlite:///", "name a database file"),
        ("sqlite:///:memory:", "name a database file"),
        ("sqlite:///k.db?journal=off", "unknown option"),
        ("sqlite:///k.db?synchronous=off", "synchronous=off"),
    ],
)
def test_bad_urls_say_what_is_wrong(url: str, words: str) -> None:
    with pytest.raises(StoreError, match=words):
        store_for(url)


def test_a_record_of_plain_fields_is_read_back_by_position_as_it_was_written() -> None:
    game = a_game(
        id=7, version=3, moves=("a1-b2", "g5-f4"), reached_ms=(1, None, 3), message_id=9,
        board_ply=1, board_status=Status.CHALLENGE, first_choice=FirstChoice.OPPONENT,
        deadline=NOW + timedelta(days=1), rated=False, reason=Termination.RESIGNATION,
        result="1-0", ai_level="hard",
    )  # fmt: skip
    values = GAMES.values(game)
    assert values["moves"] == "a1-b2 g5-f4" and values["reached_ms"] == "1 - 3"
    assert values["deadline"] == (NOW + timedelta(days=1)).timestamp() and values["rated"] == 0
    assert (values["reason"], values["board_status"], values["remind_at"]) == (
        "resignation", "challenge", None,
    )  # fmt: skip
    row = tuple(values[column] for column in GAMES.columns)
    assert GAMES.read(row) == game
    assert GAMES.read(("before", *row, "after"), 1) == game  # from `start`, more after it
