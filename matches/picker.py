"""The computer opponent as the service sees it: something that picks a move.

The engines of `games/ai/` meet `MovePicker`; the service calls it when it is
the bot's turn and plays what it returns like any other move. The two simple
pickers here are for tests and for running without the AI.
"""

from __future__ import annotations

import random
from typing import Protocol

from games.ai.levels import ALIASES, LEVELS
from games.base import GameState

# The ladder of levels is the engines' (games/ai/levels.py), named "1" to "8".
__all__ = ["ALIASES", "DEFAULT_LEVEL", "LEVELS", "FirstLegalMove", "MovePicker", "RandomMove"]
DEFAULT_LEVEL = ALIASES["medium"]


class MovePicker(Protocol):
    async def pick(self, state: GameState, level: str) -> str:
        """A legal move of `state` in canonical text, at the strength `level` asks."""
        ...


class FirstLegalMove:
    """Always the first legal move: predictable, for tests."""

    async def pick(self, state: GameState, level: str) -> str:
        return state.legal_moves()[0]


class RandomMove:
    """A random legal move from a seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    async def pick(self, state: GameState, level: str) -> str:
        return self._random.choice(state.legal_moves())
