"""The manager's kit in Discord: `/kamen game void`, `/kamen suspend`, `/kamen unsuspend`,
`/kamen audit`, and what the audit log posts.

Every command is for members who may manage the server, answered privately;
the service decides and writes the audit log (`matches.managers`). Each line
written is heard here as an `Audited` event: it is posted to the server's log
channel when one is set (`/kamen settings log-channel:`), and a void is told in
the game's channel or thread, mentioning both players. The audit log's pages
turn with buttons whose `custom_id` holds the page, so they work after a restart.
"""

from __future__ import annotations

import logging
import re
from datetime import UTC, datetime
from typing import Annotated, Any

import discord
from discord import ui
from discord.app_commands import Range

import words
from bot import declare, options, replies
from bot.answers import Answer
from bot.replies import Outgoing, markdown_safe, mention, rating_text
from bot.table import Table, guarded, require_manager
from matches.events import Audited, Event
from matches.managers import MAX_REASON, MAX_SUSPENSION_DAYS, AuditPage
from matches.ratings import Standing
from matches.records import AuditAction, AuditEntry

log = logging.getLogger(__name__)

REFUSAL = "managers.refuse.manage-server"
PREFIX = "kamen:au:"


class Managers:
    """The manager's commands, their page buttons and the audit log's posts, at `table`."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.service = table.service
        self.service.events.subscribe(self._heard)

    def commands(self) -> list[Any]:
        """`/kamen game void`, `/kamen suspend`, `/kamen unsuspend` and `/kamen audit`."""
        about = {
            "game": "command.about.void.game",
            "reason": "command.about.manager-reason",
            "user": "command.about.suspend.user",
            "days": "command.about.suspend.days",
            "page": "command.about.audit-page",
        }
        game = declare.group("kamen-game", described_by="command.kamen-game")
        game.add_command(declare.command("void", self.void, about=about))
        return [
            game,
            declare.command("suspend", self.suspend, about=about),
            declare.command("unsuspend", self.unsuspend, about=about),
            declare.command("audit", self.audit, about=about),
        ]

    # ---------------------------------------------------------------- commands

    @guarded
    async def void(
        self,
        answer: Answer,
        game: Annotated[object, Range[int, 1]],
        reason: Annotated[object, Range[str, 1, MAX_REASON]],
    ) -> None:
        """`/kamen game void game: reason:`: a rated result annulled, the ratings rebuilt."""
        interaction = answer.interaction
        guild_id = require_manager(interaction, REFUSAL)
        number = options.game_id("game", game)
        assert number is not None  # a required option
        done = await self.service.managers.void(
            guild_id,
            interaction.user.id,
            number,
            reason,  # type: ignore[arg-type]  # the service checks it
        )
        locale = answer.locale
        players = done.game.players or (0, 0)
        lines = [
            words.say(
                "managers.void.rating",
                locale,
                player=mention(player, locale),
                before=_rating(before, locale),
                after=_rating(after, locale),
            )
            for player, before, after in zip(players, done.before, done.after, strict=True)
        ]
        text = words.say(
            "managers.void.done",
            locale,
            id=done.game.id,
            reason=markdown_safe(done.entry.reason or ""),
            lines="\n".join(lines),
        )
        await answer.say(text)

    @guarded
    async def suspend(
        self,
        answer: Answer,
        user: Annotated[object, discord.User],
        days: Annotated[object, Range[int, 1, MAX_SUSPENSION_DAYS]],
        reason: Annotated[object, Range[str, 1, MAX_REASON]],
    ) -> None:
        """`/kamen suspend user: days: reason:`: no challenges, rated games nor tournaments."""
        interaction = answer.interaction
        guild_id = require_manager(interaction, REFUSAL)
        who = options.user("user", user)
        assert who is not None  # a required option
        suspension = await self.service.managers.suspend(
            guild_id,
            interaction.user.id,
            who.id,
            days,  # type: ignore[arg-type]  # the service checks it
            reason,  # type: ignore[arg-type]
        )
        text = words.say(
            "managers.suspend.done",
            answer.locale,
            user=mention(who.id, answer.locale),
            until=int(suspension.until.timestamp()),
            reason=markdown_safe(suspension.reason or ""),
        )
        await answer.say(text)

    @guarded
    async def unsuspend(self, answer: Answer, user: Annotated[object, discord.User]) -> None:
        """`/kamen unsuspend user:`: the suspension lifted at once."""
        interaction = answer.interaction
        guild_id = require_manager(interaction, REFUSAL)
        who = options.user("user", user)
        assert who is not None  # a required option
        await self.service.managers.unsuspend(guild_id, interaction.user.id, who.id)
        done = words.say("managers.unsuspend.done", answer.locale, user=mention(who.id))
        await answer.say(done)

    @guarded
    async def audit(
        self, answer: Answer, page: Annotated[object, Range[int, 1] | None] = None
    ) -> None:
        """`/kamen audit [page:]`: what the managers did, newest first."""
        guild_id = require_manager(answer.interaction, REFUSAL)
        number = options.page("page", page)
        found = await self.service.managers.audit(guild_id, number)
        await answer.say(audit_message(found, answer.locale))

    @guarded
    async def turn_page(self, answer: Answer, page: int) -> None:
        """A page button of `/kamen audit`: the log at another page, in place of the message."""
        guild_id = require_manager(answer.interaction, REFUSAL)
        found = await self.service.managers.audit(guild_id, page)
        await answer.update(audit_message(found, answer.locale))

    # ---------------------------------------------------------------- the posts

    def _heard(self, event: Event) -> None:
        if isinstance(event, Audited):
            self.service.events.later(self._post(event), f"audit-post-{event.entry.id}")

    async def _post(self, event: Audited) -> None:
        entry = event.entry
        locale = self.table.languages.server(entry.guild_id)
        client = self.table.client
        game = event.game
        if game is not None and game.players is not None:
            first, second = game.players
            notice = words.say(
                "managers.void.notice",
                locale,
                players=f"{mention(first, locale)} {mention(second, locale)}",
                id=game.id,
                reason=markdown_safe(entry.reason or ""),
            )
            channel = client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
            try:
                await channel.send(notice, allowed_mentions=replies.mentions_of(first, second))
            except discord.HTTPException:
                log.warning("game #%s: may not tell its players of its void", game.id)
        if event.log_channel_id is None:
            return
        channel = client.get_partial_messageable(event.log_channel_id, guild_id=entry.guild_id)
        try:
            await channel.send(audit_line(entry, locale), allowed_mentions=replies.NO_MENTIONS)
        except discord.HTTPException:
            log.warning("server %s: may not post to its audit log channel", entry.guild_id)


# ------------------------------------------------------------------ wording


def _rating(standing: Standing | None, locale: str) -> str:
    if standing is None:
        return words.say("managers.void.unrated-now", locale)
    return rating_text(standing.rating, standing.rd)


# A server setting (a field of `GuildSettings`) as the option that sets it, for the audit log.
_SETTING_OPTIONS = {
    "threads": "threads", "language": "language", "champion_games": "champion-games",
    "time_control": "time", "log_channel_id": "log-channel",
    "challenge_cooldown": "challenge-cooldown", "open_challenges": "open-challenges",
    "game_channels": "channels", "champion_role_id": "season.role",
    "organiser_role_id": "tournament.role",
}  # fmt: skip


def _setting(part: str, locale: str) -> str:
    """A changed setting, `field=value` as the audit keeps it, as the reader's Discord names
    the option, with channels and roles as mentions."""
    field, _, value = part.partition("=")
    option = _SETTING_OPTIONS.get(field)
    name = words.say(f"command.option.{option}", locale) if option else field
    items = value.split(",") if value != "-" else []
    if items and (field.endswith("_channel_id") or field == "game_channels"):
        value = " ".join(f"<#{item}>" for item in items)
    elif items and field.endswith("_role_id"):
        value = " ".join(f"<@&{item}>" for item in items)
    else:
        value = f"`{value}`"
    return f"`{name}:` {value}"


def audit_line(entry: AuditEntry, locale: str) -> str:
    """One line of the audit log: when, who, what, to whom, why."""
    details = dict(part.split("=", 1) for part in entry.details.split() if "=" in part)
    params: dict[str, object] = {
        "at": replies.when(entry.at),
        "actor": mention(entry.actor_id, locale),
        "user": mention(entry.user_id, locale),
        "game": entry.game_id,
        "reason": markdown_safe(entry.reason or ""),
        "result": details.get("result", "?"),
        "tournament": details.get("tournament", "?"),
    }
    if entry.action is AuditAction.SUSPEND:
        until = datetime.fromtimestamp(int(details.get("until", "0")), UTC)
        params["until"] = replies.when(until)
    if entry.action is AuditAction.SETTINGS:
        params["details"] = ", ".join(_setting(part, locale) for part in entry.details.split())
    return replies.clip(words.say(f"managers.audit.{entry.action.value}", locale, **params), 1000)


def audit_message(found: AuditPage, locale: str) -> Outgoing:
    """A page of the audit log, with Previous and Next when it has more than one."""
    lines = [audit_line(entry, locale) for entry in found.entries]
    embed = discord.Embed(
        title=words.say("managers.audit.title", locale),
        description=replies.clip(
            "\n".join(lines) or words.say("managers.audit.none", locale), 4000
        ),
        colour=replies.COLOUR,
    )
    text = words.say("managers.audit.page", locale, page=found.page + 1, pages=found.pages)
    embed.set_footer(text=text)
    return Outgoing("", embed, None, mentions=replies.NO_MENTIONS, components=_pages(found, locale))


def _pages(found: AuditPage, locale: str) -> ui.View | None:
    if found.pages <= 1:
        return None
    view = ui.View(timeout=None)
    previous = words.say("community.previous", locale)
    view.add_item(AuditPageButton(found.page - 1, previous, found.page <= 0))
    following = words.say("community.next", locale)
    view.add_item(AuditPageButton(found.page + 1, following, found.page + 1 >= found.pages))
    view.stop()
    return view


class AuditPageButton(ui.DynamicItem[ui.Button[Any]], template=r"kamen:au:p(?P<page>-?[0-9]{1,6})"):
    """A button that shows page `page` of the server's audit log (to a manager)."""

    def __init__(self, page: int, label: str = "·", disabled: bool = False) -> None:
        self.page = page
        super().__init__(
            ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"{PREFIX}p{page}",
                disabled=disabled,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str]
    ) -> AuditPageButton:
        return cls(int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        managers: Managers = interaction.client.features.managers  # type: ignore[attr-defined]
        await managers.turn_page(interaction, self.page)


DYNAMIC_ITEMS = (AuditPageButton,)
