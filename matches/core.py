"""What every part of the match service shares: finding, checking and saving games.

The service takes plain values (user, guild and channel ids, a game name, a
move's text) and returns frozen views, or raises a `MatchError` written for
the player. Each change is one write that checks the version it read: two
actions on one game at once cannot both land, across processes too, and a
result is returned only once its write has committed.

A game is found by its id (components carry it) or by its channel (slash
commands); acting calls take `expected_ply`, the move number a component was
made for, and refuse a click on an old board as stale.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from games.base import GameSpec, GameState, Side
from matches import transitions
from matches.clock import Clock, system_clock
from matches.errors import (
    ChallengeClosed,
    ChallengeExpired,
    GameAlreadyHere,
    GameOver,
    NoGameHere,
    NotAPlayer,
    NotYourTurn,
    OutOfTime,
    StaleAction,
)
from matches.inputs import game_spec, snowflake
from matches.picker import MovePicker
from matches.positions import Positions
from matches.views import Ending, GameView
from store import ChannelBusy, Status, Store, StoredGame

# A write that lost a race to one that left the position alone is simply tried again.
ATTEMPTS = 3
_CLOSED = {
    Status.ACTIVE: "This challenge was already accepted.",
    Status.FINISHED: "This challenge was already accepted, and its game is over.",
    Status.DECLINED: "This challenge was declined.",
    Status.CANCELLED: "This challenge was cancelled.",
}


@dataclass(frozen=True, slots=True)
class Where:
    """Which game a call is about: by id, or the one being played in a channel."""

    game_id: int | None = None
    channel_id: int | None = None
    game: str | None = None


@dataclass(frozen=True, slots=True)
class Loaded:
    """A stored game with its rules and the position its moves lead to."""

    row: StoredGame
    spec: GameSpec
    state: GameState


class ServiceCore:
    """Loading, checking and saving games: what every part of the service shares."""

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
    ) -> None:
        self.store = store
        self.bot_user_id = bot_user_id
        self.picker = picker
        self.clock = clock
        self.rng = rng or random.Random()
        self.challenge_ttl = challenge_ttl
        self.positions = Positions(cache_size)

    # ----------------------------------------------------------------- loading

    async def _load(self, where: Where) -> Loaded:
        spec = game_spec(where.game) if where.game is not None else None
        if where.game_id is not None:
            row = await self.store.get_game(snowflake(where.game_id, "game"))
            if row is None:
                raise NoGameHere(f"There is no game #{where.game_id}.")
        elif where.channel_id is not None:
            row = await self.store.active_game_in(snowflake(where.channel_id, "channel"))
            if row is None:
                raise NoGameHere()
        else:
            raise ValueError("name a game by its id or its channel")
        loaded = self._loaded(row)
        if spec is not None and spec.name != loaded.spec.name:
            raise NoGameHere(f"The game here is {loaded.spec.title}, not {spec.title}.")
        return loaded

    def _loaded(self, row: StoredGame) -> Loaded:
        return Loaded(row, self.positions.spec_of(row), self.positions.state_of(row))

    def _view(self, loaded: Loaded) -> GameView:
        row = loaded.row
        bot = self.bot_user_id if row.ai_level is not None else None
        return GameView(
            id=row.id,
            spec=loaded.spec,
            status=row.status,
            state=loaded.state,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            message_id=row.message_id,
            challenger_id=row.challenger_id,
            opponent_id=row.opponent_id,
            players=row.players,
            bot_id=bot,
            ai_level=row.ai_level,
            result=row.result,
            ending=Ending(row.ending) if row.ending else None,
            reason=row.reason,
            draw_offer_by=row.draw_offer_by,
            move_seconds=row.move_seconds,
            deadline=row.deadline,
            created_at=row.created_at,
            updated_at=row.updated_at,
            version=row.version,
        )

    def _view_of(self, row: StoredGame) -> GameView:
        return self._view(self._loaded(row))

    # ------------------------------------------------------------------ saving

    async def _create(self, row: StoredGame) -> StoredGame:
        try:
            return await self.store.create_game(row)
        except ChannelBusy as error:
            raise GameAlreadyHere() from error

    async def _commit(self, loaded: Loaded, new: StoredGame) -> StoredGame | None:
        """Write `new` over the row it came from: the saved row, or None to try again.

        When another write got there first, the action is stale if the game's
        moves or status changed (the player saw a position that is gone);
        otherwise (a reminder, a draw offer) it is simply tried again.
        """
        try:
            saved = await self.store.update_game(new)
        except ChannelBusy as error:
            raise GameAlreadyHere() from error
        if saved is not None:
            return saved
        now = await self.store.get_game(loaded.row.id)
        if now is None or now.moves != loaded.row.moves or now.status != loaded.row.status:
            raise StaleAction()
        return None

    async def _update(self, where: Where, change: Callable[[Loaded], StoredGame]) -> Loaded:
        """Load the game, let `change` check it and give its new row, save that row.

        `change` raises to refuse; a write that lost only a harmless race is
        tried again on a fresh read, up to ATTEMPTS times.
        """
        for _ in range(ATTEMPTS):
            loaded = await self._load(where)
            saved = await self._commit(loaded, change(loaded))
            if saved is not None:
                return Loaded(saved, loaded.spec, loaded.state)
        raise StaleAction()

    # ---------------------------------------------------------------- checking

    def _check_playing(self, loaded: Loaded, user_id: int, expected_ply: int | None) -> Side:
        """The side of a player who may act in this game now (any side's turn)."""
        row = loaded.row
        if row.status is Status.FINISHED:
            raise GameOver(f"This game is over: {row.result} ({row.reason}).")
        if row.status is Status.CHALLENGE:
            raise NoGameHere("This challenge has not been accepted yet.")
        if row.status is not Status.ACTIVE:
            raise NoGameHere(f"This challenge was {row.status}: there is no game.")
        view = self._view(loaded)
        side = view.side_of(user_id)
        if side is None:
            raise NotAPlayer()
        if expected_ply is not None and expected_ply != len(row.moves):
            raise StaleAction("That board is out of date: the game has moved on. Look again.")
        if row.deadline is not None and self.clock() >= row.deadline:
            raise OutOfTime()
        return side

    def _check_turn(self, loaded: Loaded, user_id: int, expected_ply: int | None) -> Side:
        side = self._check_playing(loaded, user_id, expected_ply)
        if side is not loaded.state.to_move:
            raise NotYourTurn()
        return side

    def _check_challenge(self, loaded: Loaded) -> bool:
        """Whether a challenge is still open; False when its time ran out."""
        row = loaded.row
        if row.status is Status.EXPIRED:
            raise ChallengeExpired()
        if row.status is not Status.CHALLENGE:
            raise ChallengeClosed(_CLOSED.get(row.status))
        return row.deadline is None or self.clock() < row.deadline

    async def _expire(self, loaded: Loaded) -> None:
        """Close a challenge found past its deadline, then refuse (whoever wrote first)."""
        await self.store.update_game(transitions.closed(loaded.row, Status.EXPIRED, self.clock()))
        raise ChallengeExpired()
