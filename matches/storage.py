"""What the service may ask of a database: the `Store` protocol and its errors.

Every backend (SQLite now, PostgreSQL later) meets `Store` and returns the
frozen values of `matches.records`, never rows. Writes that race are settled
by a version number: `update_game` lands only if the row still has the
version the caller read.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from matches.records import GuildSettings, StoredGame


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
