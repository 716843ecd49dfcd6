"""How a stored game changes, as pure functions: no I/O, no clock of their own.

The service loads a game, checks who may act, calls one of these to get the
new row, and saves it with the version it read. Keeping them pure keeps the
rules of challenges, turns, clocks and endings in one readable place.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime, timedelta

from games.base import GameState, Side, Termination
from matches import live_clocks
from matches.records import FirstChoice, Status, StoredGame

PASS = "pass"
_RESULT_FOR_LOSER = {Side.FIRST: "0-1", Side.SECOND: "1-0"}


def sides(
    challenger: int, opponent: int, choice: FirstChoice, rng: random.Random
) -> tuple[int, int]:
    """The first and second player, as the challenger chose (or chance decides)."""
    if choice is FirstChoice.RANDOM:
        choice = rng.choice((FirstChoice.CHALLENGER, FirstChoice.OPPONENT))
    if choice is FirstChoice.CHALLENGER:
        return challenger, opponent
    return opponent, challenger


def settle(state: GameState) -> tuple[GameState, tuple[Side, ...]]:
    """Play `pass` for every player whose only legal move it is; the sides that passed."""
    passes: list[Side] = []
    # Two passes in a row cannot happen (neither side able to move is a draw): bounded anyway.
    while len(passes) < 2 and state.outcome() is None and state.legal_moves() == (PASS,):
        passes.append(state.to_move)
        state = state.play(PASS)
    return state, tuple(passes)


def clock(game: StoredGame, now: datetime, to_move: Side | None = None) -> StoredGame:
    """A fresh clock for the player to move (`to_move`), from `now`.

    A per-move limit gives a deadline and a reminder at half time; a live clock
    runs the player's time left out at the deadline, with the low-time warning
    before it (`matches.live_clocks`; it needs `to_move`).
    """
    if game.status is not Status.ACTIVE:
        return replace(game, deadline=None, remind_at=None)
    if live_clocks.control_of(game) is not None:
        if to_move is None:
            raise ValueError("a live clock starts the side to move's time: give `to_move`")
        return live_clocks.turn_begins(game, to_move, now)
    if game.move_seconds is None:
        return replace(game, deadline=None, remind_at=None)
    limit = timedelta(seconds=game.move_seconds)
    return replace(game, deadline=now + limit, remind_at=now + limit / 2)


def begin(
    game: StoredGame, players: tuple[int, int], state: GameState, now: datetime
) -> StoredGame:
    """A challenge turned into a game being played, from `state` (settled: passes played)."""
    started = replace(
        game,
        status=Status.ACTIVE,
        first_id=players[0],
        second_id=players[1],
        moves=state.moves,
        updated_at=now,
    )
    return clock(started, now, state.to_move)


def played(
    game: StoredGame,
    state: GameState,
    now: datetime,
    draw_offer_by: int | None,
    *,
    mover: Side | None = None,
) -> StoredGame:
    """The game after `mover`'s move that led to `state`: ended by the rules, or the next clock.

    A live clock charges the mover the time their turn took and adds the
    increment (so it needs `mover`); the automatic passes in `state` take none.
    """
    moved = replace(
        game, moves=state.moves, draw_offer_by=draw_offer_by, takeback_by=None, updated_at=now
    )
    if live_clocks.control_of(game) is not None:
        if mover is None:
            raise ValueError("a live clock charges the mover: give `mover`")
        moved = live_clocks.charged(moved, mover, now)
    outcome = state.outcome()
    if outcome is not None:
        return finished(moved, outcome.result, outcome.reason, now)
    return clock(moved, now, state.to_move)


def finished(
    game: StoredGame,
    result: str | None,
    reason: Termination,
    now: datetime,
    *,
    running: Side | None = None,
) -> StoredGame:
    """A game over: its result (None: none, `*`) and why, its clock stopped, any offer gone.

    `running` is the side whose live clock was running (the side to move): it
    keeps the time it had left at `now`. Without it, that side keeps the time
    it had when its turn began.
    """
    game = live_clocks.stopped(game, running, now)
    return replace(
        game,
        status=Status.FINISHED,
        result=result,
        reason=reason,
        draw_offer_by=None,
        deadline=None,
        remind_at=None,
        updated_at=now,
    )


def lost_by(
    game: StoredGame,
    loser: Side,
    reason: Termination,
    now: datetime,
    *,
    running: Side | None = None,
) -> StoredGame:
    """A game `loser` lost (by resigning or on time); `running` as for `finished`."""
    return finished(game, _RESULT_FOR_LOSER[loser], reason, now, running=running)


def drawn(game: StoredGame, now: datetime, *, running: Side | None = None) -> StoredGame:
    """A game the two players agreed to draw; `running` as for `finished`."""
    return finished(game, "1/2-1/2", Termination.AGREEMENT, now, running=running)


def abandoned(game: StoredGame, now: datetime, *, running: Side | None = None) -> StoredGame:
    """A game nobody can play on (its channel is gone): over, without a result, not rated."""
    return finished(game, None, Termination.ABANDONED, now, running=running)


def closed(game: StoredGame, status: Status, now: datetime) -> StoredGame:
    """A challenge that ended without a game: declined, expired or cancelled."""
    return replace(game, status=status, deadline=None, remind_at=None, updated_at=now)


def reminded(game: StoredGame, now: datetime) -> StoredGame:
    """The reminder has been sent: it is not due again until the next move."""
    return replace(game, remind_at=None, updated_at=now)
