"""Looking back at a game: the step-through replay viewer, the record, and the buttons a
finished game's board carries (Rematch, Replay, Record).

The viewer is a private message: a board image at one position, the moves around it
with the current one marked, and ⏮ ◀ ▶ ⏭ buttons whose `custom_id` carries the game and
the position to show, so a viewer opened before a restart still steps. Stepping only
reads: it needs no check that the game is the message's (any game of the same server
may be looked at), and the service scopes the game to the server asking.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import ui

import words
from bot import images, options, replies
from bot.answers import Answer
from bot.components import PREFIX, checked
from bot.replies import NO_MENTIONS, Outgoing
from bot.table import Table, guarded
from games.ai.levels import level_rating
from games.base import GameSpec, MoveInfo
from games.record import move_number
from games.registry import GAMES
from matches import LEVELS, BadInput, GameView, Status, TakebackEvent, TakebackResult
from words.games import summary
from words.games import title as words_title

VIEWER_FILE = "position.png"
_STEP_LABELS = {"b": "⏮", "p": "◀", "n": "▶", "e": "⏭"}
WINDOW = 8  # full turns shown before and after the current move in the viewer's list
_ID = r"(?P<game>[0-9]{1,20})"


class PlayingActions(Table):
    """The handlers of the viewer, the game-over buttons and the record."""

    @guarded
    async def ask_takeback(self, answer: Answer, spec: GameSpec) -> None:
        """`/<game> takeback`: ask to take back one's last move in this channel's game."""
        interaction = answer.interaction
        if interaction.channel_id is None:
            raise BadInput("bot.refuse.no-channel")
        result = await self.service.ask_takeback(
            interaction.user.id, channel_id=interaction.channel_id, game=spec.name,
            guild_id=interaction.guild_id,
        )  # fmt: skip
        answer.public = True
        await answer.send(self.takeback_message(result, answer.server_locale))
        if result.event is TakebackEvent.TAKEN:
            await self.update_board(result.view, self.board(result.view))

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
            await self.update_board(result.view, self.board(result.view))

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
    async def help(self, answer: Answer, game: object) -> None:
        """`/kamen help [game:]`, for the caller's eyes, in their language."""
        chosen = options.game_name("game", game) if game is not None else None
        me = self.client.user
        embed = help_embed(answer.locale, me.id if me else None, chosen.name if chosen else None)
        await answer.say(Outgoing("", embed, mentions=NO_MENTIONS))

    async def open_viewer(self, answer: Answer, view: GameView, ply: int = 0) -> None:
        """A private step-through viewer of `view`'s game, at position `ply`."""
        await answer.say(self.viewer(view, ply, answer.locale))

    @guarded
    async def replay_step(self, answer: Answer, game_id: int, ply: int) -> None:
        """A ⏮ ◀ ▶ ⏭ click: the viewer, edited to show position `ply`."""
        view = await self.service.view(game_id=game_id, guild_id=answer.interaction.guild_id)
        await answer.update(self.viewer(view, ply, answer.locale))

    @guarded
    async def replay_from_board(self, answer: Answer, game_id: int) -> None:
        """The Replay button of a finished game: the viewer, privately, at the start."""
        view = await self.service.view(game_id=game_id, guild_id=answer.interaction.guild_id)
        await self.open_viewer(answer, view)

    @guarded
    async def record_from_board(self, answer: Answer, game_id: int) -> None:
        """The Record button of a finished game: its record as a file, privately."""
        view = await self.service.view(game_id=game_id, guild_id=answer.interaction.guild_id)
        await answer.say(await self.record_message(view, answer.locale))

    async def record_message(self, view: GameView, locale: str) -> Outgoing:
        """The moves so far and the record as a `.txt` file (what /history answers)."""
        first, second = view.players or (view.challenger_id, view.opponent_id)
        record = await self.service.export_record(
            game_id=view.id,
            guild_id=view.guild_id,
            site=await self.site_of(view),
            first_name=await self.display_name(first),
            second_name=await self.display_name(second),
        )
        return Outgoing(
            replies.history(view, locale),
            image=record.encode(),
            image_name=f"{view.game}-{view.id}.txt",
        )

    async def site_of(self, view: GameView) -> str:
        """Where a game is played, for its record: its own server and channel (not the
        requester's: the record may be asked for from anywhere in the server)."""
        guild = self.client.get_guild(view.guild_id)
        channel: object = self.client.get_channel(view.channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(view.channel_id)
            except discord.HTTPException:
                channel = None
        name = getattr(channel, "name", None)
        parts = [guild.name if guild else "", f"#{name}" if name else ""]
        return " ".join(part for part in parts if part)

    def viewer(self, view: GameView, ply: int, locale: str) -> Outgoing:
        """The viewer at position `ply` (0: the start; clamped to the game's moves)."""
        moves = view.moves
        ply = max(0, min(ply, len(moves)))
        spec, variant = view.state.spec, view.state.variant
        state = spec.replay(variant, moves[:ply])
        last: MoveInfo | None = None
        if ply:
            last = spec.replay(variant, moves[: ply - 1]).describe(moves[ply - 1])
        at_end = ply == len(moves) and view.status is Status.FINISHED
        png = images.board_png(
            state,
            last_move=last,
            players=self.players(view),
            outcome=view.outcome if at_end else None,
            locale=locale,
        )
        embed = discord.Embed(
            title=words.say(
                "bot.viewer.title", locale, title=replies.title(view, locale), id=view.id
            ),
            description=movetext(moves, ply) or words.say("bot.history.empty", locale),
            colour=replies.COLOUR,
        )
        embed.set_image(url=f"attachment://{VIEWER_FILE}")
        if ply:
            number, mover = move_number(ply - 1)
            footer = words.say(
                "bot.viewer.at", locale, number=number, side=replies.side(view, mover, locale),
                move=moves[ply - 1], ply=ply, total=len(moves),
            )  # fmt: skip
        else:
            footer = words.say("bot.viewer.start", locale, total=len(moves))
        embed.set_footer(text=footer)
        alt = images.board_alt(state, players=self.players(view),
                               outcome=view.outcome if at_end else None, locale=locale)  # fmt: skip
        buttons = viewer_buttons(view, ply, locale)
        return Outgoing("", embed, png, VIEWER_FILE, buttons, NO_MENTIONS, alt)


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
            await handlers.answer_takeback(  # type: ignore[attr-defined]
                interaction, game_id=self.game_id, ply=self.ply, accept=self.yes
            )


def movetext(moves: tuple[str, ...], ply: int) -> str:
    """The moves numbered as the record numbers them, the one just played (`ply`) in bold,
    only the full turns near it when the game is long."""
    turns = []
    for start in range(0, len(moves), 2):
        number = move_number(start)[0]
        pair = [
            f"**{move}**" if index + 1 == ply else move
            for index, move in enumerate(moves[start : start + 2], start=start)
        ]
        turns.append(f"{number}. {' '.join(pair)}")
    current = max(0, (ply - 1) // 2)
    low, high = max(0, current - WINDOW), min(len(turns), current + WINDOW + 1)
    shown = " ".join(turns[low:high])
    return f"{'… ' if low else ''}{shown}{' …' if high < len(turns) else ''}"


class ReplayStep(
    ui.DynamicItem[ui.Button[ui.View]],
    template=PREFIX + r"rv:" + _ID + r":(?P<ply>[0-9]{1,6}):(?P<key>[bpne])",
):
    """⏮ (b), ◀ (p), ▶ (n), ⏭ (e): show position `ply` of the game in the viewer."""

    def __init__(self, game_id: int, ply: int, key: str, disabled: bool = False) -> None:
        super().__init__(
            ui.Button(
                label=_STEP_LABELS[key],
                style=discord.ButtonStyle.secondary,
                custom_id=f"{PREFIX}rv:{game_id}:{ply}:{key}",
                disabled=disabled,
            )
        )
        self.game_id, self.ply = game_id, ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> ReplayStep:
        return cls(int(match["game"]), int(match["ply"]), match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        handlers = interaction.client.actions  # type: ignore[attr-defined]
        await handlers.replay_step(interaction, game_id=self.game_id, ply=self.ply)


def viewer_buttons(view: GameView, ply: int, locale: str) -> ui.View:
    """⏮ ◀ ▶ ⏭, the impossible ones disabled."""
    last = len(view.moves)
    items = ui.View(timeout=None)
    for key, target in (("b", 0), ("p", ply - 1), ("n", ply + 1), ("e", last)):
        off = (key in "bp" and ply == 0) or (key in "ne" and ply >= last)
        items.add_item(ReplayStep(view.id, max(0, min(target, last)), key, disabled=off))
    items.stop()
    return items


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
            levels=" · ".join(
                words.say(
                    "command.level.rated",
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
        value=words.say("bot.help.levels", locale, lines="\n".join(lines)),
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


DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (ReplayStep, TakebackAnswer)
