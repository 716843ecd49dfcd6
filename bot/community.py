"""The community's commands: `/leaderboard`, `/profile`, and `/<game> history user:`.

`Community` holds the commands and their handlers (`/<game> history user:`
is declared with the game's commands and handed here); the messages are
worded here from `matches.community`'s values, with the sentences in
`words/english/community.py`. Pages turn with buttons whose `custom_id`
says what they show (a leaderboard or a season's table, a player's games),
so they work after a restart; the message is public and anyone may turn its
pages, as with a board on a table.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from typing import Annotated, Any

import discord
from discord import ui
from discord.app_commands import Choice, Range

import words
from bot import declare, options, replies
from bot.answers import Answer
from bot.replies import Outgoing, points_text
from bot.table import Table, guarded, guild_id_of
from games.base import GameSpec
from matches import BadInput
from matches.community import GameProfile, Leaderboard, Profile, SeasonTable
from matches.records import StoredGame
from matches.seasons import MAX_SEASON_NAME
from render.charts import ChartImage, RatingPoint, RatingSeries, chart_png
from render.tables import Column, TableImage, table_png
from words.games import title

PREFIX = "kamen:"
THEMES = ("dark", "light")
DASH = "\u2013"  # between wins, draws and losses (8-1-3 with an en dash)
NONE = "\u2013"  # a rank or a number there is none of
TABLE_FILE = "leaderboard.png"
CHART_FILE = "ratings.png"
LINK = "https://discord.com/channels/{guild}/{channel}"
MAX_SEASON_OPTION = 100  # characters of `/leaderboard season:`


def record_text(wins: int, draws: int, losses: int) -> str:
    return DASH.join((str(wins), str(draws), str(losses)))


class Community:
    """The community's commands and page buttons, at `table`."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.service = table.service

    def commands(self) -> list[declare.Command]:
        """`/leaderboard` and `/profile`."""
        about = {
            "game": "command.about.board-game", "page": "command.about.page",
            "image": "command.about.image", "season": "command.about.season",
            "user": "command.about.profile-user", "theme": "command.about.theme",
        }  # fmt: skip
        themes = [Choice(name=declare.t(f"command.theme.{name}"), value=name) for name in THEMES]
        choices = {"game": declare.game_choices(), "theme": themes}
        return [
            declare.command(key, handler, about=about, choices=choices, guild_only=True)
            for key, handler in (("leaderboard", self.leaderboard), ("profile", self.profile))
        ]

    # ---------------------------------------------------------------- /leaderboard

    @guarded
    async def leaderboard(
        self,
        answer: Answer,
        game: Annotated[object, str],
        page: Annotated[object, Range[int, 1] | None] = None,
        image: Annotated[object, bool | None] = None,
        season: Annotated[object, Range[str, 1, MAX_SEASON_OPTION] | None] = None,
    ) -> None:
        """This server's players ranked by rating in a game, or a season's table."""
        spec = options.game_name("game", game)
        number = options.page("page", page)
        picture = bool(options.flag("image", image))
        season_name = options.text("season", season, low=1, high=MAX_SEASON_OPTION)
        answer.public = True
        guild_id = guild_id_of(answer.interaction)
        if season is not None:
            found = await self.service.community.season_named(guild_id, season_name)
            out = await self._season_page(found.id, guild_id, spec.name, number, picture, answer)
        else:
            out = await self._leaderboard_page(guild_id, spec.name, number, picture, answer)
        await answer.send(out)

    async def _leaderboard_page(
        self, guild_id: int, game: str, page: int, picture: bool, answer: Answer
    ) -> Outgoing:
        board = await self.service.community.leaderboard(guild_id, game, page)
        locale = answer.server_locale
        embed = discord.Embed(
            title=words.say("community.leaderboard.title", locale, title=title(game, locale)),
            colour=replies.COLOUR,
            description=_leaderboard_text(board, locale) or words.say("community.nobody", locale),
        )
        embed.set_footer(
            text=words.say("community.page", locale, page=board.page + 1, pages=board.pages)
        )
        png = None
        if picture:  # the text mentions players; the picture needs their names
            names = await self._names([line.standing.user_id for line in board.lines])
            png = table_png(_leaderboard_image(board, names, locale))
            embed.set_image(url=f"attachment://{TABLE_FILE}")
        buttons = pages_view(f"lb:{game}:0:{int(picture)}", board.page, board.pages, locale)
        return Outgoing("", embed, png, TABLE_FILE, buttons, replies.NO_MENTIONS)

    async def _season_page(
        self, season_id: int, guild_id: int, game: str, page: int, picture: bool, answer: Answer
    ) -> Outgoing:
        seasons = {s.id: s for s in await self.service.community.seasons(guild_id)}
        if season_id not in seasons:
            raise BadInput("community.no-seasons")
        table = await self.service.community.season_table(seasons[season_id], game, page)
        locale = answer.server_locale
        embed = discord.Embed(
            title=words.say(
                "community.season.title",
                locale,
                title=title(game, locale),
                season=replies.markdown_safe(table.season.name, MAX_SEASON_NAME * 2),
            ),
            colour=replies.COLOUR,
            description=_season_text(table, locale) or words.say("community.nobody", locale),
        )
        state = "running" if table.season.ended_at is None else "ended"
        embed.set_footer(
            text=words.say(
                f"community.season.{state}", locale, page=table.page + 1, pages=table.pages
            )
        )
        png = None
        if picture:
            names = await self._names([line.user_id for _, line in table.lines])
            png = table_png(season_image(table, names, locale))
            embed.set_image(url=f"attachment://{TABLE_FILE}")
        custom = f"lb:{game}:{season_id}:{int(picture)}"
        buttons = pages_view(custom, table.page, table.pages, locale)
        return Outgoing("", embed, png, TABLE_FILE, buttons, replies.NO_MENTIONS)

    @guarded
    async def turn_page(self, answer: Answer, what: str, key: str, page: int) -> None:
        """A page button: the same list at another page, in place of the message."""
        guild_id = guild_id_of(answer.interaction)
        if what == "lb":
            game, season, picture = key.split(":")
            if int(season):
                out = await self._season_page(
                    int(season), guild_id, game, page, picture == "1", answer
                )
            else:
                out = await self._leaderboard_page(guild_id, game, page, picture == "1", answer)
        else:
            game, user = key.split(":")
            out = await self._games_page(guild_id, game, int(user), page, answer.server_locale)
        await answer.update(out)

    # ---------------------------------------------------------------- /profile

    @guarded
    async def profile(
        self,
        answer: Answer,
        user: Annotated[object, discord.User | None] = None,
        theme: Annotated[object, str | None] = None,
    ) -> None:
        """A player's ratings, records and recent games on this server, with a chart."""
        who = options.user("user", user) or answer.interaction.user
        chosen = options.choice("theme", theme, THEMES) or "dark"
        self.table.remember(who)
        answer.public = True
        guild_id = guild_id_of(answer.interaction)
        found = await self.service.community.profile(guild_id, who.id)
        locale = answer.server_locale
        name = await self.table.display_name(who.id)
        opponents = [p.best_win_opponent for p in found.games if p.best_win_opponent is not None]
        await self._names(opponents)
        embed = discord.Embed(
            title=words.say("community.profile.title", locale, name=name),
            colour=replies.COLOUR,
            description="" if found.games else words.say("community.profile.none", locale),
        )
        for game in found.games:
            embed.add_field(
                name=_profile_heading(game, locale),
                value=_profile_text(game, guild_id, locale),
                inline=False,
            )
        puzzles = await self.service.puzzles.score(guild_id, who.id)
        if puzzles.answered:
            embed.add_field(
                name=words.say("community.profile.puzzles.heading", locale),
                value=words.say(
                    "community.profile.puzzles",
                    locale,
                    solved=puzzles.solved,
                    answered=puzzles.answered,
                ),
                inline=False,
            )
        png = chart_png(profile_chart(found, name, locale), theme=chosen)
        embed.set_image(url=f"attachment://{CHART_FILE}")
        await answer.send(Outgoing("", embed, png, CHART_FILE, None, replies.NO_MENTIONS))

    # ---------------------------------------------------------------- /<game> history user:

    async def games_of(self, answer: Answer, spec: GameSpec, user: object) -> None:
        """`/<game> history user:` (its handler is `Reviews.history`): a player's games."""
        who = options.user("user", user)
        if who is None:
            raise BadInput("community.history.no-user")
        self.table.remember(who)
        guild_id = guild_id_of(answer.interaction)
        await answer.say(await self._games_page(guild_id, spec.name, who.id, 0, answer.locale))

    async def _games_page(
        self, guild_id: int, game: str, user_id: int, page: int, locale: str
    ) -> Outgoing:
        games, more = await self.service.community.games_of(guild_id, game, user_id, page)
        name = await self.table.display_name(user_id)
        lines = [_game_line(row, user_id, locale) for row in games]
        text = "\n".join(lines) or words.say("community.history.none", locale)
        embed = discord.Embed(
            title=words.say(
                "community.history.title", locale, title=title(game, locale), name=name
            ),
            description=text,
            colour=replies.COLOUR,
        )
        embed.set_footer(text=words.say("community.page.open", locale, page=page + 1))
        pages = page + 2 if more else page + 1
        buttons = pages_view(f"gh:{game}:{user_id}", page, pages, locale)
        return Outgoing("", embed, None, TABLE_FILE, buttons, replies.NO_MENTIONS)

    async def _names(self, user_ids: Sequence[int]) -> dict[int, str]:
        """Display names for a page of players, asked of Discord at once where not known."""
        unique = list(dict.fromkeys(user for user in user_ids if user > 0))
        found = await asyncio.gather(*(self.table.display_name(user) for user in unique))
        return dict(zip(unique, found, strict=True))


# ------------------------------------------------------------------ wording


def _leaderboard_text(board: Leaderboard, locale: str) -> str:
    lines: list[str] = []
    for line in board.lines:
        standing = line.standing
        lines.append(
            words.say(
                "community.leaderboard.line",
                locale,
                rank=f"{line.rank}.",
                player=replies.mention(standing.user_id, locale),
                rating=replies.rating_text(standing.rating, standing.rd),
                rd=round(standing.rd),
                games=standing.games,
                record=record_text(standing.wins, standing.draws, standing.losses),
            )
        )
    return "\n".join(lines)


def _leaderboard_image(board: Leaderboard, names: dict[int, str], locale: str) -> TableImage:
    rows = tuple(
        (
            str(line.rank),
            names.get(line.standing.user_id, str(line.standing.user_id)),
            replies.rating_text(line.standing.rating, line.standing.rd),
            str(round(line.standing.rd)),
            str(line.standing.games),
            record_text(line.standing.wins, line.standing.draws, line.standing.losses),
        )
        for line in board.lines
    )
    muted = frozenset(i for i, line in enumerate(board.lines) if line.standing.provisional)
    return TableImage(
        title=words.say("community.leaderboard.title", locale, title=title(board.game, locale)),
        columns=_columns("rank", "player", "rating", "rd", "games", "record", locale=locale),
        rows=rows,
        subtitle=words.say("community.page", locale, page=board.page + 1, pages=board.pages),
        muted=muted,
    )


def _season_text(table: SeasonTable, locale: str) -> str:
    return "\n".join(
        words.say(
            "community.season.line",
            locale,
            rank=rank,
            player=replies.mention(line.user_id, locale),
            points=points_text(line.points),
            games=line.games,
            record=record_text(line.wins, line.draws, line.losses),
            performance=round(line.performance) if line.performance is not None else NONE,
        )
        for rank, line in table.lines
    )


def season_image(table: SeasonTable, names: dict[int, str], locale: str) -> TableImage:
    """A season's table for a game as an image: rank, player, points, games, W-D-L, performance."""
    rows = tuple(
        (
            str(rank),
            names.get(line.user_id, str(line.user_id)),
            points_text(line.points),
            str(line.games),
            record_text(line.wins, line.draws, line.losses),
            str(round(line.performance)) if line.performance is not None else NONE,
        )
        for rank, line in table.lines
    )
    return TableImage(
        title=words.say(
            "community.season.title",
            locale,
            title=title(table.game, locale),
            season=table.season.name,
        ),
        columns=_columns(
            "rank", "player", "points", "games", "record", "performance", locale=locale
        ),
        rows=rows,
        subtitle=words.say(
            f"community.season.{'running' if table.season.ended_at is None else 'ended'}",
            locale,
            page=table.page + 1,
            pages=table.pages,
        ),
        highlight=frozenset({0}) if table.page == 0 and rows else frozenset(),
    )


def _columns(*names: str, locale: str) -> tuple[Column, ...]:
    return tuple(
        Column(
            words.say(f"community.column.{name}", locale),
            "left" if name == "player" else "right",
        )
        for name in names
    )


def _profile_heading(game: GameProfile, locale: str) -> str:
    standing = game.standing
    code = "community.profile.heading.ranked" if game.rank else "community.profile.heading"
    return words.say(
        code,
        locale,
        title=title(game.game, locale),
        rating=replies.rating_text(standing.rating, standing.rd),
        rd=round(standing.rd),
        rank=game.rank or 0,
    )


def _profile_text(game: GameProfile, guild_id: int, locale: str) -> str:
    standing = game.standing
    lines = [
        words.say(
            "community.profile.record",
            locale,
            games=standing.games,
            record=record_text(standing.wins, standing.draws, standing.losses),
            streak=standing.streak,
            best=standing.best_streak,
        )
    ]
    if standing.best_win is not None and game.best_win_opponent is not None:
        lines.append(
            words.say(
                "community.profile.best-win",
                locale,
                rating=round(standing.best_win),
                player=replies.mention(game.best_win_opponent, locale),
            )
        )
    if game.recent:
        recent = " · ".join(_game_link(row, standing.user_id, locale) for row in game.recent)
        lines.append(words.say("community.profile.recent", locale, games=recent))
    return "\n".join(lines)


def profile_chart(profile: Profile, name: str, locale: str) -> ChartImage:
    series = tuple(
        RatingSeries(
            title(game.game, locale),
            tuple(
                [RatingPoint(game.history[0].before.rating, game.history[0].before.rd)]
                + [RatingPoint(c.after.rating, c.after.rd) for c in game.history]
            ),
        )
        for game in profile.games
        if game.history
    )
    return ChartImage(
        title=words.say("community.chart.title", locale, name=name),
        series=series,
        x_label=words.say("community.chart.games", locale),
        empty_text=words.say("community.profile.none", locale),
    )


def _score_of(row: StoredGame, user_id: int) -> str:
    """`1-0` from the player's side: `won`, `drew` or `lost`."""
    first = row.first_id == user_id
    if row.result == "1/2-1/2":
        return "drew"
    if row.result in ("1-0", "0-1"):
        return "won" if (row.result == "1-0") == first else "lost"
    return "none"


def _game_link(row: StoredGame, user_id: int, locale: str) -> str:
    link = LINK.format(guild=row.guild_id, channel=row.channel_id)
    if row.message_id is not None:
        link += f"/{row.message_id}"
    said = words.say(f"community.score.{_score_of(row, user_id)}", locale)
    return f"[{said} #{row.id}]({link})"


def _game_line(row: StoredGame, user_id: int, locale: str) -> str:
    opponent = row.second_id if row.first_id == user_id else row.first_id
    return words.say(
        "community.history.line",
        locale,
        game=_game_link(row, user_id, locale),
        opponent=replies.mention(opponent, locale),
        date=int(row.updated_at.timestamp()),
        moves=row.ply,
    )


# ------------------------------------------------------------------ page buttons


def pages_view(key: str, page: int, pages: int, locale: str) -> ui.View | None:
    """◀ and ▶ buttons for a list of several pages (None for one page)."""
    if pages <= 1:
        return None
    view = ui.View(timeout=None)
    view.add_item(PageButton(key, page - 1, words.say("community.previous", locale), page <= 0))
    view.add_item(PageButton(key, page + 1, words.say("community.next", locale), page + 1 >= pages))
    view.stop()
    return view


class PageButton(
    ui.DynamicItem[ui.Button[Any]],
    template=r"kamen:(?P<what>lb|gh):(?P<key>[a-z0-9:]{1,60}):p(?P<page>-?[0-9]{1,6})",
):
    """A button that shows page `page` of what `key` names (`lb:<game>:<season>:<image>`,
    `gh:<game>:<user>`)."""

    def __init__(self, key: str, page: int, label: str = "·", disabled: bool = False) -> None:
        self.key, self.page = key, page
        super().__init__(
            ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"{PREFIX}{key}:p{page}",
                disabled=disabled,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str]
    ) -> PageButton:
        return cls(f"{match['what']}:{match['key']}", int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        what, _, key = self.key.partition(":")
        community: Community = interaction.client.features.community  # type: ignore[attr-defined]
        await community.turn_page(interaction, what, key, self.page)


DYNAMIC_ITEMS = (PageButton,)
