"""Who may act on a game now: the checks every action makes before it drafts a change.

Pure functions of a loaded game, the user and the time; each raises the
`MatchError` the player is shown, or returns what the action needs.
"""

from __future__ import annotations

from datetime import datetime

from games.base import Side
from matches.errors import (
    CannotChallengeYourself,
    ChallengeClosed,
    ChallengeExpired,
    DrawError,
    GameOver,
    NoGameHere,
    NotAPlayer,
    NotChallenged,
    NotYourTurn,
    OutOfTime,
    StaleAction,
)
from matches.ledger import Loaded
from matches.records import Status, StoredGame
from matches.views import outcome_of, outcome_params

# What a challenge that is no longer open became, by its status.
_CLOSED = {
    Status.ACTIVE: "match.challenge-closed.accepted",
    Status.FINISHED: "match.challenge-closed.finished",
    Status.DECLINED: "match.challenge-closed.declined",
    Status.CANCELLED: "match.challenge-closed.cancelled",
}


def game_over(loaded: Loaded) -> GameOver:
    """The refusal for acting on a finished game: its result and how it ended."""
    outcome = outcome_of(loaded.row, loaded.state)
    if outcome is None:
        return GameOver()
    params = outcome_params(outcome, loaded.spec)
    return GameOver("match.game-over.result", result=loaded.row.result, **params)


def playing(loaded: Loaded, user_id: int, expected_ply: int | None, now: datetime) -> Side:
    """The side of a player who may act in this game now (any side's turn)."""
    row = loaded.row
    if row.status is Status.FINISHED:
        raise game_over(loaded)
    if row.status is Status.CHALLENGE:
        raise NoGameHere("match.not-accepted-yet")
    if row.status is not Status.ACTIVE:
        raise NoGameHere(f"match.no-game.{row.status.value}")  # declined, expired, cancelled
    side = side_of(row, loaded.state.to_move, user_id)
    if side is None:
        raise NotAPlayer()
    if expected_ply is not None and expected_ply != len(row.moves):
        raise StaleAction("match.stale.board")
    if row.deadline is not None and now >= row.deadline:
        raise OutOfTime()
    return side


def turn(loaded: Loaded, user_id: int, expected_ply: int | None, now: datetime) -> Side:
    """The side of the player to move, if that is `user_id`."""
    side = playing(loaded, user_id, expected_ply, now)
    if side is not loaded.state.to_move:
        raise NotYourTurn()
    return side


def side_of(row: StoredGame, to_move: Side, user_id: int) -> Side | None:
    """The side a user plays (the side to move when one user plays both)."""
    players = row.players
    if players is None or user_id not in players:
        return None
    if players[0] == players[1]:
        return to_move
    return Side(players.index(user_id))


def draw(loaded: Loaded, user_id: int, now: datetime) -> None:
    """A player who may offer or answer a draw: one of two different people."""
    playing(loaded, user_id, None, now)
    first, second = loaded.row.players or (0, 0)
    if first == second:
        raise DrawError("match.draw.both-sides")


def challenge_open(row: StoredGame, now: datetime) -> bool:
    """Whether a challenge is still open; False when its time ran out."""
    if row.status is Status.EXPIRED:
        raise ChallengeExpired()
    if row.status is not Status.CHALLENGE:
        raise ChallengeClosed(_CLOSED.get(row.status))
    return row.deadline is None or now < row.deadline


def acceptor(row: StoredGame, user_id: int) -> None:
    """A user who may accept this challenge."""
    if user_id == row.challenger_id:
        raise CannotChallengeYourself("match.cannot-accept-own")
    if row.opponent_id is not None and user_id != row.opponent_id:
        raise NotChallenged("match.not-challenged.accept")
