"""The application service: challenges, turns, draws, time controls, records.

No Discord here: plain values in, frozen views out, `MatchError`s (codes with
params) for refusals, domain events for subscribers. Build a `MatchService`
with an opened store (`store.open_store`). The domain's values (`Status`,
`StoredGame`, ...) and the `Store` protocol live here; `store/` implements it.
"""

from matches.clock import Clock, ManualClock, system_clock
from matches.errors import (
    BadInput,
    BadMove,
    CannotChallengeYourself,
    ChallengeClosed,
    ChallengeExpired,
    ChallengeRepeated,
    DrawError,
    GameAlreadyHere,
    GameOver,
    MatchError,
    NoGameHere,
    NotAPlayer,
    NotChallenged,
    NotTakingChallenges,
    NotYourTurn,
    OutOfTime,
    OwnGameRunning,
    StaleAction,
)
from matches.events import Audited, Event, Events, GameFinished, GameStarted, MovePlayed
from matches.inputs import level_of
from matches.ledger import Ledger
from matches.picker import DEFAULT_LEVEL, LEVELS, FirstLegalMove, MovePicker, RandomMove
from matches.play import CLAIM_AFTER, ordered_moves, origin
from matches.positions import ReplayError
from matches.records import (
    ChallengesFrom,
    FirstChoice,
    GuildSettings,
    Status,
    StoredGame,
    UserSettings,
)
from matches.service import MatchService
from matches.storage import ChannelBusy, Store, StoreError
from matches.takebacks import TakebackEvent, TakebackResult
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
    "CLAIM_AFTER",
    "DEFAULT_LEVEL",
    "LEVELS",
    "Audited",
    "BadInput",
    "BadMove",
    "CannotChallengeYourself",
    "ChallengeClosed",
    "ChallengeExpired",
    "ChallengeRepeated",
    "ChallengesFrom",
    "ChannelBusy",
    "Clock",
    "DrawError",
    "DrawEvent",
    "DrawResult",
    "Ending",
    "Event",
    "Events",
    "FirstChoice",
    "FirstLegalMove",
    "GameAlreadyHere",
    "GameFinished",
    "GameOver",
    "GameStarted",
    "GameView",
    "GuildSettings",
    "Ledger",
    "ManualClock",
    "MatchError",
    "MatchService",
    "MovePicker",
    "MovePlayed",
    "MoveResult",
    "NoGameHere",
    "NotAPlayer",
    "NotChallenged",
    "NotTakingChallenges",
    "NotYourTurn",
    "OutOfTime",
    "OwnGameRunning",
    "RandomMove",
    "ReplayError",
    "StaleAction",
    "Status",
    "Store",
    "StoreError",
    "StoredGame",
    "SweepEvent",
    "SweepKind",
    "TakebackEvent",
    "TakebackResult",
    "UserSettings",
    "level_of",
    "ordered_moves",
    "origin",
    "system_clock",
]
