"""What the service may ask of a database: the `Store` protocol and its errors.

Every backend (SQLite now, PostgreSQL later) meets `Store` and returns the
frozen values of `matches.records`, never rows. Writes that race are settled
by a version number: `update_game` lands only if the row still has the
version the caller read. Reads never wait behind writes: a write stalled on
the database's lock (a slow disk, another process) delays other writes only.
Game ids are random and unguessable: never count on their order.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Protocol

from matches.records import GuildSettings, Status, StoredGame, UserSettings


class StoreError(Exception):
    """The database cannot do what was asked (bad URL, a schema too new, ...)."""


class ChannelBusy(StoreError):
    """A write would put a second active game in a channel or thread."""


class Store(Protocol):
    """The persistence the service needs, whatever the backend.

    Each method is one transaction; a method that returns has committed.
    Lists of games are oldest first (by creation), unless said otherwise.
    """

    async def open(self) -> None:
        """Connect and bring the schema up to date."""
        ...

    async def close(self) -> None: ...

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        ...

    async def create_game(self, game: StoredGame) -> StoredGame:
        """Insert a game under a new random id (53 bits), version 0; raises ChannelBusy.

        The game's own `id` and `version` are ignored.
        """
        ...

    async def get_game(self, game_id: int) -> StoredGame | None: ...

    async def active_game_in(self, channel_id: int) -> StoredGame | None:
        """The game being played in a channel or thread, if any."""
        ...

    async def open_games_in(self, channel_id: int) -> list[StoredGame]:
        """The challenges and active games of a channel or thread."""
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

        Every field is written except what the messages show (`message_id`,
        `board_ply`, `board_status`, `ping_message_id`: see `set_board`,
        `set_ping`), `id` and `created_at`; the version grows by one. Raises ChannelBusy.
        """
        ...

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        """Record the id of the game's board message.

        The message is not part of the game, so this does not change the
        version: posting a board never makes a concurrent move stale.
        """
        ...

    async def set_board(self, game_id: int, message_id: int, ply: int, status: Status) -> None:
        """Record that the board message `message_id` shows the game at `ply` and `status`.

        Leaves the version alone, like `set_message`.
        """
        ...

    async def set_ping(self, game_id: int, message_id: int | None) -> None:
        """Record the game's last turn notification (None: there is none to delete)."""
        ...

    async def lagging_boards(
        self, limit: int = 100, *, now: datetime | None = None
    ) -> list[StoredGame]:
        """Games whose public board does not show their state, least recently changed first.

        Active games, and games finished or challenges closed in the 7 days
        before `now` (the clock's time if None), whose `message_id` is None or
        whose `board_ply` / `board_status` differ from their ply / status.
        """
        ...

    async def shift_clocks(self, by: timedelta) -> list[StoredGame]:
        """Move every active game's deadline and reminder `by` later; the games changed.

        Games without either are left alone. Each changed game's version grows by one.
        """
        ...

    async def beat(self, now: datetime) -> None:
        """Record that Kamen is alive at `now` (the heartbeat: a write, so it checks writing)."""
        ...

    async def last_beat(self) -> datetime | None:
        """When Kamen last recorded it was alive; None if it never did."""
        ...

    async def due(self, now: datetime, limit: int = 100) -> list[StoredGame]:
        """Open games whose deadline or reminder time is at or before `now`, earliest first."""
        ...

    async def guild_settings(self, guild_id: int) -> GuildSettings: ...

    async def save_guild_settings(
        self, settings: GuildSettings, now: datetime
    ) -> GuildSettings: ...

    async def server_languages(self) -> dict[int, str]:
        """The language of every server that chose one, by its id."""
        ...

    async def player_languages(self) -> dict[int, str]:
        """The language of every player who chose one, by their user id."""
        ...

    async def user_settings(self, user_id: int) -> UserSettings: ...

    async def save_user_settings(self, settings: UserSettings, now: datetime) -> UserSettings: ...
