"""`python -m store copy`: a Kamen database played on SQLite, moved to PostgreSQL whole.

The SQLite database is made through the service (rated games, a season, a
tournament played to its end, settings, a forgotten player, games still being
played); after the copy the service reads the same things from PostgreSQL and
plays on. The copy checks itself, can be run again, and never overwrites.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import AsyncIterator
from contextlib import closing
from datetime import timedelta
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]  # asyncpg ships no type hints
import pytest

import store.copy as store_copy
from matches import FirstLegalMove, ManualClock, MatchService
from matches.ratings import Season
from matches.storage import Store
from store import open_store
from store.__main__ import main
from store.copy import schema
from tests.store_support import fresh_postgres
from tests.test_ratings import ALICE, BOB, CAROL, GUILD, begin, both_move
from tests.test_tournaments import run_to_the_end, signed_up


@pytest.fixture
async def postgres() -> AsyncIterator[str]:
    async with fresh_postgres() as url:
        yield url


async def run(*args: str) -> int:
    """`python -m store` as the command line runs it (its own event loop, here in a thread)."""
    return await asyncio.to_thread(main, list(args))


def service_on(store: Store, clock: ManualClock) -> MatchService:
    return MatchService(
        store, bot_user_id=999, picker=FirstLegalMove(), clock=clock, rng=random.Random(1)
    )


async def played(url: str) -> dict[str, int]:
    """A database with a bit of everything, made through the service; ids worth finding."""
    store = await open_store(url)
    clock = ManualClock()
    service = service_on(store, clock)
    try:
        season = await store.start_season(Season(GUILD, "Winter", clock()))
        assert season is not None
        won = await both_move(service, await begin(service, ALICE, BOB, 10))
        await service.resign(BOB, game_id=won.id)
        drawn = await both_move(service, await begin(service, BOB, CAROL, 11))
        await service.offer_draw(BOB, game_id=drawn.id)
        await service.accept_draw(CAROL, game_id=drawn.id)
        going = await both_move(service, await begin(service, ALICE, CAROL, 12))
        gone = await both_move(service, await begin(service, 400, ALICE, 13))
        await service.resign(400, game_id=gone.id)
        assert await store.forget_user(400) is not None
        tid = await signed_up(service, [1, 2, 3, 4], format="round-robin")
        await run_to_the_end(service, await service.tournaments.start(GUILD, tid), 4)
        await service.set_threads(GUILD, False)
        await service.set_server_language(GUILD, "cs")
        await service.set_user_language(ALICE, "cs")
        await service.limits.set_challenges(ALICE, "role", 77)
        await service.limits.block(ALICE, CAROL)
        await store.take_shard(0, 1, "a process", clock(), clock() + timedelta(seconds=30))
        await store.renew_shards([0], "a process", clock(), clock() + timedelta(seconds=30))
        return {"going": going.id, "won": won.id, "season": season.id, "tournament": tid}
    finally:
        await store.close()


async def everything(store: Store, ids: dict[str, int]) -> tuple[object, ...]:
    """What the service reads of the database, in every table."""
    return (
        sorted(await store.finished_games(), key=lambda game: game.id),
        await store.active_games(GUILD),
        await store.all_ratings(),
        await store.seasons(),
        await store.season_table(ids["season"], "oska"),
        await store.tournaments(GUILD),
        await store.pairings(ids["tournament"]),
        await store.entrants(ids["tournament"]),
        await store.guild_settings(GUILD),
        await store.user_settings(ALICE),
        await store.blocks_of(ALICE),
        await store.player_languages(),
        await store.last_beat(),
        await store.leaderboard(GUILD, "oska", provisional=True, offset=0, limit=50),
    )


async def test_a_played_database_moves_whole_and_plays_on(
    tmp_path: Path, postgres: str, capsys: pytest.CaptureFixture[str]
) -> None:
    sqlite = f"sqlite:///{tmp_path / 'kamen.db'}"
    ids = await played(sqlite)

    assert await run("copy", sqlite, postgres) == 0
    printed = capsys.readouterr().out
    with closing(sqlite3.connect(tmp_path / "kamen.db")) as db:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    for table in set(tables) - {"schema_migrations", "sqlite_sequence"}:
        [line] = [line for line in printed.splitlines() if line.startswith(f"{table} ")]
        assert line.endswith(" ok"), line
    assert "every table matches" in printed

    before = await open_store(sqlite)
    after = await open_store(postgres)
    try:
        assert await everything(after, ids) == await everything(before, ids)
        assert await after.changes_of_game(ids["won"]) == await before.changes_of_game(ids["won"])
        # The service goes on from PostgreSQL: the game being played takes its next move,
        # and a game that ends there is rated after every copied rating.
        service = service_on(after, ManualClock())
        view = await service.view(game_id=ids["going"])
        mover = view.to_move_id
        assert mover is not None
        moved = await service.move(mover, view.state.legal_moves()[0], game_id=view.id)
        assert moved.view.row.ply == view.row.ply + 1
        await service.resign(CAROL, game_id=view.id)
        copied = (await before.all_ratings())[1]
        new = await after.changes_of_game(ids["going"])
        assert len(new) == 2 and min(c.seq for c in new) > max(c.seq for c in copied)
    finally:
        await before.close()
        await after.close()


async def test_tables_larger_than_a_batch_go_over_whole_a_batch_at_a_time(
    tmp_path: Path, postgres: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The copy streams each table in batches (its memory flat in the database's size,
    `python -m bench.store_copy`): with batches of two rows every table of a few rows
    goes over in several, and arrives whole, checked, and in the same order."""
    sqlite = f"sqlite:///{tmp_path / 'kamen.db'}"
    ids = await played(sqlite)
    with closing(sqlite3.connect(tmp_path / "kamen.db")) as db:
        games = db.execute("SELECT count(*) FROM games").fetchone()[0]
    assert games > 4
    monkeypatch.setattr(store_copy, "_CHUNK", 2)
    checks = {check.table: check for check in await store_copy.copy(sqlite, postgres)}
    assert all(check.matches for check in checks.values()), checks
    assert checks["games"].copied == checks["games"].target_rows == games
    before, after = await open_store(sqlite), await open_store(postgres)
    try:
        assert await everything(after, ids) == await everything(before, ids)
    finally:
        await before.close()
        await after.close()
    again = await store_copy.copy(sqlite, postgres)
    assert all(check.matches and check.copied == 0 for check in again)


async def test_a_second_copy_changes_nothing_and_still_checks(
    tmp_path: Path, postgres: str, capsys: pytest.CaptureFixture[str]
) -> None:
    sqlite = f"sqlite:///{tmp_path / 'kamen.db'}"
    ids = await played(sqlite)
    assert await run("copy", sqlite, postgres) == 0
    capsys.readouterr()
    store = await open_store(postgres)
    try:
        first = await everything(store, ids)
    finally:
        await store.close()

    assert await run("copy", sqlite, postgres) == 0
    printed = capsys.readouterr().out
    assert "every table matches (0 rows copied now)" in printed
    store = await open_store(postgres)
    try:
        assert await everything(store, ids) == first
    finally:
        await store.close()


async def test_a_target_that_went_its_own_way_is_never_overwritten_unless_asked(
    tmp_path: Path, postgres: str, capsys: pytest.CaptureFixture[str]
) -> None:
    sqlite = f"sqlite:///{tmp_path / 'kamen.db'}"
    ids = await played(sqlite)
    assert await run("copy", sqlite, postgres) == 0
    store = await open_store(postgres)
    try:
        service = service_on(store, ManualClock())
        view = await service.view(game_id=ids["going"])
        assert view.to_move_id is not None
        await service.move(view.to_move_id, view.state.legal_moves()[0], game_id=view.id)
    finally:
        await store.close()
    capsys.readouterr()

    assert await run("copy", sqlite, postgres) == 1
    out, err = capsys.readouterr()
    [games] = [line for line in out.splitlines() if line.startswith("games ")]
    assert games.endswith("DIFFERENT") and "--replace" in err
    store = await open_store(postgres)
    try:
        kept = await store.get_game(ids["going"])
        assert kept is not None and kept.ply == view.row.ply + 1  # the move made there stays
    finally:
        await store.close()

    assert await run("copy", sqlite, postgres, "--replace") == 0
    store = await open_store(postgres)
    try:
        again = await store.get_game(ids["going"])
        assert again is not None and again.ply == view.row.ply
    finally:
        await store.close()


def test_a_copy_between_the_wrong_kinds_of_database_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = f"sqlite:///{tmp_path / 'none.db'}"
    assert main(["copy", missing, "postgresql://kamen@127.0.0.1/kamen"]) == 2
    assert "no such SQLite database" in capsys.readouterr().err
    assert main(["copy", "postgresql://k@h/a", "postgresql://k@h/b"]) == 2
    assert "copy from a SQLite database" in capsys.readouterr().err


async def test_the_copy_reads_the_tables_their_keys_and_order_from_the_schema(
    postgres: str,
) -> None:
    """What the copy once listed by hand, read from PostgreSQL's own catalogue instead."""
    await (await open_store(postgres)).close()
    db = await asyncpg.connect(postgres)
    try:
        tables = await schema(db)
    finally:
        await db.close()
    assert tables["games"] == (("id",), ())
    assert tables["ratings"] == (("guild_id", "game", "user_id"), ())
    assert tables["rating_changes"] == (("seq",), ("seq",))
    assert tables["tournament_pairings"] == (("id",), ("id",))
    assert tables["puzzle_answers"] == (("guild_id", "user_id", "puzzle"), ())
    assert tables["user_blocks"] == (("user_id", "blocked_id"), ())
    assert tables["audit_log"] == (("id",), ("id",))
    assert tables["suspensions"] == (("guild_id", "user_id"), ())
    assert "schema_migrations" not in tables and len(tables) == 19
    order = list(tables)
    for child, parent in [("rating_changes", "games"), ("season_scores", "seasons"),
                          ("tournament_pairings", "tournaments"),
                          ("tournament_pairings", "games")]:  # fmt: skip
        assert order.index(parent) < order.index(child), (parent, child)
