"""Taking a move back: asked by the player who made it, granted by the opponent.

Only in games that count for no rating (a rating must not hang on a move taken
back), never in a live-clock game (the clocks could not be put back as they
were), and against Kamen only at `easy`, where Kamen grants it at once and takes
back its own reply too. Against a person the move taken back is the asker's
last, and only while the opponent has not answered it: the request is stored
(`takeback_by`), any move or answer clears it, and the opponent accepts or
declines. The position goes back to before the asker's move (and the automatic
passes that followed it); the asker's per-move clock starts again.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from datetime import datetime

from games.base import GameState, Side
from matches import checks, transitions
from matches.clock import Clock
from matches.errors import BadInput, NotAPlayer
from matches.ledger import Draft, Ledger, Loaded, Race, Where
from matches.picker import ALIASES
from matches.records import StoredGame
from matches.transitions import PASS
from matches.views import GameView

# The learners' rungs of the ladder, the only ones at which Kamen grants takebacks.
TAKEBACK_LEVELS = (ALIASES["easy"], "2")


class TakebackEvent(enum.Enum):
    ASKED = "asked"
    TAKEN = "taken"  # granted: by the opponent, or at once by Kamen
    DECLINED = "declined"


@dataclass(frozen=True, slots=True)
class TakebackResult:
    """What a takeback request or answer did: the game now, what happened, the moves
    taken back (when taken) and who asked."""

    view: GameView
    event: TakebackEvent
    asker_id: int
    taken: tuple[str, ...] = ()


class Takebacks:
    """Requests and answers, on the ledger it is handed."""

    def __init__(self, ledger: Ledger, *, bot_user_id: int | None = None) -> None:
        self.ledger = ledger
        self.bot_user_id = bot_user_id

    async def ask(self, where: Where, user_id: int) -> TakebackResult:
        """Ask to take back one's last move; against Kamen (easy) it is taken at once."""
        clock = self.ledger.clock
        taken: tuple[str, ...] = ()

        def asked(loaded: Loaded) -> Draft:
            nonlocal taken
            side = _allowed(loaded, user_id, clock(), self.bot_user_id)
            back = _back_to(loaded, side, against_kamen=loaded.row.ai_level is not None)
            if loaded.row.ai_level is not None:  # Kamen grants it at once
                taken = loaded.row.moves[back:]
                return _taken_back(loaded, back, clock)
            if loaded.row.takeback_by == user_id:
                raise BadInput("match.takeback.already-asked")
            return Draft(replace(loaded.row, takeback_by=user_id, updated_at=clock()))

        after = (await self.ledger.change(where, asked, race=Race.RETRY)).after
        event = TakebackEvent.TAKEN if taken else TakebackEvent.ASKED
        return TakebackResult(self.ledger.view(after), event, user_id, taken)

    async def answer(
        self, where: Where, user_id: int, accept: bool, expected_ply: int | None = None
    ) -> TakebackResult:
        """The opponent grants (the move is taken back) or declines the request."""
        clock = self.ledger.clock
        asker = 0
        taken: tuple[str, ...] = ()

        def answered(loaded: Loaded) -> Draft:
            nonlocal asker, taken
            row = loaded.row
            checks.playing(loaded, user_id, None, clock())
            if row.takeback_by is None or (
                expected_ply is not None and expected_ply != len(row.moves)
            ):
                raise BadInput("match.takeback.none")
            if row.takeback_by == user_id:
                raise BadInput("match.takeback.own")
            asker = row.takeback_by
            if not accept:
                return Draft(replace(row, takeback_by=None, updated_at=clock()))
            side = _allowed(loaded, asker, clock(), self.bot_user_id)
            back = _back_to(loaded, side, against_kamen=False)
            taken = row.moves[back:]
            return _taken_back(loaded, back, clock)

        after = (await self.ledger.change(where, answered, race=Race.RETRY)).after
        event = TakebackEvent.TAKEN if accept else TakebackEvent.DECLINED
        return TakebackResult(self.ledger.view(after), event, asker, taken)


def counts_for_ratings(row: StoredGame) -> bool:
    """Whether the game, once over, would be rated (see `matches.ratings.counts`)."""
    players = row.players
    return (
        row.rated
        and players is not None
        and players[0] != players[1]
        and row.ai_level is None
        and row.variant == ""
    )


def _allowed(loaded: Loaded, user_id: int, now: datetime, bot_user_id: int | None) -> Side:
    """The asker's side, if this game allows them a takeback now; else the refusal."""
    row = loaded.row
    side = checks.playing(loaded, user_id, None, now)
    if row.players is not None and row.players[0] == row.players[1]:
        raise BadInput("match.takeback.study")
    if counts_for_ratings(row):
        raise BadInput("match.takeback.rated")
    if row.base_seconds is not None:
        raise BadInput("match.takeback.live-clock")
    if row.ai_level is not None and row.ai_level not in TAKEBACK_LEVELS:
        raise BadInput("match.takeback.level", level=row.ai_level)
    if user_id == bot_user_id:
        raise NotAPlayer()
    return side


def _back_to(loaded: Loaded, side: Side, *, against_kamen: bool) -> int:
    """How many moves stay: the game before the asker's last move.

    Against a person, only while the opponent has not answered it (what follows it
    is automatic passes at most); against Kamen, its reply goes too.
    """
    spec, variant, moves = loaded.spec, loaded.state.variant, loaded.row.moves
    states: list[GameState] = [spec.start(variant)]
    for move in moves:
        states.append(states[-1].play(move))
    for ply in range(len(moves) - 1, -1, -1):
        mover = states[ply].to_move
        if mover is side and moves[ply] != PASS:
            later = range(ply + 1, len(moves))
            answered = any(states[j].to_move is not side and moves[j] != PASS for j in later)
            if answered and not against_kamen:
                raise BadInput("match.takeback.answered")
            return ply
    raise BadInput("match.takeback.no-move")


def _taken_back(loaded: Loaded, back: int, clock: Clock) -> Draft:
    """The game with only its first `back` moves, the asker to move on a fresh clock."""
    row, spec = loaded.row, loaded.spec
    state = spec.replay(loaded.state.variant, row.moves[:back])
    now = clock()
    shorter = replace(
        row, moves=state.moves, takeback_by=None, draw_offer_by=None, updated_at=now
    )
    return Draft(transitions.clock(shorter, now, state.to_move), state)
