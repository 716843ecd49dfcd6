"""Races that must settle right: resigning and answering draws do not depend on the
position, so a lost race is decided again on a fresh read, never "The position changed".

On real SQLite files; the certain race goes through two connections whose reads are held
at a barrier until both have read (as two processes would), the other is left to the
scheduler on one connection, as the bot runs.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import words
from games.base import Termination
from matches import (
    DrawEvent,
    DrawResult,
    GameOver,
    GameView,
    ManualClock,
    MatchService,
    MoveResult,
    StaleAction,
    Status,
    Store,
    StoredGame,
)
from store import open_store
from tests.test_matches_concurrency import Gate

GUILD = 1
ALICE, BOB = 100, 200
RACES = 50
CHANGED = "The position changed, try again."


async def new_game(service: MatchService, channel: int) -> GameView:
    """Oware between ALICE (first, to move) and BOB."""
    offered = await service.challenge(
        guild_id=GUILD, channel_id=channel, challenger_id=ALICE, game="oware", opponent_id=BOB,
        first="challenger",
    )  # fmt: skip
    return await service.accept(offered.id, BOB)


def settled_as_resigned(
    moved: MoveResult | BaseException, resigned: GameView | BaseException, final: GameView
) -> None:
    """Bob resigned, whoever wrote first: Alice's move landed before, or was refused after."""
    assert not isinstance(resigned, BaseException), words.explain(resigned)  # type: ignore[arg-type]
    assert resigned.status is Status.FINISHED and resigned.reason is Termination.RESIGNATION
    assert resigned.result == "1-0" and final.result == "1-0" and final.status is Status.FINISHED
    if isinstance(moved, MoveResult):
        assert final.ply == 1 and resigned.ply == 1
    else:
        assert isinstance(moved, GameOver), moved
        assert not isinstance(moved, StaleAction) and words.explain(moved) != CHANGED
        assert final.ply == 0


async def test_fifty_resignations_racing_a_move_all_settle_as_resigned(tmp_path: Path) -> None:
    path = tmp_path / "k.db"
    one, two = await open_store(f"sqlite:///{path}"), await open_store(f"sqlite:///{path}")
    try:
        gates = [Gate(one), Gate(two)]
        clock = ManualClock()
        mover = MatchService(gates[0], clock=clock)  # type: ignore[arg-type]
        resigner = MatchService(gates[1], clock=clock)  # type: ignore[arg-type]
        orders = {True: 0, False: 0}
        for channel in range(10, 10 + RACES):
            view = await new_game(mover, channel)
            barrier = asyncio.Barrier(2)
            for gate in gates:
                gate.arm(barrier)
            move = view.state.legal_moves()[0]
            # Bob resigns from the board he saw (ply 0), as the confirmation button carries it.
            moved, resigned = await asyncio.gather(
                mover.move(ALICE, move, game_id=view.id, expected_ply=0),
                resigner.resign(BOB, game_id=view.id),
                return_exceptions=True,
            )
            final = await mover.view(game_id=view.id)
            settled_as_resigned(moved, resigned, final)
            orders[isinstance(moved, MoveResult)] += 1
        print(f"move first: {orders[True]}, resignation first: {orders[False]}")
    finally:
        await one.close()
        await two.close()


async def test_resignations_racing_a_move_on_one_connection(tmp_path: Path) -> None:
    store = await open_store(f"sqlite:///{tmp_path / 'k.db'}")
    try:
        service = MatchService(store, clock=ManualClock(), rng=random.Random(0))
        for channel in range(10, 10 + RACES):
            view = await new_game(service, channel)
            moved, resigned = await asyncio.gather(
                service.move(ALICE, view.state.legal_moves()[0], game_id=view.id),
                service.resign(BOB, game_id=view.id),
                return_exceptions=True,
            )
            settled_as_resigned(moved, resigned, await service.view(game_id=view.id))
    finally:
        await store.close()


class Held:
    """A real store whose next write waits until `release` is set: the writer read first,
    and writes last."""

    def __init__(self, store: Store, release: asyncio.Event) -> None:
        self.store, self.release, self.read = store, release, asyncio.Event()

    async def get_game(self, game_id: int) -> StoredGame | None:
        game = await self.store.get_game(game_id)
        self.read.set()
        return game

    async def update_game(self, game: StoredGame) -> StoredGame | None:
        await self.release.wait()
        return await self.store.update_game(game)

    def __getattr__(self, name: str) -> object:
        return getattr(self.store, name)


async def test_a_move_that_lost_to_a_resignation_says_the_game_is_over(tmp_path: Path) -> None:
    path = tmp_path / "k.db"
    stores: list[Store] = [await open_store(f"sqlite:///{path}") for _ in range(2)]
    try:
        clock = ManualClock()
        view = await new_game(MatchService(stores[0], clock=clock), 10)
        resigned_done = asyncio.Event()
        held = Held(stores[0], resigned_done)
        mover = MatchService(held, clock=clock)  # type: ignore[arg-type]
        resigner = MatchService(stores[1], clock=clock)

        async def resign_once_the_move_has_read() -> GameView:
            await held.read.wait()
            try:
                return await resigner.resign(BOB, game_id=view.id)
            finally:
                resigned_done.set()

        moved, resigned = await asyncio.gather(
            mover.move(ALICE, view.state.legal_moves()[0], game_id=view.id),
            resign_once_the_move_has_read(),
            return_exceptions=True,
        )
        assert isinstance(moved, GameOver), moved
        assert words.explain(moved) == "This game is over: 1-0 (North resigned)."
        settled_as_resigned(moved, resigned, await resigner.view(game_id=view.id))
    finally:
        for store in stores:
            await store.close()


async def test_a_resignation_from_an_old_board_still_resigns(tmp_path: Path) -> None:
    store = await open_store(f"sqlite:///{tmp_path / 'k.db'}")
    try:
        service = MatchService(store, clock=ManualClock())
        view = await new_game(service, 10)
        await service.move(ALICE, view.state.legal_moves()[0], game_id=view.id)
        resigned = await service.resign(ALICE, game_id=view.id)
        assert resigned.status is Status.FINISHED and resigned.result == "0-1"
    finally:
        await store.close()


async def test_a_draw_offer_racing_the_opponents_move_stands(tmp_path: Path) -> None:
    path = tmp_path / "k.db"
    one, two = await open_store(f"sqlite:///{path}"), await open_store(f"sqlite:///{path}")
    try:
        gates = [Gate(one), Gate(two)]
        clock = ManualClock()
        mover = MatchService(gates[0], clock=clock)  # type: ignore[arg-type]
        offerer = MatchService(gates[1], clock=clock)  # type: ignore[arg-type]
        for channel in range(10, 20):
            view = await new_game(mover, channel)
            barrier = asyncio.Barrier(2)
            for gate in gates:
                gate.arm(barrier)
            moved, offered = await asyncio.gather(
                mover.move(ALICE, view.state.legal_moves()[0], game_id=view.id),
                offerer.offer_draw(BOB, game_id=view.id),
                return_exceptions=True,
            )
            assert isinstance(moved, MoveResult), moved
            assert isinstance(offered, DrawResult), offered
            assert offered.event is DrawEvent.OFFERED
            final = await mover.view(game_id=view.id)
            assert final.ply == 1 and final.draw_offer_by == BOB
            # Alice answers from the board she saw before her move: the offer is what counts.
            accepted = await mover.accept_draw(ALICE, game_id=view.id)
            assert accepted.event is DrawEvent.ACCEPTED and accepted.view.result == "1/2-1/2"
    finally:
        await one.close()
        await two.close()
