"""The leases that make a process the one server of its shards.

A process serves a shard by leasing it in the database (`Leases`): one row per
shard, held by a name no other process has, renewed at every heartbeat and
lapsing after `hold` if the process dies. The renewal is the shard's
heartbeat: the next process to take a lapsed lease gives the shard's running
clocks the time since back (`matches.upkeep`). A second process started for a
shard already served waits until its lease lapses; a process started with
another number of shards than the running ones is refused: the servers would be
cut into shards differently, and two processes would serve one server.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from matches.clock import Clock
from matches.shards import Shards
from matches.storage import Store

log = logging.getLogger(__name__)


class ShardCountDiffers(Exception):
    """Processes serving another number of shards run on this database."""

    def __init__(self, count: int, running: int) -> None:
        super().__init__(
            f"SHARD_COUNT={count}, but the processes running on this database serve"
            f" {running} shards: give every process the same SHARD_COUNT (to change it,"
            " stop them all first)"
        )


@dataclass(frozen=True, slots=True)
class Lease:
    """A shard leased by this process, and when it was last served before (None: never)."""

    shard: int
    last_beat: datetime | None


class Leases:
    """This process's leases on `shards`, in `store`, as `holder` (a name of its own)."""

    def __init__(
        self, store: Store, clock: Clock, shards: Shards, holder: str, hold: timedelta
    ) -> None:
        self.store = store
        self.clock = clock
        self.shards = shards
        self.holder = holder
        self.hold = hold
        self.held: dict[int, Lease] = {}
        self.until: datetime | None = None  # the leases held are this process's until then
        self.waiting_for: dict[int, str] = {}  # shard: its holder, while another holds it

    async def check_count(self) -> None:
        """Refuse to serve when processes with another number of shards are running."""
        counts = await self.store.live_shard_counts(self.clock()) - {self.shards.count}
        if counts:
            raise ShardCountDiffers(self.shards.count, min(counts))

    async def take(self) -> bool:
        """Take every lapsed lease of this process's shards: True once all are held."""
        await self.check_count()
        now = self.clock()
        for shard in sorted(self.shards.ids - set(self.held)):
            holder, beat = await self.store.take_shard(
                shard, self.shards.count, self.holder, now, now + self.hold
            )
            if holder != self.holder:
                if self.waiting_for.get(shard) != holder:
                    log.warning(
                        "shard %d of %d is served by another process (%s): waiting until"
                        " its lease lapses",
                        shard, self.shards.count, holder,
                    )  # fmt: skip
                self.waiting_for[shard] = holder
                continue
            self.waiting_for.pop(shard, None)
            # A shard never served before (new, or Kamen upgraded): Kamen's last beat.
            self.held[shard] = Lease(shard, beat or await self.store.last_beat())
            self.until = now + self.hold
            log.info("serving shard %d of %d", shard, self.shards.count)
        return not self.waiting_for

    async def renew(self) -> datetime:
        """Renew every lease held (the shards' heartbeat); raises `LeaseLost` if another
        process has taken one over (this one was thought dead: it must stop serving)."""
        now = self.clock()
        kept = await self.store.renew_shards(
            sorted(self.held), self.holder, now, now + self.hold
        )
        lost = set(self.held) - set(kept)
        if lost:
            self.until = None
            raise LeaseLost(sorted(lost), self.shards.count)
        self.until = now + self.hold
        return now

    def current(self) -> bool:
        """Whether this process may do its shards' work now: its leases renewed within their
        hold (a process frozen past it may have been replaced, until its next renewal says)."""
        return self.until is not None and self.clock() < self.until

    async def release(self) -> None:
        """Let every lease lapse now, for the next process to take at once (a clean stop)."""
        if self.held:
            await self.store.drop_shards(sorted(self.held), self.holder)
            self.held.clear()


class LeaseLost(Exception):
    """Another process took over shards this one served: this one stops."""

    def __init__(self, shards: list[int], count: int) -> None:
        super().__init__(
            f"another process took over shard(s) {', '.join(map(str, shards))} of {count}"
            " (this one missed its renewals): stopping"
        )
