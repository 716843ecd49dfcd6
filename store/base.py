"""What the service may ask of a database: the `Store` protocol and its values.

Every backend (SQLite now, PostgreSQL later) meets `Store` and returns these
frozen dataclasses, never rows, so `matches/` never learns which one it talks
to. A game is stored as its move list; positions are the engines' business.
Writes that race are settled by a version number: `update_game` lands only if
the row still has the version the caller read.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol


class Status(enum.StrEnum):
    """Where a game stands: `challenge` → `active` → `finished`, or a challenge that ended."""

    CHALLENGE = "challenge"
    ACTIVE = "active"
    FINISHED = "finished"
    DECLINED = "declined"
    EXPIRED = "expired"
    CANCELLED = "cancelled"

    @property
    def is_open(self) -> bool:
        """A challenge waiting for an answer or a game being played."""
        return self in (Status.CHALLENGE, Status.ACTIVE)


class FirstChoice(enum.StrEnum):
    """Who plays the first side, as the challenger asked."""

    CHALLENGER = "challenger"
    OPPONENT = "opponent"
    RANDOM = "random"


@dataclass(frozen=True, slots=True)
class StoredGame:
    """One game as the database keeps it: a challenge, an ongoing or an ended game.

    `moves` is the truth of the game (canonical move texts, none containing
    whitespace). `first_id`/`second_id` are set once the sides are known. The
    store assigns `id` and `version` on creation; `version` is the one the game
    was read at, and `update_game` checks it.
    """

    guild_id: int
    channel_id: int
    game: str
    status: Status
    challenger_id: int
    created_at: datetime
    updated_at: datetime
    variant: str = ""
    message_id: int | None = None
    opponent_id: int | None = None
    first_choice: FirstChoice = FirstChoice.RANDOM
    first_id: int | None = None
    second_id: int | None = None
    ai_level: str | None = None
    moves: tuple[str, ...] = ()
    result: str | None = None
    ending: str | None = None
    reason: str | None = None
    draw_offer_by: int | None = None
    move_seconds: int | None = None
    deadline: datetime | None = None
    remind_at: datetime | None = None
    id: int = 0
    version: int = 0

    @property
    def players(self) -> tuple[int, int] | None:
        """The first and second player's user ids, once the game has begun."""
        if self.first_id is None or self.second_id is None:
            return None
        return self.first_id, self.second_id


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's choices; a server that never chose has the defaults."""

    guild_id: int
    threads: bool = True


class StoreError(Exception):
    """The database cannot do what was asked (bad URL, a schema too new, ...)."""


class ChannelBusy(StoreError):
    """A write would put a second active game in a channel or thread."""


class Store(Protocol):
    """The persistence the service needs, whatever the backend.

    Each method is one transaction; a method that returns has committed.
    """

    async def open(self) -> None:
        """Connect and bring the schema up to date."""
        ...

    async def close(self) -> None: ...

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        ...

    async def create_game(self, game: StoredGame) -> StoredGame:
        """Insert a game (its `id` and `version` are ignored); raises ChannelBusy."""
        ...

    async def get_game(self, game_id: int) -> StoredGame | None: ...

    async def active_game_in(self, channel_id: int) -> StoredGame | None:
        """The game being played in a channel or thread, if any."""
        ...

    async def active_games(self, guild_id: int) -> list[StoredGame]:
        """The games being played in a server, oldest first."""
        ...

    async def active_counts(self) -> dict[int, int]:
        """How many games are being played in each server, by guild id (one query)."""
        ...

    async def open_games_of(self, user_id: int) -> list[StoredGame]:
        """Challenges and active games the user plays in or was challenged to."""
        ...

    async def update_game(self, game: StoredGame) -> StoredGame | None:
        """Write a game if it still has `game.version`: the new row, or None if it changed.

        Every field is written except `message_id` (see `set_message`),
        `id` and `created_at`; the version grows by one. Raises ChannelBusy.
        """
        ...

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        """Record the id of the game's board message.

        The message is not part of the game, so this does not change the
        version: posting a board never makes a concurrent move stale.
        """
        ...

    async def due(self, now: datetime, limit: int = 100) -> list[StoredGame]:
        """Open games whose deadline or reminder time is at or before `now`, earliest first."""
        ...

    async def guild_settings(self, guild_id: int) -> GuildSettings: ...

    async def save_guild_settings(
        self, settings: GuildSettings, now: datetime
    ) -> GuildSettings: ...
