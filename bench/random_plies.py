"""Positions for the benchmarks: a state played on by random legal moves."""

from __future__ import annotations

import random

from games.base import GameState


def random_plies(state: GameState, plies: int, rng: random.Random) -> GameState:
    """`state` after up to `plies` uniformly random legal moves (fewer when the game ends)."""
    for _ in range(plies):
        legal = state.legal_moves()
        if not legal:
            break
        state = state.play(rng.choice(legal))
    return state
