"""The clocks: challenges that expire, reminders at half time, losses on time.

Deadlines live in the database, so a restart loses none: `sweep(now)` acts on
every deadline that has passed and returns what it did, for the bot to
announce; the service's runner (`matches.runner`) sweeps every few seconds.
Each action is one versioned write through the ledger, tried once: when
several processes sweep (or a player moves at the last moment) exactly one of
them acts on a deadline, and the others let it be.
"""

from __future__ import annotations

import logging
from datetime import datetime

from games.base import Side, Termination
from matches import transitions
from matches.ledger import Draft, Ledger
from matches.positions import ReplayError
from matches.records import Status, StoredGame
from matches.shards import Shards
from matches.views import SweepEvent, SweepKind

log = logging.getLogger(__name__)


class Clocks:
    """The sweep over passed deadlines, on the ledger it is handed (`matches.runner` runs it)."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    async def sweep(
        self, now: datetime | None = None, *, batch: int = 100, shards: Shards | None = None
    ) -> list[SweepEvent]:
        """Act on the deadlines passed by `now` (the clock's time by default), earliest
        first, in the servers on `shards` (None: all). A game whose deadline cannot be
        acted on now (the database failing) is logged and left for the next sweep."""
        now = now or self.ledger.clock()
        events: list[SweepEvent] = []
        for row in await self.ledger.store.due(now, batch, shards=shards):
            try:
                event = await self._sweep_one(row, now)
            except Exception:  # the database failing for a moment: the next sweep tries again
                log.exception("game #%s of server %s: its deadline failed", row.id, row.guild_id)
                continue
            if event is not None:
                events.append(event)
        return events

    async def _sweep_one(self, row: StoredGame, now: datetime) -> SweepEvent | None:
        try:
            loaded = self.ledger.loaded(row)
        except ReplayError:
            log.exception("game #%s cannot be replayed; its deadline is left alone", row.id)
            return None
        due: datetime | None = row.deadline
        if row.deadline is not None and row.deadline <= now:
            if row.status is Status.CHALLENGE:
                new = transitions.closed(row, Status.EXPIRED, now)
                kind, user_id = SweepKind.EXPIRED, row.challenger_id
            else:
                side = loaded.state.to_move
                new = transitions.lost_by(row, side, Termination.TIME, now, running=side)
                kind, user_id = SweepKind.TIMEOUT, _player(row, side)
        elif row.status is Status.ACTIVE:
            due = row.remind_at
            new = transitions.reminded(row, now)
            kind, user_id = SweepKind.REMINDER, _player(row, loaded.state.to_move)
        else:
            return None
        committed = await self.ledger.change_once(loaded, Draft(new))
        if committed is None:  # a move, or another sweeper, got there first
            return None
        return SweepEvent(kind, self.ledger.view(committed.after), user_id, due)


def _player(row: StoredGame, side: Side) -> int:
    players = row.players
    assert players is not None, "an active game has its players"
    return players[side]
