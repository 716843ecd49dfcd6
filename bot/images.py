"""The pictures the bot sends: a board after each move, a replay GIF on request.

A board PNG costs about 4 ms (render's budget is 5 ms), so it is drawn on
the event loop, right before the reply that carries it. A replay GIF of a
60-move game takes about 0.25 s to build: it is built in a worker thread
from plain values (game, variant, moves). Measured on the 2-core machine
while a 60-move GIF is built, the event loop's lag is 4 ms at the 99th
percentile and 8 ms at most, the same in a thread as with a process pool
(which costs a process more of memory and the GIF's bytes through a pipe);
`replay_of` takes any executor, should that change.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from concurrent.futures import Executor

import render
from games import registry
from games.base import GameState, MoveInfo, Outcome, Side
from matches import GameView

BOARD_SIZE = 640


def board_png(
    state: GameState,
    *,
    last_move: MoveInfo | None = None,
    players: tuple[str, str] | None = None,
    outcome: Outcome | None = None,
) -> bytes:
    """The board of `state` as a PNG, the last move highlighted."""
    return render.board(
        state, last_move=last_move, size=BOARD_SIZE, players=players, outcome=outcome
    )


def outcome_of(view: GameView) -> Outcome | None:
    """The result to draw: the engine's, or the service's (resigned, agreed, lost on time)."""
    if view.result is None:
        return None
    return Outcome(view.winner, view.reason or "")


def replay_gif(
    game: str,
    variant: str,
    moves: Sequence[str],
    players: tuple[str, str] | None,
    result: str | None,
    reason: str | None,
) -> bytes:
    """A GIF of a whole game, from plain values: what a worker process runs."""
    state = registry.get(game).new(variant)
    for move in moves:
        state = state.play(move)
    outcome = None
    if result is not None:
        winner = {"1-0": 0, "0-1": 1}.get(result)
        outcome = Outcome(None if winner is None else Side(winner), reason or "")
    return render.replay(state, size=BOARD_SIZE, players=players, outcome=outcome)


async def replay_of(
    view: GameView, players: tuple[str, str] | None, pool: Executor | None
) -> bytes:
    """The replay GIF of a game, built off the event loop (in `pool`, else a thread)."""
    args = (view.game, str(view.state.variant), view.moves, players, view.result, view.reason)
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(pool, replay_gif, *args)
