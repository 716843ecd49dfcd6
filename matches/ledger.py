"""The ledger: finding, checking and saving games, for every part of the service.

Each change is one write that checks the version it read: two actions on one
game at once cannot both land, across processes too, and a result is
returned only once its write has committed. The ledger owns the only retry
loop (`change`), the position cache, and the domain events: it compares the
row before and after each committed write and publishes what happened (a
game started, moves played, a game finished) to the subscribers. What a game's
messages show waits in `marks` (`matches.marks`) and is written with the
game's next write: a move and the bookkeeping of the move before it, one commit.

A game is found by its id (components carry it) or by its channel (slash
commands).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from games.base import GameSpec, GameState, Termination
from matches.clock import Clock
from matches.errors import GameAlreadyHere, MatchError, NoGameHere, StaleAction
from matches.events import Event, Events, GameFinished, GameStarted, MovePlayed
from matches.inputs import game_spec, snowflake
from matches.marks import Behind, Marks
from matches.move_times import stamped
from matches.positions import Positions
from matches.ratings import RatedGame, RatingChange, counts, rate_game
from matches.records import Status, StoredGame
from matches.storage import ChannelBusy, Store
from matches.views import GameView

# A versioned write that lost a harmless race is tried again on a fresh read, this often:
# a game's (here) and a tournament's (`matches.tournaments`), one policy for both.
ATTEMPTS = 5


@dataclass(frozen=True, slots=True)
class Where:
    """Which game a call is about: by id, or the one being played in a channel.

    `guild_id` is the server asking: a game of another server is not found from
    there. None is Kamen itself (the sweeper, the reconciler), which may reach any.
    """

    game_id: int | None = None
    channel_id: int | None = None
    game: str | None = None
    guild_id: int | None = None


@dataclass(frozen=True, slots=True)
class Loaded:
    """A stored game with its rules and the position its moves lead to."""

    row: StoredGame
    spec: GameSpec
    state: GameState


@dataclass(frozen=True, slots=True)
class Draft:
    """What a decision wants written: the new row, and the position it reaches.

    `state` is given when the moves changed (it goes into the position cache).
    `refusal` is raised once the row has been written, whether or not the
    write landed: closing a challenge found expired, then saying so.
    Subclasses carry what the caller needs back (the move that was played...).
    """

    row: StoredGame
    state: GameState | None = None
    refusal: MatchError | None = None


D = TypeVar("D", bound=Draft)


@dataclass(frozen=True, slots=True)
class Committed(Generic[D]):
    """A change that has been written: the game before it, the draft, the game after."""

    before: Loaded
    draft: D
    after: Loaded


class Race(enum.Enum):
    """What a change that lost a race to another write does."""

    # Stale if the moves changed (the player saw a position that is gone);
    # otherwise (a reminder, a draw offer, the game ended) decided again on a fresh read.
    STALE = "stale"
    # Always decided again on a fresh read: the decision says what became of
    # the game (a challenge already accepted, cancelled; a resignation on the new position).
    RETRY = "retry"


class Ledger:
    """Loads games, writes their changes, keeps their positions, tells what happened."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock,
        bot_user_id: int | None = None,
        cache_size: int = 1024,
        events: Events | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.bot_user_id = bot_user_id
        self.positions = Positions(cache_size)
        self.events = events or Events()
        self.marks = Behind()

    # ----------------------------------------------------------------- loading

    async def load(self, where: Where) -> Loaded:
        spec = game_spec(where.game) if where.game is not None else None
        loaded = self.loaded(await self.find(where))
        if spec is not None and spec.name != loaded.spec.name:
            raise NoGameHere("match.other-game", here=loaded.spec.name, asked=spec.name)
        return loaded

    async def find(self, where: Where) -> StoredGame:
        """The stored game `where` names, if the server asking may reach it (no replay)."""
        guild = snowflake(where.guild_id, "server") if where.guild_id is not None else None
        if where.game_id is not None:
            row = await self.store.get_game(snowflake(where.game_id, "game"))
        elif where.channel_id is not None:
            row = await self.store.active_game_in(snowflake(where.channel_id, "channel"))
            if row is None:
                raise NoGameHere()
        else:
            raise ValueError("name a game by its id or its channel")
        if guild is not None and (row is None or row.guild_id != guild):
            # The same words whether the game is elsewhere or nowhere: ids are not to be probed.
            raise NoGameHere("match.no-game-here.elsewhere")
        if row is None:
            raise NoGameHere("match.no-game-id", game_id=where.game_id)
        return row

    def loaded(self, row: StoredGame) -> Loaded:
        """A row with its rules and position (ReplayError if its moves no longer replay),
        and its messages as last told (`marks`)."""
        row = self.marks.on(row)
        return Loaded(row, self.positions.spec_of(row), self.positions.state_of(row))

    def view(self, loaded: Loaded) -> GameView:
        bot = self.bot_user_id if loaded.row.ai_level is not None else None
        return GameView(loaded.row, loaded.spec, loaded.state, bot)

    def view_of(self, row: StoredGame) -> GameView:
        return self.view(self.loaded(row))

    # ------------------------------------------------------------------ saving

    async def create(self, row: StoredGame, spec: GameSpec, state: GameState) -> Loaded:
        """Insert a new game (a challenge, or a game that starts at once) at `state`."""
        row = stamped(None, row, self.clock())
        try:
            saved = await self.store.create_game(row)
        except ChannelBusy as error:
            raise GameAlreadyHere() from error
        self.positions.remember(saved.id, state)
        after = Loaded(saved, spec, state)
        await self.events.publish(self._happened(None, after))
        return after

    async def change(
        self, where: Where, decide: Callable[[Loaded], D], *, race: Race = Race.STALE
    ) -> Committed[D]:
        """Load the game, let `decide` check it and draft its new row, write that row.

        `decide` raises to refuse. A write that lost a race is handled as
        `race` says, up to ATTEMPTS times; after that the action is stale.
        """
        before = await self.load(where)
        for _ in range(ATTEMPTS):
            draft = decide(before)
            committed = await self.change_once(before, draft)
            if committed is not None:
                return committed
            fresh = await self.store.get_game(before.row.id)
            if fresh is None:
                break
            if race is Race.STALE and fresh.moves != before.row.moves:
                raise StaleAction()
            # Decided again on what the game has become: a game that ended meanwhile
            # refuses as over, not as stale.
            before = self.loaded(fresh)
        raise StaleAction()

    async def change_once(self, before: Loaded, draft: D) -> Committed[D] | None:
        """Write `draft` over the row it came from once: None if another write got there first."""
        rated: RatedGame | None = None
        draft = replace(draft, row=stamped(before.row, draft.row, self.clock()))
        try:
            if self._rates(before.row, draft.row):
                rated = await self.store.finish_rated(draft.row, rate_game)
                saved = await self.store.get_game(draft.row.id) if rated is not None else None
            else:
                with self.marks.taken(draft.row.id) as marks:
                    if marks is None:
                        saved = await self.store.update_game(draft.row)
                    else:  # the bookkeeping of its messages told since its last write
                        saved = await self.store.update_game(draft.row, marks)
                self.marks.landed(draft.row.id, marks, saved is not None)
        except ChannelBusy as error:
            raise GameAlreadyHere() from error
        if draft.refusal is not None:
            raise draft.refusal
        if saved is None:
            return None
        state = draft.state if draft.state is not None else before.state
        if draft.state is not None:
            self.positions.remember(saved.id, state)
        after = Loaded(self.marks.on(saved), before.spec, state)
        changes = rated.changes if rated is not None else ()
        await self.events.publish(self._happened(before, after, changes))
        return Committed(before, draft, after)

    async def write_now(self, game_id: int, marks: Marks) -> None:
        """Write `marks` of a game at once, with what was told of it before (one statement,
        committed without waiting for the disk: the move's commit before it did)."""
        with self.marks.taken(game_id) as told:
            carried = (told or Marks()).then(marks)
            await self.store.write_marks({game_id: carried}, durable=False)
        self.marks.landed(game_id, carried, written=True)

    async def write_behind(self) -> int:
        """Write the marks of every game told since its last write, in one transaction:
        how many games'."""
        return await self.marks.write(self.store.write_marks)

    # ------------------------------------------------------------------ events

    def _rates(self, before: StoredGame, after: StoredGame) -> bool:
        """Whether this write ends a game that counts for ratings (it is rated with it)."""
        if before.status is Status.FINISHED or after.status is not Status.FINISHED:
            return False
        return counts(after) and self.bot_user_id not in (after.first_id, after.second_id)

    def _happened(
        self, before: Loaded | None, after: Loaded, changes: tuple[RatingChange, ...] = ()
    ) -> list[Event]:
        """What a committed write did, as domain events (in the order it happened)."""
        row = after.row
        was = before.row.status if before is not None else None
        players = row.players
        if players is None:
            return []
        events: list[Event] = []
        if row.status is not Status.CHALLENGE and was in (None, Status.CHALLENGE):
            if row.status in (Status.ACTIVE, Status.FINISHED):
                events.append(
                    GameStarted(row.id, row.guild_id, row.channel_id, row.game, players,
                                row.ai_level)
                )  # fmt: skip
        elif before is not None and was is Status.ACTIVE:
            events += self._moves(before, after, players)
        if row.status is Status.FINISHED and was is not Status.FINISHED:
            reason = row.reason or Termination.ABANDONED
            events.append(
                GameFinished(row.id, row.guild_id, row.game, players, row.result or "*",
                             reason, bool(changes), changes)
            )  # fmt: skip
        return events

    def _moves(self, before: Loaded, after: Loaded, players: tuple[int, int]) -> list[Event]:
        old, new = before.row.moves, after.row.moves
        if len(new) <= len(old):
            return []
        row, state = after.row, before.state
        events: list[Event] = []
        for ply, move in enumerate(new[len(old) :], start=len(old) + 1):
            side = state.to_move
            events.append(MovePlayed(row.id, row.guild_id, row.game, ply, move, side,
                                     players[side]))  # fmt: skip
            if ply < len(new):  # the automatic passes that followed: whose they were
                state = state.play(move)
        return events
