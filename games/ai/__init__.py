"""The computer opponents of Oska, Lasca and Oware.

    from games.ai import LEVELS, choose_move, play_move

`choose_move(state, level, budget=..., seed=...)` returns a legal move of any
engine state; `play_move(game, variant, moves, level, budget, seed)` does the
same from plain values, for a process pool (with `warm_up` as its
initializer). Levels: `easy`, `medium`, `hard`, `max` (levels.py says how
each plays). Oska is solved (oska_solver.py, table in oska_table.bin); Oware
and Lasca are searched (search.py) within the time budget.
"""

from games.ai.levels import LEVELS
from games.ai.player import choose_move, play_move, warm_up

__all__ = ["LEVELS", "choose_move", "play_move", "warm_up"]
