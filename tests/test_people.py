"""A person's own data, on a SQLite file and on PostgreSQL: their export, and forgetting them.

Forgetting puts one anonymous negative id in place of theirs in every row of
every table, the same everywhere, and touches nobody else's; ratings rebuilt
from the games are still exactly the stored ones; the forgotten line leaves
the leaderboards and season tables. It waits while a game or challenge is
open. The export holds every game of the user, only theirs, oldest first,
each a record `games.record` loads; a big one comes in parts of whole games.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

import words
from games.record import load
from matches import BadInput, FirstLegalMove, GameView, ManualClock, MatchService
from matches.people import StillPlaying, records_in
from matches.ratings import Season
from matches.recompute import differences, rebuild, stored
from matches.storage import Store
from store import open_store, store_for
from store.database import Database
from tests import store_support

GUILD, OTHER_GUILD = 1, 2
ALICE, BOB, CAROL, DAVE, BOT = 100, 200, 300, 400, 999
STUDY = '[Game "Oska"]\n\n1. e1-f2 e5-d4 *\n'
ID_COLUMNS = {
    "games": ("challenger_id", "opponent_id", "first_id", "second_id", "draw_offer_by"),
    "ratings": ("user_id",),
    "rating_changes": ("user_id", "opponent_id"),
    "season_scores": ("user_id",),
    "user_settings": ("user_id",),
}

Env = tuple[MatchService, ManualClock, Store, Database]
store_url = store_support.store_url


@pytest.fixture
async def env(store_url: str) -> AsyncIterator[Env]:
    """The service on a fresh database of each engine in turn, and that database itself."""
    store = store_for(store_url)
    await store.open()
    clock = ManualClock()
    service = MatchService(
        store, bot_user_id=BOT, picker=FirstLegalMove(), clock=clock, rng=random.Random(1)
    )
    yield service, clock, store, store.db
    await store.close()


async def begin(
    service: MatchService, one: int, two: int, channel: int, *, guild: int = GUILD
) -> GameView:
    offered = await service.challenge(
        guild_id=guild, channel_id=channel, challenger_id=one, game="oska", opponent_id=two,
        first="challenger",
    )  # fmt: skip
    return await service.accept(offered.id, two)


async def rated(
    service: MatchService, clock: ManualClock, winner: int, loser: int, *, guild: int = GUILD
) -> int:
    """A rated game `winner` wins (the loser resigns after a move each); its id."""
    clock.advance(timedelta(minutes=5))
    view = await begin(service, winner, loser, 10 + winner + loser, guild=guild)
    for _ in range(2):
        mover = view.to_move_id
        assert mover is not None
        view = (await service.move(mover, view.state.legal_moves()[0], game_id=view.id)).view
    await service.resign(loser, game_id=view.id)
    return view.id


async def community(service: MatchService, clock: ManualClock, store: Store) -> None:
    """Alice, Bob and Carol play rated games in two servers, some in a season, and more."""
    await rated(service, clock, ALICE, BOB)
    await store.start_season(Season(GUILD, "Spring", clock.advance(timedelta(minutes=1))))
    await rated(service, clock, BOB, ALICE)
    await rated(service, clock, ALICE, CAROL)
    await rated(service, clock, BOB, CAROL)
    await rated(service, clock, CAROL, ALICE, guild=OTHER_GUILD)
    await rated(service, clock, DAVE, BOB, guild=OTHER_GUILD)
    # Against Kamen, a challenge declined, a study: games, not rated.
    kamen = await service.challenge(
        guild_id=GUILD, channel_id=50, challenger_id=ALICE, game="oska", opponent_id=BOT
    )
    await service.resign(ALICE, game_id=kamen.id)
    offered = await service.challenge(
        guild_id=GUILD, channel_id=51, challenger_id=CAROL, game="lasca", opponent_id=ALICE
    )
    await service.decline(offered.id, ALICE)
    study = await service.import_record(
        guild_id=OTHER_GUILD, channel_id=52, user_id=ALICE, text=STUDY, game="oska"
    )
    await service.resign(ALICE, game_id=study.id)
    await service.set_user_language(ALICE, "cs")
    await service.set_pings(BOB, False)


async def snapshot(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the tables that hold people, in a stable order."""
    return {
        table: sorted((tuple(row) for row in await db.read(f"SELECT * FROM {table}")), key=repr)
        for table in ID_COLUMNS
    }


async def columns(db: Database, table: str) -> list[str]:
    """The table's columns, in order."""
    if db.dialect.name == "sqlite":
        return [row[1] for row in await db.read(f"PRAGMA table_info({table})")]
    sql = (
        "SELECT column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = :table ORDER BY ordinal_position"
    )
    return [row[0] for row in await db.read(sql, {"table": table})]


async def holding(db: Database, user_id: int) -> list[str]:
    """Every `table.column` of the whole database where the id is, whatever the column."""
    if db.dialect.name == "sqlite":
        sql = "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid"
    else:
        sql = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1"
    found = []
    for (table,) in await db.read(sql):
        for column in await columns(db, table):
            # As text, so that one query fits every column's type on both engines.
            count = f"SELECT count(*) FROM {table} WHERE CAST({column} AS TEXT) = :id"
            if (await db.read(count, {"id": str(user_id)}))[0][0]:
                found.append(f"{table}.{column}")
    return found


# ------------------------------------------------------------------ forgetting


async def test_forgetting_puts_one_anonymous_id_in_every_row_and_nothing_else_changes(
    env: Env,
) -> None:
    service, clock, store, db = env
    await community(service, clock, store)
    before = await snapshot(db)
    assert sorted(await holding(db, ALICE)) == [
        "games.challenger_id", "games.first_id", "games.opponent_id", "games.second_id",
        "rating_changes.opponent_id", "rating_changes.user_id", "ratings.user_id",
        "season_scores.user_id", "user_settings.user_id",
    ]  # fmt: skip

    anonymous = await service.people.forget(ALICE)

    assert anonymous < 0 and await holding(db, ALICE) == []
    after = await snapshot(db)
    for table, ids in ID_COLUMNS.items():
        names = await columns(db, table)
        expected = []
        for row in before[table]:
            values = dict(zip(names, row, strict=True))
            if ALICE in (values[column] for column in ids):
                if table == "user_settings":
                    continue  # deleted
                values = {k: anonymous if k in ids and v == ALICE else v for k, v in values.items()}
                if table == "games":
                    values["version"] += 1
            expected.append(tuple(values.values()))
        assert after[table] == sorted(expected, key=repr), table
    assert not (await service.user_settings(BOB)).pings  # Bob's settings are his still
    assert (await service.user_settings(ALICE)).language is None  # Alice's are gone


async def test_forgetting_leaves_the_id_in_no_column_of_any_table(env: Env) -> None:
    """Every table and column the database's own catalogue lists, on both engines: the id
    is in none of them once forgotten, however the person took part (a takeback still
    asked when the game ended, a tournament made, joined and played, a season)."""
    service, clock, store, db = env
    await community(service, clock, store)
    # A takeback Alice asked for (in an unrated game), pending when the game ended.
    offered = await service.challenge(
        guild_id=GUILD, channel_id=70, challenger_id=ALICE, game="oska", opponent_id=CAROL,
        first="challenger", rated=False,
    )  # fmt: skip
    view = await service.accept(offered.id, CAROL)
    await service.move(ALICE, view.state.legal_moves()[0], game_id=view.id)
    await service.ask_takeback(ALICE, game_id=view.id)
    await service.resign(CAROL, game_id=view.id)
    # A tournament Alice made and played in, and one made by Bob that she joined.
    made = await service.tournaments.create(
        guild_id=GUILD, channel_id=71, by=ALICE, game="oska", format="round-robin", name="Cup"
    )
    joined = await service.tournaments.create(
        guild_id=GUILD, channel_id=72, by=BOB, game="oska", format="round-robin", name="Open"
    )
    for user in (ALICE, BOB):
        await service.tournaments.join(GUILD, made.id, user)
    await service.tournaments.join(GUILD, joined.id, ALICE)
    await service.tournaments.start(GUILD, made.id)
    [pairing] = await service.tournaments.pairings(made.id)
    game = await service.tournaments.start_game(pairing.id, made.id, 73)
    assert game is not None
    await service.resign(ALICE, game_id=game.id)
    # Her blocks and limits, and a block of her by Carol.
    await service.limits.block(ALICE, DAVE)
    await service.limits.block(CAROL, ALICE)
    await service.limits.block(CAROL, DAVE)
    await service.limits.set_challenges(ALICE, "role", 77)
    # A manager's kit: Alice suspended Carol and voided a game; Bob suspended Alice.
    voided = await rated(service, clock, BOB, CAROL)
    await service.managers.void(GUILD, ALICE, voided, "checked")
    await service.managers.suspend(GUILD, ALICE, CAROL, 1, "spam")
    await service.managers.suspend(GUILD, BOB, ALICE, 1, "rude")
    assert {
        "games.takeback_by", "tournaments.created_by", "tournament_players.user_id",
        "season_scores.user_id", "user_blocks.user_id", "user_blocks.blocked_id",
        "audit_log.actor_id", "audit_log.user_id", "suspensions.user_id", "suspensions.by_id",
    } <= set(await holding(db, ALICE))  # fmt: skip
    assert {"tournament_pairings.first_id", "tournament_pairings.second_id"} & set(
        await holding(db, ALICE)
    )

    stale = await service.tournaments.find(GUILD, made.id)

    anonymous = await service.people.forget(ALICE)

    assert await holding(db, ALICE) == []
    assert (await service.tournaments.find(GUILD, made.id)).created_by == anonymous
    assert await store.update_tournament(stale) is None  # a write read before puts nothing back
    assert (await service.tournaments.find(GUILD, joined.id)).created_by == BOB
    assert (await store.get_game(view.id)).takeback_by == anonymous  # type: ignore[union-attr]
    # Carol's other block stays; Alice's and the one of her are gone, not anonymised.
    assert await service.limits.blocks(CAROL) == [DAVE]
    assert await store.blocks_of(anonymous) == []


async def test_after_forgetting_the_ratings_rebuilt_from_the_games_are_exact(env: Env) -> None:
    service, clock, store, _ = env
    await community(service, clock, store)
    assert differences(await stored(store), await rebuild(store)) == []
    anonymous = await service.people.forget(ALICE)
    assert differences(await stored(store), await rebuild(store)) == []
    # The anonymous player's games still count, with the same numbers under the new id.
    standing = await store.standing(GUILD, "oska", anonymous)
    assert standing is not None and standing.games == 3
    assert await store.standing(GUILD, "oska", ALICE) is None


async def test_the_forgotten_line_leaves_the_leaderboards_and_season_tables(env: Env) -> None:
    service, clock, store, _ = env
    await community(service, clock, store)
    [season] = await store.seasons(GUILD)

    async def listed() -> tuple[list[int], list[int], list[int]]:
        board = await store.leaderboard(GUILD, "oska", provisional=True, offset=0, limit=50)
        other = await store.leaderboard(OTHER_GUILD, "oska", provisional=True, offset=0, limit=50)
        table = await store.season_table(season.id, "oska")
        assert await store.season_size(season.id, "oska") == len(table)  # its pages count them
        return [s.user_id for s in board], [s.user_id for s in other], [s.user_id for s in table]

    board, other, table = await listed()
    assert ALICE in board and ALICE in other and ALICE in table
    sizes = await store.leaderboard_sizes(GUILD, "oska")
    anonymous = await service.people.forget(ALICE)
    board, other, table = await listed()
    assert sorted(board) == [BOB, CAROL] and sorted(other) == [BOB, CAROL, DAVE]
    assert sorted(table) == [BOB, CAROL]
    assert await store.leaderboard_sizes(GUILD, "oska") == (sizes[0], sizes[1] - 1)
    assert await store.rank(GUILD, "oska", anonymous) is None


async def test_each_forgetting_draws_a_new_number_that_says_nothing_of_the_user(
    tmp_path: Path,
) -> None:
    drawn = []
    for attempt in range(3):
        store = await open_store(f"sqlite:///{tmp_path / f'{attempt}.db'}")
        try:
            clock = ManualClock()
            service = MatchService(store, bot_user_id=BOT, clock=clock, rng=random.Random(1))
            await rated(service, clock, ALICE, BOB)
            drawn.append(await service.people.forget(ALICE))
            drawn.append(await service.people.forget(BOB))
        finally:
            await store.close()
    # The same user, the same games, in three databases: three different numbers.
    assert len(set(drawn)) == len(drawn) and all(-(2**53) < n < 0 for n in drawn)


@pytest.mark.parametrize("what", ["own challenge", "challenged", "active game"])
async def test_forgetting_waits_while_a_game_or_challenge_is_open(env: Env, what: str) -> None:
    service, clock, _, db = env
    await rated(service, clock, ALICE, BOB)
    if what == "own challenge":
        view = await service.challenge(
            guild_id=GUILD, channel_id=60, challenger_id=ALICE, game="oware"
        )
    elif what == "challenged":
        view = await service.challenge(
            guild_id=GUILD, channel_id=60, challenger_id=CAROL, game="oware", opponent_id=ALICE
        )
    else:
        view = await begin(service, CAROL, ALICE, 60)
    before = await snapshot(db)
    with pytest.raises(StillPlaying) as refused:
        await service.people.forget(ALICE)
    assert refused.value.params == {"count": 1}
    assert words.explain(refused.value).startswith("You still have a game or a challenge open:")
    assert await snapshot(db) == before  # nothing written
    assert [v.id for v in await service.people.open_games(ALICE)] == [view.id]
    # Once it is closed, forgetting goes ahead.
    if what == "own challenge":
        await service.cancel(view.id, ALICE)
    elif what == "challenged":
        await service.decline(view.id, ALICE)
    else:
        await service.resign(ALICE, game_id=view.id)
    assert await service.people.forget(ALICE) < 0
    assert await holding(db, ALICE) == []


# ------------------------------------------------------------------ export

HEADER = re.compile(r"^=== (\d+)/(\d+): (\w+) #(\d+), (\d{4}\.\d\d\.\d\d), (\w+) ===$", re.M)


def tags(record: str) -> dict[str, str]:
    return dict(re.findall(r'^\[(\w+) "(.*)"\]$', record, re.M))


async def test_the_export_holds_every_game_of_the_user_and_only_theirs(env: Env) -> None:
    service, clock, store, db = env
    await community(service, clock, store)
    sql = "SELECT id FROM games WHERE :user IN (challenger_id, opponent_id) ORDER BY created_at, id"
    mine = [row[0] for row in await db.read(sql, {"user": ALICE})]
    everyone = (await db.read("SELECT count(*) FROM games"))[0][0]
    assert 0 < len(mine) < everyone

    found = await service.people.export(
        ALICE, max_bytes=10 * 2**20, site=lambda g, c: f"server {g}", name=lambda u: f"u{u}"
    )

    assert found is not None and (found.part, found.parts, found.first, found.last) == (
        1, 1, 1, len(mine),
    )  # fmt: skip
    headers = HEADER.findall(found.text)
    assert [int(h[3]) for h in headers] == mine  # every one, oldest first, nobody else's
    assert [(int(h[0]), int(h[1])) for h in headers] == [
        (n, len(mine)) for n in range(1, len(mine) + 1)
    ]
    records = records_in(found.text)
    assert len(records) == len(mine)
    for record, game_id in zip(records, mine, strict=True):
        parsed, state = load(record)  # every record reads back, its moves replayed
        row = await store.get_game(game_id)
        assert row is not None and parsed.moves == row.moves == state.moves
        said = tags(record)
        assert said["GameId"] == str(game_id) and said["Server"] == str(row.guild_id)
        assert said["Site"] == f"server {row.guild_id}" and said["Status"] == row.status
        assert said["Date"] == row.created_at.strftime("%Y.%m.%d")
        assert str(ALICE) in (said.get("FirstId"), said.get("SecondId"))
    first = records[0]
    assert tags(first) | {"Created": "", "Ended": ""} == {
        "Game": "Oska", "Variant": "", "Site": f"server {GUILD}", "Date": tags(first)["Date"],
        "First": f"u{ALICE}", "Second": f"u{BOB}", "Result": "1-0", "Server": str(GUILD),
        "Channel": str(10 + ALICE + BOB), "GameId": str(mine[0]), "FirstId": str(ALICE),
        "SecondId": str(BOB), "Status": "finished", "Reason": "resignation", "Created": "",
        "Ended": "",
    }  # fmt: skip
    declined = next(r for r in records if tags(r)["Status"] == "declined")
    assert tags(declined)["Result"] == "*" and tags(declined)["FirstId"] == str(CAROL)


async def test_a_big_export_comes_in_parts_of_whole_games(env: Env) -> None:
    service, clock, store, _ = env
    await community(service, clock, store)
    whole = await service.people.export(ALICE, max_bytes=10 * 2**20)
    assert whole is not None and whole.total == 7  # 4 rated, 1 with Kamen, 1 declined, 1 study

    limit = 1000  # bytes: two games a part (a short game's record is about 450)
    first = await service.people.export(ALICE, max_bytes=limit)
    assert first is not None and first.parts > 2
    parts = [first] + [
        found
        for number in range(2, first.parts + 1)
        if (found := await service.people.export(ALICE, max_bytes=limit, part=number))
    ]
    assert all(len(p.text.encode()) <= limit for p in parts)
    assert parts[0].first == 1 and parts[-1].last == 7
    assert all(a.last + 1 == b.first for a, b in itertools.pairwise(parts))
    joined = [r for p in parts for r in records_in(p.text)]
    assert joined == records_in(whole.text)  # the same games, cut between two of them

    with pytest.raises(BadInput) as no_such:
        await service.people.export(ALICE, max_bytes=limit, part=first.parts + 1)
    assert no_such.value.code == "people.export.no-part"
    assert words.explain(no_such.value) == (
        f"Your export has {first.parts} parts: ask for a part from 1 to {first.parts}."
    )
    with pytest.raises(BadInput) as bad:
        await service.people.export(ALICE, max_bytes=limit, part=0)
    assert words.explain(bad.value) == "`part` takes a whole number from 1 up, not `0`."


async def test_a_user_without_games_has_nothing_to_export(env: Env) -> None:
    service, clock, _, _ = env
    await rated(service, clock, ALICE, BOB)
    assert await service.people.export(CAROL, max_bytes=2**20) is None
    # And one who was forgotten has nothing either: the games are no longer theirs.
    await service.people.forget(ALICE)
    assert await service.people.export(ALICE, max_bytes=2**20) is None
    bobs = await service.people.export(BOB, max_bytes=2**20)
    assert bobs is not None and bobs.total == 1
