"""`/kamen settings`: how Kamen plays on a server (threads per game, the server's language,
the rated games a season's champion needs, the default time control, the audit log's
channel, the limits on challenges and the channels where games may start).

Seen by anyone Discord lets run the command, changed only by a member who may
manage the server, whatever Discord's command permissions say (a server may
open them to everyone). A player's own settings are `/kamen me settings`
(bot/people.py); both say each setting in one line, and whether the command
changed it (`changed`).
"""

from __future__ import annotations

from typing import Annotated

import discord
from discord.app_commands import Range

import words
from bot import declare, options
from bot.answers import Answer
from bot.declare import LANGUAGE_AUTO, LANGUAGE_CHOICES, language_name
from bot.options import SERVER_TIMES
from bot.replies import option_time_text
from bot.table import Table, guarded, require_manager
from matches import BadInput
from matches.managers import MAX_COOLDOWN, MAX_OPEN_CHALLENGES
from matches.records import GuildSettings
from matches.seasons import MAX_CHAMPION_GAMES

CHANNELS = ("here", "anywhere")  # `channels:`: this channel in or out, or every channel


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
            "log_channel": "command.about.log-channel",
            "no_log_channel": "command.about.no-log-channel",
            "challenge_cooldown": "command.about.challenge-cooldown",
            "open_challenges": "command.about.open-challenges",
            "channels": "command.about.channels",
            "time": "command.about.server-time",
        }
        choices = {
            "language": declare.language_choices(),
            "time": declare.time_choices(SERVER_TIMES),
            "channels": [
                declare.Choice(name=declare.t(f"command.channels.{value}"), value=value)
                for value in CHANNELS
            ],
        }
        names = {
            "champion_games": "command.option.champion-games",
            "log_channel": "command.option.log-channel",
            "no_log_channel": "command.option.no-log-channel",
            "challenge_cooldown": "command.option.challenge-cooldown",
            "open_challenges": "command.option.open-challenges",
        }
        return declare.command("settings", self.settings, about=about, choices=choices, names=names)

    @guarded
    async def settings(
        self,
        answer: Answer,
        threads: Annotated[object, bool | None] = None,
        language: Annotated[object, str | None] = None,
        champion_games: Annotated[object, Range[int, 1, MAX_CHAMPION_GAMES] | None] = None,
        log_channel: Annotated[object, discord.TextChannel | None] = None,
        no_log_channel: Annotated[object, bool | None] = None,
        challenge_cooldown: Annotated[object, Range[int, 0, MAX_COOLDOWN] | None] = None,
        open_challenges: Annotated[object, Range[int, 0, MAX_OPEN_CHALLENGES] | None] = None,
        channels: Annotated[object, str | None] = None,
        time: Annotated[object, str | None] = None,
    ) -> None:
        """See or change how Kamen plays here: threads per game, the server's language, the
        rated games a season's champion needs, the default time control, the audit log's
        channel, the limits on challenges, the channels where games may start."""
        interaction = answer.interaction
        guild_id = require_manager(interaction, "bot.refuse.manage-server")
        where = options.choice("channels", channels, CHANNELS)
        log_off = options.flag("no-log-channel", no_log_channel)
        if log_channel is not None and not isinstance(log_channel, discord.TextChannel):
            raise BadInput("managers.settings.bad-channel")
        on = options.flag("threads", threads)
        chosen = options.choice("language", language, LANGUAGE_CHOICES)
        chosen_time = options.choice("time", time, SERVER_TIMES)
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
        if chosen_time is not None:
            current = await self.service.set_time_control(guild_id, chosen_time)
        managers = self.service.managers
        if log_channel is not None:
            current = await managers.set_log_channel(guild_id, log_channel.id)
        elif log_off:
            current = await managers.set_log_channel(guild_id, None)
        if challenge_cooldown is not None:
            current = await managers.set_challenge_cooldown(
                guild_id,
                challenge_cooldown,  # type: ignore[arg-type]  # the service checks it
            )
        if open_challenges is not None:
            limit = None if open_challenges == 0 else open_challenges
            current = await managers.set_open_challenges(
                guild_id,
                limit,  # type: ignore[arg-type]  # the service checks it
            )
        if where == "here":
            current = await managers.toggle_game_channel(guild_id, _channel_here(interaction))
        elif where == "anywhere":
            current = await managers.clear_game_channels(guild_id)
        await managers.settings_changed(guild_id, interaction.user.id, before, current)
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
            *_kit_lines(before, current, locale),
        ]
        asked = (log_channel, log_off, challenge_cooldown, open_challenges, where, chosen_time)
        if on is None and chosen is None and champion_games is None and asked == (None,) * 6:
            lines.append(
                words.say("bot.settings.how", locale, threads=option_name("threads", locale),
                          language=option_name("language", locale),
                          champion_games=option_name("champion-games", locale),
                          time=option_name("time", locale))
            )  # fmt: skip
        await answer.say("\n".join(lines))


def _channel_here(interaction: discord.Interaction) -> int:
    """The channel `channels:` names: this one, or a thread's parent (games start there)."""
    here = interaction.channel
    if isinstance(here, discord.Thread) and here.parent_id is not None:
        return here.parent_id
    if interaction.channel_id is None:
        raise BadInput("bot.refuse.no-channel")
    return interaction.channel_id


def _kit_lines(before: GuildSettings, now: GuildSettings, locale: str) -> list[str]:
    """The manager's kit's settings, a line each, said as changed when they were."""
    if now.log_channel_id is None:
        log_line = words.say("managers.settings.log-channel.none", locale)
    else:
        log_line = words.say(
            "managers.settings.log-channel", locale, channel=f"<#{now.log_channel_id}>"
        )
    if now.challenge_cooldown:
        cooldown = words.say(
            "managers.settings.cooldown-line", locale, seconds=now.challenge_cooldown
        )
    else:
        cooldown = words.say("managers.settings.cooldown-line.none", locale)
    if now.open_challenges is None:
        limit = words.say("managers.settings.open-line.none", locale)
    else:
        limit = words.say("managers.settings.open-line", locale, limit=now.open_challenges)
    if now.game_channels:
        listed = " ".join(f"<#{channel}>" for channel in now.game_channels)
        where = words.say("managers.settings.channels-line", locale, channels=listed)
    else:
        where = words.say("managers.settings.channels-line.anywhere", locale)
    lines = []
    for line, field in (
        (log_line, "log_channel_id"), (cooldown, "challenge_cooldown"),
        (limit, "open_challenges"), (where, "game_channels"),
    ):  # fmt: skip
        moved = getattr(before, field) != getattr(now, field)
        lines.append(words.say("bot.settings.changed", locale, line=line) if moved else line)
    return lines


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
