"""Post-game reviews: made once per finished game, in the AI workers, and kept.

A review judges every move of a game (`games.ai.review`). Making one takes
seconds to a minute, so it is made by the `Reviewer` (the AI workers' slow
lane, behind every move Kamen has to play), kept in the store as JSON, and
read back from there the next time anyone asks. Two asks for one game while it
is being made wait for the same review.

The first review is the quick one (a long game in seconds). Once it is kept,
this service starts the deep one of the same game in the background (Oware and
Lasca: `games.ai.review.deepens`; a move a worker job, behind Kamen's moves),
which takes its place in the store when done: the next ask shows it. A deep
review cut off (a restart) is started again the next time the quick one is read.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import Protocol

from games.ai import review as reviewing
from games.ai.review import Review
from matches.clock import Clock
from matches.engine_help import EngineHelp, positions_along
from matches.errors import BadInput
from matches.inputs import snowflake
from matches.records import Status
from matches.storage import Store
from matches.views import GameView

log = logging.getLogger(__name__)


class Reviewer(Protocol):
    """Makes a game's review away from the event loop (runtime/reviewer.py)."""

    async def review(
        self, game: str, variant: str, moves: Sequence[str], deep: bool = False
    ) -> Review: ...


class Reviews:
    """Reviews of finished games: kept in `store`, made by `reviewer` when missing."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        reviewer: Reviewer | None,
        engine_help: EngineHelp | None = None,
    ) -> None:
        self.store = store
        self.engine_help = engine_help
        self.clock = clock
        self.reviewer = reviewer
        self._making: dict[int, asyncio.Future[Review]] = {}
        self._deepening: dict[int, asyncio.Task[None]] = {}

    async def kept(self, view: GameView) -> Review | None:
        """The review of `view`'s game if one was made already (a quick one's deep one is
        started again if it is not on its way)."""
        text = await self.store.review(view.id)
        if text is None:
            return None
        review = reviewing.from_json(text)
        self._deepen(view, review)
        return review

    async def may_see(self, view: GameView, user_id: int) -> None:
        """Refuse the review (kept or not) to a player who is playing a game that one of its
        positions occurs in (`matches.engine_help`)."""
        if self.engine_help is not None:
            await self.engine_help.check(snowflake(user_id, "user"), positions_along(view.state))

    async def check(self, view: GameView) -> None:
        """Refuse a review of a game not over, or without a move, or with no AI to make it."""
        if view.status is not Status.FINISHED:
            raise BadInput("review.not-over", id=view.id)
        if not view.moves:
            raise BadInput("review.no-moves", id=view.id)
        if self.reviewer is None:
            raise BadInput("review.unavailable")

    async def make(self, view: GameView) -> Review:
        """Make the review of `view`'s game now (checked, not kept yet); asks made while it
        is being made wait for the same one."""
        making = self._making.get(view.id)
        if making is None:
            making = asyncio.ensure_future(self._make(view))
            self._making[view.id] = making
            making.add_done_callback(lambda _: self._making.pop(view.id, None))
        return await asyncio.shield(making)

    async def _make(self, view: GameView) -> Review:
        assert self.reviewer is not None  # checked
        made = await self.reviewer.review(view.game, str(view.state.variant), view.moves)
        await self.store.save_review(view.id, reviewing.to_json(made), self.clock())
        log.info("game #%s reviewed: %d moves marked", view.id, len(made.marked()))
        self._deepen(view, made)
        return made

    def _deepen(self, view: GameView, review: Review) -> None:
        """Start the deep review of `view`'s game in the background, unless `review` is it,
        it is on its way, or the game has none."""
        if review.deep or self.reviewer is None or view.id in self._deepening:
            return
        if not reviewing.deepens(view.game):
            return
        task = asyncio.get_running_loop().create_task(
            self._make_deep(view), name=f"review-deep-{view.id}"
        )
        self._deepening[view.id] = task
        task.add_done_callback(lambda _: self._deepening.pop(view.id, None))

    async def _make_deep(self, view: GameView) -> None:
        assert self.reviewer is not None
        try:
            made = await self.reviewer.review(
                view.game, str(view.state.variant), view.moves, deep=True
            )
            await self.store.save_review(
                view.id, reviewing.to_json(made), self.clock(), replace=True
            )
        except Exception:  # the quick review stays; the next ask starts the deep one again
            log.exception("game #%s: the deep review failed", view.id)
            return
        log.info("game #%s reviewed deeply: depth %s", view.id, made.depths())

    async def deepened(self, game_id: int) -> None:
        """Wait until the deep review of game `game_id` on its way here (if one is) is kept."""
        task = self._deepening.get(game_id)
        if task is not None:
            await asyncio.shield(task)

    async def stop(self) -> None:
        """Stop the deep reviews on their way (before the store closes): each is made
        again the next time its game's review is read."""
        tasks = list(self._deepening.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
