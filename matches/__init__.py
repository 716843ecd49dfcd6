"""The application service: challenges, turns, draws, time controls, records.

No Discord here: plain values in, frozen views out, `MatchError`s for refusals.
Build a `MatchService` with an opened store (`store.open_store`).
"""

from matches.clock import Clock, ManualClock, system_clock
from matches.errors import (
    BadInput,
    BadMove,
    CannotChallengeYourself,
    ChallengeClosed,
    ChallengeExpired,
    DrawError,
    GameAlreadyHere,
    GameOver,
    MatchError,
    NoGameHere,
    NotAPlayer,
    NotChallenged,
    NotYourTurn,
    OutOfTime,
    StaleAction,
)
from matches.picker import LEVELS, FirstLegalMove, MovePicker, RandomMove
from matches.positions import ReplayError
from matches.service import MatchService
from matches.views import (
    DrawEvent,
    DrawResult,
    Ending,
    GameView,
    MoveResult,
    SweepEvent,
    SweepKind,
)

__all__ = [
    "LEVELS",
    "BadInput",
    "BadMove",
    "CannotChallengeYourself",
    "ChallengeClosed",
    "ChallengeExpired",
    "Clock",
    "DrawError",
    "DrawEvent",
    "DrawResult",
    "Ending",
    "FirstLegalMove",
    "GameAlreadyHere",
    "GameOver",
    "GameView",
    "ManualClock",
    "MatchError",
    "MatchService",
    "MovePicker",
    "MoveResult",
    "NoGameHere",
    "NotAPlayer",
    "NotChallenged",
    "NotYourTurn",
    "OutOfTime",
    "RandomMove",
    "ReplayError",
    "StaleAction",
    "SweepEvent",
    "SweepKind",
    "system_clock",
]
