"""Time, passed in: the service asks a clock instead of the system.

Deadlines are moments in UTC; tests drive them with `ManualClock` instead of
sleeping, and so can any end-to-end test of the bot.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    """Now, in UTC."""
    return datetime.now(UTC)


class ManualClock:
    """A clock that moves only when told to."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2026, 1, 1, tzinfo=UTC)
        if self.now.tzinfo is None:
            raise ValueError("a clock tells aware times: give the start a tzinfo")

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta | float) -> datetime:
        """Move on by a timedelta or a number of seconds; the new time."""
        self.now += delta if isinstance(delta, timedelta) else timedelta(seconds=delta)
        return self.now
