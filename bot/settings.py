"""`/kamen settings`: how Kamen plays on a server (threads per game, the server's language,
the rated games a season's champion needs, the default time control).

Seen by anyone Discord lets run the command, changed only by a member who may
manage the server, whatever Discord's command permissions say (a server may
open them to everyone). A player's own settings are `/kamen me settings`
(bot/people.py); both say each setting in one line, and whether the command
changed it (`changed`).
"""

from __future__ import annotations

from typing import Annotated

from discord.app_commands import Range

import words
from bot import declare, options
from bot.answers import Answer
from bot.declare import LANGUAGE_AUTO, LANGUAGE_CHOICES, language_name
from bot.options import SERVER_TIMES
from bot.replies import option_time_text
from bot.table import Table, guarded, require_manager
from matches.seasons import MAX_CHAMPION_GAMES


class ServerSettings:
    """`/kamen settings`, at `table`."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.service = table.service

    def command(self) -> declare.Command:
        about = {
            "threads": "command.about.threads",
            "language": "command.about.server-language",
            "champion_games": "command.about.champion-games",
            "time": "command.about.server-time",
        }
        choices = {
            "language": declare.language_choices(),
            "time": declare.time_choices(SERVER_TIMES),
        }
        names = {"champion_games": "command.option.champion-games"}
        return declare.command("settings", self.settings, about=about, choices=choices, names=names)

    @guarded
    async def settings(
        self,
        answer: Answer,
        threads: Annotated[object, bool | None] = None,
        language: Annotated[object, str | None] = None,
        champion_games: Annotated[object, Range[int, 1, MAX_CHAMPION_GAMES] | None] = None,
        time: Annotated[object, str | None] = None,
    ) -> None:
        """See or change how Kamen plays here: threads per game, the server's language, the
        rated games a season's champion needs, the default time control."""
        interaction = answer.interaction
        guild_id = require_manager(interaction, "bot.refuse.manage-server")
        on = options.flag("threads", threads)
        chosen = options.choice("language", language, LANGUAGE_CHOICES)
        languages = self.table.languages
        before = current = await self.service.settings(guild_id)
        if on is not None:
            current = await self.service.set_threads(guild_id, on)
        if chosen is not None:
            current = await self.service.set_server_language(guild_id, language_chosen(chosen))
            languages.choose_for_server(guild_id, current.language)
        if champion_games is not None:
            current = await self.service.seasons.set_champion_games(
                guild_id,
                champion_games,  # type: ignore[arg-type]  # the service checks it
            )
        chosen_time = options.choice("time", time, SERVER_TIMES)
        if chosen_time is not None:
            current = await self.service.set_time_control(guild_id, chosen_time)
        locale = answer.locale
        code = "bot.settings.threads.on" if current.threads else "bot.settings.threads.off"
        if current.language is not None:
            name = language_name(current.language)
            said = words.say("bot.settings.language", locale, language=name)
        else:
            now = language_name(languages.server(guild_id))
            said = words.say("bot.settings.language.auto", locale, language=now)
        lines = [
            changed(words.say(code, locale), on, before.threads != current.threads, locale),
            changed(said, chosen, before.language != current.language, locale),
            changed(
                words.say("bot.settings.champion-games", locale, games=current.champion_games),
                champion_games,
                before.champion_games != current.champion_games,
                locale,
            ),
            changed(
                words.say(
                    "bot.settings.time", locale, time=option_time_text(current.time_control, locale)
                ),
                chosen_time,
                before.time_control != current.time_control,
                locale,
            ),
        ]
        if on is None and chosen is None and champion_games is None and chosen_time is None:
            lines.append(
                words.say("bot.settings.how", locale, threads=option_name("threads", locale),
                          language=option_name("language", locale),
                          champion_games=option_name("champion-games", locale),
                          time=option_name("time", locale))
            )  # fmt: skip
        await answer.say("\n".join(lines))


def language_chosen(chosen: str) -> str | None:
    """The language a `language:` choice stores: None for automatic."""
    return None if chosen == LANGUAGE_AUTO else chosen


def option_name(name: str, locale: str) -> str:
    """An option's name as the player's Discord shows it (`vlákna` in Czech)."""
    return words.say(f"command.option.{name}", locale)


def changed(line: str, asked: object, moved: bool, locale: str) -> str:
    """A setting's line, saying whether this command changed it (or found it so already)."""
    if asked is None:
        return line
    return words.say("bot.settings.changed" if moved else "bot.settings.same", locale, line=line)
