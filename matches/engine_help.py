"""No engine help in one's own game: Kamen thinks about no position of a game the asker plays.

A game being played between two people (any server) is the asker's own until it
ends. While it runs, Kamen refuses to think about any position it has passed
through, whatever the way there (positions are compared, not records): an
imported record to play on against Kamen or to study alone, a review, and, in a
game against Kamen or a study, a move of the asker's that reaches such a position.
The games' starting positions are left out: they occur in every game. A finished
game is open to everything again.

A position is its game, rules, board and side to move (`key_of`). Each running
game's positions are worked out once and kept (`EngineHelp._known`), brought up to
date by the moves it gained since, as the ledger's position cache does.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from games.base import GameState
from matches.errors import OwnGameRunning
from matches.ledger import Ledger
from matches.records import Status, StoredGame

PositionKey = tuple[str, str, str]


def key_of(state: GameState) -> PositionKey:
    """A position whatever the moves that led to it: game, rules, board and side to move."""
    return state.spec.name, str(state.variant), state.to_text()


def positions_along(state: GameState) -> Iterator[GameState]:
    """Every position of `state`'s game after its start: after each move, up to `state`."""
    position = state.spec.start(state.variant)
    for move in state.moves:
        position = position.play(move)
        yield position


def guarded_game(row: StoredGame) -> bool:
    """A game Kamen must not help with: being played, between two people (not Kamen)."""
    players = row.players
    return (
        row.status is Status.ACTIVE
        and players is not None
        and players[0] != players[1]
        and row.ai_level is None
    )


def helped_game(row: StoredGame) -> bool:
    """A game whose moves Kamen answers or that is studied alone: a player's move there must
    not reach a position of their running games."""
    players = row.players
    return row.ai_level is not None or (players is not None and players[0] == players[1])


@dataclass(frozen=True, slots=True)
class Guard:
    """The positions of one player's running games, each with the game it belongs to."""

    games: dict[PositionKey, int]

    def check(self, states: Iterable[GameState]) -> None:
        """Refuse (`OwnGameRunning`, naming the game) if any of `states` is one of them."""
        if not self.games:
            return
        for state in states:
            game_id = self.games.get(key_of(state))
            if game_id is not None:
                raise OwnGameRunning(id=game_id)


class EngineHelp:
    """Finds a player's running games and their positions, on the ledger it is handed."""

    def __init__(self, ledger: Ledger, size: int = 1024) -> None:
        self.ledger = ledger
        self.size = size
        self._known: OrderedDict[int, tuple[GameState, frozenset[PositionKey]]] = OrderedDict()

    async def guard(self, user_id: int) -> Guard:
        """The positions `user_id`'s running games (any server) have passed through."""
        games: dict[PositionKey, int] = {}
        for row in await self.ledger.store.open_games_of(user_id):
            if guarded_game(row):
                for key in self._positions(row):
                    games.setdefault(key, row.id)
        return Guard(games)

    async def check(self, user_id: int, states: Iterable[GameState]) -> None:
        """Refuse if any of `states` occurs in a running game of `user_id`'s."""
        (await self.guard(user_id)).check(states)

    def _positions(self, row: StoredGame) -> frozenset[PositionKey]:
        known = self._known.get(row.id)
        if known is not None and known[0].moves == row.moves[: len(known[0].moves)]:
            position, keys = known
        else:  # a game's moves only grow while it runs; a takeback starts it over
            position, keys = self.ledger.positions.spec_of(row).new(row.variant), frozenset()
        if len(position.moves) < len(row.moves):
            added = set(keys)
            for move in row.moves[len(position.moves) :]:
                position = position.play(move)
                added.add(key_of(position))
            keys = frozenset(added)
        self._known[row.id] = (position, keys)
        self._known.move_to_end(row.id)
        while len(self._known) > self.size:
            self._known.popitem(last=False)
        return keys
