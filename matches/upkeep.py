"""Keeping the games true to the world outside them: Kamen's downtime, channels that are gone.

Kamen writes a heartbeat every few seconds while it runs. At start-up the time
since the last one is time nobody could move: when it is more than a short
restart, every running clock gets it back (deadlines and reminders moved later),
so no game is lost on time, Kamen's own included, because Kamen was away. A game
whose channel or thread was deleted cannot be played on: it ends as abandoned
(not rated), and a challenge there is cancelled.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from matches import transitions
from matches.inputs import snowflake
from matches.ledger import Draft, Ledger, Loaded, Race, Where
from matches.positions import ReplayError
from matches.records import Status
from matches.views import GameView

log = logging.getLogger(__name__)

# A gap between heartbeats longer than this is downtime; a shorter one is a quick
# restart, or a beat late under load, and the clocks keep what they had.
DOWNTIME = timedelta(seconds=30)


class _AlreadyClosed(Exception):
    """Nothing to end: the game or challenge was over before its channel went."""


class Upkeep:
    """The heartbeat, the downtime credit, abandoned channels, on the ledger it is handed."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    async def beat(self, now: datetime | None = None) -> None:
        await self.ledger.store.beat(now or self.ledger.clock())

    async def beating(self, now: datetime | None = None) -> bool:
        """Whether the heartbeat says Kamen is not away (or never ran): no downtime to give."""
        last = await self.ledger.store.last_beat()
        return last is None or (now or self.ledger.clock()) - last <= DOWNTIME

    async def credit_downtime(
        self, now: datetime | None = None
    ) -> list[tuple[GameView, timedelta]]:
        """Give the running clocks the time since the last heartbeat, if it is downtime.

        The games whose clocks moved, with the time given back; the heartbeat is
        written after, so a second call gives nothing twice. A first start (no
        heartbeat yet) knows of no downtime.
        """
        store = self.ledger.store
        now = now or self.ledger.clock()
        last = await store.last_beat()
        credited: list[tuple[GameView, timedelta]] = []
        if last is not None and now - last > DOWNTIME:
            away = now - last
            for row in await store.shift_clocks(away):
                try:
                    credited.append((self.ledger.view_of(row), away))
                except ReplayError:
                    log.exception(
                        "game #%s cannot be replayed; its clock moved unannounced", row.id
                    )
        await store.beat(now)
        return credited

    async def abandon_channel(self, channel_id: int) -> list[GameView]:
        """End every open game of a channel or thread that is gone.

        Active games finish as abandoned, without a result and not rated;
        challenges are cancelled. What was ended, for the bot to tell the players.
        """
        rows = await self.ledger.store.open_games_in(snowflake(channel_id, "channel"))
        ended: list[GameView] = []
        for row in rows:
            try:
                view = await self._abandon(row.id)
            except ReplayError:
                log.exception("game #%s cannot be replayed; left open in a gone channel", row.id)
                continue
            if view is not None:
                ended.append(view)
        return ended

    async def _abandon(self, game_id: int) -> GameView | None:
        clock = self.ledger.clock

        def ended(loaded: Loaded) -> Draft:
            row = loaded.row
            if row.status is Status.ACTIVE:
                return Draft(transitions.abandoned(row, clock(), running=loaded.state.to_move))
            if row.status is Status.CHALLENGE:
                return Draft(transitions.closed(row, Status.CANCELLED, clock()))
            raise _AlreadyClosed()

        try:
            committed = await self.ledger.change(Where(game_id=game_id), ended, race=Race.RETRY)
        except _AlreadyClosed:
            return None
        return self.ledger.view(committed.after)
