"""Seasons: a server's contest over a stretch of time, each game with its own table.

A server manager starts a season (a name, maybe an end date, the channel its
final table goes to); rated games that end while it runs add to its tables
(the store does it in the game's own transaction: `matches.ratings`). It ends
when a manager says so or when its date comes (`due`, called by the bot's
upkeep loop, ends it exactly once: `Store.end_season` answers None to every
caller but the first). Its final tables and each game's champion (`final`) are
then announced once: end, post, `announced` — a season ended but never
announced (a crash in between) is handed out again by the next `due`. Past
seasons stay listed (`list`), with their champions.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from games import registry
from matches.errors import BadInput
from matches.inputs import snowflake
from matches.ledger import Ledger
from matches.ratings import Season, SeasonScore
from matches.records import GuildSettings
from matches.shards import Shards

MAX_SEASON_NAME = 50
LONGEST = timedelta(days=731)  # a season may be set to end at most two years ahead
LISTED = 25  # the seasons `list` gives, latest first
MAX_CHAMPION_GAMES = 100  # the most rated games a server may ask of a season's champion
ANNOUNCING = timedelta(minutes=1)  # how long a claim on announcing a season's end holds

_DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_DATE_TIME = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})$")
_DURATION = re.compile(r"^(\d{1,4})\s*(h|d|w)$")
_UNITS = {"h": timedelta(hours=1), "d": timedelta(days=1), "w": timedelta(weeks=1)}
# How `ends` may be written, for the refusal of anything else.
ENDS_EXAMPLES = ("2027-03-31", "2027-03-31 18:00", "30d", "2w")


@dataclass(frozen=True, slots=True)
class FinalTable:
    """A season's table for one game, best first.

    Its leader is the champion if they played at least `minimum` rated games of
    it in the season (the server's `champion_games`): one lucky game crowns
    nobody. None: no games, or a leader with too few.
    """

    game: str
    lines: tuple[SeasonScore, ...]
    minimum: int = 1

    @property
    def champion(self) -> int | None:
        if not self.lines or self.lines[0].games < self.minimum:
            return None
        return self.lines[0].user_id

    @property
    def too_few(self) -> bool:
        """Whether the table has a leader who played too few games to be its champion."""
        return bool(self.lines) and self.champion is None

    @property
    def games(self) -> int:
        """How many rated games the table counts (each has two players' lines)."""
        return sum(line.games for line in self.lines) // 2


@dataclass(frozen=True, slots=True)
class SeasonSummary:
    """A season as the list shows it: its dates and each game's champion, by game name."""

    season: Season
    champions: tuple[tuple[str, int], ...]


def season_name(name: object) -> str:
    """A season's name: a text of 1 to 50 characters once trimmed, on one line."""
    if not isinstance(name, str) or len(name) > 10 * MAX_SEASON_NAME:
        raise BadInput("season.bad-name", low=1, high=MAX_SEASON_NAME)
    text = " ".join(name.split())
    if not 1 <= len(text) <= MAX_SEASON_NAME:
        raise BadInput("season.bad-name", low=1, high=MAX_SEASON_NAME)
    return text


def season_end(ends: object, now: datetime) -> datetime | None:
    """When a season started at `now` ends by itself; None when `ends` is empty.

    A date (`2027-03-31`) is the end of that day, UTC; a date and a time
    (`2027-03-31 18:00`) is that minute, UTC; a duration (`30d`, `2w`, `12h`)
    counts from now. The end is in the future and at most two years away.
    """
    if ends is None:
        return None
    if not isinstance(ends, str) or len(ends) > 32:
        raise BadInput("season.bad-ends", ends=str(ends)[:32], examples=ENDS_EXAMPLES)
    text = ends.strip().lower()
    if not text:
        return None
    moment = _moment(text, now)
    if moment is None:
        raise BadInput("season.bad-ends", ends=ends, examples=ENDS_EXAMPLES)
    if moment <= now:
        raise BadInput("season.ends-past", ends=ends)
    if moment - now > LONGEST:
        raise BadInput("season.ends-too-far", ends=ends, days=LONGEST.days)
    return moment


def _moment(text: str, now: datetime) -> datetime | None:
    try:
        if found := _DURATION.match(text):
            return now + int(found.group(1)) * _UNITS[found.group(2)]
        if found := _DATE.match(text):
            day = date(*(int(part) for part in found.groups()))
            return datetime.combine(day + timedelta(days=1), time(), UTC)
        if found := _DATE_TIME.match(text):
            year, month, day_, hour, minute = (int(part) for part in found.groups())
            return datetime(year, month, day_, hour, minute, tzinfo=UTC)
    except (ValueError, OverflowError):  # 2027-02-30, 25:00, a year past 9999
        return None
    return None


class Seasons:
    """Starting, ending and reading seasons, on the ledger's store and clock."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    async def start(
        self,
        guild_id: int,
        name: object,
        ends: object = None,
        channel_id: int | None = None,
        by_user: int | None = None,
    ) -> Season:
        """Start a season in a server; refused while one runs there.

        `ends` as `season_end` reads it (None: it runs until a manager ends it);
        `channel_id` is where its final table is posted. `by_user` is the
        manager (the bot has checked they may).
        """
        store, now = self.ledger.store, self.ledger.clock()
        guild_id = snowflake(guild_id, "server")
        if channel_id is not None:
            channel_id = snowflake(channel_id, "channel")
        if by_user is not None:
            snowflake(by_user, "user")
        text = season_name(name)
        ends_at = season_end(ends, now)
        running = await store.running_season(guild_id)
        if running is not None:
            raise BadInput("season.already-running", name=running.name)
        season = Season(guild_id, text, now, ends_at=ends_at, channel_id=channel_id)
        started = await store.start_season(season)
        if started is None:  # another manager was quicker, a moment ago
            running = await store.running_season(guild_id)
            raise BadInput("season.already-running", name=running.name if running else text)
        return started

    async def end(self, guild_id: int, by_user: int | None = None) -> Season:
        """End the server's running season now; refused when none runs."""
        store = self.ledger.store
        guild_id = snowflake(guild_id, "server")
        if by_user is not None:
            snowflake(by_user, "user")
        running = await store.running_season(guild_id)
        ended = None
        if running is not None:
            ended = await store.end_season(running.id, self.ledger.clock())
        if ended is None:  # none, or its date (or another manager) ended it a moment ago
            raise BadInput("season.none-running")
        return ended

    async def due(
        self, now: datetime | None = None, *, shards: Shards | None = None
    ) -> list[Season]:
        """The seasons to announce now, oldest first.

        A running season whose end date has passed is ended here, at that date;
        every season to announce comes back to the one caller that claims it
        (`claim`), and again, once the claim has lapsed, while it is not
        `announced` (its announcer stopped in between). `serves` picks the
        servers of this caller.
        """
        store = self.ledger.store
        now = now or self.ledger.clock()
        found: list[Season] = []
        for season in await store.seasons_due(now, shards):
            if season.ended_at is None:
                at = min(season.ends_at, now) if season.ends_at is not None else now
                ended = await store.end_season(season.id, at)
                if ended is None:  # another process ended it: that one announces it
                    continue
                season = ended
            # One process announces it: the one that claims it (again, after a while,
            # if that one stopped before it was done).
            if await self.claim(season, now):
                found.append(season)
        return found

    async def claim(self, season: Season, now: datetime | None = None) -> bool:
        """Take the announcement of an ended season: True for the one caller that may post
        it (for `ANNOUNCING`; after that, if it was never recorded, it is free again)."""
        now = now or self.ledger.clock()
        return await self.ledger.store.claim_announcement(season.id, now, now + ANNOUNCING)

    async def announced(self, season: Season) -> None:
        """Record that the season's end has been announced (it is handed out no more)."""
        await self.ledger.store.set_announced(season.id)

    async def get(self, guild_id: int, season_id: int) -> Season | None:
        """A season of a server as it is now (None: no such season there)."""
        return await self.ledger.store.season(guild_id, season_id)

    async def running(self, guild_id: int) -> Season | None:
        return await self.ledger.store.running_season(snowflake(guild_id, "server"))

    async def final(self, season: Season, *, limit: int | None = None) -> list[FinalTable]:
        """The season's table of each game, in the registry's order (the first `limit` lines).

        A game nobody played in the season has an empty table and no champion; nor has
        one whose leader played fewer rated games of it than the server's minimum.
        """
        store = self.ledger.store
        played = set(await store.season_games(season.id))
        minimum = (await store.guild_settings(season.guild_id)).champion_games
        tables = []
        for game in registry.GAMES:
            lines = await store.season_table(season.id, game, limit=limit) if game in played else []
            tables.append(FinalTable(game, tuple(lines), minimum))
        return tables

    async def champions(self, season: Season) -> dict[str, int]:
        """Each game's champion of the season, by game name (games nobody played left out)."""
        return {
            table.game: table.champion
            for table in await self.final(season, limit=1)
            if table.champion is not None
        }

    async def previous(self, season: Season) -> Season | None:
        """The server's season that ended last before `season` began."""
        for earlier in await self.ledger.store.seasons(season.guild_id):
            ended = earlier.ended_at is not None and earlier.id != season.id
            if ended and earlier.started_at <= season.started_at:
                return earlier
        return None

    async def set_champion_role(self, guild_id: int, role_id: int | None) -> GuildSettings:
        """The role each season's champions get (None: no role)."""
        store = self.ledger.store
        guild_id = snowflake(guild_id, "server")
        if role_id is not None and (
            isinstance(role_id, bool) or not isinstance(role_id, int) or not 0 < role_id < 2**63
        ):
            raise BadInput("season.role.bad", value=repr(role_id))
        current = await store.guild_settings(guild_id)
        settings = dataclasses.replace(current, champion_role_id=role_id)
        return await store.save_guild_settings(settings, self.ledger.clock())

    async def set_champion_games(self, guild_id: int, games: int) -> GuildSettings:
        """The fewest rated games in a game a season's leader needs to be its champion."""
        store = self.ledger.store
        guild_id = snowflake(guild_id, "server")
        if (
            isinstance(games, bool)
            or not isinstance(games, int)
            or not 1 <= games <= MAX_CHAMPION_GAMES
        ):
            raise BadInput(
                "season.champion-games.bad", value=repr(games), low=1, high=MAX_CHAMPION_GAMES
            )
        current = await store.guild_settings(guild_id)
        settings = dataclasses.replace(current, champion_games=games)
        return await store.save_guild_settings(settings, self.ledger.clock())

    async def list(self, guild_id: int) -> list[SeasonSummary]:
        """The server's seasons, latest first (the last 25), each with its champions so far."""
        seasons = await self.ledger.store.seasons(snowflake(guild_id, "server"))
        summaries = []
        for season in seasons[:LISTED]:
            champions = await self.champions(season)
            summaries.append(SeasonSummary(season, tuple(champions.items())))
        return summaries
