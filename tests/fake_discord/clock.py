"""The fake's notion of time, and Discord-style snowflake ids drawn from it.

The clock can be moved forward (`Clock.advance`) so that tests can check the
3-second and 15-minute interaction deadlines without sleeping.
"""

from __future__ import annotations

import datetime
import time

DISCORD_EPOCH_MS = 1_420_070_400_000


class Clock:
    """Wall-clock time plus an offset that tests may advance."""

    def __init__(self) -> None:
        self.offset: float = 0.0

    def now(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("time only moves forward")
        self.offset += seconds


class Snowflakes:
    """Strictly increasing snowflakes whose timestamps follow the clock."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._last = 0

    def next(self) -> int:
        ms = int(self._clock.now() * 1000) - DISCORD_EPOCH_MS
        candidate = (ms << 22) | (1 << 17)
        self._last = max(candidate, self._last + 1)
        return self._last

    def next_on_shard(self, shard_id: int, count: int) -> int:
        """The next snowflake whose guild would be on shard `shard_id` of `count`
        (Discord's formula, `(id >> 22) % count`): its timestamp a few ms on, if need be."""
        ms = max(int(self._clock.now() * 1000) - DISCORD_EPOCH_MS, self._last >> 22)
        while True:
            if ms % count == shard_id:
                candidate = max((ms << 22) | (1 << 17), self._last + 1)
                if candidate >> 22 == ms:
                    self._last = candidate
                    return candidate
            ms += 1


def snowflake_time(snowflake: int) -> float:
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000


def iso(timestamp: float) -> str:
    """An ISO 8601 timestamp as Discord writes them."""
    return datetime.datetime.fromtimestamp(timestamp, datetime.UTC).isoformat()
