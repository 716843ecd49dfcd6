"""Challenges and how games begin: challenge, accept, decline, cancel, import.

A challenge to a user waits for them (24 hours unless configured); an open
challenge waits for anyone; a challenge to the bot, or an imported record
studied alone, starts the game at once. A game starts settled: if the player
to move can only pass, the pass is played for them.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable
from dataclasses import replace
from datetime import timedelta

from games.base import GameError, GameSpec, GameState, Variant
from games.record import load
from matches import checks, live_clocks, transitions
from matches.clock import Clock
from matches.engine_help import EngineHelp, positions_along
from matches.errors import (
    BadInput,
    CannotChallengeYourself,
    ChallengeExpired,
    ChallengeRepeated,
    GameAlreadyHere,
    NotAPlayer,
    NotChallenged,
    StaleAction,
    from_game_error,
)
from matches.inputs import (
    LIVE_CONTROLS,
    MAX_RECORD,
    MOVE_LIMITS,
    TimeControl,
    capped,
    first_choice,
    game_spec,
    level_of,
    snowflake,
    time_control,
    variant_of,
)
from matches.ledger import ATTEMPTS, Draft, Ledger, Loaded, Race, Where
from matches.limits import Limits
from matches.live_clocks import LiveControl
from matches.managers import Managers
from matches.picker import DEFAULT_LEVEL, MovePicker
from matches.records import FirstChoice, Status, StoredGame
from matches.storage import RematchExists
from matches.views import GameView, outcome_params


class Challenges:
    """Making, answering and importing challenges, on the ledger it is handed."""

    def __init__(
        self,
        ledger: Ledger,
        *,
        managers: Managers,
        bot_user_id: int | None = None,
        picker: MovePicker | None = None,
        rng: random.Random,
        challenge_ttl: timedelta,
        limits: Limits | None = None,
        engine_help: EngineHelp,
    ) -> None:
        self.ledger = ledger
        self.limits = limits or Limits(ledger, bot_user_id=bot_user_id)
        self.managers = managers
        self.engine_help = engine_help
        self.bot_user_id = bot_user_id
        self.picker = picker
        self.rng = rng
        self.challenge_ttl = challenge_ttl

    def starts_at_once(self, opponent_id: int | None, *, importing: bool = False) -> bool:
        """Whether a challenge begins its game without an Accept.

        A challenge to the bot does, and so does a record imported with no
        opponent (studied alone); every other challenge waits for an answer.
        """
        if importing and opponent_id is None:
            return True
        return opponent_id is not None and opponent_id == self.bot_user_id

    async def challenge(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        game: str,
        opponent_id: int | None,
        variant: Iterable[str] | str,
        time: str | timedelta | LiveControl | None,
        first: str | FirstChoice,
        level: str | None,
        rated: bool = True,
        rematch_of: int | None = None,
        challenger_roles: Collection[int] = (),
    ) -> GameView:
        """`time`: none, a limit per move (`5m`, `1d`) or a live clock (`5+3`); not named
        (None), the server's default (`_control`); `rematch_of`: the game this is a rematch
        of, which has one live rematch at a time; `challenger_roles`: the challenger's roles
        in the server (`Limits.may_challenge`)."""
        spec = game_spec(game)
        start = spec.start(variant_of(spec, variant))
        control = await self._control(guild_id, time, opponent_id, rated=rated)
        return await self._open(
            guild_id, channel_id, challenger_id, opponent_id, spec, start,
            control, first_choice(first), level, rated=rated,
            rematch_of=snowflake(rematch_of, "game") if rematch_of is not None else None,
            roles=challenger_roles,
        )  # fmt: skip

    async def import_record(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        text: str,
        game: str | None,
        opponent_id: int | None,
        time: str | timedelta | LiveControl | None,
        first: str | FirstChoice,
        level: str | None,
        challenger_roles: Collection[int] = (),
    ) -> GameView:
        spec, state = await self.may_import(user_id, text, game, opponent_id)
        control = await self._control(guild_id, time, opponent_id, rated=False, importing=True)
        choice = first_choice(first)
        if opponent_id is None:  # studied alone: starts at once (see starts_at_once)
            return await self._study(guild_id, channel_id, user_id, spec, state, control)
        return await self._open(
            guild_id, channel_id, user_id, opponent_id, spec, state, control, choice, level,
            rated=False, roles=challenger_roles,
        )  # fmt: skip

    async def may_import(
        self, user_id: int, text: str, game: str | None, opponent_id: int | None
    ) -> tuple[GameSpec, GameState]:
        """The record's game and position, if `user_id` may go on from it against
        `opponent_id`: a record that reads and is not over and, alone or against Kamen, none
        of whose positions occurs in a game `user_id` is playing (`matches.engine_help`)."""
        spec, state = self.check_record(text, game)
        if self.starts_at_once(opponent_id, importing=True):
            await self.engine_help.check(snowflake(user_id, "user"), positions_along(state))
        return spec, state

    async def _control(
        self,
        guild_id: int,
        time: str | timedelta | LiveControl | None,
        opponent_id: int | None,
        *,
        rated: bool,
        importing: bool = False,
    ) -> TimeControl:
        """A new game's time control. Between people a game must be able to end: one whose
        challenge names no time takes the server's default (never none), and a rated one
        named untimed is refused. A game against Kamen, or studied alone, is untimed unless
        a time is named (Kamen never stalls, and neither is ever rated)."""
        if self.starts_at_once(opponent_id, importing=importing):
            return time_control(time)
        if time is None:
            settings = await self.ledger.store.guild_settings(snowflake(guild_id, "server"))
            return time_control(settings.time_control)
        control = time_control(time)
        if rated and control.untimed:
            raise BadInput("match.rated-needs-time", live=LIVE_CONTROLS, per_move=MOVE_LIMITS)
        return control

    def check_record(self, text: str, game: str | None = None) -> tuple[GameSpec, GameState]:
        capped(text, MAX_RECORD, "record")
        try:
            record, state = load(text)
        except GameError as error:
            raise from_game_error(error) from error
        if game is not None and game_spec(game).name != record.spec.name:
            asked = game_spec(game).name
            raise BadInput("match.record-of-other-game", record=record.spec.name, asked=asked)
        outcome = state.outcome()
        if outcome is not None:
            params = outcome_params(outcome, record.spec)
            raise BadInput("match.record-over", result=outcome.result, **params)
        return record.spec, state

    async def _open(
        self,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int | None,
        spec: GameSpec,
        state: GameState,
        control: TimeControl,
        choice: FirstChoice,
        level: str | None,
        *,
        rated: bool,
        rematch_of: int | None = None,
        roles: Collection[int] = (),
    ) -> GameView:
        row = self._new_row(
            guild_id, channel_id, challenger_id, spec, state.variant, state, control
        )
        row = replace(row, rated=rated, rematch_of=rematch_of)
        if opponent_id is not None and snowflake(opponent_id, "user") == challenger_id:
            raise CannotChallengeYourself()
        row = replace(row, opponent_id=opponent_id, first_choice=choice)
        settings = await self.managers.gate(
            row.guild_id, row.channel_id, row.challenger_id,
            with_person=not self.starts_at_once(opponent_id),
        )  # fmt: skip
        if self.starts_at_once(opponent_id):
            return await self._start_with_bot(row, spec, state, level)
        if level is not None:
            raise BadInput("match.level-without-bot")
        if opponent_id is not None:  # the one check of the opponent's own limits
            await self.limits.may_challenge(challenger_id, opponent_id, roles)
        store = self.ledger.store
        if not settings.threads and await store.active_game_in(channel_id) is not None:
            raise GameAlreadyHere()
        for open_row in map(self.ledger.marks.on, await store.open_games_of(row.challenger_id)):
            if open_row.status is Status.CHALLENGE and _same_offer(open_row, row):
                raise ChallengeRepeated(
                    id=open_row.id, channel_id=open_row.channel_id, message_id=open_row.message_id
                )
        row = replace(row, deadline=row.created_at + self.challenge_ttl)
        return self.ledger.view(await self._create(row, spec, state))

    async def _create(self, row: StoredGame, spec: GameSpec, state: GameState) -> Loaded:
        """The new game written; a second live rematch of one game (Rematch pressed twice at
        once, or by both players) is refused, saying where the first is."""
        for _ in range(ATTEMPTS):
            try:
                return await self.ledger.create(row, spec, state)
            except RematchExists:
                assert row.rematch_of is not None
                first = await self.ledger.store.live_rematch(row.rematch_of)
            if first is None:
                continue  # over between the two reads: this one may be made now
            first = self.ledger.marks.on(first)  # its message as last told
            same = first.challenger_id == row.challenger_id and first.status is Status.CHALLENGE
            raise ChallengeRepeated(
                "match.challenge-repeated" if same else "match.rematch-exists",
                id=first.id, of=row.rematch_of, channel_id=first.channel_id,
                message_id=first.message_id,
            )  # fmt: skip
        raise StaleAction()

    def _new_row(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        spec: GameSpec,
        variant: Variant,
        state: GameState,
        control: TimeControl,
    ) -> StoredGame:
        now = self.ledger.clock()
        row = StoredGame(
            guild_id=snowflake(guild_id, "server"),
            channel_id=snowflake(channel_id, "channel"),
            game=spec.name,
            status=Status.CHALLENGE,
            challenger_id=snowflake(user_id, "user"),
            created_at=now,
            updated_at=now,
            variant=str(variant),
            moves=state.moves,
            move_seconds=control.move_seconds,
        )
        return live_clocks.chosen(row, control.live)

    async def _start_with_bot(
        self, row: StoredGame, spec: GameSpec, state: GameState, level: str | None
    ) -> GameView:
        if self.picker is None or self.bot_user_id is None:
            raise BadInput("match.no-bot")
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
        control: TimeControl,
    ) -> GameView:
        row = self._new_row(guild_id, channel_id, user_id, spec, state.variant, state, control)
        await self.managers.gate(row.guild_id, row.channel_id, row.challenger_id, with_person=False)
        return await self._start(replace(row, opponent_id=user_id), spec, state, (user_id, user_id))

    async def _start(
        self, row: StoredGame, spec: GameSpec, state: GameState, players: tuple[int, int]
    ) -> GameView:
        settled, _ = transitions.settle(state)
        begun = transitions.begin(row, players, settled, row.created_at)
        return self.ledger.view(await self._create(begun, spec, settled))

    # --------------------------------------------------------------- answering

    async def accept(self, where: Where, user_id: int, channel_id: int | None) -> GameView:
        snowflake(user_id, "user")
        place = snowflake(channel_id, "channel") if channel_id is not None else None
        clock = self.ledger.clock
        await self._may_take(await self.ledger.find(where), user_id)

        def accepted(loaded: Loaded) -> Draft:
            row = loaded.row
            if not checks.challenge_open(row, clock()):
                return _expired(row, clock)
            checks.acceptor(row, user_id)
            players = transitions.sides(row.challenger_id, user_id, row.first_choice, self.rng)
            state, _ = transitions.settle(loaded.state)
            new = replace(row, opponent_id=user_id, channel_id=place or row.channel_id)
            return Draft(transitions.begin(new, players, state, clock()), state)

        # A lost race is decided again: the fresh read says what became of the challenge.
        committed = await self.ledger.change(where, accepted, race=Race.RETRY)
        return self.ledger.view(committed.after)

    async def may_accept(self, where: Where, user_id: int) -> GameView:
        snowflake(user_id, "user")
        loaded = await self.ledger.load(where)
        if not checks.challenge_open(loaded.row, self.ledger.clock()):
            raise ChallengeExpired()
        checks.acceptor(loaded.row, user_id)
        await self._may_take(loaded.row, user_id)
        return self.ledger.view(loaded)

    async def _may_take(self, row: StoredGame, user_id: int) -> None:
        """Refuse the accept of someone suspended on the server, of a challenge whose author
        has been suspended since (`Managers`), or of someone the challenger blocks
        (`Limits.may_accept`). Not an acceptor's: the accept itself says why."""
        acceptor = row.challenger_id != user_id and row.opponent_id in (None, user_id)
        if row.status is not Status.CHALLENGE or not acceptor:
            return
        refuse = self.managers.refuse_suspended
        await refuse(row.guild_id, user_id, "managers.accept.suspended")
        await refuse(row.guild_id, row.challenger_id, "managers.accept.challenger-suspended")
        await self.limits.may_accept(row.challenger_id, user_id)

    async def close(self, where: Where, user_id: int, status: Status) -> GameView:
        """Decline (the challenged user) or cancel (the challenger) a challenge."""
        clock = self.ledger.clock

        def closed(loaded: Loaded) -> Draft:
            row = loaded.row
            if not checks.challenge_open(row, clock()):
                return _expired(row, clock)
            if status is Status.CANCELLED and user_id != row.challenger_id:
                raise NotAPlayer("match.not-a-player.cancel")
            if status is Status.DECLINED and user_id != row.opponent_id:
                if user_id == row.challenger_id:
                    raise NotChallenged("match.not-challenged.own")
                raise NotChallenged("match.not-challenged.decline")
            return Draft(transitions.closed(row, status, clock()))

        committed = await self.ledger.change(where, closed, race=Race.RETRY)
        return self.ledger.view(committed.after)


def _expired(row: StoredGame, clock: Clock) -> Draft:
    """Close a challenge found past its deadline, then refuse (whoever wrote first)."""
    return Draft(transitions.closed(row, Status.EXPIRED, clock()), refusal=ChallengeExpired())


def _same_offer(one: StoredGame, other: StoredGame) -> bool:
    """Two challenges that offer the same game: same server, challenger and opponent (or both
    open to anyone), game, rules, time control, sides and rating."""
    keys = ("guild_id", "challenger_id", "opponent_id", "game", "variant", "move_seconds",
            "base_seconds", "increment_seconds", "first_choice", "rated")  # fmt: skip
    return all(getattr(one, key) == getattr(other, key) for key in keys)
