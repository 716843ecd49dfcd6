"""What the service hands back: plain frozen values the bot turns into replies.

A `GameView` holds the stored row with the game's rules and the position its
moves lead to, so the renderer and the move menus need nothing more; a new
column is read as `view.row.<column>`, with no edit here. A `MoveResult` adds
what just happened (the move, the position before it for highlighting,
automatic passes, a lapsed draw offer), and a `SweepEvent` is what the
sweeper decided. No English here: `words/` says all of it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from games.base import GameSpec, GameState, MoveInfo, Outcome, Side, Termination
from matches import live_clocks
from matches.live_clocks import LiveClock, LiveControl
from matches.records import Status, StoredGame


class Ending(enum.StrEnum):
    """How a finished game ended (read from its reason code)."""

    RULES = "rules"
    RESIGNED = "resigned"
    AGREED = "agreed"
    TIME = "time"
    ABANDONED = "abandoned"


_ENDINGS = {
    Termination.RESIGNATION: Ending.RESIGNED,
    Termination.AGREEMENT: Ending.AGREED,
    Termination.TIME: Ending.TIME,
    Termination.ABANDONED: Ending.ABANDONED,
}
_RESULT_WINNER = {"1-0": Side.FIRST, "0-1": Side.SECOND}
# Reasons about the side that lost: the other side won.
_ABOUT_THE_LOSER = (Termination.RESIGNATION, Termination.TIME)


def outcome_of(row: StoredGame, state: GameState) -> Outcome | None:
    """How a finished game ended: the engine's outcome when the rules ended it.

    Otherwise it is built from the stored result and reason, with `side` the
    loser for a resignation or a loss on time.
    """
    if row.status is not Status.FINISHED:
        return None
    reason = row.reason
    if reason is None or reason not in _ENDINGS:
        ruled = state.outcome()
        if ruled is not None:
            return ruled
    winner = _RESULT_WINNER.get(row.result or "")
    side = winner.other if winner is not None and reason in _ABOUT_THE_LOSER else None
    return Outcome(winner, reason or Termination.ABANDONED, side)


def outcome_params(outcome: Outcome, spec: GameSpec) -> dict[str, Any]:
    """The params by which a message names an outcome (words writes it out)."""
    return outcome.as_params(spec.name)


@dataclass(frozen=True, slots=True)
class GameView:
    """A game as it stands: who plays, the position, the result, the clock."""

    row: StoredGame
    spec: GameSpec
    state: GameState
    bot_id: int | None = None  # Kamen's user id, in a game against Kamen

    # The row's fields, read through.
    @property
    def id(self) -> int:
        return self.row.id

    @property
    def status(self) -> Status:
        return self.row.status

    @property
    def guild_id(self) -> int:
        return self.row.guild_id

    @property
    def channel_id(self) -> int:
        return self.row.channel_id

    @property
    def message_id(self) -> int | None:
        return self.row.message_id

    @property
    def board_ply(self) -> int | None:
        """The move number the public board message shows (None: not known to show any)."""
        return self.row.board_ply

    @property
    def board_status(self) -> Status | None:
        """The status the public board message shows (None: not known to show any)."""
        return self.row.board_status

    @property
    def ping_message_id(self) -> int | None:
        """The last turn notification, to be deleted when the next one is sent."""
        return self.row.ping_message_id

    @property
    def challenger_id(self) -> int:
        return self.row.challenger_id

    @property
    def opponent_id(self) -> int | None:
        return self.row.opponent_id

    @property
    def players(self) -> tuple[int, int] | None:
        return self.row.players

    @property
    def ai_level(self) -> str | None:
        return self.row.ai_level

    @property
    def result(self) -> str | None:
        return self.row.result

    @property
    def reason(self) -> Termination | None:
        return self.row.reason

    @property
    def draw_offer_by(self) -> int | None:
        return self.row.draw_offer_by

    @property
    def move_seconds(self) -> int | None:
        return self.row.move_seconds

    @property
    def deadline(self) -> datetime | None:
        """When the player to move runs out of time (or a challenge expires); None: never."""
        return self.row.deadline

    # The live clock, if the game has one.
    @property
    def live_control(self) -> LiveControl | None:
        """The live time control (`str(...)` writes it `5+3`); None without a live clock."""
        return live_clocks.control_of(self.row)

    @property
    def has_live_clock(self) -> bool:
        return self.row.base_seconds is not None

    def live_clock(self, now: datetime) -> LiveClock | None:
        """Both sides' time left at `now`, the side to move's counting down; None if not live.

        Before the game (a challenge) both are full; after it, what each had when it ended.
        """
        return live_clocks.clock_of(self.row, self.to_move, now)

    def clock_left(self, side: Side, now: datetime) -> timedelta | None:
        """The time `side` has left at `now` on its live clock; None without a live clock."""
        clock = self.live_clock(now)
        return None if clock is None else clock[side]

    @property
    def created_at(self) -> datetime:
        return self.row.created_at

    @property
    def updated_at(self) -> datetime:
        return self.row.updated_at

    @property
    def version(self) -> int:
        return self.row.version

    # What follows from them.
    @property
    def game(self) -> str:
        return self.spec.name

    @property
    def ending(self) -> Ending | None:
        if self.status is not Status.FINISHED:
            return None
        return _ENDINGS.get(self.reason, Ending.RULES) if self.reason else Ending.RULES

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (see `outcome_of`); None while it goes on."""
        return outcome_of(self.row, self.state)

    @property
    def moves(self) -> tuple[str, ...]:
        return self.state.moves

    @property
    def ply(self) -> int:
        """The number of moves played: what components carry to spot stale clicks."""
        return len(self.state.moves)

    @property
    def board_current(self) -> bool:
        """Whether the public board shows the game as it stands: its move number and status."""
        return (
            self.message_id is not None
            and self.board_ply == self.ply
            and self.board_status is self.status
        )

    @property
    def last_move(self) -> str | None:
        return self.state.moves[-1] if self.state.moves else None

    @property
    def to_move(self) -> Side | None:
        """The side to move while the game is being played."""
        return self.state.to_move if self.status is Status.ACTIVE else None

    @property
    def to_move_id(self) -> int | None:
        side = self.to_move
        return None if side is None else self.player(side)

    @property
    def bot_to_move(self) -> bool:
        return self.bot_id is not None and self.to_move_id == self.bot_id

    @property
    def can_offer_draw(self) -> bool:
        """Whether a draw may be offered: a game being played by two people, neither Kamen."""
        players = self.players
        return (
            self.status is Status.ACTIVE
            and self.bot_id is None
            and players is not None
            and players[0] != players[1]
        )

    @property
    def can_be_claimed(self) -> bool:
        """Whether the player waiting may one day claim the game (`Play.claim`): an untimed
        game between two people (a timed one ends on time; Kamen never stalls)."""
        return (
            self.can_offer_draw and self.row.move_seconds is None and self.row.base_seconds is None
        )

    @property
    def winner(self) -> Side | None:
        return _RESULT_WINNER.get(self.result or "")

    @property
    def winner_id(self) -> int | None:
        side = self.winner
        return None if side is None else self.player(side)

    def player(self, side: Side) -> int | None:
        return None if self.players is None else self.players[side]

    def side_of(self, user_id: int) -> Side | None:
        """The side a user plays (the side to move when one user plays both)."""
        if self.players is None or user_id not in self.players:
            return None
        if self.players[0] == self.players[1]:
            return self.state.to_move
        return Side(self.players.index(user_id))

    def side_name(self, side: Side) -> str:
        return self.spec.side_name(side)


Part = tuple[str, dict[str, Any]]


@dataclass(frozen=True, slots=True)
class MoveResult:
    """A move that has been committed, and what it led to."""

    view: GameView
    move: str
    mover_id: int
    side: Side
    before: GameState
    passes: tuple[Side, ...] = ()
    draw_offer_lapsed: bool = False

    @property
    def info(self) -> MoveInfo:
        """The squares the move touched, for highlighting it."""
        return self.before.describe(self.move)

    @property
    def finished(self) -> bool:
        return self.view.status is Status.FINISHED

    def headline_parts(self) -> tuple[Part, ...]:
        """The board's one line as codes and params: the move, any pass, and what next.

        A `side` is a `Side`: its name is the reader's language's (`words.games.side_names`).

        `words.service.headline(result)` writes it out.
        """
        view = self.view
        parts: list[Part] = [("headline.played", {"side": self.side, "move": self.move})]
        parts += [("headline.passes", {"side": side}) for side in self.passes]
        if self.draw_offer_lapsed:
            parts.append(("headline.draw-lapsed", {}))
        outcome = view.outcome
        if outcome is not None:
            params = {"result": view.result, **outcome_params(outcome, view.spec)}
            parts.append(("headline.game-over", params))
        elif view.to_move is not None:
            parts.append(("headline.to-move", {"side": view.to_move}))
        return tuple(parts)


class DrawEvent(enum.StrEnum):
    """What became of a draw offer."""

    OFFERED = "offered"
    ACCEPTED = "accepted"
    DECLINED = "declined"


@dataclass(frozen=True, slots=True)
class DrawResult:
    """A draw offer made or answered, by `by`."""

    view: GameView
    event: DrawEvent
    by: int


class SweepKind(enum.StrEnum):
    """What the sweeper did: a challenge expired, a reminder, a loss on time."""

    EXPIRED = "expired"
    REMINDER = "reminder"
    TIMEOUT = "timeout"


@dataclass(frozen=True, slots=True)
class SweepEvent:
    """A deadline the sweeper acted on.

    `user_id` is the challenger of an expired challenge, the player reminded,
    or the player who lost on time; `due` is when the deadline (or the reminder)
    fell, so that how late the sweeper acted can be measured.
    """

    kind: SweepKind
    view: GameView
    user_id: int
    due: datetime | None = None
