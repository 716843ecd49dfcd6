"""Positions rebuilt from move lists, with the last ones kept in memory.

The stored move list is the truth; a position is what replaying it gives.
The cache keeps the latest state of the most recently used games: a game that
gained moves since (in this process or another) is brought up to date by
playing only the new ones, so a move costs one `play`, not a replay.
"""

from __future__ import annotations

from collections import OrderedDict

from games import registry
from games.base import GameError, GameSpec, GameState, play_on
from matches.records import StoredGame


class ReplayError(RuntimeError):
    """A stored game whose moves no longer replay: a fault of ours, not the player's."""


class Positions:
    """A bounded cache of game id → its latest replayed state."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._states: OrderedDict[int, GameState] = OrderedDict()

    def spec_of(self, game: StoredGame) -> GameSpec:
        try:
            return registry.get(game.game)
        except GameError as error:
            raise ReplayError(f"game #{game.id}: {error}") from error

    def state_of(self, game: StoredGame) -> GameState:
        """The position a stored game has reached."""
        cached = self._states.get(game.id)
        done = len(cached.moves) if cached is not None else 0
        # A game's variant never changes; its moves only grow, so a prefix is still good.
        if cached is None or cached.moves != game.moves[:done]:
            cached, done = self._start(game), 0
        try:
            state = play_on(cached, game.moves[done:])
        except GameError as error:
            ply, move = error.params.get("ply"), error.params.get("move")
            raise ReplayError(f"game #{game.id}, move {ply} `{move}`: {error}") from error
        self.remember(game.id, state)
        return state

    def remember(self, game_id: int, state: GameState) -> None:
        self._states[game_id] = state
        self._states.move_to_end(game_id)
        while len(self._states) > self.size:
            self._states.popitem(last=False)

    def _start(self, game: StoredGame) -> GameState:
        try:
            return self.spec_of(game).new(game.variant)
        except GameError as error:
            raise ReplayError(f"game #{game.id}: {error}") from error
