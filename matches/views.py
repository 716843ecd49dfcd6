"""What the service hands back: plain frozen values the bot turns into replies.

A `GameView` carries the engine state itself, so the renderer and the move
menus need nothing more; a `MoveResult` adds what just happened (the move,
the position before it for highlighting, automatic passes, a lapsed draw
offer), and a `SweepEvent` is what the sweeper decided.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime

from games.base import GameSpec, GameState, MoveInfo, Side
from store import Status


class Ending(enum.StrEnum):
    """How a finished game ended."""

    RULES = "rules"
    RESIGNED = "resigned"
    AGREED = "agreed"
    TIME = "time"


_RESULT_WINNER = {"1-0": Side.FIRST, "0-1": Side.SECOND}


@dataclass(frozen=True, slots=True)
class GameView:
    """A game as it stands: who plays, the position, the result, the clock."""

    id: int
    spec: GameSpec
    status: Status
    state: GameState
    guild_id: int
    channel_id: int
    message_id: int | None
    challenger_id: int
    opponent_id: int | None
    players: tuple[int, int] | None
    bot_id: int | None
    ai_level: str | None
    result: str | None
    ending: Ending | None
    reason: str | None
    draw_offer_by: int | None
    move_seconds: int | None
    deadline: datetime | None
    created_at: datetime
    updated_at: datetime
    version: int

    @property
    def game(self) -> str:
        return self.spec.name

    @property
    def moves(self) -> tuple[str, ...]:
        return self.state.moves

    @property
    def ply(self) -> int:
        """The number of moves played: what components carry to spot stale clicks."""
        return len(self.state.moves)

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

    def headline(self) -> str:
        """One plain English line for the board: the move, any pass, and what next."""
        view = self.view
        parts = [f"{view.side_name(self.side)} played {self.move}."]
        parts += [f"{view.side_name(side)} has no move and passes." for side in self.passes]
        if self.draw_offer_lapsed:
            parts.append("The draw offer lapsed.")
        if view.status is Status.FINISHED:
            parts.append(f"Game over: {view.result} ({view.reason}).")
        elif view.to_move is not None:
            parts.append(f"{view.side_name(view.to_move)} to move.")
        return " ".join(parts)


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
    or the player who lost on time.
    """

    kind: SweepKind
    view: GameView
    user_id: int
