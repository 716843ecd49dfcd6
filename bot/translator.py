"""The slash commands in the players' languages: discord.py's `Translator` over `words`.

Every name, description and choice of `bot.commands` is a `locale_str` whose
`say` extra says it in a language (`words.say` with the command's code and
parameters). When the commands are synced, discord.py asks this translator
for each Discord locale; Kamen answers for the languages it has a catalogue
of, and Discord shows those players `/oska výzva` where others see
`/oska challenge`. An interaction always names the English command, so the
handlers do not change with the language.
"""

from __future__ import annotations

from collections.abc import Callable

import discord
from discord import app_commands

from words.catalogue import DEFAULT_LOCALE, spoken

NAMES = {
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
}


class CommandWords(app_commands.Translator):
    """Names and descriptions of the commands in every language with a catalogue."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        say: Callable[[str], str] | None = string.extras.get("say")
        language = spoken(locale.value)
        if say is None or language is None or language.code == DEFAULT_LOCALE:
            return None  # Discord shows the English
        text = say(language.code)
        if context.location in NAMES:
            text = text.lower()
        return text
