"""What each game's public board shows, and the turn notifications: the bookkeeping the
bot keeps through the service so that a board left behind can be found and repaired,
and a player's choice of pings."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from matches import BadInput, FirstLegalMove, ManualClock, MatchService, Status
from store import open_store
from tests.matches_support import refused

GUILD, CHANNEL = 1, 10
ALICE, BOB, BOT = 100, 200, 999
BOARD, PING = 5000, 6000


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
