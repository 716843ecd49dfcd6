"""The one entry of the computer opponent: a state, a level, a time budget -> a move.

`choose_move` works on any engine state. `play_move` takes plain values (the
game's name, its variant text, the move list) so that a
`concurrent.futures.ProcessPoolExecutor` can run it in a worker process;
`warm_up` is a worker initializer that loads the Oska tables ahead of time.

The budget counts from the call: a move comes back within it, with a margin
for the last iteration's bookkeeping (the search looks at the clock every few
hundred nodes, a few milliseconds).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from games.ai.adapters import ADAPTERS, adapter_for
from games.ai.levels import ALIASES, LEVELS, level_of
from games.ai.search import SearchResult
from games.base import GameState
from games.registry import get

MARGIN = 0.1  # the share of the budget kept back
MIN_MARGIN = 0.015  # seconds


def deadline_of(began: float, budget: float) -> float:
    return began + budget - max(MIN_MARGIN, MARGIN * budget)


def choose_move(
    state: GameState, level: str, *, budget: float | None = None, seed: int | None = None
) -> str:
    """A legal move for the player to move at `level` (one of LEVELS).

    `budget` is the most seconds to spend (default: the level's, 1 s for
    `hard`, 2 s for `max`); `seed` fixes the level's random choices (the
    mistakes and the choice among equal moves). A search cut by the clock
    returns the best move of its last finished depth, so only moves from
    fixed-depth levels (`easy`, `medium`) and Oska are reproducible exactly.
    Raises ValueError for an unknown level or a finished game.
    """
    return think(state, level, budget=budget, seed=seed).move


def think(
    state: GameState, level: str, *, budget: float | None = None, seed: int | None = None
) -> SearchResult:
    """`choose_move` with what the search saw: its depth, nodes and score."""
    began = time.perf_counter()
    chosen = level_of(level, state.spec.name)
    adapter = adapter_for(state.spec)  # before any shortcut: a game without one fails loudly
    legal = state.legal_moves()
    if not legal:
        raise ValueError("the game is over: there is no move to choose")
    if len(legal) == 1:
        return SearchResult(legal[0], 0, 0, 0, time.perf_counter() - began)
    deadline = deadline_of(began, chosen.budget if budget is None else budget)
    result = adapter.choose(state, chosen, deadline, random.Random(seed))
    if result.move not in legal:  # never expected: the mirrors are tested against the engines
        raise RuntimeError(f"the AI chose `{result.move}`, which is not legal here")
    result.elapsed = time.perf_counter() - began
    return result


# A level that searches this few plies answers at once, without a worker (a few ms).
INSTANT_DEPTH = 2


def instant_move(state: GameState, level: str, seed: int | None = None) -> str | None:
    """A move at `level` that needs no thinking, or None when the level must search
    (a worker's job): the only legal move, a table's answer (Oska's solved values,
    Oware's settled endgames at the levels that play them) or a move of a level that
    searches `INSTANT_DEPTH` plies or fewer. The same move `choose_move` would give;
    cheap enough for a thread of the bot's process, so such a move never waits in
    the workers' queue behind another game's search."""
    legal = state.legal_moves()
    if not legal:
        raise ValueError("the game is over: there is no move to choose")
    if len(legal) == 1:
        return legal[0]
    chosen = level_of(level, state.spec.name)
    adapter = adapter_for(state.spec)
    rng = random.Random(seed)
    if adapter.solved is not None:
        move = adapter.solved(state, chosen, rng)
        if move is not None:
            return move
    if chosen.depth is not None and chosen.depth <= INSTANT_DEPTH:
        return choose_move(state, level, seed=seed)
    return None


def play_move(
    game: str,
    variant: str,
    moves: Sequence[str],
    level: str,
    budget: float | None = None,
    seed: int | None = None,
) -> str:
    """`choose_move` from plain values, for a process pool: the position of
    `game` under `variant` (`key=value` text) after `moves`, and the move's
    text. The replay counts against the budget.

    A game, variant or move the engine refuses raises the engine's error (a
    GameError with its code and parameters; it survives the trip back from a
    worker process).
    """
    began = time.perf_counter()
    state = get(game).replay(variant, moves)
    if budget is None:
        budget = level_of(level).budget
    left = budget - (time.perf_counter() - began)
    return choose_move(state, level, budget=max(left, 0.02), seed=seed)


def warm_up() -> None:
    """Load what every game's player needs now (Oska's tables: the shared cache file
    mapped), e.g. as the initializer of the process pool, so no player waits for it."""
    for adapter in ADAPTERS.values():
        if adapter.warm_up is not None:
            adapter.warm_up()


__all__ = ["ALIASES", "LEVELS", "choose_move", "instant_move", "play_move", "warm_up"]
