"""Everything a player can be refused, as one family of typed errors with codes.

Each error carries a `code` (`match.not-your-turn`, ...) and plain `params`;
the words a player reads are the presentation layer's (`words.explain(error)`,
English in `words/english/service.py`). The bot turns any `MatchError` into an
ephemeral reply in one place. Engine errors become these in
`from_game_error`, and nowhere else: they keep the engine's code and params.

A parameter named `outcome` is the game's `Outcome`, with `game` (its name)
and `sides` (its side names) beside it: the words layer writes it out.
"""

from __future__ import annotations

from typing import Any

from games.base import GameError, MoveError


class MatchError(Exception):
    """A refusal: `code` says which, `params` fill in its sentence."""

    code = "match.refused"

    def __init__(self, code: str | None = None, /, **params: Any) -> None:
        self.code = code or type(self).code
        self.params: dict[str, Any] = params
        super().__init__(self.code)

    def __str__(self) -> str:
        # For logs and developers; players read words.explain(error).
        return f"{self.code} {self.params!r}" if self.params else self.code

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.code, self.params))


def _rebuild(cls: type[MatchError], code: str, params: dict[str, Any]) -> MatchError:
    error = cls.__new__(cls)
    MatchError.__init__(error, code, **params)
    return error


class NotYourTurn(MatchError):
    code = "match.not-your-turn"


class NotAPlayer(MatchError):
    code = "match.not-a-player"


class NoGameHere(MatchError):
    code = "match.no-game-here"


class GameAlreadyHere(MatchError):
    code = "match.game-already-here"


class ChallengeRepeated(MatchError):
    """The same challenge is already open: params `id` is it, `channel_id` and
    `message_id` (None if not shown yet) say where, for a link to it."""

    code = "match.challenge-repeated"


class GameOver(MatchError):
    code = "match.game-over"


class OutOfTime(GameOver):
    """The player to move let the deadline pass; the sweeper ends the game."""

    code = "match.out-of-time"


class CannotChallengeYourself(MatchError):
    code = "match.cannot-challenge-yourself"


class NotChallenged(MatchError):
    code = "match.not-challenged"


class NotTakingChallenges(MatchError):
    """A challenge the opponent's own limits refuse (`matches.limits`): their block of the
    challenger, `challenges: nobody`, or a role the challenger lacks, all said alike, so
    that nobody learns they were blocked; `match.cannot-accept` for an accept."""

    code = "match.not-taking-challenges"


class ChallengeClosed(MatchError):
    code = "match.challenge-closed"


class ChallengeExpired(ChallengeClosed):
    code = "match.challenge-expired"


class StaleAction(MatchError):
    code = "match.stale"


class DrawError(MatchError):
    """A draw offer that cannot be made or answered."""

    code = "match.draw.no-offer"


class OwnGameRunning(MatchError):
    """Kamen would think about a position of a game the asker is playing: `id` is that game."""

    code = "match.own-game-running"


class BadInput(MatchError):
    """An unknown game, a variant outside the rules, an over-long text, a bad record."""

    code = "match.bad-input"


class BadMove(MatchError):
    """A malformed or illegal move: the engine's code and params (with `move` and `legal`)."""

    code = "move.not-legal"

    @property
    def move(self) -> str:
        return str(self.params.get("move", ""))

    @property
    def legal(self) -> tuple[str, ...]:
        return tuple(self.params.get("legal", ()))


def from_game_error(error: GameError) -> MatchError:
    """The player's error for an engine's: its code and params, a bad move its legal moves."""
    if isinstance(error, MoveError):
        return BadMove(error.code, **{**error.params, "move": error.move, "legal": error.legal})
    return BadInput(error.code, **error.params)
