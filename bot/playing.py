"""Playing a game: `/<game> move`, `board`, `resign`, `draw`, `takeback` and `rules`, the
board's move menus and buttons, `/games` and `/kamen help`.

Moves come typed (with the legal moves offered as they are typed) or picked
from the board's menu: every legal move when there are few, else the piece
first and then its moves. A click acts only on the game of the message it was
made on (`components.checked`). The reply comes first; the bookkeeping (the
board's message id, the old board's components, Kamen's move, the turn's
ping) follows, off the player's critical path (bot/table.py).
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import re
from typing import Annotated, Any

import discord
from discord import ui
from discord.app_commands import Choice

import words
from bot import components, declare, images, options, replies
from bot.answers import Answer
from bot.components import PREFIX, checked
from bot.replies import NO_MENTIONS, Outgoing
from bot.table import Table, channel_id_of, guarded, guild_id_of
from games.ai.levels import ANCHOR_DEPTH, ANCHOR_RATING, level_rating
from games.base import GameSpec
from games.registry import GAMES
from matches import (
    CLAIM_AFTER,
    LEVELS,
    BadInput,
    DrawEvent,
    GameOver,
    GameView,
    MatchError,
    NotAPlayer,
    NotYourTurn,
    Status,
    TakebackEvent,
    TakebackResult,
    origin,
)
from words.games import summary
from words.games import title as words_title

log = logging.getLogger(__name__)

ANSWER_WITHIN = 3.0  # seconds: an interaction's answer later than this is void anyway
_ID = r"(?P<game>[0-9]{1,20})"


class Playing:
    """The games being played, at `table`: moves, the board, resigning, draws, takebacks."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.service = table.service
        self.client = table.client

    def game_commands(self, spec: GameSpec) -> dict[str, declare.Command]:
        """`/<game> move`, `board`, `resign`, `draw`, `takeback` and `rules`."""
        bound = {"spec": spec}
        made = {
            key: declare.command(key, handler, bound=bound, game=spec.name)
            for key, handler in (
                ("board", self.show_board), ("resign", self.ask_resign), ("draw", self.draw),
                ("takeback", self.ask_takeback), ("rules", self.rules),
            )
        }  # fmt: skip
        sample = spec.new().legal_moves()[0]
        about = {"move": declare.t("command.about.move", sample=sample)}
        move = declare.command(
            "move", self.move_by_command, about=about, bound=bound, game=spec.name
        )

        async def legal(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
            with self.table.metrics.timing("autocomplete"):
                return await self.autocomplete(interaction, spec, current)

        move.autocomplete("move")(legal)
        return {"move": move, **made}

    def games_command(self) -> declare.Command:
        """`/games`."""
        return declare.command("games", self.list_games, guild_only=True)

    def help_command(self) -> declare.Command:
        """`/kamen help`."""
        about = {"game": "command.about.help-game"}
        choices = {"game": declare.game_choices()}
        return declare.command("help", self.help, about=about, choices=choices)

    @guarded
    async def move_by_command(
        self, answer: Answer, spec: GameSpec, move: Annotated[object, str]
    ) -> None:
        """Play your move in this channel's game of {title} (type: the legal moves appear)."""
        interaction = answer.interaction
        answer.public = True
        result = await self.service.move(
            interaction.user.id, str(move), channel_id=channel_id_of(interaction), game=spec.name
        )
        answer.game_id = result.view.id
        out = await self.table.board_after(result)
        notified = await self.table.notified_by_board(result)  # the new board is their ping
        if notified is not None:
            out = dataclasses.replace(out, mentions=replies.mentions_of(notified))
        message_id = await answer.send(out)
        self.table.reached(answer, result.view, message_id)  # its token pings, edits, deletes
        if message_id is not None:
            await self.table.adopt_board(result.view, message_id)
        pinged = notified is not None and not answer.filled
        await self.table.after_move(result, new_message=True, pinged=pinged)

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
        out = await self.table.board_after(result)
        clicked = interaction.message.id if interaction.message is not None else None
        played = replies.Outgoing(words.say("bot.you-played", answer.locale, move=result.move))
        if not second_step and clicked is not None and clicked == result.view.message_id:
            async with self.table.showing(result.view) as now:
                # Not held for long: an answer Discord keeps failing is given up after its
                # 3 s (then the board keeper repairs the board).
                shown = out if now is result.view else await self.table.board_now(now)
                await asyncio.wait_for(answer.update(shown), ANSWER_WITHIN)
                self.table.reached(answer, result.view)  # its token pings and edits the board
                await self.table.shown(now, clicked)
        else:  # a destination menu, or a board shown in a reply (after a stale click)
            await answer.update(played)
            self.table.reached(answer, result.view)  # its token pings
            await self.table.update_board(result.view, out)
        await self.table.after_move(result, new_message=False)

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
        png = await images.drawn(functools.partial(
            images.board_png, view.state, players=self.table.players(view),
            locale=answer.locale, selected=picked,
        ))  # fmt: skip
        alt = images.board_alt(view.state, players=self.table.players(view), locale=answer.locale)
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
                channel_id=channel_id_of(interaction),
                game=spec.name,
                typed=typed,
            )
        except NotYourTurn:  # shorter than the refusal of a move: the list is narrow
            locale = self.table.languages.player(interaction)
            return [hint(words.say("bot.hint.not-your-turn", locale), typed)]
        except MatchError as error:
            return [hint(words.explain(error, self.table.languages.player(interaction)), typed)]
        except Exception:  # an answer is due within 3 s whatever happens: an empty list
            log.exception("autocomplete of %s failed", spec.name)
            return []
        return [
            discord.app_commands.Choice(name=move, value=move)
            for move in moves[: components.MAX_OPTIONS]
        ]

    @guarded
    async def ask_resign(
        self,
        answer: Answer,
        game_id: int | None = None,
        spec: GameSpec | None = None,
    ) -> None:
        interaction = answer.interaction
        view = await self.table.game_of(interaction, game_id, spec)
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
        await self.table.update_board(view, await self.table.board(view))
        await self.table.announce_end(view, new_message=False)

    @guarded
    async def draw(
        self,
        answer: Answer,
        *,
        game_id: int | None = None,
        spec: GameSpec | None = None,
    ) -> None:
        interaction = answer.interaction
        answer.public = True
        user = interaction.user.id
        channel_id = channel_id_of(interaction) if game_id is None else None
        result = await self.service.offer_draw(
            user,
            game_id=game_id,
            channel_id=channel_id,
            game=spec.name if spec else None,
            guild_id=interaction.guild_id,
        )
        view = result.view
        out = await self.table.board(view)
        locale = self.table.locale_of(view)
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
            await self.table.announce_end(view, new_message=True)

    @guarded
    async def decline_draw(self, answer: Answer, game_id: int) -> None:
        interaction = answer.interaction
        result = await self.service.decline_draw(
            interaction.user.id, game_id=game_id, guild_id=interaction.guild_id
        )
        locale = self.table.locale_of(result.view)
        text = words.say("bot.draw.declined", locale, player=replies.mention(interaction.user.id))
        await self._answer_on_board(answer, result.view, await self.table.board(result.view), text)

    @guarded
    async def claim(self, answer: Answer, *, game_id: int) -> None:
        """**Claim the game**: an untimed game whose player to move has not moved for days
        ends as abandoned (the service says whether it may, and from when)."""
        interaction = answer.interaction
        user = interaction.user.id
        view = await self.service.claim(user, game_id=game_id, guild_id=interaction.guild_id)
        answer.public = True
        locale = self.table.locale_of(view)
        text = words.say(
            "bot.claimed", locale, player=replies.mention(user),
            other=replies.mention(_other(view, user)), id=view.id, days=CLAIM_AFTER.days,
        )  # fmt: skip
        await self._answer_on_board(answer, view, await self.table.board(view), text)
        await self.table.announce_end(view, new_message=True)

    async def _answer_on_board(
        self, answer: Answer, view: GameView, out: replies.Outgoing, text: str
    ) -> None:
        """Reply with `text` in public, and show the changed board (in place when clicked there)."""
        message = answer.interaction.message
        clicked = message.id if message is not None else None
        if clicked is not None and clicked == view.message_id:
            async with self.table.showing(view) as now:
                shown = out if now is view else await self.table.board_now(now)
                await asyncio.wait_for(answer.update(shown), ANSWER_WITHIN)
                self.table.reached(answer, view)
                await self.table.shown(now, clicked)
            await answer.follow(text)
            return
        await answer.send(text)
        await self.table.update_board(view, out)

    @guarded
    async def show_board(self, answer: Answer, spec: GameSpec) -> None:
        interaction = answer.interaction
        view = await self.service.view_here(channel_id=channel_id_of(interaction), game=spec.name)
        if view.to_move_id != interaction.user.id:
            # Someone just looking: the board for their eyes only, no ping, and the live
            # board (with its menu) stays where it is. It is in their own language.
            out = await self.table.board(view, locale=answer.locale)
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
        message_id = await answer.send(await self.table.board(view))
        self.table.reached(answer, view, message_id)
        if message_id is not None:
            await self.table.adopt_board(view, message_id)

    @guarded
    async def rules(self, answer: Answer, spec: GameSpec) -> None:
        start = spec.new()
        png = await images.drawn(functools.partial(images.board_png, start, locale=answer.locale))
        await answer.say(replies.Outgoing("", replies.rules(spec, answer.locale), png))

    @guarded
    async def list_games(self, answer: Answer) -> None:
        guild_id = guild_id_of(answer.interaction)
        page = await self.service.active_page(guild_id, limit=replies.GAMES_LISTED)
        await answer.say(replies.games_list(page, guild_id, answer.locale))

    @guarded
    async def ask_takeback(self, answer: Answer, spec: GameSpec) -> None:
        """`/<game> takeback`: ask to take back one's last move in this channel's game."""
        interaction = answer.interaction
        result = await self.service.ask_takeback(
            interaction.user.id, channel_id=channel_id_of(interaction), game=spec.name,
            guild_id=interaction.guild_id,
        )  # fmt: skip
        answer.public = True
        await answer.send(self.takeback_message(result, answer.server_locale))
        if result.event is TakebackEvent.TAKEN:
            await self.table.update_board(result.view, await self.table.board(result.view))

    @guarded
    async def answer_takeback(self, answer: Answer, game_id: int, ply: int, accept: bool) -> None:
        """Take it back / No, on a takeback request: the request message says what became
        of it (without its buttons), and the board goes back when it is granted."""
        interaction = answer.interaction
        result = await self.service.answer_takeback(
            interaction.user.id, accept, game_id=game_id, expected_ply=ply,
            guild_id=interaction.guild_id,
        )  # fmt: skip
        await answer.update(self.takeback_message(result, answer.server_locale))
        if result.event is TakebackEvent.TAKEN:
            await self.table.update_board(result.view, await self.table.board(result.view))

    def takeback_message(self, result: TakebackResult, locale: str) -> Outgoing:
        view = result.view
        asker = replies.mention(result.asker_id)
        if result.event is TakebackEvent.TAKEN:
            text = words.say("bot.takeback.taken", locale, player=asker,
                             moves=", ".join(result.taken), count=len(result.taken))  # fmt: skip
            return Outgoing(text, mentions=NO_MENTIONS)
        if result.event is TakebackEvent.DECLINED:
            text = words.say("bot.takeback.declined", locale,
                             player=replies.mention(_other(view, result.asker_id)))  # fmt: skip
            return Outgoing(text, mentions=NO_MENTIONS)
        opponent = _other(view, result.asker_id)
        text = words.say(
            "bot.takeback.asked", locale, opponent=replies.mention(opponent), player=asker,
            move=view.moves[-1], title=replies.title(view, locale), id=view.id,
        )  # fmt: skip
        buttons = ui.View(timeout=None)
        for yes in (True, False):
            buttons.add_item(TakebackAnswer(view.id, view.ply, yes, locale))
        buttons.stop()
        return Outgoing(text, components=buttons, mentions=replies.mentions_of(opponent))

    @guarded
    async def help(self, answer: Answer, game: Annotated[object, str | None] = None) -> None:
        """`/kamen help [game:]`, for the caller's eyes, in their language."""
        chosen = options.game_name("game", game) if game is not None else None
        me = self.client.user
        embed = help_embed(answer.locale, me.id if me else None, chosen.name if chosen else None)
        await answer.say(Outgoing("", embed, mentions=NO_MENTIONS))


def _other(view: GameView, user_id: int) -> int:
    first, second = view.players or (user_id, user_id)
    return second if user_id == first else first


class TakebackAnswer(
    ui.DynamicItem[ui.Button[ui.View]],
    template=PREFIX + r"tb-(?P<answer>yes|no):" + _ID + r":(?P<ply>[0-9]{1,6})",
):
    """Take it back (yes) or No, on a request to take a move back: for the opponent."""

    def __init__(self, game_id: int, ply: int, yes: bool, locale: str | None = None) -> None:
        code = "bot.button.takeback-yes" if yes else "bot.button.takeback-no"
        super().__init__(
            ui.Button(
                label=words.say(code, locale),
                style=discord.ButtonStyle.success if yes else discord.ButtonStyle.secondary,
                custom_id=f"{PREFIX}tb-{'yes' if yes else 'no'}:{game_id}:{ply}",
            )
        )
        self.game_id, self.ply, self.yes = game_id, ply, yes

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> TakebackAnswer:
        return cls(int(match["game"]), int(match["ply"]), match["answer"] == "yes")

    async def callback(self, interaction: discord.Interaction) -> None:
        handlers = await checked(interaction, self.game_id)
        if handlers is not None:
            await handlers.playing.answer_takeback(
                interaction, game_id=self.game_id, ply=self.ply, accept=self.yes
            )


def hint(text: str, typed: str) -> discord.app_commands.Choice[str]:
    """An autocomplete entry that only explains: picking it sends what was typed."""
    return discord.app_commands.Choice(
        name=replies.clip(text, 100), value=(typed.strip() or "?")[:100]
    )


def help_embed(locale: str, bot_id: int | None, game: str | None = None) -> discord.Embed:
    """`/kamen help`: the games, how to start one, how to move, what else there is; every
    command named as the reader's Discord shows it. `game` puts that game first."""

    def name(code: str) -> str:
        return words.say(f"command.name.{code}", locale).lower()

    names = list(GAMES)
    if game in GAMES:
        names.remove(game)
        names.insert(0, game)
    first = name(names[0])
    embed = discord.Embed(
        title=words.say("bot.help.title", locale),
        description=words.say(
            "bot.help.intro", locale, games=[words_title(n, locale) for n in names]
        ),
        colour=replies.COLOUR,
    )
    bot = f"<@{bot_id}>" if bot_id else "Kamen"
    embed.add_field(
        name=words.say("bot.help.start.name", locale),
        value=words.say("bot.help.start", locale, game=first, challenge=name("challenge"), bot=bot),
        inline=False,
    )
    embed.add_field(
        name=words.say("bot.help.move.name", locale),
        value=words.say("bot.help.move", locale, game=first, move=name("move")),
        inline=False,
    )
    for each in names:
        embed.add_field(
            name=words_title(each, locale),
            value=words.say(
                "bot.help.game", locale, summary=summary(each, locale), game=name(each),
                rules=name("rules"),
            ),
            inline=False,
        )  # fmt: skip
    embed.add_field(
        name=words.say("bot.help.during.name", locale),
        value=words.say(
            "bot.help.during", locale, game=first, board=name("board"), draw=name("draw"),
            resign=name("resign"), history=name("history"), replay=name("replay"),
        ),
        inline=False,
    )  # fmt: skip
    lines = [
        words.say(
            "bot.help.levels.game",
            locale,
            title=words_title(each, locale),
            levels=", ".join(
                words.say(
                    "bot.help.levels.level",
                    locale,
                    level=words.say(f"command.level.{level}", locale),
                    rating=level_rating(each, level),
                )
                for level in LEVELS
            ),
        )
        for each in names
    ]
    embed.add_field(
        name=words.say("bot.help.levels.name", locale),
        value=words.say(
            "bot.help.levels",
            locale,
            depth=ANCHOR_DEPTH,
            rating=ANCHOR_RATING,
            lines="\n".join(lines),
        ),
        inline=False,
    )
    embed.add_field(
        name=words.say("bot.help.learn.name", locale),
        value=words.say(
            "bot.help.learn", locale, game=first, review=name("review"), puzzle=name("puzzle")
        ),
        inline=False,
    )
    embed.add_field(
        name=words.say("bot.help.community.name", locale),
        value=words.say(
            "bot.help.community", locale, leaderboard=name("leaderboard"),
            profile=name("profile"), tournament=name("tournament"),
            list=name("tournament.list"),
        ),
        inline=False,
    )  # fmt: skip
    embed.set_footer(
        text=words.say(
            "bot.help.settings", locale, kamen=name("kamen"), me=name("me"),
            settings=name("settings"),
        )
    )  # fmt: skip
    return embed


DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (TakebackAnswer,)
