"""`/<game> review [game]` and the Review button of a finished game: what each move changed.

The review (`matches.reviews`) is made once per game in the AI workers and
kept; the first ask waits for it (up to a minute for a long game), every
later one reads it back. It answers privately: each side's inaccuracies,
mistakes and blunders, the marked moves with the better move and what the
marked one cost, a chart of the evaluation over the game, and the worst
mistake's position with the move played and the better one drawn on it.
"""

from __future__ import annotations

import asyncio
import dataclasses

import discord

import words
from bot import replies
from bot.answers import Answer
from bot.replies import NO_MENTIONS, Outgoing
from bot.table import Table, guarded
from games.ai.review import MARKS, PlyReview, Review, Score
from games.base import Side
from games.record import move_number
from matches import GameView
from render.review import BoardLabels, ChartLabels, better_move_board, review_chart
from words.games import side_names, title

CHART_FILE = "review.png"
BOARD_FILE = "better.png"
SHOWN = 12  # marked moves listed at most (the worst, in game order)
_SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


class ReviewActions(Table):
    """The handlers of `/<game> review` and the Review button."""

    @guarded
    async def review_from_board(self, answer: Answer, game_id: int) -> None:
        view = await self.service.view(game_id=game_id, guild_id=answer.interaction.guild_id)
        await self.show_review(answer, view)

    async def show_review(self, answer: Answer, view: GameView) -> None:
        """The review of `view`'s game, privately; made first if it is not kept yet."""
        reviews = self.service.reviews
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
            self.picture_pool, review_message, view, review, names, answer.locale
        )
        await answer.say(out)

    async def _side_names(self, view: GameView) -> tuple[str, str]:
        """The players' display names, first mover first (the sides' names for a study)."""
        first, second = view.players or (view.challenger_id, view.opponent_id or 0)
        if first == second:
            return side_names(view.game, None)
        return await self.display_name(first), await self.display_name(second)


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
    lines.append(words.say("review.legend", locale))
    marked = review.marked()
    worst = sorted(marked, key=lambda e: (-MARKS.index(e.mark or MARKS[0]), -e.loss))[:SHOWN]
    shown = sorted(worst, key=lambda e: e.ply)
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
    embed.set_footer(text=words.say(f"review.source.{_source(review)}", locale))
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


def _source(review: Review) -> str:
    """Where the review's values came from, on the whole: `table`, `tables`, `search`,
    or `mixed` (the endgame tables for the end of an Oware game, the search before)."""
    found = {entry.source for entry in review.plies}
    return found.pop() if len(found) == 1 else "mixed"
