"""Keeping the games true to the world outside them: Kamen's downtime, channels that are gone.

The process serving a shard renews its lease every few seconds while it runs:
the shard's heartbeat (`matches.shards`). When a process takes a shard's lease
over, the time since its last beat is time nobody could move there: when it is
more than a short restart, the shard's running clocks get it back (deadlines
and reminders moved later), so no game is lost on time, Kamen's own included,
because Kamen was away; the games of other shards, served meanwhile, keep theirs. A game
whose channel or thread was deleted cannot be played on: it ends as abandoned
(not rated), and a challenge there is cancelled.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from matches import transitions
from matches.inputs import snowflake
from matches.leases import Lease
from matches.ledger import Draft, Ledger, Loaded, Race, Where
from matches.positions import ReplayError
from matches.records import Status
from matches.shards import Shards
from matches.views import GameView

log = logging.getLogger(__name__)

# A gap between heartbeats longer than this is downtime; a shorter one is a quick
# restart, or a beat late under load, and the clocks keep what they had.
DOWNTIME = timedelta(seconds=30)


class _AlreadyClosed(Exception):
    """Nothing to end: the game or challenge was over before its channel went."""


class Upkeep:
    """The downtime credit and abandoned channels, on the ledger it is handed."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    async def credit_downtime(
        self, leases: Sequence[Lease], count: int, now: datetime | None = None
    ) -> list[tuple[GameView, timedelta]]:
        """Give the running clocks of each shard just leased the time since the shard's
        last beat, if it is downtime: that shard's games only, its own outage.

        The games whose clocks moved, with the time given back. The caller renews
        the leases at once after (their beat), so a second call gives nothing twice.
        A shard never served knows of no downtime.
        """
        store = self.ledger.store
        now = now or self.ledger.clock()
        credited: list[tuple[GameView, timedelta]] = []
        for lease in leases:
            if lease.last_beat is None or now - lease.last_beat <= DOWNTIME:
                continue
            away = now - lease.last_beat
            shard = Shards(count, frozenset({lease.shard}))
            for row in await store.shift_clocks(away, shards=shard):
                try:
                    credited.append((self.ledger.view_of(row), away))
                except ReplayError:
                    log.exception(
                        "game #%s cannot be replayed; its clock moved unannounced", row.id
                    )
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
