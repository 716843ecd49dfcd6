"""Seasons in Discord: `/kamen season ...`, and the announcement of each season's end.

The service keeps the seasons (`matches.seasons`); this reads the commands'
options, checks what only Discord knows (Manage Server, the channel the final
tables go to, the champions' role and whether Kamen may give it) and words
the results. A season ends by a manager's command or by its date: either way
`Seasons.announce` posts its final tables (text, and a table image per
game played) in the season's channel, in the server's language, gives the
champions' role to the new champions and takes it from the last season's,
then records the announcement. The service's runner (`matches.runner`) ends
the seasons whose date has come and hands every season ended but not yet
announced to `announce_all`, so a season whose date passed while Kamen was
stopped is announced after the restart, once: one `Seasons` per process holds the
seasons it is announcing, and a season already announced is left alone.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Annotated

import discord
from discord import app_commands
from discord.app_commands import Range

import words
from bot import declare, options
from bot.answers import Answer
from bot.replies import (
    NO_MENTIONS,
    Outgoing,
    clip,
    markdown_safe,
    mentions_of,
    points_text,
    when,
)
from bot.table import Table, guarded, guild_id_of, require_manager
from matches import BadInput
from matches.ratings import Season, SeasonScore
from matches.seasons import MAX_SEASON_NAME, FinalTable, SeasonSummary
from render.tables import Column, TableImage, table_png

log = logging.getLogger(__name__)

TEXT_LINES = 5  # a game's best lines in the announcement's text; the image has more
IMAGE_LINES = 25  # the lines of a game's table image
MAX_ENDS = 32  # characters of `ends:` (a date or a duration)
OPTIONS = ("name", "ends", "channel", "role", "clear")
ROLE_RETRIES = (2.0, 5.0, 10.0, 20.0)  # seconds before each new try of a failed role change


def role_mention(role_id: int) -> str:
    return f"<@&{role_id}>"


class Seasons:
    """The seasons' commands and announcements of one bot process, at `table`: the
    commands and the runner's passes share it."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.service = table.service
        self._announcing: set[int] = set()  # season ids being announced in this process

    def commands(self) -> app_commands.Group:
        """`/kamen season ...`: a server's seasons; managers start and end them."""
        group = declare.group("season")
        about = {option: f"command.about.season.{option}" for option in OPTIONS}
        names = {option: f"command.option.season.{option}" for option in OPTIONS}
        for key, handler in (
            ("start", self.start), ("end", self.end), ("list", self.listing), ("role", self.role)
        ):  # fmt: skip
            group.add_command(
                declare.command(
                    key,
                    handler,
                    about=about,
                    names=names,
                    named_by=f"command.name.season.{key}",
                    described_by=f"command.season.{key}",
                )
            )
        return group

    # ---------------------------------------------------------------- commands

    @guarded
    async def start(
        self,
        answer: Answer,
        name: Annotated[object, Range[str, 1, MAX_SEASON_NAME]],
        ends: Annotated[object, Range[str, 1, MAX_ENDS] | None] = None,
        channel: Annotated[object, discord.TextChannel | None] = None,
    ) -> None:
        """`/kamen season start name: [ends:] [channel:]`, for managers: said in public."""
        guild = _guild(answer)
        require_manager(answer.interaction, "season.refuse.manage-server")
        target = _final_channel(answer, guild, channel)
        # The service checks the name and the end (any type a crafted request may send).
        season = await self.service.seasons.start(
            guild.id, name, ends, target.id, answer.interaction.user.id
        )
        answer.public = True
        locale = answer.server_locale
        named = markdown_safe(season.name, MAX_SEASON_NAME * 2)
        if season.ends_at is not None:
            said = words.say(
                "season.started.until", locale, name=named, ends=when(season.ends_at, "f"),
                channel=target.mention,
            )  # fmt: skip
        else:
            said = words.say("season.started", locale, name=named, channel=target.mention)
        await answer.send(Outgoing(said, mentions=NO_MENTIONS))

    @guarded
    async def end(self, answer: Answer) -> None:
        """`/kamen season end`, for managers: the season ends now, its tables follow in public."""
        guild = _guild(answer)
        require_manager(answer.interaction, "season.refuse.manage-server")
        season = await self.service.seasons.end(guild.id, answer.interaction.user.id)
        channel = f"<#{season.channel_id}>" if season.channel_id else ""
        name = markdown_safe(season.name, MAX_SEASON_NAME * 2)
        await answer.say(words.say("season.ended", answer.locale, name=name, channel=channel))
        if await self.service.seasons.claim(season):  # else another process announces it
            self.table.spawn(self.announce(season), f"the end of season #{season.id}")

    @guarded
    async def listing(self, answer: Answer) -> None:
        """`/kamen season list`: for anyone, only for them."""
        guild = _guild(answer)
        summaries = await self.service.seasons.list(guild.id)
        await answer.say(Outgoing(season_list(summaries, answer.locale), mentions=NO_MENTIONS))

    @guarded
    async def role(
        self,
        answer: Answer,
        role: Annotated[object, discord.Role | None] = None,
        clear: Annotated[object, bool | None] = None,
    ) -> None:
        """`/kamen season role [role:] [clear:]`, for managers: see, set or clear the role."""
        guild = _guild(answer)
        require_manager(answer.interaction, "season.refuse.manage-server")
        off = options.flag("clear", clear)
        seasons = self.service.seasons
        locale = answer.locale
        if off:
            await seasons.set_champion_role(guild.id, None)
            await answer.say(words.say("season.role.cleared", locale))
            return
        if role is not None:
            chosen = _givable(answer, guild, role)
            await seasons.set_champion_role(guild.id, chosen.id)
            role_id: int | None = chosen.id
        else:
            role_id = (await self.service.settings(guild.id)).champion_role_id
        if role_id is None:
            await answer.say(words.say("season.role.current.none", locale))
            return
        said = [words.say("season.role.current", locale, role=role_mention(role_id))]
        found = guild.get_role(role_id)
        if found is None:
            said = [words.say("season.role.gone", locale)]
        elif not may_give(guild, found):
            said.append(words.say("season.role.set.cannot", locale, role=found.mention))
        await answer.say(Outgoing("\n".join(said), mentions=NO_MENTIONS))

    # ---------------------------------------------------------------- the runner's seasons

    async def announce_due(self, season: Season) -> None:
        """Announce a season the runner's pass ended or found unannounced (and claimed)."""
        try:
            await self.announce(season)
        except discord.HTTPException as error:  # Discord failing: the next pass tries again
            log.warning("season #%s: its end could not be announced: %s", season.id, error)

    # ---------------------------------------------------------------- the announcement

    async def announce(self, season: Season) -> None:
        """Post a season's final tables and crown its champions, once; then record it."""
        if season.id in self._announcing:
            return  # the command that ended it and the loop both came: one announces
        self._announcing.add(season.id)
        try:
            seasons = self.service.seasons
            now = await seasons.get(season.guild_id, season.id)
            guild = self.table.client.get_guild(season.guild_id)
            if now is None or now.announced or now.ended_at is None or guild is None:
                return  # announced already, or a server Kamen does not see (yet)
            await self._announce(now, guild)
            await seasons.announced(now)
        finally:
            self._announcing.discard(season.id)

    async def _announce(self, season: Season, guild: discord.Guild) -> None:
        locale = self.table.languages.server(season.guild_id)
        tables = [table for table in await self.service.seasons.final(season) if table.lines]
        crowned = await self._crown(season, tables, guild, locale)
        text = announcement(season, tables, crowned, locale)
        channel = guild.get_channel(season.channel_id) if season.channel_id else None
        if not isinstance(channel, discord.TextChannel) or not can_post(channel):
            log.warning(
                "season #%s: its channel is gone or closed to Kamen; its tables are not posted",
                season.id,
            )
            return
        files = [
            discord.File(io.BytesIO(await self._image(season, table, locale)), _file_name(table))
            for table in tables
        ]
        champions = [table.champion for table in tables]
        try:
            # Once, even if Kamen dies between posting it and recording it announced.
            await self.table.send_once(
                channel, f"season:{season.id}:tables", text.splitlines()[0], content=clip(text),
                files=files, allowed_mentions=mentions_of(*champions),
            )  # fmt: skip
        except (discord.Forbidden, discord.NotFound) as error:
            log.warning("season #%s: its channel refused the announcement: %s", season.id, error)

    async def _image(self, season: Season, table: FinalTable, locale: str) -> bytes:
        names = [await self.table.display_name(line.user_id) for line in table.lines[:IMAGE_LINES]]
        image = table_image(season, table, names, locale)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.table.picture_pool, partial(table_png, image))

    async def _crown(
        self, season: Season, tables: list[FinalTable], guild: discord.Guild, locale: str
    ) -> str | None:
        """Give the champions' role to the new champions, take it from the last ones: the
        announcement's line about it (None: the server has no such role)."""
        service = self.service
        role_id = (await service.settings(season.guild_id)).champion_role_id
        if role_id is None:
            return None
        role = guild.get_role(role_id)
        if role is None:
            return words.say("season.role.gone", locale)
        if not may_give(guild, role):
            return words.say("season.role.cannot", locale, role=role.mention)
        crowned = list(dict.fromkeys(t.champion for t in tables if t.champion is not None))
        previous = await service.seasons.previous(season)
        dethroned = set()
        if previous is not None:
            dethroned = set((await service.seasons.champions(previous)).values()) - set(crowned)
        reason = words.say("season.role.reason", locale)
        http = self.table.client.http
        try:
            # The new champions first: the last ones keep the role until they have it.
            for user_id in crowned:
                await _persistently(partial(http.add_role, guild.id, user_id, role.id,
                                            reason=reason))  # fmt: skip
            for user_id in sorted(dethroned):
                await _persistently(partial(http.remove_role, guild.id, user_id, role.id,
                                            reason=reason))  # fmt: skip
        except discord.Forbidden:  # changed under Kamen since it looked
            return words.say("season.role.cannot", locale, role=role.mention)
        if not crowned:
            return None
        champions = [f"<@{user}>" for user in crowned]
        return words.say(
            "season.role.given",
            locale,
            champions=champions,
            count=len(champions),
            role=role.mention,
        )


async def _persistently(change: Callable[[], Awaitable[object]]) -> None:
    """A role change, tried again while Discord fails for a moment (within a minute); a member
    who left the server has nothing to change."""
    for pause in (*ROLE_RETRIES, None):
        try:
            await change()
            return
        except discord.NotFound:
            return
        except discord.HTTPException as error:
            if isinstance(error, discord.Forbidden) or pause is None:
                raise
            log.warning("a champion's role change failed (%s); trying again in %g s", error, pause)
            await asyncio.sleep(pause)


def _file_name(table: FinalTable) -> str:
    return f"season-{table.game}.png"


def can_post(channel: discord.TextChannel) -> bool:
    """Whether Kamen may post a message with images in `channel`."""
    allowed = channel.permissions_for(channel.guild.me)
    return allowed.view_channel and allowed.send_messages and allowed.attach_files


def may_give(guild: discord.Guild, role: discord.Role) -> bool:
    """Whether Kamen may give and take `role`: Manage Roles, and the role below its own."""
    return guild.me.guild_permissions.manage_roles and role.is_assignable()


# -------------------------------------------------------------------- what players read


def announcement(season: Season, tables: list[FinalTable], crowned: str | None, locale: str) -> str:
    """The text of a season's end: each game's champion and best lines, and the role's fate."""
    assert season.ended_at is not None
    name = markdown_safe(season.name, MAX_SEASON_NAME * 2)
    parts = [
        words.say(
            "season.over",
            locale,
            name=name,
            start=when(season.started_at, "D"),
            end=when(season.ended_at, "D"),
        )
    ]
    for table in tables:
        if table.champion is not None:
            heading = words.say(
                "season.over.game", locale, game=table.game,
                champion=f"<@{table.champion}>", games=table.games,
            )  # fmt: skip
        else:  # its leader played too few games of it to be crowned
            heading = words.say(
                "season.over.game.too-few", locale, game=table.game,
                minimum=table.minimum, played=table.lines[0].games,
            )  # fmt: skip
        lines = [heading, words.say("season.over.legend", locale)]
        for rank, line in enumerate(table.lines[:TEXT_LINES], start=1):
            lines.append(
                words.say(
                    "season.over.line",
                    locale,
                    rank=rank,
                    player=f"<@{line.user_id}>",
                    points=points_text(line.points),
                    games=line.games,
                    record=record(line, locale),
                    performance=_performance(line.performance),
                )
            )
        more = len(table.lines) - TEXT_LINES
        if more > 0:
            lines.append(words.say("season.over.more", locale, count=more))
        parts.append("\n".join(lines))
    if not tables:
        parts.append(words.say("season.over.no-games", locale))
    if crowned is not None:
        parts.append(crowned)
    return "\n\n".join(parts)


def record(line: SeasonScore, locale: str) -> str:
    """Won, drawn, lost, as the tables write it (`3-1-1` with en dashes)."""
    return words.say("season.record", locale, wins=line.wins, draws=line.draws, losses=line.losses)


def _performance(value: float | None) -> str:
    return "—" if value is None else str(round(value))


def table_image(season: Season, table: FinalTable, names: Sequence[str], locale: str) -> TableImage:
    """A game's final table as the image shows it, its champion's line (if any) highlighted."""
    columns = (
        Column(words.say("community.column.rank", locale), "right"),
        Column(words.say("community.column.player", locale)),
        Column(words.say("community.column.points", locale), "right"),
        Column(words.say("community.column.games", locale), "right"),
        Column(words.say("community.column.record", locale), "center"),
        Column(words.say("community.column.performance", locale), "right"),
    )
    rows = tuple(
        (
            str(rank),
            name,
            points_text(line.points),
            str(line.games),
            record(line, locale),
            _performance(line.performance),
        )
        for rank, (line, name) in enumerate(zip(table.lines, names, strict=False), start=1)
    )
    return TableImage(
        title=words.say("season.table.title", locale, name=season.name, game=table.game),
        subtitle=words.say("season.table.subtitle", locale, count=len(table.lines)),
        columns=columns,
        rows=rows,
        highlight=frozenset({0}) if table.champion is not None else frozenset(),
    )


def season_list(summaries: list[SeasonSummary], locale: str) -> str:
    """`/kamen season list`: each season's dates, and its champions (or leaders so far)."""
    if not summaries:
        return words.say("season.list.none", locale)
    lines = [words.say("season.list.title", locale)]
    for summary in summaries:
        season = summary.season
        name = markdown_safe(season.name, MAX_SEASON_NAME * 2)
        start = when(season.started_at, "D")
        if season.ended_at is not None:
            said = words.say(
                "season.list.past", locale, name=name, start=start, end=when(season.ended_at, "D")
            )
        elif season.ends_at is not None:
            said = words.say(
                "season.list.running.until",
                locale,
                name=name,
                start=start,
                end=when(season.ends_at, "f"),
            )
        else:
            said = words.say("season.list.running", locale, name=name, start=start)
        named = [
            words.say("season.list.champion", locale, game=game, player=f"<@{user}>")
            for game, user in summary.champions
        ]
        if not named:
            said += " " + words.say("season.list.no-games", locale)
        elif season.ended_at is None:
            said += " " + words.say("season.list.leaders", locale, leaders=", ".join(named))
        else:
            said += " " + words.say("season.list.champions", locale, champions=", ".join(named))
        lines.append(f"• {said}")
    return clip("\n".join(lines))


# -------------------------------------------------------------------- the handlers


def _guild(answer: Answer) -> discord.Guild:
    interaction = answer.interaction
    guild_id_of(interaction)
    guild = interaction.guild
    if guild is None:  # a server Kamen's cache does not hold (yet): a moment later it does
        raise BadInput("bot.refuse.no-channel")
    return guild


def _final_channel(answer: Answer, guild: discord.Guild, chosen: object) -> discord.TextChannel:
    """Where a season's final tables go: the chosen text channel, else this one (a thread's
    parent), if Kamen may post there."""
    if chosen is None:
        here = answer.interaction.channel
        chosen = here.parent if isinstance(here, discord.Thread) else here
    if not isinstance(chosen, discord.TextChannel) or chosen.guild.id != guild.id:
        raise BadInput("season.bad-channel")
    if not can_post(chosen):
        raise BadInput("season.channel-closed", channel=chosen.mention)
    return chosen


def _givable(answer: Answer, guild: discord.Guild, role: object) -> discord.Role:
    """A role the manager could give themselves (so that no one hands out more through
    Kamen than they could by hand), and that can be given at all."""
    if not isinstance(role, discord.Role) or role.guild.id != guild.id:
        raise BadInput("season.role.bad", value=options.given(role))
    if role.is_default() or role.managed:
        raise BadInput("season.role.unassignable", role=role.id)
    user = answer.interaction.user
    if user.id == guild.owner_id:
        return role
    allowed = answer.interaction.permissions.manage_roles
    if not allowed or not isinstance(user, discord.Member) or not role < user.top_role:
        raise BadInput("season.role.not-yours", role=role.id)
    return role
