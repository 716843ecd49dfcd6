"""Looking back at a game: `/<game> history`, `replay` and `review`, and the Replay,
Record and Review buttons of a finished game's board.

The viewer is a private message: a board image at one position, the moves around it
with the current one marked, and ⏮ ◀ ▶ ⏭ buttons whose `custom_id` carries the game and
the position to show, so a viewer opened before a restart still steps. Stepping only
reads: it needs no check that the game is the message's (any game of the same server
may be looked at), and the service scopes the game to the server asking.

The review (`matches.reviews`) is made in the AI workers and kept: the quick
one first (seconds), then the deep one in its place; the first ask waits for
the quick one, every later one reads back what is kept. It answers privately:
each side's inaccuracies, mistakes and blunders, the marked moves with the
better move, what the marked one cost (the share of a win, and ◆ where the
verdict rests on the tables' exact values), a chart of the evaluation over the
game, the worst mistake's position with the move played and the better one
drawn on it, and in the footer how deep the search went, quick or deep.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from typing import Annotated, Any

import discord
from discord import ui
from discord.app_commands import Range

import words
from bot import declare, images, options, replies
from bot.answers import Answer
from bot.community import Community
from bot.components import PREFIX
from bot.replies import NO_MENTIONS, Outgoing
from bot.table import Table, guarded
from games.ai.review import MARKS, PlyReview, Review, Score
from games.base import GameSpec, MoveInfo, Side
from games.record import move_number
from matches import GameView, Status
from render.review import BoardLabels, ChartLabels, better_move_board, review_chart
from words.games import side_names, title

CHART_FILE = "review.png"
BOARD_FILE = "better.png"
SHOWN = 12  # marked moves listed at most (the worst, in game order)
VIEWER_FILE = "position.png"
_STEP_LABELS = {"b": "⏮", "p": "◀", "n": "▶", "e": "⏭"}
WINDOW = 8  # full turns shown before and after the current move in the viewer's list
_ID = r"(?P<game>[0-9]{1,20})"
_SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
EXACT = "◆"  # a verdict on exact values (review.legend.exact)


class Reviews:
    """Looking back at a game, at `table`: its record, the replay viewer, the review.
    `/<game> history user:` lists a player's games, which `community` shows."""

    def __init__(self, table: Table, community: Community) -> None:
        self.table = table
        self.service = table.service
        self.client = table.client
        self.community = community

    def game_commands(self, spec: GameSpec) -> dict[str, declare.Command]:
        """`/<game> history`, `/<game> replay` and `/<game> review`."""
        about = {
            "game": "command.about.game", "user": "command.about.history-user",
            "gif": "command.about.gif",
        }  # fmt: skip
        return {
            key: declare.command(key, handler, about=about, bound={"spec": spec}, game=spec.name)
            for key, handler in (
                ("history", self.history), ("replay", self.replay), ("review", self.review)
            )
        }  # fmt: skip

    @guarded
    async def history(
        self,
        answer: Answer,
        spec: GameSpec,
        game: Annotated[object, Range[int, 1] | None] = None,
        user: Annotated[object, discord.User | None] = None,
    ) -> None:
        """The moves of a game of {title} so far, and its record as a text file (only for you)."""
        if user is not None and game is None:
            await self.community.games_of(answer, spec, user)
            return
        view = await self.table.game_of(answer.interaction, options.game_id("game", game), spec)
        await answer.say(await self.record_message(view, answer.locale))

    @guarded
    async def replay(
        self,
        answer: Answer,
        spec: GameSpec,
        game: Annotated[object, Range[int, 1] | None] = None,
        gif: Annotated[object, bool | None] = None,
    ) -> None:
        """Step through a game of {title} move by move (only for you), or post it as a GIF."""
        view = await self.table.game_of(answer.interaction, options.game_id("game", game), spec)
        if not options.flag("gif", gif):
            await self.open_viewer(answer, view)
            return
        await answer.defer(public=True)  # a long game's GIF takes a while
        locale = answer.server_locale  # the replay is posted for everyone
        players = self.table.players(view)
        animated = await images.replay_of(view, players, self.table.picture_pool, locale=locale)
        name = replies.title(view, locale)
        text = words.say("bot.replay", locale, title=name, id=view.id, ply=view.ply)
        await answer.send(
            replies.Outgoing(text, image=animated, image_name=f"{view.game}-{view.id}.gif")
        )

    @guarded
    async def review(
        self, answer: Answer, spec: GameSpec, game: Annotated[object, Range[int, 1] | None] = None
    ) -> None:
        """What each move of a finished game of {title} changed: mistakes, better moves."""
        view = await self.table.game_of(answer.interaction, options.game_id("game", game), spec)
        await self.show_review(answer, view)

    @guarded
    async def review_from_board(self, answer: Answer, game_id: int) -> None:
        view = await self.service.view(game_id=game_id, guild_id=answer.interaction.guild_id)
        await self.show_review(answer, view)

    async def show_review(self, answer: Answer, view: GameView) -> None:
        """The review of `view`'s game, privately; made first if it is not kept yet."""
        reviews = self.service.reviews
        await reviews.may_see(view, answer.interaction.user.id)
        review = await reviews.kept(view)
        if review is None:
            await reviews.check(view)  # refused before anyone waits: not over, no moves
            if answer.interaction.type is discord.InteractionType.component:
                await answer.say(words.say("review.making", answer.locale, id=view.id))
            else:
                await answer.defer(public=False)
            review = await reviews.make(view)
        names = await self._side_names(view)
        out = await asyncio.get_running_loop().run_in_executor(
            self.table.picture_pool, review_message, view, review, names, answer.locale
        )
        await answer.say(out)

    async def _side_names(self, view: GameView) -> tuple[str, str]:
        """The players' display names, first mover first (the sides' names for a study)."""
        first, second = view.players or (view.challenger_id, view.opponent_id or 0)
        if first == second:
            return side_names(view.game, None)
        return await self.table.display_name(first), await self.table.display_name(second)

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
            first_name=await self.table.display_name(first),
            second_name=await self.table.display_name(second),
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
            players=self.table.players(view),
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
        alt = images.board_alt(state, players=self.table.players(view),
                               outcome=view.outcome if at_end else None, locale=locale)  # fmt: skip
        buttons = viewer_buttons(view, ply, locale)
        return Outgoing("", embed, png, VIEWER_FILE, buttons, NO_MENTIONS, alt)


def _score_text(review: Review, score: Score, locale: str) -> str:
    """A score from its mover's view: a result, or points in the game's unit."""
    if score.result is not None:  # proven: by a table, or a result the search saw
        code = {1: "review.result.win", 0: "review.result.draw", -1: "review.result.loss"}
        return words.say(code[score.result], locale)
    return words.say(f"review.points.{review.unit}", locale, points=f"{score.points / 100:+.1f}")


def _line(view: GameView, review: Review, entry: PlyReview, names: tuple[str, str],
          locale: str) -> str:  # fmt: skip
    assert entry.mark is not None
    number = move_number(entry.ply)[0]
    return words.say(
        "review.line",
        locale,
        number=number,
        side=side_names(view.game, locale)[entry.mover],
        player=names[entry.mover],
        move=entry.played,
        symbol=_SYMBOLS[entry.mark],
        mark=words.say(f"review.mark.{entry.mark}", locale).lower(),
        better=entry.best,
        before=_score_text(review, entry.before, locale),
        after=_score_text(review, entry.after, locale),
        lost=round(100 * entry.drop),
        exact=f" {EXACT}" if entry.exact else "",
    )


def review_message(view: GameView, review: Review, names: tuple[str, str], locale: str) -> Outgoing:
    """The review as a private message: counts, marked moves, the chart and the worst
    mistake's board (both images drawn here: run it off the event loop)."""
    sides = side_names(view.game, locale)
    lines = []
    for side in (Side.FIRST, Side.SECOND):
        counts = review.counts(side)
        lines.append(
            words.say(
                "review.counts",
                locale,
                side=sides[side],
                player=names[side],
                blunders=counts["blunder"],
                mistakes=counts["mistake"],
                inaccuracies=counts["inaccuracy"],
            )
        )
    marked = review.marked()
    worst = sorted(marked, key=lambda e: (-MARKS.index(e.mark or MARKS[0]), -e.drop, -e.loss))[
        :SHOWN
    ]
    shown = sorted(worst, key=lambda e: e.ply)
    legend = words.say("review.legend", locale)
    if any(entry.exact for entry in shown):
        legend += " · " + words.say("review.legend.exact", locale)
    lines.append(legend)
    if shown:
        lines.append("")
        lines.extend(_line(view, review, entry, names, locale) for entry in shown)
        if len(marked) > len(shown):
            lines.append(words.say("review.more", locale, count=len(marked) - len(shown)))
    else:
        lines.append(words.say("review.clean", locale))
    embed = discord.Embed(
        title=words.say("review.title", locale, title=title(view.game, locale), id=view.id),
        description=replies.clip("\n".join(lines), 4000),
        colour=replies.COLOUR,
    )
    embed.set_image(url=f"attachment://{CHART_FILE}")
    embed.set_footer(text=footer(review, locale))
    chart = review_chart(
        review,
        ChartLabels(
            title=words.say(
                "review.chart.title",
                locale,
                game=title(view.game, locale),
                first=names[0],
                second=names[1],
            ),
            x_label=words.say("review.chart.x", locale),
            first_ahead=words.say("review.chart.ahead", locale, side=sides[0]),
            second_ahead=words.say("review.chart.ahead", locale, side=sides[1]),
            marks=tuple(words.say(f"review.mark.{mark}", locale) for mark in MARKS),  # type: ignore[arg-type]
        ),
    )
    out = Outgoing("", embed, chart, CHART_FILE, None, NO_MENTIONS)
    if worst:
        entry = worst[0]
        state = view.state.spec.replay(view.state.variant, view.moves[: entry.ply])
        board = better_move_board(
            state,
            entry.played,
            entry.best,
            BoardLabels(
                played=words.say("review.board.played", locale, move=entry.played),
                better=words.say("review.board.better", locale, move=entry.best),
            ),
            perspective=entry.mover,
            players=names,
            locale=locale,
        )
        second = discord.Embed(
            description=words.say("review.worst", locale, number=move_number(entry.ply)[0]),
            colour=replies.COLOUR,
        )
        second.set_image(url=f"attachment://{BOARD_FILE}")
        out = dataclasses.replace(out, more=((board, BOARD_FILE, second),))
    return out


def footer(review: Review, locale: str) -> str:
    """Where the values came from, how deep the search went, and whether the review is
    the quick one (a deep one to come) or the deep one."""
    depths = review.depths()
    depth = "" if depths is None else "-".join(str(d) for d in sorted(set(depths)))
    said = words.say(f"review.source.{_source(review)}", locale, depth=depth)
    stage = review.stage
    if stage is not None and depths is not None:
        said += " " + words.say(f"review.stage.{stage}", locale)
    return said


def _source(review: Review) -> str:
    """Where the review's values came from, on the whole: `table`, `tables`, `search`,
    or `mixed` (the endgame tables for the end of an Oware game, the search before)."""
    found = {entry.source for entry in review.plies}
    return found.pop() if len(found) == 1 else "mixed"


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
        reviews: Reviews = interaction.client.features.reviews  # type: ignore[attr-defined]
        await reviews.replay_step(interaction, game_id=self.game_id, ply=self.ply)


def viewer_buttons(view: GameView, ply: int, locale: str) -> ui.View:
    """⏮ ◀ ▶ ⏭, the impossible ones disabled."""
    last = len(view.moves)
    items = ui.View(timeout=None)
    for key, target in (("b", 0), ("p", ply - 1), ("n", ply + 1), ("e", last)):
        off = (key in "bp" and ply == 0) or (key in "ne" and ply >= last)
        items.add_item(ReplayStep(view.id, max(0, min(target, last)), key, disabled=off))
    items.stop()
    return items


DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (ReplayStep,)
