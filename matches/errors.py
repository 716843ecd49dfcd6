"""Everything a player can be refused, as one family of typed errors.

Each error's `message` is what the player reads; the bot turns any
`MatchError` into an ephemeral reply in one place. Engine errors become these
in `from_game_error`, and nowhere else.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.base import GameError, MoveError


class MatchError(Exception):
    """A refusal; `message` is written for the player."""

    default = "That cannot be done."

    def __init__(self, message: str | None = None) -> None:
        self.message = message or self.default
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message


class NotYourTurn(MatchError):
    default = "It is not your turn: wait for your opponent's move."


class NotAPlayer(MatchError):
    default = "You are not a player in this game."


class NoGameHere(MatchError):
    default = "There is no game in this channel."


class GameAlreadyHere(MatchError):
    default = "A game is already being played here: finish it, or play in another channel."


class GameOver(MatchError):
    default = "This game is over."


class OutOfTime(GameOver):
    """The player to move let the deadline pass; the sweeper ends the game."""

    default = "Time has run out for this move: the game is lost on time."


class CannotChallengeYourself(MatchError):
    default = "You cannot challenge yourself."


class NotChallenged(MatchError):
    default = "Only the challenged user can answer this challenge."


class ChallengeClosed(MatchError):
    default = "This challenge is no longer open."


class ChallengeExpired(ChallengeClosed):
    default = "This challenge has expired."


class StaleAction(MatchError):
    default = "The position changed, try again."


class DrawError(MatchError):
    """A draw offer that cannot be made or answered."""

    default = "There is no draw offer to answer."


class BadInput(MatchError):
    """An unknown game, a variant outside the rules, an over-long text, a bad record."""

    default = "That input is not valid."


class BadMove(MatchError):
    """A malformed or illegal move; `legal` lists the moves that are allowed."""

    def __init__(self, message: str, move: str, legal: Sequence[str]) -> None:
        super().__init__(message)
        self.move = move
        self.legal = tuple(legal)


def from_game_error(error: GameError) -> MatchError:
    """The player's error for an engine's: a bad move keeps its legal moves."""
    if isinstance(error, MoveError):
        return BadMove(error.message, error.move, error.legal)
    return BadInput(error.message)
