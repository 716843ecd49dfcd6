"""Who reads which language (DESIGN.md, Localisation).

A private answer is in the language of the player who acted: the one they
chose (`/kamen me language:`), else their Discord client's. A public message
(a challenge, a board, a result, a reminder, a turn's ping) is in the
server's: the one its managers chose (`/kamen settings language:`), else the
server's Discord locale, else `KAMEN_LOCALE`, else English. A locale with no
catalogue is passed over (and is English in the end).

Discord gives every server the locale `en-US` until its managers change it
(only a Community server can), so `en-US` says nothing of the server: it is
passed over too, and `KAMEN_LOCALE` decides.

The servers' choices are few and read on every board, so they are kept here,
loaded at start-up and again on every pass of the board keeper (another
process may have changed one); a player's is read when they act.
"""

from __future__ import annotations

import discord

from matches import MatchService
from words.catalogue import DEFAULT_LOCALE, LANGUAGES

DISCORDS_DEFAULT = "en-US"


def spoken(locale: str | None) -> str | None:
    """`locale` when Kamen has a catalogue for it (or for its language), else None."""
    if not locale:
        return None
    return locale if locale.split("-")[0].lower() in LANGUAGES else None


class Languages:
    """The language of each server's public messages and of each player's answers."""

    def __init__(self, client: discord.Client, service: MatchService, default: str) -> None:
        self.client = client
        self.service = service
        self.default = spoken(default) or DEFAULT_LOCALE
        self.chosen: dict[int, str] = {}  # by server id: what its managers chose

    async def load(self) -> None:
        """Read every server's choice afresh."""
        self.chosen = await self.service.server_languages()

    def choose(self, guild_id: int, language: str | None) -> None:
        """A server's managers just chose (None: as Discord says)."""
        if language is None:
            self.chosen.pop(guild_id, None)
        else:
            self.chosen[guild_id] = language

    def server(self, guild_id: int | None) -> str:
        """The language of a server's public messages."""
        if guild_id is None:
            return self.default
        chosen = self.chosen.get(guild_id)
        if chosen is not None:
            return chosen
        guild = self.client.get_guild(guild_id)
        if guild is None or guild.preferred_locale.value == DISCORDS_DEFAULT:
            return self.default
        return spoken(guild.preferred_locale.value) or self.default

    async def player(self, interaction: discord.Interaction) -> str:
        """The language of the private answers to whoever made `interaction`."""
        chosen = (await self.service.user_settings(interaction.user.id)).language
        return chosen or spoken(interaction.locale.value) or DEFAULT_LOCALE
