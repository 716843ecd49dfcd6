"""The match service: everything a player can do, without Discord.

`MatchService` builds one `Ledger` (loading, version checks, commits, the
retry loop, the position cache, the domain events) and hands it to its parts:
`Challenges` (how games begin), `Play` (moves, resigning, draws), `Clocks`
(deadlines), `Upkeep` (the heartbeat, downtime, channels gone), `Boards`
(what the public boards show, pings) and `Seasons` (a server's seasons, used
as `service.seasons`). Its methods delegate to them, and it
answers the questions the bot asks: a game's view, the games of a server or a
user, the bot's pending turns, the moves a user may choose, a record to
export, a server's settings.

Every method that finds a game by its id (or channel) takes `guild_id`, the
server asking: a game of another server is "no such game here". None is a
direct message or Kamen itself acting (the sweeper, the reconciler), unscoped.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Collection, Iterable, Sequence
from datetime import datetime, timedelta

from games.base import GameSpec, GameState
from games.record import record_of
from matches.boards import Boards
from matches.challenges import Challenges
from matches.claims import Claims
from matches.clock import Clock, system_clock
from matches.community import Community
from matches.deadlines import Clocks
from matches.engine_help import EngineHelp
from matches.errors import BadInput, NoGameHere
from matches.events import Events
from matches.fairplay import FairPlay
from matches.inputs import MAX_NAME, capped, known_language, server_time, snowflake
from matches.leases import Lease
from matches.ledger import Ledger, Where
from matches.limits import Limits
from matches.managers import Managers
from matches.people import People
from matches.picker import MovePicker
from matches.play import Play
from matches.positions import Positions
from matches.puzzles import Puzzles
from matches.records import FirstChoice, GamesPage, GuildSettings, Status, UserSettings
from matches.reviews import Reviewer, Reviews
from matches.seasons import Seasons
from matches.shards import Shards
from matches.storage import Store
from matches.takebacks import TakebackResult, Takebacks
from matches.tournaments import Tournaments
from matches.upkeep import Upkeep
from matches.views import DrawResult, GameView, MoveResult, SweepEvent


class MatchService:
    """The application service. Build it with a store, and the bot's id and picker.

    One door for an adapter (`bot/`, the web board): the games, their clocks,
    boards and upkeep, and the settings, through this façade's methods; the
    leagues and the rest through the parts `tournaments`, `seasons`,
    `community`, `people`, `limits`, `puzzles`, `reviews`, `fairplay`, `claims` and
    `managers` (the manager's kit: voids, suspensions, limits, the audit log), and the domain
    `events`; never `store`, `ledger`, nor a part's store. The background work
    (sweeper, board repairs, heartbeat, season ends, tournament upkeep) is a
    `matches.runner.Runner` on the service, which the adapter starts, listens
    to, and stops before it closes the store. `claim_holder` names this process
    in the claims on shared work (`matches.claims`).
    """

    def __init__(
        self,
        store: Store,
        *,
        bot_user_id: int | None = None,
        picker: MovePicker | None = None,
        clock: Clock = system_clock,
        rng: random.Random | None = None,
        challenge_ttl: timedelta = timedelta(hours=24),
        cache_size: int = 1024,
        reviewer: Reviewer | None = None,
        claim_holder: str | None = None,
    ) -> None:
        self.store = store
        self.bot_user_id = bot_user_id
        self.picker = picker
        self.clock = clock
        self.events = Events()
        self.ledger = Ledger(
            store, clock=clock, bot_user_id=bot_user_id, cache_size=cache_size, events=self.events
        )
        self.limits = Limits(self.ledger, bot_user_id=bot_user_id)
        self.managers = Managers(self.ledger)
        self.engine_help = EngineHelp(self.ledger, cache_size)
        self.challenges = Challenges(
            self.ledger,
            managers=self.managers,
            engine_help=self.engine_help,
            bot_user_id=bot_user_id,
            picker=picker,
            rng=rng or random.Random(),
            challenge_ttl=challenge_ttl,
            limits=self.limits,
        )
        self.play = Play(
            self.ledger, picker=picker, bot_user_id=bot_user_id, engine_help=self.engine_help
        )
        self.takebacks = Takebacks(self.ledger, bot_user_id=bot_user_id)
        self.clocks = Clocks(self.ledger)
        self.upkeep = Upkeep(self.ledger)
        self.boards = Boards(self.ledger)
        self.community = Community(store)
        self.tournaments = Tournaments(self.ledger, self.managers)
        self.seasons = Seasons(self.ledger)
        self.people = People(self.ledger, self.tournaments)
        self.claims = Claims(store, clock, holder=claim_holder)
        self.reviews = Reviews(store, clock, reviewer, self.engine_help)
        self.puzzles = Puzzles(store, clock, rng)
        self.fairplay = FairPlay(store, self.ledger.positions, clock, picker)

    @property
    def positions(self) -> Positions:
        return self.ledger.positions

    # ------------------------------------------------------------- challenges

    async def challenge(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        game: str,
        opponent_id: int | None = None,
        variant: Iterable[str] | str = (),
        time: str | timedelta | None = None,
        first: str | FirstChoice = FirstChoice.RANDOM,
        level: str | None = None,
        rated: bool = True,
        rematch_of: int | None = None,
        challenger_roles: Collection[int] = (),
    ) -> GameView:
        """Challenge a user, anyone (no opponent), or the bot (which starts at once).

        `variant` is the `key=value` options, `time` a per-move limit (`5m`,
        `1h`, `1d`, `3d` or none), `first` who plays the first side
        (challenger, opponent or random), `level` the bot's strength; `rated`
        False keeps a game between two players out of their ratings; `rematch_of`
        the game this challenge is a rematch of: a game has one live rematch at a
        time, and a second is refused (`ChallengeRepeated`) with where the first is;
        `challenger_roles` the challenger's roles in the server, for the opponent's own
        limits (`matches.limits`: a refusal `NotTakingChallenges`).
        """
        return await self.challenges.challenge(
            guild_id=guild_id, channel_id=channel_id, challenger_id=challenger_id, game=game,
            opponent_id=opponent_id, variant=variant, time=time, first=first, level=level,
            rated=rated, rematch_of=rematch_of, challenger_roles=challenger_roles,
        )  # fmt: skip

    async def import_record(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        text: str,
        game: str | None = None,
        opponent_id: int | None = None,
        time: str | timedelta | None = None,
        first: str | FirstChoice = FirstChoice.RANDOM,
        level: str | None = None,
        challenger_roles: Collection[int] = (),
    ) -> GameView:
        """Start a game from a record's moves.

        Alone (no opponent) the user plays both sides at once, to study; with
        an opponent it is a challenge like any other, and against the bot it
        starts at once. A record whose game is over cannot be played on.
        `challenger_roles`: as for `challenge`.
        """
        return await self.challenges.import_record(
            guild_id=guild_id, channel_id=channel_id, user_id=user_id, text=text, game=game,
            opponent_id=opponent_id, time=time, first=first, level=level,
            challenger_roles=challenger_roles,
        )  # fmt: skip

    async def may_import(
        self, user_id: int, text: str, game: str | None = None, opponent_id: int | None = None
    ) -> None:
        """Refuse as `import_record` would (a record that does not read or is over; alone or
        against the bot, a position of a game the user is playing); nothing is written.
        The bot asks before it posts anything public."""
        await self.challenges.may_import(user_id, text, game, opponent_id)

    def check_record(self, text: str, game: str | None = None) -> tuple[GameSpec, GameState]:
        """The game a record describes and the position it reaches, if a game can go on from it.

        The refusal `import_record` would give otherwise; nothing is written. The bot asks
        before it opens a thread for the game.
        """
        return self.challenges.check_record(text, game)

    def starts_at_once(self, opponent_id: int | None, *, importing: bool = False) -> bool:
        """Whether this challenge (or import, with `importing`) starts its game without an Accept:
        one to the bot, or a record studied alone (no opponent)."""
        return self.challenges.starts_at_once(opponent_id, importing=importing)

    async def accept(
        self,
        game_id: int,
        user_id: int,
        *,
        channel_id: int | None = None,
        guild_id: int | None = None,
    ) -> GameView:
        """Accept a challenge; the game starts, in `channel_id` (its new thread) if given."""
        where = Where(game_id=game_id, guild_id=guild_id)
        return await self.challenges.accept(where, user_id, channel_id)

    async def may_accept(
        self, game_id: int, user_id: int, *, guild_id: int | None = None
    ) -> GameView:
        """The challenge, if `user_id` may accept it now; else the refusal `accept` would give.

        Nothing is written: the bot asks before it opens a thread for the game.
        """
        return await self.challenges.may_accept(Where(game_id=game_id, guild_id=guild_id), user_id)

    async def decline(self, game_id: int, user_id: int, *, guild_id: int | None = None) -> GameView:
        """Decline a challenge made to you."""
        where = Where(game_id=game_id, guild_id=guild_id)
        return await self.challenges.close(where, user_id, Status.DECLINED)

    async def cancel(self, game_id: int, user_id: int, *, guild_id: int | None = None) -> GameView:
        """Withdraw your own challenge."""
        where = Where(game_id=game_id, guild_id=guild_id)
        return await self.challenges.close(where, user_id, Status.CANCELLED)

    # ------------------------------------------------------------------- play

    async def move(
        self,
        user_id: int,
        text: str,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        game: str | None = None,
        expected_ply: int | None = None,
        guild_id: int | None = None,
    ) -> MoveResult:
        """Play a move given as text; passes that follow are played for the players.

        `expected_ply` is the move number of the board the player chose from: a
        move chosen on a board the game has left behind is refused as stale.
        """
        where = Where(game_id, channel_id, game, guild_id)
        return await self.play.move(where, user_id, text, expected_ply)

    async def play_bot_move(
        self, game_id: int, *, expected_ply: int | None = None, guild_id: int | None = None
    ) -> MoveResult | None:
        """Let the bot move if it is its turn in this game; None when it is not."""
        return await self.play.play_bot_move(Where(game_id, guild_id=guild_id), expected_ply)

    async def choices_for(
        self,
        user_id: int,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        game: str | None = None,
        square: str | None = None,
        typed: str = "",
        expected_ply: int | None = None,
        guild_id: int | None = None,
    ) -> tuple[str, ...]:
        """The moves `user_id` may play now, for a menu or an autocomplete.

        In menu order (captures first, the longest first, then board order);
        only those starting from `square` when given (the two-step pick:
        BadInput if none does), and those matching `typed` (the ones that
        start with it first, then the ones containing it). Raises what a move
        would: not your turn, not a player, game over, stale (`expected_ply`).
        """
        where = Where(game_id, channel_id, game, guild_id)
        return await self.play.choices_for(where, user_id, square, typed, expected_ply)

    # Resigning and draws do not depend on the position, so they take no move number:
    # a button on an old board still resigns (a lost race is decided again on a fresh read).

    async def resign(
        self,
        user_id: int,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        game: str | None = None,
        guild_id: int | None = None,
    ) -> GameView:
        """Give up the game (the side to move, when one user plays both)."""
        return await self.play.resign(Where(game_id, channel_id, game, guild_id), user_id)

    async def claim(
        self,
        user_id: int,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        game: str | None = None,
        guild_id: int | None = None,
    ) -> GameView:
        """End an untimed game whose player to move has not moved for `CLAIM_AFTER`, as
        abandoned (the other player's claim; refused before, saying from when)."""
        return await self.play.claim(Where(game_id, channel_id, game, guild_id), user_id)

    async def offer_draw(
        self,
        user_id: int,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        game: str | None = None,
        guild_id: int | None = None,
    ) -> DrawResult:
        """Offer a draw, or accept the opponent's offer if one is pending."""
        return await self.play.offer_draw(Where(game_id, channel_id, game, guild_id), user_id)

    async def ask_takeback(
        self,
        user_id: int,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        game: str | None = None,
        guild_id: int | None = None,
    ) -> TakebackResult:
        """Ask to take back one's last move (against Kamen at `easy`: taken back at once)."""
        where = Where(game_id, channel_id, game, guild_id)
        return await self.takebacks.ask(where, user_id)

    async def answer_takeback(
        self,
        user_id: int,
        accept: bool,
        *,
        game_id: int,
        expected_ply: int | None = None,
        guild_id: int | None = None,
    ) -> TakebackResult:
        """Grant (the move is taken back) or decline the opponent's takeback request."""
        where = Where(game_id, guild_id=guild_id)
        return await self.takebacks.answer(where, user_id, accept, expected_ply)

    async def accept_draw(
        self,
        user_id: int,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        game: str | None = None,
        guild_id: int | None = None,
    ) -> DrawResult:
        """Accept the opponent's draw offer: the game is drawn."""
        where = Where(game_id, channel_id, game, guild_id)
        return await self.play.answer_draw(where, user_id, True)

    async def decline_draw(
        self,
        user_id: int,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        game: str | None = None,
        guild_id: int | None = None,
    ) -> DrawResult:
        """Decline the opponent's draw offer: the game goes on."""
        where = Where(game_id, channel_id, game, guild_id)
        return await self.play.answer_draw(where, user_id, False)

    # ----------------------------------------------------------------- clocks

    async def sweep(
        self, now: datetime | None = None, *, batch: int = 100, shards: Shards | None = None
    ) -> list[SweepEvent]:
        """Act on the deadlines passed by `now` (the clock's time by default), earliest
        first, in the servers on `shards` (None: all)."""
        return await self.clocks.sweep(now, batch=batch, shards=shards)

    async def credit_downtime(
        self, leases: Sequence[Lease], count: int, now: datetime | None = None
    ) -> list[tuple[GameView, timedelta]]:
        """Give each shard's running clocks the time since the shard's last beat (before
        its lease was taken), if over 30 s.

        Called at start-up, before the sweeper's first sweep: the games whose
        clocks moved, each with the time Kamen was away, for the bot to tell.
        """
        return await self.upkeep.credit_downtime(leases, count, now)

    # ----------------------------------------------------------- the world outside

    async def abandon_channel(self, channel_id: int) -> list[GameView]:
        """A channel or thread is gone: its games end as abandoned, its challenges cancelled."""
        return await self.upkeep.abandon_channel(channel_id)

    async def board_shown(
        self,
        game_id: int,
        message_id: int,
        ply: int,
        status: Status,
        *,
        guild_id: int | None = None,
    ) -> None:
        """Record that message `message_id` shows the game at move `ply` and `status`
        (written with the game's next write, or by `write_behind`)."""
        await self.boards.shown(Where(game_id, guild_id=guild_id), message_id, ply, status)

    async def lagging_boards(
        self, limit: int = 100, *, shards: Shards | None = None
    ) -> list[GameView]:
        """Games whose public board is missing or shows less than the game (recent ones too),
        in the servers on `shards` (None: all)."""
        return await self.boards.lagging(limit, shards=shards)

    async def ping_sent(
        self, game_id: int, message_id: int | None, *, guild_id: int | None = None
    ) -> None:
        """Record the game's last turn notification (None: deleted, or none), at once, with
        the board shown before it (`board_shown`)."""
        await self.boards.ping_sent(Where(game_id, guild_id=guild_id), message_id)

    async def write_behind(self) -> int:
        """Write the boards shown since their games' last write, in one transaction: how
        many games' (the runner does, every second and as it stops; otherwise each waits
        for its game's next write: its ping's, the next move's)."""
        return await self.ledger.write_behind()

    async def pings_on(self, user_id: int) -> bool:
        """Whether the user wants a notification when it is their turn (yes, unless they said)."""
        return await self.boards.pings_on(user_id)

    async def set_pings(self, user_id: int, on: bool) -> UserSettings:
        """Turn the user's turn notifications on or off."""
        return await self.boards.set_pings(user_id, on)

    # ------------------------------------------------------------------ asking

    async def view(
        self,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        game: str | None = None,
        guild_id: int | None = None,
    ) -> GameView:
        """A game as it stands, with its whole move list (the history)."""
        where = Where(game_id, channel_id, game, guild_id)
        return self.ledger.view(await self.ledger.load(where))

    async def view_here(
        self, *, channel_id: int, game: str | None = None, guild_id: int | None = None
    ) -> GameView:
        """The game of a channel or thread: the one being played, else the last that ended
        there (a finished game's thread keeps its game for /history, /replay, /board)."""
        try:
            return await self.view(channel_id=channel_id, game=game, guild_id=guild_id)
        except NoGameHere as error:
            if error.code != NoGameHere.code:
                raise
            row = await self.store.last_finished_in(snowflake(channel_id, "channel"))
            if row is None:
                raise
            return await self.view(game_id=row.id, game=game, guild_id=guild_id)

    async def active_games(self, guild_id: int) -> list[GameView]:
        """The games being played in a server, oldest first."""
        rows = await self.store.active_games(snowflake(guild_id, "server"))
        return [self.ledger.view_of(row) for row in rows]

    async def active_page(self, guild_id: int, *, limit: int, offset: int = 0) -> GamesPage:
        """A page of the games being played in a server, oldest first, and how many there
        are: summaries read from their rows, no position replayed (`/games`)."""
        page = await self.store.active_page(
            snowflake(guild_id, "server"), limit=limit, offset=offset
        )
        marks = self.ledger.marks
        games = tuple(
            dataclasses.replace(game, message_id=marks.message_of(game.id, game.message_id))
            for game in page.games
        )
        return dataclasses.replace(page, games=games)

    async def open_games_of(self, user_id: int) -> list[GameView]:
        """The challenges and games a user is part of."""
        rows = await self.store.open_games_of(snowflake(user_id, "user"))
        return [self.ledger.view_of(row) for row in rows]

    async def bot_turns(self, shards: Shards | None = None) -> list[GameView]:
        """Games waiting for the bot's move, in the servers on `shards` (None: all): to
        resume them after a restart."""
        if self.bot_user_id is None:
            return []
        rows = await self.store.open_games_of(self.bot_user_id)
        rows = [row for row in rows if shards is None or shards.serves(row.guild_id)]
        return [view for view in map(self.ledger.view_of, rows) if view.bot_to_move]

    async def set_board_message(
        self, game_id: int, message_id: int | None, *, guild_id: int | None = None
    ) -> None:
        """Remember the message that shows the game's board (does not change the version)."""
        await self.boards.message(Where(game_id, guild_id=guild_id), message_id)

    async def settings(self, guild_id: int) -> GuildSettings:
        return await self.store.guild_settings(snowflake(guild_id, "server"))

    async def set_threads(self, guild_id: int, on: bool) -> GuildSettings:
        """Whether an accepted challenge opens a thread for its game."""
        if not isinstance(on, bool):
            raise BadInput("match.input.threads")
        current = await self.settings(guild_id)
        settings = dataclasses.replace(current, threads=on)
        return await self.store.save_guild_settings(settings, self.clock())

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> GuildSettings:
        """The role whose members create and run tournaments besides the managers; None: none."""
        current = await self.settings(guild_id)
        role = None if role_id is None else snowflake(role_id, "role")
        settings = dataclasses.replace(current, organiser_role_id=role)
        return await self.store.save_guild_settings(settings, self.clock())

    async def set_time_control(self, guild_id: int, time: str) -> GuildSettings:
        """The server's default time control (`3d`, `1h`, `5+3`; never none): challenges
        between people and tournaments that name no time take it."""
        current = await self.settings(guild_id)
        settings = dataclasses.replace(current, time_control=server_time(time))
        return await self.store.save_guild_settings(settings, self.clock())

    async def set_server_language(self, guild_id: int, language: str | None) -> GuildSettings:
        """The language of the server's public messages; None: its Discord locale decides."""
        current = await self.settings(guild_id)
        settings = dataclasses.replace(current, language=known_language(language))
        return await self.store.save_guild_settings(settings, self.clock())

    async def server_languages(self) -> dict[int, str]:
        """Every server that chose a language, with it."""
        return await self.store.server_languages()

    async def player_languages(self) -> dict[int, str]:
        """Every player who chose a language, with it."""
        return await self.store.player_languages()

    async def user_settings(self, user_id: int) -> UserSettings:
        return await self.store.user_settings(snowflake(user_id, "user"))

    async def set_user_language(self, user_id: int, language: str | None) -> UserSettings:
        """The language of the user's private answers; None: their Discord client's."""
        current = await self.user_settings(user_id)
        settings = dataclasses.replace(current, language=known_language(language))
        return await self.store.save_user_settings(settings, self.clock())

    async def export_record(
        self,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        game: str | None = None,
        guild_id: int | None = None,
        site: str = "",
        first_name: str = "",
        second_name: str = "",
    ) -> str:
        """The game's record (games/RULES.md, Records): tags, numbered moves, result.

        `site` is the name of the game's own server (not the asker's: the same).
        """
        for text, what in ((site, "site"), (first_name, "name"), (second_name, "name")):
            capped(text, MAX_NAME, what)
        loaded = await self.ledger.load(Where(game_id, channel_id, game, guild_id))
        record = record_of(
            loaded.spec,
            loaded.state,
            result=loaded.row.result or "*",
            site=site,
            day=loaded.row.created_at.date(),
            first=first_name,
            second=second_name,
        )
        return record.to_text()
