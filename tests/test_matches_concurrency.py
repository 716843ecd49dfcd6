"""Two actions on one game at the same time: exactly one lands, on a real SQLite file,
through one store connection and through two (as two processes would have)."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import pytest

import words
from matches import (
    ChallengeClosed,
    GameOver,
    GameView,
    ManualClock,
    MatchService,
    MoveResult,
    NotYourTurn,
    StaleAction,
    Status,
    Store,
    StoredGame,
)
from store import open_store

GUILD = 1
ALICE, BOB, CAROL = 100, 200, 300
ROUNDS = 12
CHANGED = "The position changed, try again."
# When the losing move's read comes after the winner's commit (a busy machine lets it), its
# board's move number is already behind: refused as the old board it is.
OUT_OF_DATE = "That board is out of date: the game has moved on. Look again."


class Gate:
    """A real store whose next read of a game waits until the other gate's has happened too.

    Two services, each on its own connection, then both read the same version
    before either writes: the race of two processes, made certain instead of
    left to the scheduler. Everything else goes straight to the store.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self.barrier: asyncio.Barrier | None = None

    def arm(self, barrier: asyncio.Barrier) -> None:
        self.barrier = barrier

    async def get_game(self, game_id: int) -> StoredGame | None:
        game = await self.store.get_game(game_id)
        barrier, self.barrier = self.barrier, None
        if barrier is not None:
            await barrier.wait()
        return game

    def __getattr__(self, name: str) -> object:
        return getattr(self.store, name)


def stored_moves(path: Path, game_id: int) -> tuple[str, ...]:
    """What another connection sees: only what has been committed."""
    db = sqlite3.connect(path)
    try:
        row = db.execute("SELECT moves FROM games WHERE id = ?", (game_id,)).fetchone()
    finally:
        db.close()
    return tuple(row[0].split())


async def new_game(service: MatchService, channel: int, game: str) -> GameView:
    offered = await service.challenge(
        guild_id=GUILD, channel_id=channel, challenger_id=ALICE, game=game, opponent_id=BOB,
        first="challenger",
    )  # fmt: skip
    return await service.accept(offered.id, BOB)


async def race_two_moves(
    services: tuple[MatchService, MatchService], view: GameView, expected: bool
) -> tuple[MoveResult, BaseException]:
    """The player to move sends two different legal moves at once, one through each service."""
    user = view.to_move_id
    assert user is not None
    legal = view.state.legal_moves()
    ply = view.ply if expected else None
    outcomes = await asyncio.gather(
        services[0].move(user, legal[0], game_id=view.id, expected_ply=ply),
        services[1].move(user, legal[-1], game_id=view.id, expected_ply=ply),
        return_exceptions=True,
    )
    landed = [o for o in outcomes if isinstance(o, MoveResult)]
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(landed) == 1 and len(refused) == 1, outcomes
    return landed[0], refused[0]


async def play_races(
    services: tuple[MatchService, MatchService], path: Path, game: str, gates: list[Gate]
) -> None:
    """Race the two services at every turn; each time one move lands and one is stale."""
    view = await new_game(services[0], 10, game)
    chooser = random.Random(0)
    for round_ in range(ROUNDS):
        if len(view.state.legal_moves()) < 2:  # nothing to race with: play the one move
            view = (await services[0].move(view.to_move_id or 0, view.state.legal_moves()[0],
                                           game_id=view.id)).view  # fmt: skip
        else:
            barrier = asyncio.Barrier(2)
            for gate in gates:
                gate.arm(barrier)
            pair = services if chooser.random() < 0.5 else (services[1], services[0])
            landed, refused = await race_two_moves(pair, view, expected=round_ % 2 == 0)
            if not gates and isinstance(refused, NotYourTurn):
                # Left to the scheduler, the second move may be read after the first landed:
                # with no move number to go by, it is rightly told it is not its turn.
                assert round_ % 2 == 1, refused
            else:
                assert isinstance(refused, StaleAction), refused
                said = words.explain(refused)
                assert said == CHANGED or (round_ % 2 == 0 and said == OUT_OF_DATE), said
            assert stored_moves(path, view.id) == landed.view.moves == (*view.moves, landed.move)
            view = landed.view
        if view.status is not Status.ACTIVE:
            break


@pytest.mark.parametrize("game", ["oska", "lasca", "oware"])
async def test_two_moves_at_once_on_one_connection(tmp_path: Path, game: str) -> None:
    path = tmp_path / "k.db"
    store = await open_store(f"sqlite:///{path}")
    try:
        service = MatchService(store, clock=ManualClock(), rng=random.Random(0))
        await play_races((service, service), path, game, [])
    finally:
        await store.close()


@pytest.mark.parametrize("game", ["oska", "lasca", "oware"])
async def test_two_moves_at_once_through_two_connections(tmp_path: Path, game: str) -> None:
    path = tmp_path / "k.db"
    one, two = await open_store(f"sqlite:///{path}"), await open_store(f"sqlite:///{path}")
    try:
        gates = [Gate(one), Gate(two)]
        clock = ManualClock()
        services = (MatchService(gates[0], clock=clock), MatchService(gates[1], clock=clock))  # type: ignore[arg-type]
        await play_races(services, path, game, gates)
    finally:
        await one.close()
        await two.close()


async def test_two_moves_left_to_the_scheduler_never_both_land(tmp_path: Path) -> None:
    """Ungated, the second move may read before or after the first commits: one lands, and
    the other is refused as stale, or, if it read after, as out of turn or too late."""
    path = tmp_path / "k.db"
    one, two = await open_store(f"sqlite:///{path}"), await open_store(f"sqlite:///{path}")
    try:
        first, second = MatchService(one), MatchService(two)
        for channel in range(10, 10 + ROUNDS):
            view = await new_game(first, channel, "oware")
            landed, refused = await race_two_moves((first, second), view, expected=channel % 2 == 0)
            assert isinstance(refused, StaleAction | NotYourTurn), refused
            assert stored_moves(path, view.id) == (landed.move,)
            resigned = await asyncio.gather(
                first.resign(ALICE, game_id=view.id),
                second.move(BOB, landed.view.state.legal_moves()[0], game_id=view.id,
                            expected_ply=1),
                return_exceptions=True,
            )  # fmt: skip
            # Resigning does not depend on the position: it lands whoever wrote first,
            # and Bob's move either came before it or is refused as too late.
            assert isinstance(resigned[0], GameView), resigned
            final = await first.view(game_id=view.id)
            assert final.status is Status.FINISHED and final.result == "0-1"
            if isinstance(resigned[1], MoveResult):
                assert final.ply == 2
            else:
                assert isinstance(resigned[1], GameOver) and final.ply == 1, resigned
    finally:
        await one.close()
        await two.close()


async def test_an_open_challenge_taken_by_two_at_once_goes_to_one(tmp_path: Path) -> None:
    path = tmp_path / "k.db"
    stores: list[Store] = [await open_store(f"sqlite:///{path}") for _ in range(2)]
    try:
        first, second = (MatchService(store, rng=random.Random(0)) for store in stores)
        for channel in range(10, 10 + ROUNDS):
            offered = await first.challenge(
                guild_id=GUILD, channel_id=channel, challenger_id=ALICE, game="oware"
            )
            outcomes = await asyncio.gather(
                first.accept(offered.id, BOB), second.accept(offered.id, CAROL),
                return_exceptions=True,
            )  # fmt: skip
            games = [o for o in outcomes if isinstance(o, GameView)]
            errors = [o for o in outcomes if isinstance(o, BaseException)]
            assert len(games) == 1 and len(errors) == 1, outcomes
            assert isinstance(errors[0], ChallengeClosed), errors
            assert errors[0].code == "match.challenge-closed.accepted"
            assert words.explain(errors[0]) == "This challenge was already accepted."
            final = await first.view(game_id=offered.id)
            assert final.opponent_id == games[0].opponent_id in (BOB, CAROL)
    finally:
        for store in stores:
            await store.close()
