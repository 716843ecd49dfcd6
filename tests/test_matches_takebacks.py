"""Taking a move back, through the service on a real SQLite file: asked by its player,
granted or declined by the opponent; only in games no rating hangs on; against Kamen only
at `easy`, where it is granted at once; and a finished game's thread keeps its game."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from games.base import GameState
from matches import (
    FirstLegalMove,
    GameView,
    ManualClock,
    MatchService,
    NoGameHere,
    NotAPlayer,
    Status,
    TakebackEvent,
)
from matches.errors import BadInput
from store import open_store
from tests.matches_support import refused

GUILD, CHANNEL = 1, 10
ALICE, BOB, CAROL, BOT = 100, 200, 300, 999


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[MatchService]:
    store = await open_store(f"sqlite:///{tmp_path / 'kamen.db'}")
    yield MatchService(
        store, bot_user_id=BOT, picker=FirstLegalMove(), clock=ManualClock(),
        rng=random.Random(3),
    )  # fmt: skip
    await store.close()


async def start(service: MatchService, *, rated: bool = False, time: str | None = None,
                channel: int = CHANNEL) -> GameView:  # fmt: skip
    """ALICE (first) against BOB (second), unrated unless asked."""
    offered = await service.challenge(
        guild_id=GUILD, channel_id=channel, challenger_id=ALICE, game="oska",
        opponent_id=BOB, first="challenger", rated=rated, time=time,
    )  # fmt: skip
    return await service.accept(offered.id, BOB)


async def play(service: MatchService, view: GameView, *moves: str) -> GameView:
    for move in moves:
        assert view.to_move_id is not None
        view = (await service.move(view.to_move_id, move, game_id=view.id)).view
    return view


async def test_a_move_is_taken_back_when_the_opponent_grants_it(service: MatchService) -> None:
    view = await play(service, await start(service, time="1h"), "a1-b2", "a5-b4", "c1-d2")
    asked = await service.ask_takeback(ALICE, game_id=view.id)
    assert asked.event is TakebackEvent.ASKED and asked.view.row.takeback_by == ALICE
    assert asked.view.moves == ("a1-b2", "a5-b4", "c1-d2")  # nothing taken yet
    with refused(BadInput, "already asked"):
        await service.ask_takeback(ALICE, game_id=view.id)
    with refused(BadInput, "your own request"):
        await service.answer_takeback(ALICE, True, game_id=view.id)
    with refused(NotAPlayer, "not a player"):
        await service.answer_takeback(CAROL, True, game_id=view.id)
    granted = await service.answer_takeback(BOB, True, game_id=view.id, expected_ply=3)
    assert granted.event is TakebackEvent.TAKEN and granted.taken == ("c1-d2",)
    assert granted.view.moves == ("a1-b2", "a5-b4") and granted.view.to_move_id == ALICE
    assert granted.view.row.takeback_by is None and granted.view.deadline is not None
    # The position is really the one before: Alice may play another move there.
    again = await service.move(ALICE, "e1-f2", game_id=view.id)
    assert again.view.moves == ("a1-b2", "a5-b4", "e1-f2")


async def test_a_declined_or_overtaken_request_changes_nothing(service: MatchService) -> None:
    view = await play(service, await start(service), "a1-b2")
    await service.ask_takeback(ALICE, game_id=view.id)
    declined = await service.answer_takeback(BOB, False, game_id=view.id)
    assert declined.event is TakebackEvent.DECLINED and declined.asker_id == ALICE
    assert declined.view.moves == ("a1-b2",) and declined.view.row.takeback_by is None
    await service.ask_takeback(ALICE, game_id=view.id)
    moved = await service.move(BOB, "a5-b4", game_id=view.id)  # Bob answers by moving
    assert moved.view.row.takeback_by is None
    with refused(BadInput, "no request"):
        await service.answer_takeback(BOB, True, game_id=view.id)
    # Once the opponent has answered the move, it is no longer the asker's to take back.
    with refused(BadInput, "has already answered"):
        await service.ask_takeback(ALICE, game_id=view.id)
    with refused(BadInput, "no move of yours"):
        await service.ask_takeback(BOB, game_id=(await start(service, channel=11)).id)


async def test_no_takeback_where_a_rating_or_a_live_clock_hangs_on_it(
    service: MatchService,
) -> None:
    rated = await play(service, await start(service, rated=True), "a1-b2")
    with refused(BadInput, "unrated"):
        await service.ask_takeback(ALICE, game_id=rated.id)
    live = await play(service, await start(service, time="5+3", channel=11), "a1-b2")
    with refused(BadInput, "live clock"):
        await service.ask_takeback(ALICE, game_id=live.id)


async def test_kamen_grants_a_takeback_at_levels_1_and_2_only_and_takes_its_reply_back_too(
    service: MatchService,
) -> None:
    for level, channel in (("easy", 20), ("2", 21), ("medium", 22)):
        game = await service.challenge(
            guild_id=GUILD, channel_id=channel, challenger_id=ALICE, game="oska",
            opponent_id=BOT, first="challenger", level=level,
        )  # fmt: skip
        await service.move(ALICE, "a1-b2", game_id=game.id)
        await service.play_bot_move(game.id)  # Kamen's reply
        now = await service.view(game_id=game.id)
        assert len(now.moves) == 2 and now.to_move_id == ALICE
        if level != "medium":
            taken = await service.ask_takeback(ALICE, game_id=game.id)
            assert taken.event is TakebackEvent.TAKEN and len(taken.taken) == 2
            assert taken.view.moves == () and taken.view.to_move_id == ALICE
        else:
            with refused(BadInput, "only at levels 1 and 2; this game is at level 3"):
                await service.ask_takeback(ALICE, game_id=game.id)


async def test_a_finished_games_channel_keeps_its_game(service: MatchService) -> None:
    view = await play(service, await start(service), "a1-b2", "a5-b4")
    with refused(NoGameHere, "no game in this channel"):
        await service.view_here(channel_id=CHANNEL + 5)
    await service.resign(BOB, game_id=view.id)
    with refused(NoGameHere, "no game in this channel"):
        await service.view(channel_id=CHANNEL)
    kept = await service.view_here(channel_id=CHANNEL, game="oska")
    assert kept.id == view.id and kept.status is Status.FINISHED
    with refused(NoGameHere, "not Lasca"):
        await service.view_here(channel_id=CHANNEL, game="lasca")
    # A new game there is the channel's game again.
    again = await start(service)
    assert (await service.view_here(channel_id=CHANNEL)).id == again.id


class Pondering:
    """Kamen's picker, held in thought until `done` is set: the positions it was asked
    about, and the first legal move of each."""

    def __init__(self) -> None:
        self.thinking, self.done = asyncio.Event(), asyncio.Event()
        self.asked: list[tuple[str, ...]] = []

    async def pick(self, state: GameState, level: str) -> str:
        self.asked.append(state.moves)
        self.thinking.set()
        await self.done.wait()
        return state.legal_moves()[0]


async def test_a_takeback_while_kamen_thinks_makes_it_think_again(tmp_path: Path) -> None:
    store = await open_store(f"sqlite:///{tmp_path / 'kamen.db'}")
    try:
        picker = Pondering()
        service = MatchService(
            store, bot_user_id=BOT, picker=picker, clock=ManualClock(), rng=random.Random(3)
        )
        game = await service.challenge(
            guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="lasca",
            opponent_id=BOT, first="challenger", level="easy",
        )  # fmt: skip
        await service.move(ALICE, "a3-b4", game_id=game.id)  # Kamen's one reply: c5xa3
        thinking = asyncio.create_task(service.play_bot_move(game.id, expected_ply=1))
        await picker.thinking.wait()
        taken = await service.ask_takeback(ALICE, game_id=game.id)
        assert taken.taken == ("a3-b4",)
        await service.move(ALICE, "c3-b4", game_id=game.id)  # now its one reply is a5xc3
        picker.done.set()
        moved = await thinking
        assert moved is not None and moved.move == "a5xc3"
        assert picker.asked == [("a3-b4",), ("c3-b4",)]  # thought again about the new one
        now = await service.view(game_id=game.id)
        assert now.moves == ("c3-b4", "a5xc3") and now.to_move_id == ALICE
    finally:
        await store.close()
