"""What the service may ask of a database: the `Store` protocol and its errors.

Every backend (SQLite now, PostgreSQL later) meets `Store` and returns the
frozen values of `matches.records`, never rows. Writes that race are settled
by a version number: `update_game` lands only if the row still has the
version the caller read. Reads never wait behind writes: a write stalled on
the database's lock (a slow disk, another process) delays other writes only.
Game ids are random and unguessable: never count on their order.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Protocol

from matches.marks import Marks
from matches.ratings import RatedGame, RatingChange, RatingInputs, Season, SeasonScore, Standing
from matches.records import (
    AuditEntry,
    GamesPage,
    GuildSettings,
    Status,
    StoredGame,
    Suspension,
    UserSettings,
)
from matches.shards import Shards
from matches.tournament_records import Entrant, Stage, StoredPairing, Tournament

# What rates a finished game, inside the store's transaction (`matches.ratings.rate_game`).
Rater = Callable[[StoredGame, RatingInputs], RatedGame]
# What rebuilds a server's ratings inside the store's transaction, from its finished games,
# seasons and rating changes (`matches.recompute.rate_all`): standings, changes, season lines.
Rebuild = Callable[
    [list[StoredGame], list[Season], list[RatingChange]],
    tuple[list[Standing], list[RatingChange], list[SeasonScore]],
]


class StoreError(Exception):
    """The database cannot do what was asked (bad URL, a schema too new, ...)."""


class ChannelBusy(StoreError):
    """A write would put a second active game in a channel or thread."""


class RematchExists(StoreError):
    """A write would make a second live rematch (challenge or game) of one game."""


class Store(Protocol):
    """The persistence the service needs, whatever the backend.

    Each method is one transaction; a method that returns has committed.
    Lists of games are oldest first (by creation), unless said otherwise.
    """

    async def open(self) -> None:
        """Connect and bring the schema up to date."""
        ...

    async def close(self) -> None: ...

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        ...

    async def create_game(self, game: StoredGame) -> StoredGame:
        """Insert a game under a new random id (53 bits), version 0; raises ChannelBusy.

        The game's own `id` and `version` are ignored.
        """
        ...

    async def live_rematch(self, game_id: int) -> StoredGame | None:
        """The rematch of game `game_id` waiting for an answer or being played, if any."""
        ...

    async def get_game(self, game_id: int) -> StoredGame | None: ...

    async def active_game_in(self, channel_id: int) -> StoredGame | None:
        """The game being played in a channel or thread, if any."""
        ...

    async def open_games_in(self, channel_id: int) -> list[StoredGame]:
        """The challenges and active games of a channel or thread."""
        ...

    async def active_games(self, guild_id: int) -> list[StoredGame]:
        """The games being played in a server, oldest first."""
        ...

    async def active_page(self, guild_id: int, *, limit: int, offset: int = 0) -> GamesPage:
        """A page of the games being played in a server, oldest first, as summaries read
        from their rows (no moves), and how many there are in all."""
        ...

    async def active_counts(self) -> dict[int, int]:
        """How many games are being played in each server, by guild id (one query)."""
        ...

    async def last_finished_in(self, channel_id: int) -> StoredGame | None:
        """The game that ended last in a channel or thread, if any."""
        ...

    async def open_games_of(self, user_id: int) -> list[StoredGame]:
        """Challenges and active games the user plays in or was challenged to."""
        ...

    async def update_game(self, game: StoredGame, marks: Marks | None = None) -> StoredGame | None:
        """Write a game if it still has `game.version`: the new row, or None if it changed.

        Every field is written except what the messages show (`message_id`,
        `board_ply`, `board_status`, `ping_message_id`: see `set_board`,
        `set_ping`), `id` and `created_at`, unless `marks` tells them: then those it
        tells, in the same statement; the version grows by one. Raises ChannelBusy.
        """
        ...

    async def write_marks(self, marks: Mapping[int, Marks], *, durable: bool = True) -> None:
        """Write what each game's messages show (`marks`, by game id), in one transaction.

        Leaves the versions alone, like `set_board`; a game gone is passed over. Not
        `durable`: committed without waiting for the disk, as for one game's ping
        (lost with the machine at worst, never with the process).
        """
        ...

    async def finish_rated(self, game: StoredGame, rate: Rater) -> RatedGame | None:
        """`update_game` for a game that ends rated, and its rating, in one transaction.

        Reads both players' standings, the server's season and their lines in
        it, writes what `rate(game, read)` returns with the game's row: the
        rating changes (once per game: a second rating of it is refused by the
        database), the standings, the season lines. None if the game changed
        (nothing is written); otherwise the rated game, whose `changes` carry
        their `seq`. The saved row is `get_game`'s to read.
        """
        ...

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        """Record the id of the game's board message.

        The message is not part of the game, so this does not change the
        version: posting a board never makes a concurrent move stale.
        """
        ...

    async def set_board(self, game_id: int, message_id: int, ply: int, status: Status) -> None:
        """Record that the board message `message_id` shows the game at `ply` and `status`.

        Leaves the version alone, like `set_message`.
        """
        ...

    async def set_ping(self, game_id: int, message_id: int | None) -> None:
        """Record the game's last turn notification (None: there is none to delete)."""
        ...

    async def lagging_boards(
        self, limit: int = 100, *, now: datetime | None = None, shards: Shards | None = None
    ) -> list[StoredGame]:
        """Games whose public board does not show their state, least recently changed first.

        Active games, and games finished or challenges closed in the 7 days
        before `now` (the clock's time if None), whose `message_id` is None or
        whose `board_ply` / `board_status` differ from their ply / status; of the
        servers on `shards` (None: all).
        """
        ...

    async def shift_clocks(
        self, by: timedelta, *, shards: Shards | None = None
    ) -> list[StoredGame]:
        """Move every active game's deadline and reminder `by` later (of the servers on
        `shards`; None: all); the games changed.

        Games without either are left alone. Each changed game's version grows by one.
        A live clock's stored times left stay as they are: the player to move has
        what is left to the later deadline, so the time `by` is not theirs to pay.
        """
        ...

    async def take_shard(
        self, shard: int, count: int, holder: str, now: datetime, until: datetime
    ) -> tuple[str, datetime | None]:
        """Lease `shard` (of `count`) to `holder` until `until`, if its lease is free, lapsed
        at `now` or already `holder`'s (then renewed); one of two processes asking at once
        gets it. The lease's holder after, and the shard's last beat (None: never served)."""
        ...

    async def renew_shards(
        self, shards: list[int], holder: str, now: datetime, until: datetime
    ) -> list[int]:
        """Renew `holder`'s leases on `shards` until `until`, their beat `now`: the shards
        still `holder`'s (a lapsed lease another process has taken is not)."""
        ...

    async def drop_shards(self, shards: list[int], holder: str) -> None:
        """Let `holder`'s leases on `shards` lapse now (their beat stays)."""
        ...

    async def live_shard_counts(self, now: datetime) -> set[int]:
        """The numbers of shards the leases running at `now` were taken with."""
        ...

    async def last_beat(self) -> datetime | None:
        """When Kamen last recorded it was alive, on any shard; None if it never did."""
        ...

    async def take_claim(self, key: str, holder: str, now: datetime, until: datetime) -> bool:
        """Claim the work named `key` for `holder` until `until`: True if it is now
        `holder`'s (it was free, lapsed at `now`, or already `holder`'s: then renewed);
        False while another holder's claim runs, or while another process is taking it."""
        ...

    async def drop_claim(self, key: str, holder: str) -> None:
        """Let `holder`'s claim on `key` lapse now (nothing if another holds it)."""
        ...

    async def release_claim(self, key: str) -> None:
        """Free the claim on `key`, whoever holds it."""
        ...

    async def begin_posting(self, key: str, after: int) -> tuple[int, int | None]:
        """Write the intent to post the message `key` (looked for after message `after`),
        unless written before: its `after` and its message's id (None: not yet posted)."""
        ...

    async def end_posting(self, key: str, message_id: int) -> None:
        """Record that the message `key` is posted: message `message_id`."""
        ...

    # -------------------------------------------------------- reviews and puzzles

    async def review(self, game_id: int) -> str | None:
        """A finished game's review as kept (JSON), or None if none was made yet."""
        ...

    async def save_review(
        self, game_id: int, review: str, at: datetime, *, replace: bool = False
    ) -> None:
        """Keep a game's review; one made meanwhile by another process stays, unless
        `replace` (the deep review in the quick one's place)."""
        ...

    async def answer_puzzle(
        self, guild_id: int, user_id: int, puzzle: str, solved: bool, at: datetime
    ) -> bool:
        """Keep a player's first answer to `puzzle` on a server: True if this was it."""
        ...

    async def puzzles_answered(self, guild_id: int, user_id: int) -> dict[str, bool]:
        """The puzzles a player answered on a server, each with whether they solved it."""
        ...

    async def due(
        self, now: datetime, limit: int = 100, *, shards: Shards | None = None
    ) -> list[StoredGame]:
        """Open games whose deadline or reminder time is at or before `now`, earliest first
        (of the servers on `shards`; None: all)."""
        ...

    async def guild_settings(self, guild_id: int) -> GuildSettings: ...

    async def save_guild_settings(
        self, settings: GuildSettings, now: datetime
    ) -> GuildSettings: ...

    async def server_languages(self) -> dict[int, str]:
        """The language of every server that chose one, by its id."""
        ...

    async def player_languages(self) -> dict[int, str]:
        """The language of every player who chose one, by their user id."""
        ...

    async def user_settings(self, user_id: int) -> UserSettings: ...

    async def save_user_settings(self, settings: UserSettings, now: datetime) -> UserSettings: ...

    # ---------------------------------------------------------------- a person's blocks

    async def blocks_of(self, user_id: int) -> list[int]:
        """The people the user blocks, in the order they blocked them."""
        ...

    async def block(self, user_id: int, blocked_id: int, now: datetime, most: int) -> bool:
        """The user blocks `blocked_id` (already blocked: nothing changes). False, and nothing
        written, when they already block `most` people and this one is new."""
        ...

    async def unblock(self, user_id: int, blocked_id: int) -> bool:
        """The user no longer blocks `blocked_id`; False if they did not."""
        ...

    async def blocks(self, user_id: int, other_id: int) -> bool:
        """Whether the user blocks `other_id`."""
        ...

    # ---------------------------------------------------------------- people

    async def games_of_user(self, user_id: int) -> list[StoredGame]:
        """Every game the user plays in or was challenged to, in every server, oldest first."""
        ...

    async def forget_user(self, user_id: int) -> int | None:
        """Put one fresh random negative id in place of the user's everywhere; drop their settings.

        Every id column of their games, their ratings, their rating changes (as
        player and as opponent) and their season lines get the same anonymous id,
        which is returned; their blocks, of others and by others, are deleted. None,
        and nothing written, while they have a challenge or a game open.
        """
        ...

    # ---------------------------------------------------------------- ratings

    async def standing(self, guild_id: int, game: str, user_id: int) -> Standing | None:
        """A player's rating in a server's pool for a game; None before their first rated game."""
        ...

    async def leaderboard(
        self,
        guild_id: int,
        game: str,
        *,
        provisional: bool | None = None,
        offset: int,
        limit: int,
    ) -> list[Standing]:
        """Rated players of a pool, best rating first: all of them (the ranking), or only
        the established or only the provisional ones.

        Forgotten players (negative ids) are never listed.
        """
        ...

    async def leaderboard_sizes(self, guild_id: int, game: str) -> tuple[int, int]:
        """How many established and how many provisional players a pool lists."""
        ...

    async def rank(self, guild_id: int, game: str, user_id: int) -> int | None:
        """A player's place among every rating of the pool, provisional ones too (1 is first)."""
        ...

    async def rating_changes(
        self, guild_id: int, game: str, user_id: int, *, limit: int | None = None
    ) -> list[RatingChange]:
        """A player's rated games in a pool, oldest first (the last `limit` if given)."""
        ...

    async def changes_of_game(self, game_id: int) -> list[RatingChange]:
        """What a game did to its players' ratings, first player first; [] if unrated."""
        ...

    async def finished_games_of(
        self, guild_id: int, game: str, user_id: int, *, offset: int, limit: int
    ) -> list[StoredGame]:
        """A player's finished games of a server, latest ended first (through an index)."""
        ...

    async def finished_games(self, guild_id: int | None = None) -> list[StoredGame]:
        """Every finished game (of one server, or all), in no particular order."""
        ...

    # ---------------------------------------------------------------- seasons

    async def start_season(self, season: Season) -> Season | None:
        """Insert a running season (id assigned); None if the server already runs one."""
        ...

    async def end_season(self, season_id: int, at: datetime) -> Season | None:
        """Mark a running season ended at `at`; None if it had already ended (exactly once)."""
        ...

    async def claim_announcement(self, season_id: int, now: datetime, until: datetime) -> bool:
        """Take the announcement of an ended season until `until`: False if it is
        announced, or another process holds it now."""
        ...

    async def set_announced(self, season_id: int) -> None: ...

    async def running_season(self, guild_id: int) -> Season | None: ...

    async def season(self, guild_id: int, season_id: int) -> Season | None: ...

    async def seasons(self, guild_id: int | None = None) -> list[Season]:
        """A server's seasons (or every server's), latest started first."""
        ...

    async def seasons_due(self, now: datetime, shards: Shards | None = None) -> list[Season]:
        """Running seasons whose end date has come, and ended seasons not yet announced
        (of the servers on `shards`; None: all)."""
        ...

    async def season_table(
        self, season_id: int, game: str, *, offset: int = 0, limit: int | None = None
    ) -> list[SeasonScore]:
        """A season's table for a game: points, then performance, best first."""
        ...

    async def season_size(self, season_id: int, game: str) -> int:
        """How many players a season's table for a game lists."""
        ...

    async def season_games(self, season_id: int) -> list[str]:
        """The games that have a table in a season."""
        ...

    # --------------------------------------------------------------- rebuilds

    async def all_ratings(
        self, guild_id: int | None = None
    ) -> tuple[list[Standing], list[RatingChange], list[SeasonScore]]:
        """Every standing, rating change (by seq) and season line (of one server, or all)."""
        ...

    async def replace_ratings(
        self,
        guild_id: int | None,
        standings: list[Standing],
        changes: list[RatingChange],
        scores: list[SeasonScore],
    ) -> None:
        """Put rebuilt ratings in place of the stored ones (of one server, or all), at once."""
        ...

    # ---------------------------------------------------------- the manager's kit

    async def add_audit(self, entry: AuditEntry) -> AuditEntry:
        """Write one line of a server's audit log (id assigned)."""
        ...

    async def audit(self, guild_id: int, *, offset: int, limit: int) -> list[AuditEntry]:
        """A server's audit log, newest first."""
        ...

    async def audit_size(self, guild_id: int) -> int: ...

    async def void_game(
        self, game: StoredGame, entry: AuditEntry, rebuild: Rebuild
    ) -> tuple[StoredGame, AuditEntry] | None:
        """Write a voided game if it still has `game.version`, with its audit line, its
        pairing re-scored as a double forfeit and its server's ratings rebuilt (`rebuild`),
        in one transaction; None, with nothing written, if the game changed."""
        ...

    async def suspension(self, guild_id: int, user_id: int) -> Suspension | None:
        """A player's suspension on a server, ended or not; None if there is none."""
        ...

    async def suspend(self, suspension: Suspension, entry: AuditEntry) -> AuditEntry:
        """Write (or replace) a suspension and its audit line, in one transaction."""
        ...

    async def unsuspend(self, guild_id: int, user_id: int, entry: AuditEntry) -> AuditEntry | None:
        """Lift a suspension and write its audit line; None, nothing written, if none."""
        ...

    async def last_challenge_at(self, guild_id: int, user_id: int) -> datetime | None:
        """When the user last challenged someone (or anyone) on a server: not Kamen, not a
        study, not a tournament's game."""
        ...

    # ------------------------------------------------------------ tournaments

    async def create_tournament(self, tournament: Tournament) -> Tournament:
        """Insert a tournament (id assigned, version 0)."""
        ...

    async def tournament(self, tournament_id: int) -> Tournament | None: ...

    async def tournaments(self, guild_id: int) -> list[Tournament]:
        """A server's tournaments, latest created first."""
        ...

    async def update_tournament(
        self, tournament: Tournament, pairings: Sequence[StoredPairing] = ()
    ) -> tuple[Tournament, list[StoredPairing]] | None:
        """Write a tournament if it still has `tournament.version`, with new `pairings`.

        One transaction: the row (its version grows by one) and the pairings
        (ids assigned), or nothing at all; None if the tournament changed.
        """
        ...

    async def join_tournament(
        self, tournament_id: int, user_id: int, at: datetime
    ) -> Tournament | None:
        """Sign a player up (again, if they had left) while the sign-up is open.

        One transaction on the tournament's row, which it writes too (its version grows:
        a start that read the players before writes nothing): the tournament as the
        player joined it, or None, with nothing written, if its stage is past the sign-up.
        """
        ...

    async def leave_tournament(
        self,
        tournament_id: int,
        user_id: int,
        at: datetime,
        reason: str | None,
        stages: Collection[Stage] = (Stage.SIGNUP, Stage.RUNNING),
    ) -> Tournament | None:
        """Mark a player as gone, with why, if the tournament is at one of `stages`.

        One transaction on the tournament's row, as `join_tournament`: the tournament as
        the player left it (its stage then), or None, with nothing written, if it was at
        another stage or they were not playing.
        """
        ...

    async def tournaments_of_player(self, user_id: int) -> list[int]:
        """The ids of the tournaments taking sign-ups or running that the user is in (not
        left), oldest first."""
        ...

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        """Everyone who signed up, in order of joining (those who left too)."""
        ...

    async def left_unpaired(self, tournament_id: int) -> set[int]:
        """The entrants who left without ever being paired (before the start, most often):
        they took no part, and no standings list them."""
        ...

    async def pairings(self, tournament_id: int) -> list[StoredPairing]:
        """Every pairing, in the order made."""
        ...

    async def results_since(
        self, tournament_id: int, since: datetime | None
    ) -> tuple[int, list[StoredPairing]]:
        """How many pairings have a result, and those that ended at `since` or later (all,
        if None), in the order they ended; read at one moment."""
        ...

    async def pairings_to_settle(self, shards: Shards | None = None) -> list[StoredPairing]:
        """The pairings of running tournaments that need Kamen: their game never opened,
        or finished with no result written (both only after a crash); of the servers on
        `shards` (None: all)."""
        ...

    async def set_pairing_channel(self, pairing_id: int, channel_id: int) -> None:
        """Record the thread made for a pairing's game (before the game is opened)."""
        ...

    async def pairing_of_game(self, game_id: int) -> StoredPairing | None: ...

    async def set_pairing_game(self, pairing_id: int, game_id: int) -> None:
        """Record the game a pairing started (once)."""
        ...

    async def record_result(
        self, pairing_id: int, score: float, at: datetime, *, forfeit: bool = False
    ) -> StoredPairing | None:
        """Write a pairing's result once; None if it already had one."""
        ...

    async def running_tournaments(self) -> list[Tournament]:
        """Every running tournament, of every server."""
        ...

    async def tournaments_due(
        self, now: datetime, shards: Shards | None = None
    ) -> list[Tournament]:
        """Tournaments whose start time or (arena) end time has come (of the servers on
        `shards`; None: all)."""
        ...
