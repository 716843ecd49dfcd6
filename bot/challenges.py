"""Challenges: `/<game> challenge`, `/<game> import`, and the buttons that answer them.

A game starts either at once (against Kamen, or a record studied alone) or
when a challenge is accepted; either way in a thread of its own when the
server allows it and Kamen may create threads, else in the channel. A
finished game's Rematch button is a challenge too: the same game, the sides
swapped. A game's variant options become options of `challenge`, one per
key, with the rule book's values as choices: adding a game to the registry
adds its options, with no code here.
"""

from __future__ import annotations

import inspect
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Annotated, Any

import discord
from discord import app_commands
from discord.app_commands import Choice, Range

import words
from bot import components, declare, options, replies
from bot.answers import Answer
from bot.declare import t
from bot.options import CHALLENGE_TIMES, FIRSTS, MAX_RECORD_OPTION
from bot.table import ARCHIVE_MINUTES, Table, channel_id_of, guarded, guild_id_of, roles_of
from games.ai.levels import level_rating
from games.base import GameSpec, VariantOption
from matches import (
    DEFAULT_LEVEL,
    LEVELS,
    BadInput,
    FirstChoice,
    GameView,
    MatchError,
    Status,
    level_of,
)
from matches.inputs import MAX_RECORD
from words.games import option_help, value_help

log = logging.getLogger(__name__)

FIRST = {"me": FirstChoice.CHALLENGER, "them": FirstChoice.OPPONENT, "random": FirstChoice.RANDOM}
ABOUT = {
    "opponent": "command.about.opponent", "time": "command.about.time",
    "first": "command.about.first", "level": "command.about.level", "rated": "command.about.rated",
    "record": "command.about.record", "file": "command.about.file",
}  # fmt: skip


class Challenges:
    """Challenges offered, answered and imported, at `table`."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.service = table.service
        self.client = table.client

    def game_commands(self, spec: GameSpec) -> dict[str, declare.Command]:
        """`/<game> challenge` and `/<game> import`."""
        choices = {
            "time": declare.time_choices(CHALLENGE_TIMES),
            "first": _first_choices(spec),
            "level": _level_choices(spec.name),
        }
        about = {**ABOUT, "opponent": "command.about.import-opponent"}
        imported = declare.command(
            "import", self.import_game, about=about, choices=choices, bound={"spec": spec},
            game=spec.name,
        )  # fmt: skip
        return {"challenge": self._challenge_command(spec, choices), "import": imported}

    def _challenge_command(
        self, spec: GameSpec, choices: dict[str, list[Choice[str]]]
    ) -> declare.Command:
        """`/<game> challenge`: its options are the game's variant keys (known only at
        start-up), then the terms every game has; handed on as they came, as one mapping."""
        names = {option.key: _param(option.key) for option in spec.options}

        async def challenge(interaction: discord.Interaction, **values: Any) -> None:
            await self.challenge(interaction, spec, values, names)

        keyword = inspect.Parameter.KEYWORD_ONLY
        params = [
            inspect.Parameter(
                "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                annotation=discord.Interaction,
            ),
            inspect.Parameter("opponent", keyword, annotation=discord.User | None, default=None),
        ]  # fmt: skip
        descriptions = {"opponent": t(ABOUT["opponent"])}
        renames = {}
        offered = dict(choices)
        for option in spec.options:
            name = _param(option.key)
            params.append(inspect.Parameter(name, keyword, annotation=str | None, default=None))
            descriptions[name] = _variant_description(spec, option)
            offered[name] = _variant_choices(spec, option)
            renames[name] = declare.name(f"command.option.{spec.name}.{option.key}")
        for name in ("time", "first", "level"):
            params.append(inspect.Parameter(name, keyword, annotation=str | None, default=None))
            descriptions[name] = t(ABOUT[name], game=spec.name)
        params.append(inspect.Parameter("rated", keyword, annotation=bool | None, default=None))
        descriptions["rated"] = t(ABOUT["rated"])
        for name in ("opponent", "time", "first", "level", "rated"):
            renames[name] = declare.name(f"command.option.{name}")
        challenge.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        app_commands.describe(**descriptions)(challenge)
        app_commands.choices(**offered)(challenge)
        app_commands.rename(**renames)(challenge)
        return app_commands.Command(
            name=declare.name("command.name.challenge"),
            description=t("command.challenge", game=spec.name),
            callback=challenge,
        )

    @guarded
    async def challenge(
        self,
        answer: Answer,
        spec: GameSpec,
        values: Mapping[str, object],
        names: Mapping[str, str],
    ) -> None:
        """`/<game> challenge` with its options as they came (each is checked first)."""
        interaction = answer.interaction
        answer.public = True
        terms = options.terms(spec, values, names)
        opponent, level, time = terms.opponent, terms.level, terms.time
        variant = list(terms.variant)
        self.table.remember(opponent)
        choice = FIRST[terms.first]
        me = self.client.user
        if opponent is not None and opponent.bot and (me is None or opponent.id != me.id):
            raise BadInput("bot.refuse.other-bots")

        def challenge(channel_id: int, opponent_id: int | None) -> Awaitable[GameView]:
            return self.service.challenge(
                guild_id=guild_id_of(interaction),
                channel_id=channel_id,
                challenger_id=interaction.user.id,
                game=spec.name,
                opponent_id=opponent_id,
                variant=variant,
                time=time,
                first=choice,
                level=level,
                rated=terms.rated,
                challenger_roles=roles_of(interaction),
            )

        opponent_id = opponent.id if opponent is not None else None
        if opponent is not None and self.service.starts_at_once(opponent.id):  # against Kamen
            kamen = opponent
            said = level_said(level, answer.server_locale)
            who = words.say(
                "bot.against.kamen", answer.server_locale, bot=replies.mention(kamen.id), level=said
            )

            # Kamen's worker process starts now (once), while the player looks at the board.
            self.table.spawn(self.table.opponent.start(), "starting Kamen's worker")

            async def start(channel_id: int) -> GameView:
                return await challenge(channel_id, kamen.id)

            await self._start_now(answer, spec, who, kamen.display_name, start)
            return
        view = await challenge(channel_id_of(interaction), opponent_id)
        await self._post_challenge(answer, view, choice)

    @guarded
    async def rematch(self, answer: Answer, game_id: int) -> None:
        """Rematch on a finished game's board: a player challenges the other (or Kamen, at
        the same level) to the same game, the sides swapped, the same rules and time."""
        interaction = answer.interaction
        old = await self.service.view(game_id=game_id, guild_id=interaction.guild_id)
        user = interaction.user.id
        if old.status is not Status.FINISHED or old.players is None or user not in old.players:
            raise BadInput("bot.refuse.rematch", id=old.id)
        answer.public = True
        first_id, second_id = old.players
        opponent_id = second_id if user == first_id else first_id
        choice = FirstChoice.OPPONENT if user == first_id else FirstChoice.CHALLENGER
        spec = old.state.spec

        def offer(channel_id: int) -> Awaitable[GameView]:
            return self.service.challenge(
                guild_id=guild_id_of(interaction), channel_id=channel_id,
                challenger_id=user, game=spec.name, opponent_id=opponent_id,
                variant=str(old.state.variant), time=replies.time_option(old),
                first=choice, level=old.ai_level, rated=old.row.rated, rematch_of=old.id,
                challenger_roles=roles_of(interaction),
            )  # fmt: skip

        if self.service.starts_at_once(opponent_id):  # against Kamen: it starts at once
            level = level_said(old.ai_level, answer.server_locale)
            who = words.say("bot.against.kamen", answer.server_locale,
                            bot=replies.mention(opponent_id), level=level)  # fmt: skip
            await self._start_now(
                answer, spec, who, await self.table.display_name(opponent_id), offer
            )
            return
        view = await offer(channel_id_of(interaction))
        await self._post_challenge(answer, view, choice)

    async def _post_challenge(self, answer: Answer, view: GameView, choice: FirstChoice) -> None:
        locale = answer.server_locale
        out = replies.challenge(view, choice, components.challenge_view(view, locale), locale)
        message_id = await answer.send(out)
        if message_id is not None:  # recorded as shown: an accept cut short is finished later
            await self.table.shown(view, message_id)

    async def _start_now(
        self,
        answer: Answer,
        spec: GameSpec,
        against: str,
        against_name: str,
        start: Callable[[int], Awaitable[GameView]],
    ) -> None:
        """A game that begins without an Accept: in a new thread when allowed, else right here."""
        interaction = answer.interaction
        if not await self._threads_allowed(interaction):
            view = await start(channel_id_of(interaction))
            message_id = await answer.send(await self.table.board(view))
            self.table.reached(answer, view, message_id)
            if message_id is not None:
                await self.table.adopt_board(view, message_id)
            if view.bot_to_move:
                self.table.let_bot_move(view)
            return
        locale = answer.server_locale
        text = words.say(
            "bot.starts-game",
            locale,
            player=interaction.user.mention,
            title=replies.title(spec, locale),
            against=against,
        )
        message_id = await answer.send(text)
        assert message_id is not None and isinstance(interaction.channel, discord.TextChannel)
        name = replies.thread_name(spec, interaction.user.display_name, against_name, locale)
        thread = await interaction.channel.create_thread(
            name=name,
            message=discord.Object(message_id),
            auto_archive_duration=ARCHIVE_MINUTES,
        )
        try:
            view = await start(thread.id)
        except MatchError as error:
            failed = words.say(
                "bot.start-failed", locale, text=text, error=replies.explain(error, locale)
            )
            await interaction.edit_original_response(content=failed)
            raise
        await self.table.send_board(view, await self.table.board(view))
        await interaction.edit_original_response(
            **replies.moved_to_thread(view, thread.id, locale).edit_kwargs()
        )
        self.table.reached(answer, view)  # its token shows the result on the thread's start
        if view.bot_to_move:
            self.table.let_bot_move(view)

    @guarded
    async def answer_challenge(self, answer: Answer, what: str, game_id: int) -> None:
        interaction = answer.interaction
        user = interaction.user.id
        if what == "decline":
            view = await self.service.decline(game_id, user, guild_id=interaction.guild_id)
        elif what == "cancel":
            view = await self.service.cancel(game_id, user, guild_id=interaction.guild_id)
        else:
            await self._accept(answer, game_id)
            return
        await answer.update(replies.closed_challenge(view, answer.server_locale))

    async def _accept(self, answer: Answer, game_id: int) -> None:
        interaction = answer.interaction
        offered = await self.service.may_accept(
            game_id, interaction.user.id, guild_id=interaction.guild_id
        )
        thread_id = await self._thread_for(interaction, offered)
        view = await self.service.accept(
            game_id, interaction.user.id, channel_id=thread_id, guild_id=interaction.guild_id
        )
        if thread_id is None:
            await answer.update(await self.table.board(view))
            self.table.reached(answer, view)
            if interaction.message is not None:
                await self.table.adopt_board(view, interaction.message.id)
        else:
            await answer.update(replies.moved_to_thread(view, thread_id, answer.server_locale))
            self.table.reached(answer, view)  # its token shows the result on the thread's start
            await self.table.send_board(view, await self.table.board(view), strip_old=False)
        await self.table.tell_turn(view, interaction.user.id)

    async def _thread_for(self, interaction: discord.Interaction, offered: GameView) -> int | None:
        """The thread the accepted game goes to: one started on the challenge message."""
        locale = self.table.locale_of(offered)
        message = interaction.message
        channel = interaction.channel
        if message is None or not isinstance(channel, discord.TextChannel):
            return None
        if not await self._threads_allowed(interaction):
            return None
        challenger = await self.table.display_name(offered.challenger_id)
        name = replies.thread_name(offered.spec, challenger, interaction.user.display_name, locale)
        try:
            thread = await channel.create_thread(
                name=name, message=message, auto_archive_duration=ARCHIVE_MINUTES
            )
        except discord.HTTPException as error:
            if error.code == 160004:  # two accepts at once: the first made the thread
                return message.id
            log.warning("could not open a thread for game #%s: %s", offered.id, error)
            return None
        return thread.id

    async def _threads_allowed(self, interaction: discord.Interaction) -> bool:
        channel = interaction.channel
        if interaction.guild_id is None or not isinstance(channel, discord.TextChannel):
            return False
        allowed = interaction.app_permissions
        if not (allowed.create_public_threads and allowed.send_messages_in_threads):
            return False
        return (await self.service.settings(interaction.guild_id)).threads

    @guarded
    async def import_game(
        self,
        answer: Answer,
        spec: GameSpec,
        record: Annotated[object, Range[str, 1, MAX_RECORD_OPTION] | None] = None,
        file: Annotated[object, discord.Attachment | None] = None,
        opponent: Annotated[object, discord.User | None] = None,
        time: Annotated[object, str | None] = None,
        first: Annotated[object, str | None] = None,
        level: Annotated[object, str | None] = None,
    ) -> None:
        """Go on from a record of {title}: alone to study it, or against someone or Kamen."""
        interaction = answer.interaction
        answer.public = True
        values = {"opponent": opponent, "time": time, "first": first, "level": level}
        terms = options.terms(spec, values, {})
        chosen = options.text("record", record, low=1, high=MAX_RECORD_OPTION)
        attached = options.attachment("file", file)
        self.table.remember(terms.opponent)
        text = await record_text(chosen, attached)
        try:  # refused before anything public is posted
            self.service.check_record(text, spec.name)
        except MatchError as error:
            if error.code in ("match.record-over", "match.record-of-other-game"):
                raise
            # A record that does not read: the refusal, and what a record looks like.
            said = replies.explain(error, answer.locale)
            said = said[:1].upper() + said[1:]  # a record's fault is worded as a clause
            shown = words.say("bot.import.example", answer.locale,
                              example=replies.record_example(spec))  # fmt: skip
            await answer.refuse(error, replies.Outgoing(replies.clip(f"{said}\n{shown}")))
            return
        opponent_id = terms.opponent.id if terms.opponent is not None else None
        # Refused privately before anything public: a position of a game the player plays.
        await self.service.may_import(interaction.user.id, text, spec.name, opponent_id)
        choice = FIRST[terms.first]

        def start_import(channel_id: int) -> Awaitable[GameView]:
            return self.service.import_record(
                guild_id=guild_id_of(interaction),
                channel_id=channel_id,
                user_id=interaction.user.id,
                text=text,
                game=spec.name,
                opponent_id=opponent_id,
                time=terms.time,
                first=choice,
                level=terms.level,
                challenger_roles=roles_of(interaction),
            )

        opponent = terms.opponent
        if self.service.starts_at_once(opponent_id, importing=True):  # a study, or against Kamen
            if opponent is None:
                locale = answer.server_locale
                against = words.say("bot.against.study", locale)
                name = words.say("bot.against.study-name", locale)
            else:
                against, name = replies.mention(opponent.id), opponent.display_name

            if opponent is not None:
                self.table.spawn(self.table.opponent.start(), "starting Kamen's worker")

            async def start(channel_id: int) -> GameView:
                return await start_import(channel_id)

            await self._start_now(answer, spec, against, name, start)
            return
        view = await start_import(channel_id_of(interaction))
        await self._post_challenge(answer, view, choice)


def _param(key: str) -> str:
    """A Python name for a variant key (`must-play-12` → `must_play_12`)."""
    return re.sub(r"\W", "_", key)


def _variant_choices(spec: GameSpec, option: VariantOption) -> list[Choice[str]]:
    """A choice per value, named with what it does when the catalogue says it value by value."""

    def choice(value: str) -> Choice[str]:
        def say(locale: str) -> str:
            name = value
            text = value_help(spec.name, option.key, value, locale)
            if text is not None:
                name = words.say("bot.choice.variant", locale, value=value, text=text)
            if value == option.default:
                name = words.say("bot.choice.default", locale, name=name)
            return declare.short(name)

        return Choice(name=declare.said(say), value=value)

    return [choice(value) for value in option.values]


def _variant_description(spec: GameSpec, option: VariantOption) -> app_commands.locale_str:
    """The option's help, or, when each choice explains itself, what the option is about."""
    if all(value_help(spec.name, option.key, value) for value in option.values):
        return t("command.about.variant", key=option.key, default=option.default)

    def say(locale: str) -> str:
        text = option_help(spec.name, option.key, option.values, locale)
        return declare.short(words.say("command.about.variant-help", locale, help=text))

    return declare.said(say)


def _first_choices(spec: GameSpec) -> list[Choice[str]]:
    return [
        Choice(name=t(f"bot.choice.first.{value}", game=spec.name), value=value) for value in FIRSTS
    ]


def level_said(level: str | None, locale: str) -> str:
    """A level's name, e.g. "3 · medium" (the default level's if none is given)."""
    return words.say(f"command.level.{level_of(level or DEFAULT_LEVEL)}", locale)


def _level_choices(game: str) -> list[Choice[str]]:
    """Kamen's levels, each with its measured rating in `game` ("easy ≈ 900")."""

    def named(level: str) -> app_commands.locale_str:
        rating = level_rating(game, level)

        def say(locale: str) -> str:
            name = words.say(f"command.level.{level}", locale)
            return declare.short(
                words.say("command.level.rated", locale, level=name, rating=rating)
            )

        return declare.said(say)

    return [Choice(name=named(level), value=level) for level in LEVELS]


async def record_text(record: str | None, file: discord.Attachment | None) -> str:
    """The record typed in, or read from the attached `.txt` file."""
    if record and file:
        raise BadInput("bot.refuse.record-both")
    if file is not None:
        if file.size > MAX_RECORD:
            raise BadInput("bot.refuse.record-too-large", limit=MAX_RECORD)
        try:
            return (await file.read()).decode("utf-8")
        except UnicodeDecodeError:
            raise BadInput("bot.refuse.record-not-utf8") from None
        except discord.HTTPException:
            raise BadInput("bot.refuse.record-unreadable") from None
    if not record:
        raise BadInput("bot.refuse.record-missing")
    return one_line_record(record)


def one_line_record(text: str) -> str:
    """A record pasted into a slash option arrives on one line: put its tags back on theirs."""
    if "\n" in text:
        return text
    text = re.sub(r'"\]\s*(?=\[)', '"]\n', text)
    return re.sub(r'"\]\s+(?=[^\[\s])', '"]\n\n', text)
