"""Reviews kept by the service, on both backends: a finished Oware game gets its quick
review at once; the service then makes the deep one in the background, which takes the
quick one's place (deeper, marked by the expected score lost); a deep review cut off by a
restart is made again when the review is next read."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence

from games.ai.review import DROPS, MARKS, Depths, Review, review_game
from games.registry import get
from matches import GameView, MatchService
from tests import store_support
from tests.matches_support import service_on

GUILD, CHANNEL = 1, 10
ALICE, BOB, KAMEN = 100, 200, 999
QUICK, DEEP = Depths(2, 2), Depths(6, 6)  # small, so the test is fast

store_url = store_support.store_url


class InProcess:
    """A reviewer that makes reviews here, at QUICK and DEEP; a deep one waits for `gate`."""

    def __init__(self, gate: asyncio.Event | None = None) -> None:
        self.gate = gate
        self.asked: list[bool] = []

    async def review(
        self, game: str, variant: str, moves: Sequence[str], deep: bool = False
    ) -> Review:
        self.asked.append(deep)
        if deep and self.gate is not None:
            await self.gate.wait()
        return review_game(game, variant, moves, deep=deep, depths=DEEP if deep else QUICK)


async def finished_oware(service: MatchService, plies: int = 24) -> GameView:
    """An Oware game between Alice and Bob: `plies` seeded random moves, then Bob resigns."""
    offered = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oware",
        opponent_id=BOB, first="challenger", time="1d",
    )  # fmt: skip
    view = await service.accept(offered.id, BOB)
    rng = random.Random(5)
    state = get("oware").new("")
    for _ in range(plies):
        move = rng.choice(state.legal_moves())
        state = state.play(move)
        assert view.to_move_id is not None
        view = (await service.move(view.to_move_id, move, game_id=view.id)).view
    return await service.resign(BOB, game_id=view.id)


def marked_by_expected_score(review: Review) -> bool:
    limits = (DROPS.inaccuracy, DROPS.mistake, DROPS.blunder)
    for entry in review.plies:
        reached = [mark for mark, limit in zip(MARKS, limits, strict=True) if entry.drop >= limit]
        if not entry.forced and entry.mark != (reached[-1] if reached else None):
            return False
    return True


async def test_the_deep_review_takes_the_quick_ones_place(store_url: str) -> None:
    gate = asyncio.Event()
    reviewer = InProcess(gate)
    async with service_on(store_url, KAMEN, reviewer) as (service, _, _):
        view = await finished_oware(service)
        reviews = service.reviews
        await reviews.check(view)
        quick = await reviews.make(view)
        assert quick.depths() == (2, 2) and not quick.deep
        # Kept and read back while the deep one is still being made: the quick one.
        assert await reviews.kept(view) == quick
        assert reviewer.asked == [False, True]  # the deep one asked for once, not again

        gate.set()
        await reviews.deepened(view.id)
        deep = await reviews.kept(view)
        assert deep is not None and deep.deep
        assert deep.depths() == (6, 6)
        assert [e.played for e in deep.plies] == [e.played for e in quick.plies] == list(view.moves)
        assert marked_by_expected_score(deep)
        assert deep == review_game("oware", "", view.moves, deep=True, depths=DEEP)
        assert reviewer.asked == [False, True]  # a deep review is never deepened again


async def test_a_deep_review_cut_off_by_a_restart_is_made_when_next_read(store_url: str) -> None:
    async with service_on(store_url, KAMEN, InProcess(asyncio.Event())) as (service, clock, store):
        view = await finished_oware(service)
        quick = await service.reviews.make(view)
        await service.reviews.stop()  # the process stops before the deep review is done
        assert await service.reviews.kept(view) == quick

        restarted = MatchService(store, bot_user_id=KAMEN, clock=clock, reviewer=InProcess())
        again = await restarted.view(game_id=view.id, guild_id=GUILD)
        assert await restarted.reviews.kept(again) == quick
        await restarted.reviews.deepened(view.id)
        deep = await restarted.reviews.kept(again)
        assert deep is not None and deep.deep and deep.depths() == (6, 6)


async def test_an_oska_review_has_nothing_deeper_to_make(store_url: str) -> None:
    reviewer = InProcess()
    async with service_on(store_url, KAMEN, reviewer) as (service, _, _):
        offered = await service.challenge(
            guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oska",
            opponent_id=BOB, first="challenger", time="1d",
        )  # fmt: skip
        view = await service.accept(offered.id, BOB)
        view = (await service.move(ALICE, "a1-b2", game_id=view.id)).view
        view = await service.resign(BOB, game_id=view.id)
        review = await service.reviews.make(view)
        await service.reviews.deepened(view.id)
        assert await service.reviews.kept(view) == review
        assert reviewer.asked == [False]
        assert review.depths() is None  # the solved table: nothing searched
