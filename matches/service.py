"""The match service: everything a player can do, without Discord.

`MatchService` gathers the parts (challenges, play, deadlines) over one
shared core, and answers the questions the bot asks: a game's view and
history, the games of a server or a user, the bot's pending turns, a record
to export, a server's settings.
"""

from __future__ import annotations

from games.record import record_of
from matches.challenges import Challenges
from matches.core import Where
from matches.deadlines import Deadlines
from matches.errors import BadInput
from matches.inputs import MAX_NAME, capped, snowflake
from matches.play import Play
from matches.views import GameView
from store import GuildSettings


class MatchService(Challenges, Play, Deadlines):
    """The application service. Build it with a store, and the bot's id and picker."""

    # ------------------------------------------------------------------ asking

    async def view(
        self, *, game_id: int | None = None, channel_id: int | None = None, game: str | None = None
    ) -> GameView:
        """A game as it stands, with its whole move list (the history)."""
        return self._view(await self._load(Where(game_id, channel_id, game)))

    async def active_games(self, guild_id: int) -> list[GameView]:
        """The games being played in a server, oldest first."""
        rows = await self.store.active_games(snowflake(guild_id, "server"))
        return [self._view_of(row) for row in rows]

    async def open_games_of(self, user_id: int) -> list[GameView]:
        """The challenges and games a user is part of."""
        rows = await self.store.open_games_of(snowflake(user_id, "user"))
        return [self._view_of(row) for row in rows]

    async def bot_turns(self) -> list[GameView]:
        """Games waiting for the bot's move: to resume them after a restart."""
        if self.bot_user_id is None:
            return []
        views = [self._view_of(row) for row in await self.store.open_games_of(self.bot_user_id)]
        return [view for view in views if view.bot_to_move]

    async def set_board_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the message that shows the game's board (does not change the version)."""
        if message_id is not None:
            snowflake(message_id, "message")
        await self.store.set_message(snowflake(game_id, "game"), message_id)

    async def settings(self, guild_id: int) -> GuildSettings:
        return await self.store.guild_settings(snowflake(guild_id, "server"))

    async def set_threads(self, guild_id: int, on: bool) -> GuildSettings:
        """Whether an accepted challenge opens a thread for its game."""
        if not isinstance(on, bool):
            raise BadInput("Threads are either on or off.")
        settings = GuildSettings(snowflake(guild_id, "server"), threads=on)
        return await self.store.save_guild_settings(settings, self.clock())

    async def export_record(
        self,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        game: str | None = None,
        site: str = "",
        first_name: str = "",
        second_name: str = "",
    ) -> str:
        """The game's record (RULES.md, Records): tags, numbered moves, result."""
        for text, what in ((site, "site"), (first_name, "name"), (second_name, "name")):
            capped(text, MAX_NAME, what)
        loaded = await self._load(Where(game_id, channel_id, game))
        record = record_of(
            loaded.spec,
            loaded.state,
            result=loaded.row.result or "*",
            site=site,
            day=loaded.row.created_at.date(),
            first=first_name,
            second=second_name,
        )
        return record.to_text()
