"""The computer opponents of Oska, Lasca and Oware.

    from games.ai import LEVELS, check_games, choose_move, play_move

`choose_move(state, level, budget=..., seed=...)` returns a legal move of any
engine state; `play_move(game, variant, moves, level, budget, seed)` does the
same from plain values, for a process pool (with `warm_up` as its
initializer). Each game's player is found by its name in
`adapters.ADAPTERS`; `check_games(names)` (run at the bot's start-up) refuses
a game without one. Levels: `easy`, `medium`, `hard`, `max` (levels.py says how
each plays). Oska is solved (oska_solver.py, table in oska_table.bin); Oware
and Lasca are searched (search.py) within the time budget.
"""

from __future__ import annotations

from typing import Any

from games.ai.levels import ALIASES, LEVELS

__all__ = ["ALIASES", "LEVELS", "adapter_for", "check_games", "choose_move", "play_move", "warm_up"]


def __getattr__(name: str) -> Any:
    # Imported on first use, so that `python -m games.ai.oska_solver` runs its module
    # fresh instead of finding it already imported through the players.
    if name in ("choose_move", "play_move", "warm_up"):
        from games.ai import player

        return getattr(player, name)
    if name in ("adapter_for", "check_games"):
        from games.ai import adapters

        return getattr(adapters, name)
    raise AttributeError(f"module 'games.ai' has no attribute {name!r}")
