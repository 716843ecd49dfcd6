"""Work one process does alone, when several processes share one database.

Each process names itself once (`Claims.holder`; the bot names a process by
the shards it serves, so that a process restarted in its place takes its own
claims back at once). It claims a piece of work by its key for a while
(`take`) and renews the claim by taking it again before it lapses; a process
that dies stops renewing, its claims lapse and another process takes the
work over. Work done for good is claimed once and for all
(`once`): the first process to ask does it, no other ever will. The store takes
each claim in one transaction (`Store.take_claim`), so two processes asking at
the same moment never both get it.
"""

from __future__ import annotations

import os
import secrets
import socket
from datetime import UTC, datetime, timedelta

from matches.clock import Clock
from matches.storage import Store

# A claim held for good: the work is done (or being done) by its holder alone.
FOREVER = datetime(9999, 1, 1, tzinfo=UTC)


def process_name() -> str:
    """This process's name as a holder: where it runs, and a part no restart repeats."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class Claims:
    """This process's claims on shared work, in `store`, timed by `clock`."""

    def __init__(self, store: Store, clock: Clock, holder: str | None = None) -> None:
        self.store = store
        self.clock = clock
        self.holder = holder or process_name()

    async def take(self, key: str, hold: timedelta) -> bool:
        """Whether the work `key` is this process's for `hold` from now (taken or renewed)."""
        now = self.clock()
        return await self.store.take_claim(key, self.holder, now, now + hold)

    async def once(self, key: str) -> bool:
        """Whether this process is the one to do the work `key`, done once and for all:
        True to the first caller only (this process asking again, restarted, included)."""
        once = f"{self.holder}:{secrets.token_hex(4)}"
        return await self.store.take_claim(key, once, self.clock(), FOREVER)

    async def forget(self, key: str) -> None:
        """Free the work `key` claimed `once` whose doing failed: the next caller does it."""
        await self.store.release_claim(key)

    async def turn(self, key: str, spacing: timedelta) -> bool:
        """Whether the work `key`, done by every process together at most once per
        `spacing` (a login to Discord), may be done now: True to one caller per `spacing`."""
        now = self.clock()
        once = f"{self.holder}:{secrets.token_hex(4)}"
        # A tenth more: the work reaches its far end a little later or sooner each time.
        return await self.store.take_claim(key, once, now, now + spacing * 1.1)

    async def posting(self, key: str, after: int) -> tuple[int, int | None]:
        """The intent to post the message `key` exactly once, written now unless it was
        before: the message id to look for it after, and its own id once posted."""
        return await self.store.begin_posting(key, after)

    async def posted(self, key: str, message_id: int) -> None:
        """The message `key` is posted: message `message_id`."""
        await self.store.end_posting(key, message_id)

    async def drop(self, key: str) -> None:
        """Let this process's claim on `key` lapse now: another may take the work."""
        await self.store.drop_claim(key, self.holder)
