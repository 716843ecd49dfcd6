"""Scoped access: a game found by its id is found only from the server it belongs to.

Every service method that takes a game id takes the asker's `guild_id` too; another
server gets "There is no such game here." (the same words as for an id that does not
exist, so ids cannot be probed), and nothing is written. The bot itself (the sweeper,
the reconciler) passes no guild and is not scoped.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from matches import FirstLegalMove, GameView, ManualClock, MatchService, NoGameHere, Status
from store import open_store
from tests.matches_support import refused

HOME, ELSEWHERE = 1, 2
CHANNEL = 10
ALICE, BOB, CAROL, BOT = 100, 200, 300, 999
NOT_HERE = r"^There is no such game here\.$"


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[MatchService]:
    store = await open_store(f"sqlite:///{tmp_path / 'k.db'}")
    yield MatchService(
        store, bot_user_id=BOT, picker=FirstLegalMove(), clock=ManualClock(), rng=random.Random(1)
    )
    await store.close()


async def game_at_home(service: MatchService) -> GameView:
    offered = await service.challenge(
        guild_id=HOME, channel_id=CHANNEL, challenger_id=ALICE, game="oska", opponent_id=BOB,
        first="challenger",
    )  # fmt: skip
    return await service.accept(offered.id, BOB, guild_id=HOME)


async def challenge_at_home(service: MatchService) -> GameView:
    return await service.challenge(
        guild_id=HOME, channel_id=CHANNEL + 1, challenger_id=ALICE, game="oska", opponent_id=BOB
    )


Call = Callable[[MatchService, int, int | None], Awaitable[Any]]

# Every way into a game by its id, asked from server `guild` (None: the bot itself).
ON_GAMES: dict[str, Call] = {
    "view": lambda s, g, guild: s.view(game_id=g, guild_id=guild),
    "move": lambda s, g, guild: s.move(ALICE, "e1-f2", game_id=g, guild_id=guild),
    "choices_for": lambda s, g, guild: s.choices_for(ALICE, game_id=g, guild_id=guild),
    "resign": lambda s, g, guild: s.resign(BOB, game_id=g, guild_id=guild),
    "offer_draw": lambda s, g, guild: s.offer_draw(BOB, game_id=g, guild_id=guild),
    "accept_draw": lambda s, g, guild: s.accept_draw(BOB, game_id=g, guild_id=guild),
    "decline_draw": lambda s, g, guild: s.decline_draw(BOB, game_id=g, guild_id=guild),
    "export_record": lambda s, g, guild: s.export_record(game_id=g, guild_id=guild),
    "play_bot_move": lambda s, g, guild: s.play_bot_move(g, guild_id=guild),
    "set_board_message": lambda s, g, guild: s.set_board_message(g, 5000, guild_id=guild),
    "board_shown": lambda s, g, guild: s.board_shown(g, 5000, 0, Status.ACTIVE, guild_id=guild),
    "ping_sent": lambda s, g, guild: s.ping_sent(g, 5001, guild_id=guild),
}
ON_CHALLENGES: dict[str, Call] = {
    "accept": lambda s, g, guild: s.accept(g, BOB, guild_id=guild),
    "may_accept": lambda s, g, guild: s.may_accept(g, BOB, guild_id=guild),
    "decline": lambda s, g, guild: s.decline(g, BOB, guild_id=guild),
    "cancel": lambda s, g, guild: s.cancel(g, ALICE, guild_id=guild),
}


def stored(view: GameView) -> tuple[object, ...]:
    row = view.row
    return (row.version, row.message_id, row.board_ply, row.ping_message_id, row.moves)


@pytest.mark.parametrize("name", sorted(ON_GAMES))
async def test_another_server_cannot_reach_a_game_by_its_id(
    service: MatchService, name: str
) -> None:
    view = await game_at_home(service)
    with refused(NoGameHere, NOT_HERE, code="match.no-game-here.elsewhere"):
        await ON_GAMES[name](service, view.id, ELSEWHERE)
    assert stored(await service.view(game_id=view.id)) == stored(view)


@pytest.mark.parametrize("name", sorted(ON_CHALLENGES))
async def test_another_server_cannot_answer_a_challenge_by_its_id(
    service: MatchService, name: str
) -> None:
    offered = await challenge_at_home(service)
    with refused(NoGameHere, NOT_HERE, code="match.no-game-here.elsewhere"):
        await ON_CHALLENGES[name](service, offered.id, ELSEWHERE)
    after = await service.view(game_id=offered.id)
    assert after.status is Status.CHALLENGE and after.version == offered.version


@pytest.mark.parametrize("name", sorted({**ON_GAMES, **ON_CHALLENGES}))
async def test_an_id_that_does_not_exist_gets_the_same_words(
    service: MatchService, name: str
) -> None:
    with refused(NoGameHere, NOT_HERE, code="match.no-game-here.elsewhere"):
        await {**ON_GAMES, **ON_CHALLENGES}[name](service, 424242, ELSEWHERE)


async def test_the_games_own_server_reaches_it(service: MatchService) -> None:
    view = await game_at_home(service)
    assert (await service.view(game_id=view.id, guild_id=HOME)).id == view.id
    assert "e1-f2" in await service.choices_for(ALICE, game_id=view.id, guild_id=HOME)
    moved = await service.move(ALICE, "e1-f2", game_id=view.id, guild_id=HOME)
    assert moved.view.ply == 1
    record = await service.export_record(game_id=view.id, guild_id=HOME, site="Home")
    assert '[Site "Home"]' in record and "e1-f2" in record
    assert (await service.resign(BOB, game_id=view.id, guild_id=HOME)).result == "1-0"
    offered = await challenge_at_home(service)
    assert (await service.may_accept(offered.id, BOB, guild_id=HOME)).id == offered.id
    assert (await service.decline(offered.id, BOB, guild_id=HOME)).status is Status.DECLINED


async def test_the_bot_itself_is_not_scoped(service: MatchService) -> None:
    view = await game_at_home(service)
    assert (await service.view(game_id=view.id)).id == view.id
    await service.board_shown(view.id, 5000, view.ply, view.status)
    assert (await service.view(game_id=view.id, guild_id=HOME)).board_current


async def test_a_channel_of_another_server_has_no_game_for_it(service: MatchService) -> None:
    await game_at_home(service)
    with refused(NoGameHere, NOT_HERE, code="match.no-game-here.elsewhere"):
        await service.view(channel_id=CHANNEL, guild_id=ELSEWHERE)
    with refused(NoGameHere, NOT_HERE):
        await service.move(ALICE, "e1-f2", channel_id=CHANNEL, guild_id=ELSEWHERE)
    assert (await service.view(channel_id=CHANNEL, guild_id=HOME)).ply == 0
