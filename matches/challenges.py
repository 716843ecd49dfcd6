"""Challenges and how games begin: challenge, accept, decline, cancel, import.

A challenge to a user waits for them (24 hours unless configured); an open
challenge waits for anyone; a challenge to the bot, or an imported record
studied alone, starts the game at once. A game starts settled: if the player
to move can only pass, the pass is played for them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import timedelta

from games.base import GameError, GameSpec, GameState, Variant
from games.record import load
from matches import transitions
from matches.core import ATTEMPTS, Loaded, ServiceCore, Where
from matches.errors import (
    BadInput,
    CannotChallengeYourself,
    ChallengeExpired,
    GameAlreadyHere,
    NotAPlayer,
    NotChallenged,
    StaleAction,
    from_game_error,
)
from matches.inputs import (
    MAX_RECORD,
    capped,
    first_choice,
    game_spec,
    level_of,
    move_seconds,
    snowflake,
    variant_of,
)
from matches.picker import DEFAULT_LEVEL
from matches.views import GameView
from store import ChannelBusy, FirstChoice, Status, StoredGame


class Challenges(ServiceCore):
    """Making, answering and importing challenges."""

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
    ) -> GameView:
        """Challenge a user, anyone (no opponent), or the bot (which starts at once).

        `variant` is the `key=value` options, `time` a per-move limit (`5m`,
        `1h`, `1d`, `3d` or none), `first` who plays the first side
        (challenger, opponent or random), `level` the bot's strength.
        """
        spec = game_spec(game)
        chosen = variant_of(spec, variant)
        start = spec.start(chosen)
        return await self._open(
            guild_id, channel_id, challenger_id, opponent_id, spec, start,
            move_seconds(time), first_choice(first), level,
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
    ) -> GameView:
        """Start a game from a record's moves.

        Alone (no opponent) the user plays both sides at once, to study; with
        an opponent it is a challenge like any other, and against the bot it
        starts at once. A record whose game is over cannot be played on.
        """
        spec, state = self.check_record(text, game)
        seconds, choice = move_seconds(time), first_choice(first)
        if opponent_id is None:
            return await self._study(guild_id, channel_id, user_id, spec, state, seconds)
        return await self._open(
            guild_id, channel_id, user_id, opponent_id, spec, state, seconds, choice, level
        )

    def check_record(self, text: str, game: str | None = None) -> tuple[GameSpec, GameState]:
        """The game a record describes and the position it reaches, if a game can go on from it.

        The refusal `import_record` would give otherwise; nothing is written. The bot asks
        before it opens a thread for the game.
        """
        capped(text, MAX_RECORD, "record")
        try:
            record, state = load(text)
        except GameError as error:
            raise from_game_error(error) from error
        if game is not None and game_spec(game).name != record.spec.name:
            raise BadInput(f"This is a record of {record.spec.title}, not {game_spec(game).title}.")
        outcome = state.outcome()
        if outcome is not None:
            raise BadInput(
                f"This record's game is over ({outcome.result}, {outcome.reason}):"
                " there is nothing left to play."
            )
        return record.spec, state

    async def _open(
        self,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int | None,
        spec: GameSpec,
        state: GameState,
        seconds: int | None,
        choice: FirstChoice,
        level: str | None,
    ) -> GameView:
        row = self._new_row(
            guild_id, channel_id, challenger_id, spec, state.variant, state, seconds
        )
        if opponent_id is not None and snowflake(opponent_id, "user") == challenger_id:
            raise CannotChallengeYourself()
        row = replace(row, opponent_id=opponent_id, first_choice=choice)
        if opponent_id is not None and opponent_id == self.bot_user_id:
            return await self._start_with_bot(row, spec, state, level)
        if level is not None:
            raise BadInput("A level is for games against the bot: challenge the bot to use it.")
        settings = await self.store.guild_settings(guild_id)
        if not settings.threads and await self.store.active_game_in(channel_id) is not None:
            raise GameAlreadyHere()
        row = replace(row, deadline=row.created_at + self.challenge_ttl)
        return self._view_of(await self._create(row))

    def _new_row(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        spec: GameSpec,
        variant: Variant,
        state: GameState,
        seconds: int | None,
    ) -> StoredGame:
        now = self.clock()
        return StoredGame(
            guild_id=snowflake(guild_id, "server"),
            channel_id=snowflake(channel_id, "channel"),
            game=spec.name,
            status=Status.CHALLENGE,
            challenger_id=snowflake(user_id, "user"),
            created_at=now,
            updated_at=now,
            variant=str(variant),
            moves=state.moves,
            move_seconds=seconds,
        )

    async def _start_with_bot(
        self, row: StoredGame, spec: GameSpec, state: GameState, level: str | None
    ) -> GameView:
        if self.picker is None or self.bot_user_id is None:
            raise BadInput("The bot cannot play here: no computer opponent is set up.")
        chosen = level_of(level or DEFAULT_LEVEL)
        players = transitions.sides(row.challenger_id, self.bot_user_id, row.first_choice, self.rng)
        return await self._start(replace(row, ai_level=chosen), spec, state, players)

    async def _study(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        spec: GameSpec,
        state: GameState,
        seconds: int | None,
    ) -> GameView:
        row = self._new_row(guild_id, channel_id, user_id, spec, state.variant, state, seconds)
        return await self._start(replace(row, opponent_id=user_id), spec, state, (user_id, user_id))

    async def _start(
        self, row: StoredGame, spec: GameSpec, state: GameState, players: tuple[int, int]
    ) -> GameView:
        settled, _ = transitions.settle(state)
        saved = await self._create(transitions.begin(row, players, settled, row.created_at))
        self.positions.remember(saved.id, settled)
        return self._view(Loaded(saved, spec, settled))

    # --------------------------------------------------------------- answering

    async def accept(
        self, game_id: int, user_id: int, *, channel_id: int | None = None
    ) -> GameView:
        """Accept a challenge; the game starts, in `channel_id` (its new thread) if given."""
        snowflake(user_id, "user")
        place = snowflake(channel_id, "channel") if channel_id is not None else None
        for _ in range(ATTEMPTS):
            loaded = await self._load(Where(game_id=game_id))
            row = loaded.row
            if not self._check_challenge(loaded):
                await self._expire(loaded)
            self._check_acceptor(row, user_id)
            players = transitions.sides(row.challenger_id, user_id, row.first_choice, self.rng)
            state, _ = transitions.settle(loaded.state)
            new = replace(row, opponent_id=user_id, channel_id=place or row.channel_id)
            saved = await self._answer(transitions.begin(new, players, state, self.clock()))
            if saved is not None:
                self.positions.remember(saved.id, state)
                return self._view(Loaded(saved, loaded.spec, state))
        raise StaleAction()

    async def may_accept(self, game_id: int, user_id: int) -> GameView:
        """The challenge, if `user_id` may accept it now; else the refusal `accept` would give.

        Nothing is written: the bot asks before it opens a thread for the game.
        """
        snowflake(user_id, "user")
        loaded = await self._load(Where(game_id=game_id))
        if not self._check_challenge(loaded):
            raise ChallengeExpired()
        self._check_acceptor(loaded.row, user_id)
        return self._view(loaded)

    @staticmethod
    def _check_acceptor(row: StoredGame, user_id: int) -> None:
        if user_id == row.challenger_id:
            raise CannotChallengeYourself("You cannot accept your own challenge.")
        if row.opponent_id is not None and user_id != row.opponent_id:
            raise NotChallenged("Only the challenged user can accept this challenge.")

    async def decline(self, game_id: int, user_id: int) -> GameView:
        """Decline a challenge made to you."""
        return await self._close(game_id, user_id, Status.DECLINED)

    async def cancel(self, game_id: int, user_id: int) -> GameView:
        """Withdraw your own challenge."""
        return await self._close(game_id, user_id, Status.CANCELLED)

    async def _close(self, game_id: int, user_id: int, status: Status) -> GameView:
        for _ in range(ATTEMPTS):
            loaded = await self._load(Where(game_id=game_id))
            row = loaded.row
            if not self._check_challenge(loaded):
                await self._expire(loaded)
            if status is Status.CANCELLED and user_id != row.challenger_id:
                raise NotAPlayer("Only the challenger can cancel this challenge.")
            if status is Status.DECLINED and user_id != row.opponent_id:
                if user_id == row.challenger_id:
                    raise NotChallenged("You cannot decline your own challenge: cancel it.")
                raise NotChallenged("Only the challenged user can decline this challenge.")
            saved = await self._answer(transitions.closed(row, status, self.clock()))
            if saved is not None:
                return self._view_of(saved)
        raise StaleAction()

    async def _answer(self, new: StoredGame) -> StoredGame | None:
        """Write an answer to a challenge: the saved row, or None if it changed meanwhile.

        A lost race is not "try again" here: the next pass reloads the
        challenge and says what became of it (already accepted, cancelled...).
        """
        try:
            return await self.store.update_game(new)
        except ChannelBusy as error:
            raise GameAlreadyHere() from error
