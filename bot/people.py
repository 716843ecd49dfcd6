"""`/kamen me settings`, `block`, `unblock`, `export` and `forget`: a player's own settings,
limits and data, answered only to them.

Who may challenge them and whom they block are theirs across every server
(`matches.limits` decides and refuses); `settings` shows both, the blocks as
mentions that ping nobody, so that each can be undone.

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
from typing import Annotated, Any, cast

import discord
from discord import app_commands, ui
from discord.app_commands import Range

import words
from bot import declare, options
from bot.answers import Answer
from bot.components import PREFIX, stopped
from bot.declare import LANGUAGE_CHOICES, language_name
from bot.replies import NO_MENTIONS, Outgoing
from bot.settings import changed, language_chosen, option_name
from bot.table import Table, guarded
from matches import BadInput, ChallengesFrom, GameView, UserSettings
from matches.limits import MAX_BLOCKS

MAX_FILE = 25 * 1024 * 1024  # bytes: the most Discord takes in one attachment, anywhere
MAX_PART = 1000  # the `part` option's declared range, 1 to this
CONFIRM_MINUTES = 10  # how long the confirmation's buttons work
MAX_LISTED = 10  # open games named in a refusal to forget
CHALLENGES = tuple(str(choice) for choice in ChallengesFrom)  # the `challenges:` choices

_USER = r"(?P<user>[0-9]{1,20})"
_UNTIL = r"(?P<until>[0-9]{1,12})"


def command_text(locale: str, name: str, **options: object) -> str:
    """`/kamen me <name> option:value` as a client in that language shows it."""
    path = [words.say(f"command.name.{part}", locale).lower() for part in ("kamen", "me", name)]
    said = [
        f"{words.say(f'command.option.{key}', locale).lower()}:{value}"
        for key, value in options.items()
    ]
    return "/" + " ".join([*path, *said])


def _part(value: object) -> int:
    """The `part` option: a whole number from 1 (empty: 1)."""
    if value is None:
        return 1
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_PART:
        raise BadInput(
            "people.export.bad-part", given=value if isinstance(value, str) else repr(value)
        )
    return value


class People:
    """`/kamen me ...`: what a player decides about themselves, each answered only to them;
    at `table`."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.service = table.service

    def commands(self) -> app_commands.Group:
        """`/kamen me settings`, `block`, `unblock`, `export` and `forget`."""
        group = declare.group("me", "command.me-group")
        about = {
            "pings": "command.about.pings", "language": "command.about.my-language",
            "part": "command.about.part", "challenges": "command.about.challenges",
            "role": "command.about.challenge-role",
        }  # fmt: skip
        challenges = [
            declare.Choice(name=declare.t(f"bot.choice.challenges.{value}"), value=value)
            for value in CHALLENGES
        ]
        choices = {"language": declare.language_choices(), "challenges": challenges}
        group.add_command(
            declare.command(
                "settings", self.settings, about=about, choices=choices, described_by="command.me"
            )
        )
        group.add_command(
            declare.command("block", self.block, about={"user": "command.about.block-user"})
        )
        group.add_command(
            declare.command("unblock", self.unblock, about={"user": "command.about.unblock-user"})
        )
        group.add_command(declare.command("export", self.export, about=about))
        group.add_command(declare.command("forget", self.ask_forget))
        return group

    # ---------------------------------------------------------------- settings

    @guarded
    async def settings(
        self,
        answer: Answer,
        pings: Annotated[object, bool | None] = None,
        language: Annotated[object, str | None] = None,
        challenges: Annotated[object, str | None] = None,
        role: Annotated[object, discord.Role | None] = None,
    ) -> None:
        """Your own settings: pings, the language Kamen answers you in, who may challenge you."""
        interaction = answer.interaction
        on = options.flag("pings", pings)
        chosen = options.choice("language", language, LANGUAGE_CHOICES)
        who = options.choice("challenges", challenges, CHALLENGES)
        picked = options.role("role", role)
        languages = self.table.languages
        user = interaction.user.id
        before = mine = await self.service.user_settings(user)
        if on is not None:
            mine = await self.service.set_pings(user, on)
        if chosen is not None:
            mine = await self.service.set_user_language(user, language_chosen(chosen))
            languages.choose_for_player(user, mine.language)
            answer.locale = languages.player(interaction)  # answered in it at once
        limits = who is not None or picked is not None
        if limits:
            mine = await self.service.limits.set_challenges(
                user, who, picked.id if picked is not None else None
            )
        locale = answer.locale
        turns = words.say("bot.pings.on" if mine.pings else "bot.pings.off", locale)
        code = "bot.me.language" if mine.language is not None else "bot.me.language.auto"
        said = words.say(code, locale, language=language_name(locale))
        lines = [
            changed(turns, on, before.pings != mine.pings, locale),
            changed(said, chosen, before.language != mine.language, locale),
            changed(
                _challenges(mine, locale),
                True if limits else None,
                (before.challenges, before.challenge_role_id)
                != (mine.challenges, mine.challenge_role_id),
                locale,
            ),
            _blocks(await self.service.limits.blocks(user), locale),
        ]
        if on is None and chosen is None and not limits:
            lines.append(
                words.say("bot.me.how", locale, pings=option_name("pings", locale),
                          language=option_name("language", locale),
                          challenges=option_name("challenges", locale))
            )  # fmt: skip
        await answer.say(Outgoing("\n".join(lines), mentions=NO_MENTIONS))

    # ---------------------------------------------------------------- blocks

    @guarded
    async def block(self, answer: Answer, user: Annotated[object, discord.User]) -> None:
        """Refuse someone's challenges to you, in every server (only for you; they are not told)."""
        other = _someone(user)
        me = answer.interaction.user.id
        blocked = await self.service.limits.block(me, other.id)
        locale = answer.locale
        undo = command_text(locale, "unblock", user="")
        said = words.say("limits.blocked", locale, user=other.mention, command=undo)
        await answer.say(Outgoing(f"{said}\n{_blocks(blocked, locale)}", mentions=NO_MENTIONS))

    @guarded
    async def unblock(self, answer: Answer, user: Annotated[object, discord.User]) -> None:
        """Take back a block: their challenges reach you again (only for you)."""
        other = _someone(user)
        me = answer.interaction.user.id
        blocked = await self.service.limits.unblock(me, other.id)
        locale = answer.locale
        said = words.say("limits.unblocked", locale, user=other.mention)
        await answer.say(Outgoing(f"{said}\n{_blocks(blocked, locale)}", mentions=NO_MENTIONS))

    # ---------------------------------------------------------------- export

    @guarded
    async def export(
        self, answer: Answer, part: Annotated[object, Range[int, 1, MAX_PART] | None] = None
    ) -> None:
        """All your games from every server, as one file of records (only for you)."""
        interaction = answer.interaction
        locale = answer.locale
        number = _part(part)
        limit = min(interaction.filesize_limit, MAX_FILE)
        client, names = self.table.client, self.table.names

        def site(guild_id: int, channel_id: int) -> str:
            # Only what the client already holds: no request to Discord per game.
            guild = client.get_guild(guild_id)
            channel = client.get_channel(channel_id)
            name = getattr(channel, "name", None)
            parts = [guild.name if guild else "", f"#{name}" if name else ""]
            return " ".join(part for part in parts if part)

        def name(user_id: int) -> str:
            return names.get(user_id, "")

        found = await self.service.people.export(
            interaction.user.id, max_bytes=limit, part=number, site=site, name=name
        )
        if found is None:
            await answer.say(words.say("people.export.none", locale))
            return
        said = dict(
            part=found.part, parts=found.parts, first=found.first, last=found.last,
            total=found.total,
        )  # fmt: skip
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
    async def ask_forget(self, answer: Answer) -> None:
        """Take your Discord id out of everything Kamen keeps (you will be asked to confirm)."""
        interaction = answer.interaction
        locale = answer.locale
        user = interaction.user.id
        open_games = await self.service.people.open_games(user)
        if open_games:
            named = [_open_game(view, locale) for view in open_games[:MAX_LISTED]]
            if len(open_games) > MAX_LISTED:
                named.append("…")
            await answer.say(
                words.say("people.forget.open", locale, count=len(open_games), games=named)
            )
            return
        until = int(self.service.clock().timestamp()) + CONFIRM_MINUTES * 60
        text = words.say("people.forget.confirm", locale, minutes=CONFIRM_MINUTES)
        playing = await self.service.people.tournament_games(user)
        if playing:
            named = [_open_game(view, locale) for view in playing[:MAX_LISTED]]
            resigned = words.say(
                "people.forget.tournaments", locale, count=len(playing), games=named
            )
            text = f"{text}\n{resigned}"
        await answer.say(Outgoing(text, components=confirm_view(user, until, locale)))

    @guarded
    async def forget(self, answer: Answer, *, user_id: int, until: int) -> None:
        """**Forget me**: the player's id leaves every row Kamen keeps."""
        _asker(answer, user_id)
        locale = answer.locale
        if self.service.clock().timestamp() > until:
            again = command_text(locale, "forget")
            await answer.update(Outgoing(words.say("people.forget.expired", locale, command=again)))
            return
        await self.service.people.forget(user_id)
        # What this process holds of them in memory goes too.
        self.table.languages.choose_for_player(user_id, None)
        self.table.names.pop(user_id, None)
        await answer.update(Outgoing(words.say("people.forget.done", locale)))

    @guarded
    async def keep(self, answer: Answer, *, user_id: int) -> None:
        """**Cancel**: nothing is forgotten."""
        _asker(answer, user_id)
        await answer.update(Outgoing(words.say("people.forget.kept", answer.locale)))


def _someone(user: object) -> discord.User | discord.Member:
    """The required `user:` option, as Discord resolved it."""
    found = options.user("user", user)
    if found is None:
        raise BadInput("bot.refuse.option.user", option="user")
    return found


def _challenges(mine: UserSettings, locale: str) -> str:
    """Who may challenge the player, as their settings say."""
    if mine.challenges is ChallengesFrom.ROLE:
        return words.say("limits.challenges.role", locale, role=f"<@&{mine.challenge_role_id}>")
    return words.say(f"limits.challenges.{mine.challenges}", locale)


def _blocks(blocked: list[int], locale: str) -> str:
    """Whom the player blocks (at most `MAX_BLOCKS`, each a mention that pings nobody)."""
    if not blocked:
        return words.say("limits.blocks.none", locale)
    undo = command_text(locale, "unblock", user="")
    people = ", ".join(f"<@{user_id}>" for user_id in blocked[:MAX_BLOCKS])
    return words.say("limits.blocks", locale, count=len(blocked), people=people, command=undo)


def _people(interaction: discord.Interaction) -> People:
    """The feature the client carries (as `components.features_of`)."""
    return cast("People", interaction.client.features.people)  # type: ignore[attr-defined]


def _open_game(view: GameView, locale: str) -> str:
    """`Oska #12 in #games`: the channel as a link the player can follow."""
    where = f"<#{view.channel_id}>"
    return words.say("people.open-game", locale, game=view.game, id=view.id, channel=where)


def _asker(answer: Answer, user_id: int) -> None:
    if answer.interaction.user.id != user_id:
        raise BadInput("people.forget.not-yours")


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
        await _people(interaction).forget(interaction, user_id=self.user_id, until=self.until)


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
        await _people(interaction).keep(interaction, user_id=self.user_id)


def confirm_view(user_id: int, until: int, locale: str) -> ui.View:
    """**Forget me** and **Cancel**, in the asker's language."""
    items = ui.View(timeout=None)
    items.add_item(ForgetConfirm(user_id, until, locale))
    items.add_item(ForgetCancel(user_id, locale))
    return stopped(items)


DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (ForgetConfirm, ForgetCancel)
