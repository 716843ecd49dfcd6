"""What each game's public board shows, and the turn notifications: the bookkeeping the
bot keeps through the service so that a board left behind can be found and repaired,
and a player's choice of pings."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from matches import BadInput, FirstLegalMove, ManualClock, MatchService, Status
from matches.marks import LANDED_FOR, Behind, Marks
from matches.runner import Runner
from store import open_store
from store.kamen import KamenStore
from tests import store_support
from tests.matches_support import refused
from tests.store_support import a_game

GUILD, CHANNEL = 1, 10
ALICE, BOB, BOT = 100, 200, 999
BOARD, PING = 5000, 6000

# `any_store` is each backend in turn.
store_url, any_store = store_support.store_url, store_support.any_store


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[MatchService]:
    store = await open_store(f"sqlite:///{tmp_path / 'k.db'}")
    # Today: the boards of games closed in the last 7 days are still kept up to date.
    clock = ManualClock(datetime.now(UTC))
    yield MatchService(
        store, bot_user_id=BOT, picker=FirstLegalMove(), clock=clock, rng=random.Random(1)
    )
    await store.close()


async def test_a_board_is_current_only_while_it_shows_the_games_ply_and_status(
    service: MatchService,
) -> None:
    offered = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oska", opponent_id=BOB,
        first="challenger",
    )  # fmt: skip
    assert not offered.board_current and offered.board_ply is None
    assert [view.id for view in await service.lagging_boards()] == [offered.id]
    await service.board_shown(offered.id, BOARD, 0, Status.CHALLENGE)
    assert await service.lagging_boards() == []

    view = await service.accept(offered.id, BOB)  # the board still shows the challenge
    assert (view.board_ply, view.board_status, view.message_id) == (0, Status.CHALLENGE, BOARD)
    assert not view.board_current
    assert [lagging.id for lagging in await service.lagging_boards()] == [view.id]
    await service.board_shown(view.id, BOARD, 0, Status.ACTIVE)
    shown = await service.view(game_id=view.id)
    assert shown.board_current and shown.version == view.version  # no version change

    moved = await service.move(ALICE, "e1-f2", game_id=view.id)
    assert not moved.view.board_current and moved.view.board_ply == 0
    [lagging] = await service.lagging_boards()
    assert lagging.id == view.id and lagging.ply == 1
    await service.board_shown(view.id, BOARD + 1, 1, Status.ACTIVE)  # a new message
    after = await service.view(game_id=view.id)
    assert after.board_current and after.message_id == BOARD + 1
    assert await service.lagging_boards() == []

    over = await service.resign(BOB, game_id=view.id)
    assert not over.board_current
    assert [lagging.id for lagging in await service.lagging_boards()] == [view.id]


async def test_a_board_that_was_never_posted_lags(service: MatchService) -> None:
    view = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oska", opponent_id=BOT
    )
    assert view.status is Status.ACTIVE and view.message_id is None
    assert [lagging.id for lagging in await service.lagging_boards()] == [view.id]
    await service.set_board_message(view.id, BOARD)  # the message alone says nothing shown
    assert not (await service.view(game_id=view.id)).board_current


async def test_the_last_ping_is_remembered_and_forgotten(service: MatchService) -> None:
    view = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oska", opponent_id=BOT
    )
    assert view.ping_message_id is None
    await service.ping_sent(view.id, PING)
    pinged = await service.view(game_id=view.id)
    assert pinged.ping_message_id == PING and pinged.version == view.version
    await service.ping_sent(view.id, None)
    assert (await service.view(game_id=view.id)).ping_message_id is None


async def test_pings_are_on_until_a_player_turns_them_off(service: MatchService) -> None:
    assert await service.pings_on(ALICE)
    assert (await service.set_pings(ALICE, False)).pings is False
    assert not await service.pings_on(ALICE) and await service.pings_on(BOB)
    await service.set_pings(ALICE, True)
    assert await service.pings_on(ALICE)


@pytest.mark.parametrize("value", ["no", 0, None])
async def test_pings_are_either_on_or_off(service: MatchService, value: object) -> None:
    with refused(BadInput, r"^Pings are either on or off\.$", code="match.input.pings"):
        await service.set_pings(ALICE, value)  # type: ignore[arg-type]


async def test_a_player_and_a_server_choose_a_language_without_losing_other_settings(
    service: MatchService,
) -> None:
    await service.set_pings(ALICE, False)
    assert (await service.set_user_language(ALICE, " CS ")).language == "cs"
    settings = await service.user_settings(ALICE)
    assert (settings.language, settings.pings) == ("cs", False)
    await service.set_pings(ALICE, True)
    assert (await service.user_settings(ALICE)).language == "cs"
    assert (await service.set_user_language(ALICE, None)).language is None

    await service.set_threads(GUILD, False)
    assert (await service.set_server_language(GUILD, "cs")).threads is False
    await service.set_threads(GUILD, True)
    assert (await service.settings(GUILD)).language == "cs"
    assert await service.server_languages() == {GUILD: "cs"}


async def test_a_language_kamen_has_no_catalogue_for_is_refused_naming_those_it_has(
    service: MatchService,
) -> None:
    with refused(
        BadInput,
        r"^Kamen does not speak `de`: choose one of cs or en",
        code="match.input.bad-language",
    ):
        await service.set_user_language(ALICE, "de")
    with refused(BadInput, r"^The language is too long", code="match.input.too-long.language"):
        await service.set_server_language(GUILD, "x" * 40)
    assert (await service.user_settings(ALICE)).language is None


async def test_board_bookkeeping_checks_its_ids(service: MatchService) -> None:
    view = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oska", opponent_id=BOT
    )
    with refused(BadInput, code="match.input.bad-id.message"):
        await service.board_shown(view.id, -1, 0, Status.ACTIVE)
    with refused(BadInput, code="match.input.bad-id.message"):
        await service.ping_sent(view.id, 0)
    with refused(BadInput, code="match.input.bad-id.user"):
        await service.pings_on(-5)


# ------------------------------------------------------- one commit a move, both backends


class Trips:
    """What a store sends its database: statements read, writes, and commits that wait
    for the disk (a write that need not is `execute(durable=False)`)."""

    def __init__(self, store: KamenStore) -> None:
        self.reads = self.writes = self.synced = 0
        db = store.db
        read, write, execute = db.read, db.write, db.execute

        async def counted_read(sql: str, params: Any = None) -> Any:
            self.reads += 1
            return await read(sql, params)

        async def counted_write(work: Any) -> Any:
            self.writes += 1
            self.synced += 1
            return await write(work)

        async def counted_execute(sql: str, params: Any = None, *, durable: bool = True) -> Any:
            self.writes += 1
            self.synced += durable
            if durable:  # as every version of the store is called
                return await execute(sql, params)
            return await execute(sql, params, durable=False)

        db.read, db.write, db.execute = counted_read, counted_write, counted_execute  # type: ignore[method-assign]

    def since(self) -> tuple[int, int, int]:
        """(reads, writes, synced) since the last call."""
        counted = (self.reads, self.writes, self.synced)
        self.reads = self.writes = self.synced = 0
        return counted


def service_on(store: KamenStore) -> MatchService:
    clock = ManualClock(datetime.now(UTC))
    return MatchService(store, bot_user_id=BOT, picker=FirstLegalMove(), clock=clock)


async def a_game_begun(service: MatchService) -> int:
    offered = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oska", opponent_id=BOB,
        first="challenger",
    )  # fmt: skip
    view = await service.accept(offered.id, BOB)
    await service.board_shown(view.id, BOARD, 0, Status.ACTIVE)
    await service.ping_sent(view.id, PING)
    return view.id


async def test_a_move_and_its_boards_bookkeeping_take_one_synced_commit(
    any_store: KamenStore,
) -> None:
    service = service_on(any_store)
    game_id = await a_game_begun(service)
    trips = Trips(any_store)
    moved = await service.move(ALICE, "e1-f2", game_id=game_id, expected_ply=0, guild_id=GUILD)
    assert trips.since() == (1, 1, 1)  # the game read, and written: two round trips
    # The board edited in place, recorded: nothing written yet, and the game reads as shown.
    await service.board_shown(game_id, BOARD, 1, Status.ACTIVE)
    assert trips.since() == (0, 0, 0)
    assert (await service.view(game_id=game_id)).board_current
    assert trips.since() == (1, 0, 0)
    assert await service.lagging_boards() == []  # written first, then read: not lagging
    assert trips.since() == (1, 1, 1)
    # Bob's move carries nothing more; its board and Alice's ping are one write, unsynced.
    await service.move(BOB, "a5-b4", game_id=game_id, expected_ply=1)
    await service.board_shown(game_id, BOARD, 2, Status.ACTIVE)
    await service.ping_sent(game_id, PING + 1)
    assert trips.since() == (1, 2, 1)
    stored = await any_store.get_game(game_id)
    assert stored is not None and stored.board_current and stored.ping_message_id == PING + 1
    trips.since()
    # A board shown and no ping: the next move writes it with itself.
    await service.move(ALICE, "c1-d2", game_id=game_id, expected_ply=2)
    await service.board_shown(game_id, BOARD, 3, Status.ACTIVE)
    await service.move(BOB, "c5-d4", game_id=game_id, expected_ply=3)
    assert trips.since() == (2, 2, 2)
    stored = await any_store.get_game(game_id)
    assert stored is not None and (stored.ply, stored.board_ply) == (4, 3)
    assert stored.version == moved.view.version + 3  # the bookkeeping bumped no version


async def test_a_board_told_and_lost_with_its_process_is_found_lagging(
    any_store: KamenStore,
) -> None:
    service = service_on(any_store)
    game_id = await a_game_begun(service)
    await service.write_behind()
    await service.move(ALICE, "e1-f2", game_id=game_id)
    await service.board_shown(game_id, BOARD, 1, Status.ACTIVE)  # told, never written
    # The process is killed; the next one finds the board behind its game, and repairs it.
    restarted = service_on(any_store)
    [lagging] = await restarted.lagging_boards()
    assert (lagging.id, lagging.board_ply, lagging.ply) == (game_id, 0, 1)
    assert lagging.ping_message_id == PING  # the ping, written at once, is known
    # Told again by the repair, and written by the runner's write-behind pass.
    await restarted.board_shown(game_id, BOARD, 1, Status.ACTIVE)
    assert await restarted.write_behind() == 1 and await restarted.write_behind() == 0
    assert await service_on(any_store).lagging_boards() == []


async def test_a_board_promised_but_never_shown_stays_lagging(any_store: KamenStore) -> None:
    service = service_on(any_store)
    game_id = await a_game_begun(service)
    await service.move(ALICE, "e1-f2", game_id=game_id)  # the board's edit then failed
    await service.move(BOB, "a5-b4", game_id=game_id)
    await service.write_behind()
    [lagging] = await service.lagging_boards()
    assert (lagging.board_ply, lagging.ply) == (0, 2)


async def test_the_runner_writes_the_boards_left_behind_every_second_and_as_it_stops(
    any_store: KamenStore,
) -> None:
    service = service_on(any_store)
    game_id = await a_game_begun(service)
    runner = Runner(service, repair_every=3600)
    assert await runner.lease()
    runner.start()
    try:
        await service.move(ALICE, "e1-f2", game_id=game_id)
        await service.board_shown(game_id, BOARD, 1, Status.ACTIVE)
        for _ in range(50):  # within the pass's second, and then some
            stored = await any_store.get_game(game_id)
            if stored is not None and stored.board_ply == 1:
                break
            await asyncio.sleep(0.1)
        assert stored is not None and stored.board_current
        await service.move(BOB, "a5-b4", game_id=game_id)
        await service.board_shown(game_id, BOARD, 2, Status.ACTIVE)
    finally:
        await runner.stop()
    stored = await any_store.get_game(game_id)
    assert stored is not None and stored.board_ply == 2 and stored.board_current


# ----------------------------------------------------------------- marks told and written


def test_marks_given_back_by_a_write_that_did_not_land_stay_under_newer_ones() -> None:
    behind = Behind()
    row = a_game(id=1, moves=("a1-b2",))
    behind.tell(1, Marks.board(BOARD, 0, Status.ACTIVE))
    with behind.taken(1) as carried:
        assert carried == Marks.board(BOARD, 0, Status.ACTIVE)
        assert behind.on(row).message_id == BOARD  # read before the write lands: still seen
        behind.tell(1, Marks.board(BOARD + 1, 1, Status.ACTIVE))  # told while it was written
        with behind.taken(1) as other:
            assert other is None  # one write at a time carries a game's marks
    behind.landed(1, carried, written=False)  # the move lost its race
    seen = behind.on(row)
    assert (seen.message_id, seen.board_ply) == (BOARD + 1, 1)
    with pytest.raises(RuntimeError), behind.taken(1) as carried:
        raise RuntimeError("the database went away")
    assert behind.on(row).board_ply == 1 and len(behind) == 1


async def test_the_write_behind_pass_leaves_a_game_whose_marks_a_move_carries() -> None:
    behind = Behind()
    written: list[dict[int, Marks]] = []

    async def writer(marks: Any) -> None:
        written.append(dict(marks))

    behind.tell(1, Marks.board(BOARD, 0, Status.ACTIVE))
    behind.tell(2, Marks.board(BOARD, 1, Status.ACTIVE))
    with behind.taken(1) as carried:
        behind.tell(1, Marks.board(BOARD, 2, Status.ACTIVE))
        assert await behind.write(writer) == 1
    behind.landed(1, carried, written=True)
    assert written == [{2: Marks.board(BOARD, 1, Status.ACTIVE)}]
    assert await behind.write(writer) == 1 and written[1] == {
        1: Marks.board(BOARD, 2, Status.ACTIVE)
    }
    assert await behind.write(writer) == 0


async def test_marks_just_written_are_still_seen_on_a_row_read_before_they_landed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    behind = Behind()
    read_before = a_game(id=1, moves=("a1-b2",), message_id=BOARD, board_ply=0)

    async def writer(marks: Any) -> None:
        pass

    behind.tell(1, Marks.board(BOARD + 1, 1, Status.ACTIVE))
    assert await behind.write(writer) == 1
    assert (behind.on(read_before).message_id, behind.on(read_before).board_ply) == (BOARD + 1, 1)
    later = time.monotonic() + LANDED_FOR
    monkeypatch.setattr("matches.marks.time.monotonic", lambda: later)
    assert behind.on(read_before) == read_before  # long after: the row read is the truth
