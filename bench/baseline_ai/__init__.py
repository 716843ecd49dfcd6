"""A frozen copy of the Oware and Lasca search as it stood before issue 17.

`python -m bench.ai --baseline` plays today's `hard` against this copy at the
same budget, so a change to games/ai/ is measured against a fixed opponent.
The modules are the copies of games/ai/search.py, search_player.py,
levels.py, lasca_game.py, lasca_eval.py, oware_game.py and oware_eval.py of
2 December 2026 (commit f9a1537), with their imports pointed here; do not
change them.
"""

from __future__ import annotations

import random
import time
from typing import Any

from bench.baseline_ai import lasca_eval, lasca_game, oware_eval, oware_game, search_player
from bench.baseline_ai.levels import level_of
from bench.baseline_ai.search import SearchResult
from games import lasca, oware
from games.base import GameState

MARGIN = 0.1  # games/ai/player.py of that day
MIN_MARGIN = 0.015


def think(state: GameState, level: str, *, budget: float, seed: int | None = None) -> SearchResult:
    """The old player's move for an Oware or Lasca state (player.think of that day)."""
    began = time.perf_counter()
    legal = state.legal_moves()
    if not legal:
        raise ValueError("the game is over: there is no move to choose")
    if len(legal) == 1:
        return SearchResult(legal[0], 0, 0, 0, time.perf_counter() - began)
    if isinstance(state, oware.OwareState):
        rules = oware_game.OwareRules.of(state)
        game: Any = oware_game.OwareGame(rules, oware_eval.evaluate)
        root: Any = oware_game.from_state(state)
    elif isinstance(state, lasca.LascaState):
        continues = state.variant["promotion"] == "continues"
        game = lasca_game.LascaGame(continues, lasca_eval.evaluate)
        root = lasca_game.from_state(state)
    else:
        raise ValueError(f"the baseline copy plays Oware and Lasca, not {state.spec.name}")
    deadline = began + budget - max(MIN_MARGIN, MARGIN * budget)
    result = search_player.choose(game, root, level_of(level), deadline, random.Random(seed))
    result.elapsed = time.perf_counter() - began
    return result
