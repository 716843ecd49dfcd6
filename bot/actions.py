"""What each command and component does: read the interaction, call the service, reply.

Every handler is `@guarded`, so refusals become ephemeral replies and
nothing goes unanswered. The reply comes first; bookkeeping follows.
Games start either at once (against the bot, or a record studied alone) or
when a challenge is accepted; either way in a thread of their own when the
server allows it and the bot may create threads, else in the channel.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Literal

import discord

import words
from bot import components, images, options, replies
from bot.answers import Answer
from bot.community import Community
from bot.options import MAX_RECORD_OPTION
from bot.people import People
from bot.playing import PlayingActions
from bot.puzzles import Puzzles
from bot.reviews import ReviewActions
from bot.seasons import Seasons
from bot.settings import ServerSettings
from bot.table import Table, guarded
from bot.tournaments import Tournaments
from games.base import GameSpec
from matches import (
    BadInput,
    DrawEvent,
    FirstChoice,
    GameOver,
    GameView,
    MatchError,
    NotAPlayer,
    NotYourTurn,
    Status,
    origin,
)
from matches.inputs import MAX_RECORD

log = logging.getLogger(__name__)

FIRST = {"me": FirstChoice.CHALLENGER, "them": FirstChoice.OPPONENT, "random": FirstChoice.RANDOM}
ANSWER_WITHIN = 3.0  # seconds: an interaction's answer later than this is void anyway
ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: a slow game's thread stays in the channel list


@dataclass(frozen=True)
class Features:
    """The bot's features, each handed the table it works at; the client carries them and
    the components reach the one that handles them (`client.features.tournaments`)."""

    table: Table
    tournaments: Tournaments
    seasons: Seasons
    puzzles: Puzzles
    community: Community
    people: People
    settings: ServerSettings

    @classmethod
    def at(cls, table: Table) -> Features:
        return cls(
            table,
            tournaments=Tournaments(table),
            seasons=Seasons(table),
            puzzles=Puzzles(table),
            community=Community(table),
            people=People(table),
            settings=ServerSettings(table),
        )


class Actions(PlayingActions, ReviewActions):
    """The handlers behind the commands and components (the community's: bot/community.py)."""

    # ---------------------------------------------------------------- challenges

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
        self.remember(opponent)
        choice = FIRST[terms.first]
        me = self.client.user
        if opponent is not None and opponent.bot and (me is None or opponent.id != me.id):
            raise BadInput("bot.refuse.other-bots")

        def challenge(channel_id: int, opponent_id: int | None) -> Awaitable[GameView]:
            return self.service.challenge(
                guild_id=self._guild_id(interaction),
                channel_id=channel_id,
                challenger_id=interaction.user.id,
                game=spec.name,
                opponent_id=opponent_id,
                variant=variant,
                time=time,
                first=choice,
                level=level,
                rated=terms.rated,
            )

        opponent_id = opponent.id if opponent is not None else None
        if opponent is not None and self.service.starts_at_once(opponent.id):  # against Kamen
            kamen = opponent
            said = words.say(f"command.level.{level or 'medium'}", answer.server_locale)
            who = words.say(
                "bot.against.kamen", answer.server_locale, bot=replies.mention(kamen.id), level=said
            )

            # Kamen's worker process starts now (once), while the player looks at the board.
            self.spawn(self.opponent.start(), "starting Kamen's worker")

            async def start(channel_id: int) -> GameView:
                return await challenge(channel_id, kamen.id)

            await self._start_now(answer, spec, who, kamen.display_name, start)
            return
        view = await challenge(self._channel_id(interaction), opponent_id)
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
                guild_id=self._guild_id(interaction), channel_id=channel_id,
                challenger_id=user, game=spec.name, opponent_id=opponent_id,
                variant=str(old.state.variant), time=replies.time_option(old),
                first=choice, level=old.ai_level, rated=old.row.rated,
            )  # fmt: skip

        if self.service.starts_at_once(opponent_id):  # against Kamen: it starts at once
            level = words.say(f"command.level.{old.ai_level or 'medium'}", answer.server_locale)
            who = words.say("bot.against.kamen", answer.server_locale,
                            bot=replies.mention(opponent_id), level=level)  # fmt: skip
            await self._start_now(answer, spec, who, await self.display_name(opponent_id), offer)
            return
        view = await offer(self._channel_id(interaction))
        await self._post_challenge(answer, view, choice)

    async def _post_challenge(self, answer: Answer, view: GameView, choice: FirstChoice) -> None:
        locale = answer.server_locale
        out = replies.challenge(view, choice, components.challenge_view(view, locale), locale)
        message_id = await answer.send(out)
        if message_id is not None:  # recorded as shown: an accept cut short is finished later
            await self.shown(view, message_id)

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
            view = await start(self._channel_id(interaction))
            message_id = await answer.send(self.board(view))
            if message_id is not None:
                await self.adopt_board(view, message_id)
            if view.bot_to_move:
                self.let_bot_move(view)
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
        await self.send_board(view, self.board(view))
        await interaction.edit_original_response(
            **replies.moved_to_thread(view, thread.id, locale).edit_kwargs()
        )
        if view.bot_to_move:
            self.let_bot_move(view)

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
            await answer.update(self.board(view))
            if interaction.message is not None:
                await self.adopt_board(view, interaction.message.id)
        else:
            await answer.update(replies.moved_to_thread(view, thread_id, answer.server_locale))
            await self.send_board(view, self.board(view), strip_old=False)
        await self.tell_turn(view, interaction.user.id)

    async def _thread_for(self, interaction: discord.Interaction, offered: GameView) -> int | None:
        """The thread the accepted game goes to: one started on the challenge message."""
        locale = self.locale_of(offered)
        message = interaction.message
        channel = interaction.channel
        if message is None or not isinstance(channel, discord.TextChannel):
            return None
        if not await self._threads_allowed(interaction):
            return None
        challenger = await self.display_name(offered.challenger_id)
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

    # ---------------------------------------------------------------- moving

    @guarded
    async def move_by_command(self, answer: Answer, spec: GameSpec, text: str) -> None:
        interaction = answer.interaction
        answer.public = True
        result = await self.service.move(
            interaction.user.id, text, channel_id=self._channel_id(interaction), game=spec.name
        )
        out = self.board_after(result)
        notified = await self.notified_by_board(result)  # the new board is their ping
        if notified is not None:
            out = dataclasses.replace(out, mentions=replies.mentions_of(notified))
        message_id = await answer.send(out)
        if message_id is not None:
            await self.adopt_board(result.view, message_id)
        pinged = notified is not None and not answer.filled
        await self.after_move(result, new_message=True, pinged=pinged)

    @guarded
    async def move_by_menu(
        self,
        answer: Answer,
        game_id: int,
        ply: int,
        move: str,
        *,
        second_step: bool = False,
    ) -> None:
        interaction = answer.interaction
        result = await self.service.move(
            interaction.user.id,
            move,
            game_id=game_id,
            expected_ply=ply,
            guild_id=interaction.guild_id,
        )
        out = self.board_after(result)
        clicked = interaction.message.id if interaction.message is not None else None
        played = replies.Outgoing(words.say("bot.you-played", answer.locale, move=result.move))
        if not second_step and clicked is not None and clicked == result.view.message_id:
            async with self.showing(result.view) as now:
                # Not held for long: an answer Discord keeps failing is given up after its
                # 3 s (then the board keeper repairs the board).
                shown = out if now is result.view else self.board(now)
                await asyncio.wait_for(answer.update(shown), ANSWER_WITHIN)
                await self.shown(now, clicked)
        else:  # a destination menu, or a board shown in a reply (after a stale click)
            await answer.update(played)
            await self.update_board(result.view, out)
        await self.after_move(result, new_message=False)

    @guarded
    async def pick_piece(self, answer: Answer, game_id: int, ply: int, square: str) -> None:
        interaction = answer.interaction
        view = await self.service.view(game_id=game_id, guild_id=interaction.guild_id)
        # the service says whether this user may move here now (and refuses an old board)
        moves = await self.service.choices_for(
            interaction.user.id,
            game_id=game_id,
            square=square,
            expected_ply=ply,
            guild_id=interaction.guild_id,
        )
        if not moves:
            raise BadInput("bot.refuse.no-move-from", square=square)
        menu = components.destination_view(view, moves, answer.locale)
        # Privately, the board with the picked piece and where it can go marked.
        picked = square if square in {origin(view.state, move) for move in moves} else None
        png = images.board_png(view.state, players=self.players(view), locale=answer.locale,
                               selected=picked)  # fmt: skip
        alt = images.board_alt(view.state, players=self.players(view), locale=answer.locale)
        await answer.say(
            replies.Outgoing(
                words.say("bot.moves-from", answer.locale, square=square), image=png,
                components=menu, mentions=discord.AllowedMentions.none(), alt=alt,
            )
        )  # fmt: skip

    async def autocomplete(
        self, interaction: discord.Interaction, spec: GameSpec, typed: str
    ) -> list[discord.app_commands.Choice[str]]:
        """The moves the user may play that start with what was typed (then those containing it),
        or one entry saying why there are none."""
        try:
            moves = await self.service.choices_for(
                interaction.user.id,
                channel_id=self._channel_id(interaction),
                game=spec.name,
                typed=typed,
            )
        except NotYourTurn:  # shorter than the refusal of a move: the list is narrow
            locale = self.languages.player(interaction)
            return [hint(words.say("bot.hint.not-your-turn", locale), typed)]
        except MatchError as error:
            return [hint(words.explain(error, self.languages.player(interaction)), typed)]
        except Exception:  # an answer is due within 3 s whatever happens: an empty list
            log.exception("autocomplete of %s failed", spec.name)
            return []
        return [
            discord.app_commands.Choice(name=move, value=move)
            for move in moves[: components.MAX_OPTIONS]
        ]

    # ---------------------------------------------------------------- resign and draws

    @guarded
    async def ask_resign(
        self,
        answer: Answer,
        game_id: int | None = None,
        ply: int | None = None,
        spec: GameSpec | None = None,
    ) -> None:
        interaction = answer.interaction
        view = await self._game(interaction, game_id, spec)
        if view.status is not Status.ACTIVE:
            raise GameOver("bot.refuse.resign-over")
        if view.side_of(interaction.user.id) is None:
            raise NotAPlayer()
        title = replies.title(view, answer.locale)
        confirm = words.say("bot.resign.confirm", answer.locale, id=view.id, title=title)
        menu = components.resign_confirm_view(view.id, view.ply, answer.locale)
        await answer.say(replies.Outgoing(confirm, components=menu))

    @guarded
    async def resign(self, answer: Answer, *, game_id: int) -> None:
        interaction = answer.interaction
        view = await self.service.resign(
            interaction.user.id, game_id=game_id, guild_id=interaction.guild_id
        )
        await answer.update(replies.Outgoing(words.say("bot.resigned", answer.locale, id=view.id)))
        await self.update_board(view, self.board(view))
        await self.announce_end(view, new_message=False)

    @guarded
    async def draw(
        self,
        answer: Answer,
        *,
        game_id: int | None = None,
        ply: int | None = None,
        spec: GameSpec | None = None,
    ) -> None:
        interaction = answer.interaction
        answer.public = True
        user = interaction.user.id
        channel_id = self._channel_id(interaction) if game_id is None else None
        result = await self.service.offer_draw(
            user,
            game_id=game_id,
            channel_id=channel_id,
            game=spec.name if spec else None,
            guild_id=interaction.guild_id,
        )
        view = result.view
        out = self.board(view)
        locale = self.locale_of(view)
        if result.event is DrawEvent.ACCEPTED:
            text = words.say("bot.draw.accepted", locale, player=replies.mention(user))
        else:
            other = next((p for p in view.players or () if p != user), None)
            text = words.say(
                "bot.draw.offered",
                locale,
                other=replies.mention(other),
                player=replies.mention(user),
                game=replies.command_name(view, locale),
            )
        await self._answer_on_board(answer, view, out, text)
        if result.event is DrawEvent.ACCEPTED:
            await self.announce_end(view, new_message=True)

    @guarded
    async def decline_draw(self, answer: Answer, game_id: int, ply: int) -> None:
        interaction = answer.interaction
        result = await self.service.decline_draw(
            interaction.user.id, game_id=game_id, guild_id=interaction.guild_id
        )
        locale = self.locale_of(result.view)
        text = words.say("bot.draw.declined", locale, player=replies.mention(interaction.user.id))
        await self._answer_on_board(answer, result.view, self.board(result.view), text)

    async def _answer_on_board(
        self, answer: Answer, view: GameView, out: replies.Outgoing, text: str
    ) -> None:
        """Reply with `text` in public, and show the changed board (in place when clicked there)."""
        message = answer.interaction.message
        clicked = message.id if message is not None else None
        if clicked is not None and clicked == view.message_id:
            async with self.showing(view) as now:
                shown = out if now is view else self.board(now)
                await asyncio.wait_for(answer.update(shown), ANSWER_WITHIN)
                await self.shown(now, clicked)
            await answer.follow(text)
            return
        await answer.send(text)
        await self.update_board(view, out)

    # ---------------------------------------------------------------- looking

    @guarded
    async def show_board(self, answer: Answer, spec: GameSpec) -> None:
        interaction = answer.interaction
        view = await self.service.view_here(
            channel_id=self._channel_id(interaction), game=spec.name
        )
        if view.to_move_id != interaction.user.id:
            # Someone just looking: the board for their eyes only, no ping, and the live
            # board (with its menu) stays where it is. It is in their own language.
            out = self.board(view, locale=answer.locale)
            look = replies.Outgoing(
                out.content,
                out.embed,
                out.image,
                out.image_name,
                mentions=discord.AllowedMentions.none(),
            )
            await answer.say(look)
            return
        answer.public = True
        message_id = await answer.send(self.board(view))
        if message_id is not None:
            await self.adopt_board(view, message_id)

    @guarded
    async def history(self, answer: Answer, spec: GameSpec, game: object) -> None:
        view = await self._game(answer.interaction, options.game_id("game", game), spec)
        await answer.say(await self.record_message(view, answer.locale))

    @guarded
    async def replay(self, answer: Answer, spec: GameSpec, game: object, gif: object) -> None:
        """`/<game> replay`: the private step-through viewer; with `gif:True` the animated
        replay, for everyone."""
        view = await self._game(answer.interaction, options.game_id("game", game), spec)
        if not options.flag("gif", gif):
            await self.open_viewer(answer, view)
            return
        await answer.defer(public=True)  # a long game's GIF takes a while
        locale = answer.server_locale  # the replay is posted for everyone
        gif = await images.replay_of(view, self.players(view), self.picture_pool, locale=locale)
        name = replies.title(view, locale)
        text = words.say("bot.replay", locale, title=name, id=view.id, ply=view.ply)
        await answer.send(
            replies.Outgoing(text, image=gif, image_name=f"{view.game}-{view.id}.gif")
        )

    @guarded
    async def review(self, answer: Answer, spec: GameSpec, game: object) -> None:
        """`/<game> review [game]`: what each move of a finished game changed, privately."""
        view = await self._game(answer.interaction, options.game_id("game", game), spec)
        await self.show_review(answer, view)

    @guarded
    async def rules(self, answer: Answer, spec: GameSpec) -> None:
        png = images.board_png(spec.new(), locale=answer.locale)
        await answer.say(replies.Outgoing("", replies.rules(spec, answer.locale), png))

    @guarded
    async def list_games(self, answer: Answer) -> None:
        guild_id = self._guild_id(answer.interaction)
        views = await self.service.active_games(guild_id)
        await answer.say(replies.games_list(views, guild_id, answer.locale))

    # ---------------------------------------------------------------- importing

    @guarded
    async def import_game(
        self,
        answer: Answer,
        spec: GameSpec,
        values: Mapping[str, object],
    ) -> None:
        """`/<game> import` with its options as they came (each is checked first)."""
        interaction = answer.interaction
        answer.public = True
        terms = options.terms(spec, values, {})
        opponent, time, level = terms.opponent, terms.time, terms.level
        record = options.text("record", values.get("record"), low=1, high=MAX_RECORD_OPTION)
        file = options.attachment("file", values.get("file"))
        self.remember(opponent)
        text = await record_text(record, file)
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
        choice = FIRST[terms.first]

        def start_import(channel_id: int) -> Awaitable[GameView]:
            return self.service.import_record(
                guild_id=self._guild_id(interaction),
                channel_id=channel_id,
                user_id=interaction.user.id,
                text=text,
                game=spec.name,
                opponent_id=opponent_id,
                time=time,
                first=choice,
                level=level,
            )

        opponent_id = opponent.id if opponent is not None else None
        if self.service.starts_at_once(opponent_id, importing=True):  # a study, or against Kamen
            if opponent is None:
                locale = answer.server_locale
                against = words.say("bot.against.study", locale)
                name = words.say("bot.against.study-name", locale)
            else:
                against, name = replies.mention(opponent.id), opponent.display_name

            if opponent is not None:
                self.spawn(self.opponent.start(), "starting Kamen's worker")

            async def start(channel_id: int) -> GameView:
                return await start_import(channel_id)

            await self._start_now(answer, spec, against, name, start)
            return
        view = await start_import(self._channel_id(interaction))
        await self._post_challenge(answer, view, choice)

    # ---------------------------------------------------------------- odds and ends

    async def unknown_component(self, interaction: discord.Interaction) -> None:
        answer = self.answer_to(interaction)
        await answer.say(words.say("bot.unknown-button", answer.locale))

    async def _game(
        self, interaction: discord.Interaction, game_id: int | None, spec: GameSpec | None
    ) -> GameView:
        """The game a command is about: by its id, else the one in this channel."""
        game = spec.name if spec is not None else None
        if game_id is not None:
            return await self.service.view(
                game_id=game_id, game=game, guild_id=interaction.guild_id
            )
        return await self.service.view_here(channel_id=self._channel_id(interaction), game=game)

    async def on_its_message(self, interaction: discord.Interaction, game_id: int) -> bool:
        """Whether a click names the game of the message it was made on; refused if not.

        A modified client can send any custom_id from any message: a menu of game B
        clicked on the board of game A must not move B, nor replace A's board.
        """
        me = self.client.user
        bot_id = me.id if me else None
        if replies.headed_for(interaction.message, game_id, bot_id):
            return True  # the usual click, decided without a read (the handler scopes its own)
        try:
            view = await self.service.view(game_id=game_id, guild_id=interaction.guild_id)
            if replies.shows_game(interaction.message, view, bot_id):
                return True
            raise BadInput("bot.refuse.foreign-component")
        except MatchError as error:
            await self.answer_to(interaction).refuse(error)
        except Exception:
            self.metrics.error("component")
            log.exception("checking the message of component interaction %s", interaction.id)
            await self.answer_to(interaction).apologise()
        return False

    @staticmethod
    def _guild_id(interaction: discord.Interaction) -> int:
        if interaction.guild_id is None:
            raise BadInput("bot.refuse.direct-message")
        return interaction.guild_id

    @staticmethod
    def _channel_id(interaction: discord.Interaction) -> int:
        if interaction.channel_id is None:
            raise BadInput("bot.refuse.no-channel")
        return interaction.channel_id


def hint(text: str, typed: str) -> discord.app_commands.Choice[str]:
    """An autocomplete entry that only explains: picking it sends what was typed."""
    return discord.app_commands.Choice(
        name=replies.clip(text, 100), value=(typed.strip() or "?")[:100]
    )


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
