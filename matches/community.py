"""What a server's community reads: its leaderboards, a player's profile, seasons' tables.

Reads only, each a few indexed queries whatever the server's size: a
leaderboard page is one page of the ratings index, a profile one player's
rows. Ratings are written with the games that make them (`matches.ratings`).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.registry import GAMES
from matches.errors import BadInput
from matches.inputs import game_spec, snowflake
from matches.ratings import RatingChange, Season, SeasonScore, Standing
from matches.records import StoredGame
from matches.storage import Store

PAGE = 10  # lines on a page of a leaderboard or a season's table
RECENT = 5  # games on a profile


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a leaderboard: the rank and the standing (its `?` if provisional).

    Every rated player is ranked, provisional or not: a small server's players
    stay provisional for many games and would otherwise have no rank at all.
    """

    rank: int
    standing: Standing


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """One page of a pool's leaderboard: every rated player, best rating first."""

    guild_id: int
    game: str
    page: int  # 0-based
    pages: int
    established: int  # how many players have an established rating
    provisional: int
    lines: tuple[Line, ...]


@dataclass(frozen=True, slots=True)
class SeasonTable:
    """One page of a season's table for a game."""

    season: Season
    game: str
    page: int
    pages: int
    size: int
    lines: tuple[tuple[int, SeasonScore], ...]  # (rank, line)


@dataclass(frozen=True, slots=True)
class GameProfile:
    """A player's record in one game of a server."""

    game: str
    standing: Standing
    rank: int | None
    best_win_opponent: int | None
    recent: tuple[StoredGame, ...]
    history: tuple[RatingChange, ...]  # every rated game, oldest first (the chart)


@dataclass(frozen=True, slots=True)
class Profile:
    guild_id: int
    user_id: int
    games: tuple[GameProfile, ...]  # the games the player has a rating in, in registry order


class Community:
    """Leaderboards, profiles and season tables of a store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def leaderboard(self, guild_id: int, game: str, page: int = 0) -> Leaderboard:
        guild, name = snowflake(guild_id, "server"), game_spec(game).name
        established, provisional = await self.store.leaderboard_sizes(guild, name)
        total = established + provisional
        pages = max(1, -(-total // PAGE))
        page = _page(page, pages)
        start = page * PAGE
        found = await self.store.leaderboard(guild, name, offset=start, limit=PAGE)
        lines = tuple(Line(start + index + 1, standing) for index, standing in enumerate(found))
        return Leaderboard(guild, name, page, pages, established, provisional, lines)

    async def profile(self, guild_id: int, user_id: int) -> Profile:
        guild, user = snowflake(guild_id, "server"), snowflake(user_id, "user")
        found: list[GameProfile] = []
        for name in GAMES:
            standing = await self.store.standing(guild, name, user)
            if standing is None:
                continue
            rank = await self.store.rank(guild, name, user)
            recent = await self.store.finished_games_of(guild, name, user, offset=0, limit=RECENT)
            history = await self.store.rating_changes(guild, name, user)
            beaten = None
            if standing.best_win_game is not None:
                beaten = next(
                    (c.opponent_id for c in history if c.game_id == standing.best_win_game), None
                )
            found.append(GameProfile(name, standing, rank, beaten, tuple(recent), tuple(history)))
        return Profile(guild, user, tuple(found))

    async def games_of(
        self, guild_id: int, game: str, user_id: int, page: int = 0
    ) -> tuple[list[StoredGame], bool]:
        """A page of a player's finished games, latest first, and whether there are more."""
        guild, user = snowflake(guild_id, "server"), snowflake(user_id, "user")
        if page < 0:
            raise BadInput("community.bad-page", page=page + 1, pages="∞")
        games = await self.store.finished_games_of(
            guild, game_spec(game).name, user, offset=page * PAGE, limit=PAGE + 1
        )
        return games[:PAGE], len(games) > PAGE

    async def changes_of_game(self, game_id: int) -> list[RatingChange]:
        return await self.store.changes_of_game(snowflake(game_id, "game"))

    async def season_named(self, guild_id: int, name: str | None) -> Season:
        """The season a player names (its name, or its number `#3`); the running one if none."""
        guild = snowflake(guild_id, "server")
        seasons = await self.store.seasons(guild)
        if not seasons:
            raise BadInput("community.no-seasons")
        if name is None or not name.strip():
            running = [season for season in seasons if season.ended_at is None]
            return running[0] if running else seasons[0]
        wanted = name.strip().casefold()
        for season in seasons:
            if wanted in (season.name.casefold(), f"#{season.id}", str(season.id)):
                return season
        known = ", ".join(season.name for season in seasons[:10])
        raise BadInput("community.no-such-season", name=name.strip(), known=known)

    async def season_table(self, season: Season, game: str, page: int = 0) -> SeasonTable:
        name = game_spec(game).name
        size = await self.store.season_size(season.id, name)
        pages = max(1, -(-size // PAGE))
        page = _page(page, pages)
        start = page * PAGE
        shown = await self.store.season_table(season.id, name, offset=start, limit=PAGE)
        lines = tuple((start + i + 1, line) for i, line in enumerate(shown))
        return SeasonTable(season, name, page, pages, size, lines)

    async def seasons(self, guild_id: int) -> list[Season]:
        return await self.store.seasons(snowflake(guild_id, "server"))


def _page(page: int, pages: int) -> int:
    if not 0 <= page < pages:
        raise BadInput("community.bad-page", page=page + 1, pages=pages)
    return page
