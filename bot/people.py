"""`/kamen me export` and `/kamen me forget`: a player's own data, answered only to them.

The export is one `.txt` file of records (`matches.people`), sent privately:
every game of the player, from every server, since only they see it. A file
must fit Discord's attachment limit for the interaction (10 MiB in most
servers, never above 25 MiB here); a larger export comes in parts, each a
file of whole games, and the reply names the command for the next part.

Forgetting asks first: a private message with **Forget me** and **Cancel**.
The buttons are `DynamicItem`s whose `custom_id` carries the asker's id and
when the question expires, so they work after a restart; a click by anyone
else (a crafted one: the message is ephemeral) or after the expiry forgets
nobody. A player with a challenge or a game open is told which, and to end
them first: nothing else in Kamen changes hands behind a game being played.
"""

from __future__ import annotations

import re
from typing import Any, cast

import discord
from discord import ui

import words
from bot.answers import Answer
from bot.components import PREFIX, stopped
from bot.replies import Outgoing
from bot.table import Table, guarded
from matches import BadInput, GameView

MAX_FILE = 25 * 1024 * 1024  # bytes: the most Discord takes in one attachment, anywhere
MAX_PART = 1000  # the `part` option's declared range, 1 to this
CONFIRM_MINUTES = 10  # how long the confirmation's buttons work
MAX_LISTED = 10  # open games named in a refusal to forget

_USER = r"(?P<user>[0-9]{1,20})"
_UNTIL = r"(?P<until>[0-9]{1,12})"


def _table(interaction: discord.Interaction) -> Table:
    """The bot's handlers, which the client carries (as `components.actions_of`)."""
    return cast("Table", interaction.client.actions)  # type: ignore[attr-defined]


def command_text(locale: str, name: str, **options: object) -> str:
    """`/kamen me <name> option:value` as a client in that language shows it."""
    path = [words.say(f"command.name.{part}", locale).lower() for part in ("kamen", "me", name)]
    said = [
        f"{words.say(f'command.option.{key}', locale).lower()}:{value}"
        for key, value in options.items()
    ]
    return "/" + " ".join([*path, *said])


# ---------------------------------------------------------------- export


def _part(value: object) -> int:
    """The `part` option: a whole number from 1 (empty: 1)."""
    if value is None:
        return 1
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_PART:
        raise BadInput(
            "people.export.bad-part", given=value if isinstance(value, str) else repr(value)
        )
    return value


@guarded
async def export(table: Table, answer: Answer, part: object = None) -> None:
    """Send the player their games as a file of records, privately."""
    interaction = answer.interaction
    locale = answer.locale
    number = _part(part)
    limit = min(interaction.filesize_limit, MAX_FILE)

    def site(guild_id: int, channel_id: int) -> str:
        # Only what the client already holds: no request to Discord per game.
        guild = table.client.get_guild(guild_id)
        channel = table.client.get_channel(channel_id)
        name = getattr(channel, "name", None)
        parts = [guild.name if guild else "", f"#{name}" if name else ""]
        return " ".join(part for part in parts if part)

    def name(user_id: int) -> str:
        return table.names.get(user_id, "")

    found = await table.service.people.export(
        interaction.user.id, max_bytes=limit, part=number, site=site, name=name
    )
    if found is None:
        await answer.say(words.say("people.export.none", locale))
        return
    said = dict(
        part=found.part, parts=found.parts, first=found.first, last=found.last, total=found.total
    )
    if found.parts == 1:
        text = words.say("people.export.all", locale, total=found.total)
        file = "kamen-games.txt"
    else:
        file = f"kamen-games-{found.part}-of-{found.parts}.txt"
        if found.part < found.parts:
            following = command_text(locale, "export", part=found.part + 1)
            text = words.say("people.export.part", locale, next=following, **said)
        else:
            text = words.say("people.export.last-part", locale, **said)
    await answer.say(Outgoing(text, image=found.text.encode("utf-8"), image_name=file))


# ---------------------------------------------------------------- forget


@guarded
async def ask_forget(table: Table, answer: Answer) -> None:
    """The confirmation, or why the player cannot be forgotten yet."""
    interaction = answer.interaction
    locale = answer.locale
    user = interaction.user.id
    open_games = await table.service.people.open_games(user)
    if open_games:
        named = [_open_game(view, locale) for view in open_games[:MAX_LISTED]]
        if len(open_games) > MAX_LISTED:
            named.append("…")
        await answer.say(
            words.say("people.forget.open", locale, count=len(open_games), games=named)
        )
        return
    until = int(table.service.clock().timestamp()) + CONFIRM_MINUTES * 60
    text = words.say("people.forget.confirm", locale, minutes=CONFIRM_MINUTES)
    await answer.say(Outgoing(text, components=confirm_view(user, until, locale)))


def _open_game(view: GameView, locale: str) -> str:
    """`Oska #12 in #games`: the channel as a link the player can follow."""
    where = f"<#{view.channel_id}>"
    return words.say("people.open-game", locale, game=view.game, id=view.id, channel=where)


def _asker(answer: Answer, user_id: int) -> None:
    if answer.interaction.user.id != user_id:
        raise BadInput("people.forget.not-yours")


@guarded
async def forget(table: Table, answer: Answer, *, user_id: int, until: int) -> None:
    """**Forget me**: the player's id leaves every row Kamen keeps."""
    _asker(answer, user_id)
    locale = answer.locale
    if table.service.clock().timestamp() > until:
        again = command_text(locale, "forget")
        await answer.update(Outgoing(words.say("people.forget.expired", locale, command=again)))
        return
    await table.service.people.forget(user_id)
    # What this process holds of them in memory goes too.
    table.languages.choose_for_player(user_id, None)
    table.names.pop(user_id, None)
    await answer.update(Outgoing(words.say("people.forget.done", locale)))


@guarded
async def keep(table: Table, answer: Answer, *, user_id: int) -> None:
    """**Cancel**: nothing is forgotten."""
    _asker(answer, user_id)
    await answer.update(Outgoing(words.say("people.forget.kept", answer.locale)))


class ForgetConfirm(
    ui.DynamicItem[ui.Button[ui.View]], template=PREFIX + r"forget-yes:" + _USER + ":" + _UNTIL
):
    """Yes, forget me (the asker, until the time it carries)."""

    def __init__(self, user_id: int, until: int, locale: str | None = None) -> None:
        super().__init__(
            ui.Button(
                label=words.say("people.button.forget", locale),
                style=discord.ButtonStyle.danger,
                custom_id=f"{PREFIX}forget-yes:{user_id}:{until}",
            )
        )
        self.user_id, self.until = user_id, until

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> ForgetConfirm:
        return cls(int(match["user"]), int(match["until"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await forget(_table(interaction), interaction, user_id=self.user_id, until=self.until)


class ForgetCancel(ui.DynamicItem[ui.Button[ui.View]], template=PREFIX + r"forget-no:" + _USER):
    """No, keep everything."""

    def __init__(self, user_id: int, locale: str | None = None) -> None:
        super().__init__(
            ui.Button(
                label=words.say("people.button.keep", locale),
                style=discord.ButtonStyle.secondary,
                custom_id=f"{PREFIX}forget-no:{user_id}",
            )
        )
        self.user_id = user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> ForgetCancel:
        return cls(int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await keep(_table(interaction), interaction, user_id=self.user_id)


def confirm_view(user_id: int, until: int, locale: str) -> ui.View:
    """**Forget me** and **Cancel**, in the asker's language."""
    items = ui.View(timeout=None)
    items.add_item(ForgetConfirm(user_id, until, locale))
    items.add_item(ForgetCancel(user_id, locale))
    return stopped(items)


DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (ForgetConfirm, ForgetCancel)
