"""Who reads which language (DESIGN.md, Localisation).

A private answer is in the language of the player who acted: the one they
chose (`/kamen me settings language:`), else their Discord client's. A public message
(a challenge, a board, a result, a reminder, a turn's ping) is in the
server's: the one its managers chose (`/kamen settings language:`), else the
server's Discord locale, else `KAMEN_LOCALE`, else English. A locale with no
catalogue is passed over (and is English in the end).

Discord gives every server the locale `en-US` until its managers change it
(only a Community server can), so `en-US` says nothing of the server: it is
passed over too, and `KAMEN_LOCALE` decides.

The choices are few (only servers and players who made one have a row) and
wanted on every board and every answer, so they are kept here, read at
start-up and again on every pass of the board keeper (another process may have
changed one), and changed here at once when made in this process.
"""

from __future__ import annotations

import discord

from matches import MatchService
from words.catalogue import DEFAULT_LOCALE, spoken

DISCORDS_DEFAULT = "en-US"


class Languages:
    """The language of each server's public messages and of each player's answers."""

    def __init__(self, client: discord.Client, service: MatchService, default: str) -> None:
        self.client = client
        self.service = service
        found = spoken(default)
        self.default = found.code if found is not None else DEFAULT_LOCALE
        self.servers: dict[int, str] = {}  # by server id: what its managers chose
        self.players: dict[int, str] = {}  # by user id: what the player chose

    async def load(self) -> None:
        """Read every choice afresh."""
        self.servers = await self.service.server_languages()
        self.players = await self.service.player_languages()

    @staticmethod
    def _choose(chosen: dict[int, str], key: int, language: str | None) -> None:
        if language is None:
            chosen.pop(key, None)
        else:
            chosen[key] = language

    def choose_for_server(self, guild_id: int, language: str | None) -> None:
        """A server's managers just chose (None: as Discord says)."""
        self._choose(self.servers, guild_id, language)

    def choose_for_player(self, user_id: int, language: str | None) -> None:
        """A player just chose (None: as their Discord client says)."""
        self._choose(self.players, user_id, language)

    def server(self, guild_id: int | None) -> str:
        """The language of a server's public messages."""
        if guild_id is None:
            return self.default
        chosen = self.servers.get(guild_id)
        if chosen is not None:
            return chosen
        guild = self.client.get_guild(guild_id)
        if guild is None or guild.preferred_locale.value == DISCORDS_DEFAULT:
            return self.default
        found = spoken(guild.preferred_locale.value)
        return found.code if found is not None else self.default

    def player(self, interaction: discord.Interaction) -> str:
        """The language of the private answers to whoever made `interaction`."""
        chosen = self.players.get(interaction.user.id)
        if chosen is not None:
            return chosen
        found = spoken(interaction.locale.value)
        return found.code if found is not None else DEFAULT_LOCALE
