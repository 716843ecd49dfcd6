"""The domain's words for a stored tournament: the tournament, its players, its pairings.

Like `matches.records` for games: the values every store backend returns.
A tournament's games are ordinary games (rated, timed, repaired like any
other); a pairing names its game once it has started.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime


class Format(enum.StrEnum):
    """How a tournament is paired: every pair once (or twice), by score, or a time window."""

    ROUND_ROBIN = "round-robin"
    DOUBLE_ROUND_ROBIN = "double-round-robin"
    SWISS = "swiss"
    ARENA = "arena"


class Stage(enum.StrEnum):
    """Where a tournament stands: taking sign-ups → running → finished, or cancelled."""

    SIGNUP = "signup"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class Tournament:
    """One tournament of a server.

    `round` is the round being played (0 before the first, and in an arena);
    `minutes` an arena's window; `rounds` a Swiss tournament's number of
    rounds; `reason` why it was cancelled. `version` is checked by every
    write, like a game's.
    """

    guild_id: int
    channel_id: int
    name: str
    game: str
    format: Format
    created_by: int
    created_at: datetime
    variant: str = ""
    rounds: int | None = None
    move_seconds: int | None = None
    minutes: int | None = None
    stage: Stage = Stage.SIGNUP
    round: int = 0
    message_id: int | None = None
    standings_id: int | None = None
    starts_at: datetime | None = None
    started_at: datetime | None = None
    ends_at: datetime | None = None
    finished_at: datetime | None = None
    reason: str | None = None
    id: int = 0
    version: int = 0


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player of a tournament; `left_at` once they withdrew or were removed (`reason`)."""

    tournament_id: int
    user_id: int
    joined_at: datetime
    left_at: datetime | None = None
    reason: str | None = None

    @property
    def playing(self) -> bool:
        return self.left_at is None


@dataclass(frozen=True, slots=True)
class StoredPairing:
    """One pairing: who plays whom in which round, its game, and its result once known.

    `second_id` None is a bye. `score` is the first player's (1, ½, 0);
    `forfeit` a game lost by a withdrawal rather than played; `voided` a game whose result
    a manager voided: a double forfeit, lost by both (`score` 0). `channel_id` is the
    thread made for its game, recorded before the game is opened in it.
    """

    tournament_id: int
    round: int
    first_id: int
    second_id: int | None = None
    game_id: int | None = None
    score: float | None = None
    forfeit: bool = False
    ended_at: datetime | None = None
    channel_id: int | None = None
    voided: bool = False  # its game's result voided by a manager: a loss for both
    id: int = 0

    @property
    def done(self) -> bool:
        return self.score is not None
