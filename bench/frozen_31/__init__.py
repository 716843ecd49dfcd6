"""A frozen copy of the Oware and Lasca `hard` and `max` as they stood before issue 31.

`python -m bench.strength` plays today's levels against this copy at equal
time, so the C search of issue 31 is measured against a fixed opponent. The
modules are the copies of games/ai/search.py, search_player.py, levels.py,
lasca_game.py, lasca_eval.py, oware_game.py and oware_eval.py of 7 December
2026 (commit 0d20fda), with their imports pointed here; they use the C
kernels' per-node functions (generate, apply, legal, play, evaluate), which
issue 31 kept unchanged, and the Oware endgame tables as that day's levels
did (`solved` at the root, settled positions as leaves). Do not change them.
"""

from __future__ import annotations

import random
import time
from typing import Any

from bench.frozen_31 import lasca_eval, lasca_game, oware_eval, oware_game, search_player
from bench.frozen_31.levels import level_of
from bench.frozen_31.search import SearchResult
from games import lasca, oware
from games.base import GameState

MARGIN = 0.1  # games/ai/player.py of that day
MIN_MARGIN = 0.015


def think(state: GameState, level: str, *, budget: float, seed: int | None = None) -> SearchResult:
    """That day's player.think for an Oware or Lasca state at `hard` or `max`."""
    began = time.perf_counter()
    chosen = level_of(level)
    legal = state.legal_moves()
    if not legal:
        raise ValueError("the game is over: there is no move to choose")
    if len(legal) == 1:
        return SearchResult(legal[0], 0, 0, 0, time.perf_counter() - began)
    deadline = began + budget - max(MIN_MARGIN, MARGIN * budget)
    rng = random.Random(seed)
    game: Any
    root: Any
    if isinstance(state, oware.OwareState):
        move = oware_game.solved(state, chosen, rng)
        if move is not None:
            return SearchResult(move, 0, 0, 0, time.perf_counter() - began)
        game, root = oware_game.searchable(state, oware_eval.evaluate, tables=True)
    elif isinstance(state, lasca.LascaState):
        continues = state.variant["promotion"] == "continues"
        game = lasca_game.LascaGame(continues, lasca_eval.evaluate)
        root = lasca_game.from_state(state)
    else:
        raise ValueError(f"the frozen copy plays Oware and Lasca, not {state.spec.name}")
    result = search_player.choose(game, root, chosen, deadline, rng)
    if result.move not in legal:
        raise RuntimeError(f"the frozen copy chose `{result.move}`, which is not legal here")
    result.elapsed = time.perf_counter() - began
    return result
