"""Live clocks: a base time and an increment (`5+3`), each player's time counting down.

A game with a live control keeps each side's time left (`first_left_ms`,
`second_left_ms`). The side to move keeps what it had when its turn began, and
its time runs out at the row's `deadline`: what it has now is `deadline - now`.
So everything the per-move limits do holds for live clocks with no second path:

- a move takes what the mover has left now (`deadline - now`: the time they
  spent is gone) and adds the increment; then the opponent's time runs;
- the sweeper ends the game on time at `deadline`, in one versioned write;
- the downtime credit moves `deadline` later and leaves the stored times as
  they are: the time Kamen was away is nobody's;
- the low-time warning is the reminder (`remind_at`): when the player to move
  has a fifth of the base time or 30 s left, whichever is less, once a turn,
  and only if the turn began with more than that.

The clock starts with the game: the first player's time runs from the moment
the game begins (the challenge accepted, or Kamen starting it), so every
moment of a live game has a deadline and none waits untimed for a first move.
An automatic pass takes no time and earns no increment. Pure functions of the
row, like `matches.transitions`, which calls them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from games.base import Side
from matches.records import StoredGame

MIN_BASE_MINUTES = 1
MAX_BASE_MINUTES = 180
MAX_INCREMENT_SECONDS = 60
# The low-time warning: at a fifth of the base time, but never earlier than 30 s from the end.
LOW_TIME_SHARE = 5
LOW_TIME_MOST = timedelta(seconds=30)

_MS = timedelta(milliseconds=1)
_HALF_MS = timedelta(microseconds=500)


@dataclass(frozen=True, slots=True)
class LiveControl:
    """A live time control: minutes of base time, seconds added after each of a player's moves."""

    base_seconds: int
    increment_seconds: int

    def __str__(self) -> str:
        """`5+3`: the text a challenge writes, and a board shows."""
        return f"{self.base_seconds // 60}+{self.increment_seconds}"

    @property
    def base(self) -> timedelta:
        return timedelta(seconds=self.base_seconds)

    @property
    def increment(self) -> timedelta:
        return timedelta(seconds=self.increment_seconds)

    @property
    def low_time(self) -> timedelta:
        """How little time left earns the player to move a warning."""
        return min(self.base / LOW_TIME_SHARE, LOW_TIME_MOST)

    @classmethod
    def of_minutes(cls, minutes: int, increment_seconds: int) -> LiveControl:
        return cls(minutes * 60, increment_seconds)

    @property
    def in_bounds(self) -> bool:
        """Whether Kamen plays this control: 1 to 180 minutes, 0 to 60 seconds a move."""
        minutes, odd = divmod(self.base_seconds, 60)
        return (
            odd == 0
            and MIN_BASE_MINUTES <= minutes <= MAX_BASE_MINUTES
            and 0 <= self.increment_seconds <= MAX_INCREMENT_SECONDS
        )


@dataclass(frozen=True, slots=True)
class LiveClock:
    """A live game's two clocks at one moment, as a board shows them."""

    control: LiveControl
    left: tuple[timedelta, timedelta]  # the first side's, the second side's
    running: Side | None  # whose time is counting down; None when stopped (before or after)

    def __getitem__(self, side: Side) -> timedelta:
        return self.left[side]


def control_of(game: StoredGame) -> LiveControl | None:
    """The game's live control, or None (a per-move limit, or no time control)."""
    if game.base_seconds is None:
        return None
    return LiveControl(game.base_seconds, game.increment_seconds or 0)


def chosen(game: StoredGame, control: LiveControl | None) -> StoredGame:
    """A challenge (or a game to start) with this live control; both clocks full."""
    if control is None:
        return replace(game, base_seconds=None, increment_seconds=None,
                       first_left_ms=None, second_left_ms=None)  # fmt: skip
    full = control.base_seconds * 1000
    return replace(
        game, base_seconds=control.base_seconds, increment_seconds=control.increment_seconds,
        first_left_ms=full, second_left_ms=full,
    )  # fmt: skip


def left_of(game: StoredGame, side: Side) -> timedelta:
    """The time `side` has stored: at its turn's start if it is to move, else now."""
    stored = game.first_left_ms if side is Side.FIRST else game.second_left_ms
    if stored is None:
        return timedelta(seconds=game.base_seconds or 0)
    return stored * _MS


def turn_begins(game: StoredGame, side: Side, now: datetime) -> StoredGame:
    """`side`'s time runs from `now`: the deadline when it runs out, the warning before it."""
    control = control_of(game)
    if control is None:
        raise ValueError("a live turn begins only in a game with a live control")
    left = left_of(game, side)
    deadline = now + left
    warn = deadline - control.low_time if left > control.low_time else None
    return replace(game, deadline=deadline, remind_at=warn)


def charged(game: StoredGame, mover: Side, now: datetime) -> StoredGame:
    """The mover's clock after their move at `now`: what they had left, plus the increment.

    Their clock stops (no deadline) until `turn_begins` starts the next turn's.
    """
    control = control_of(game)
    if control is None:
        return game
    return _stored(_stopped_at(game, mover, now), mover, control.increment)


def stopped(game: StoredGame, running: Side | None, now: datetime) -> StoredGame:
    """Both clocks stopped at `now` (the game is over): `running` keeps what it had left then."""
    if control_of(game) is None or running is None:
        return game
    return _stored(_stopped_at(game, running, now), running, timedelta(0))


def _stopped_at(game: StoredGame, side: Side, now: datetime) -> tuple[StoredGame, timedelta]:
    if game.deadline is None:  # not running: what it had stays
        return game, left_of(game, side)
    return replace(game, deadline=None, remind_at=None), max(game.deadline - now, timedelta(0))


def _stored(found: tuple[StoredGame, timedelta], side: Side, extra: timedelta) -> StoredGame:
    game, left = found
    ms = (left + extra + _HALF_MS) // _MS
    if side is Side.FIRST:
        return replace(game, first_left_ms=ms)
    return replace(game, second_left_ms=ms)


def clock_of(game: StoredGame, running: Side | None, now: datetime) -> LiveClock | None:
    """The game's clocks at `now`, `running` counting down to its deadline; None if not live."""
    control = control_of(game)
    if control is None:
        return None
    if game.deadline is None:
        running = None
    left = [left_of(game, Side.FIRST), left_of(game, Side.SECOND)]
    if running is not None and game.deadline is not None:
        left[running] = max(game.deadline - now, timedelta(0))
    return LiveClock(control, (left[0], left[1]), running)


def clock_text(left: timedelta) -> str:
    """A time left as a clock shows it: `4:32`, `0:09.5` under 10 s, `1:02:03` from an hour.

    Cut down, never rounded up, as a clock's digits are: `0:00.0` only when none is left.
    """
    tenths = max(left, timedelta(0)) // timedelta(milliseconds=100)
    seconds, tenth = divmod(tenths, 10)
    if seconds < 10:
        return f"0:{seconds:02d}.{tenth}"
    minutes, second = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}:{second:02d}"
    hours, minute = divmod(minutes, 60)
    return f"{hours}:{minute:02d}:{second:02d}"
