"""Each game's computer player, found by the game's registry name.

`games/registry.py` knows the games; `ADAPTERS` here knows how the computer
plays each of them. A registered game without an entry is refused when the
bot starts (`check_games`) and by a test, so it can never reach play time and
be met with a random move.

Adding a game's computer player: a module that runs the engine's rules on a
bare position for the search (like `oware_game.py`, with a test against the
engine in tests/test_ai_mirrors.py), an evaluation (like `oware_eval.py`),
and one `AiAdapter` entry in `ADAPTERS`.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from games import lasca, oska, oware
from games.ai import (
    lasca_eval,
    lasca_game,
    oska_game,
    oska_player,
    oska_solver,
    oware_eval,
    oware_game,
    search_player,
)
from games.ai.levels import Level
from games.ai.search import Adapter, SearchResult
from games.base import GameSpec, GameState

# The search adapter of a game and the state as its root position.
Searchable = tuple[Adapter[Any, Any], Any]


class MissingAdapter(LookupError):
    """A registered game has no computer player: a developer's mistake, found at start-up."""


@dataclass(frozen=True, slots=True)
class AiAdapter:
    """How the computer plays one game.

    `search(state, baseline)` gives the alpha-beta adapter and root position
    for a state (with `baseline`, the material-only evaluation of the
    benchmark's reference players). A solved game plays every level from its
    solved values with `solved(state, level, rng)` instead of searching
    (Oska); where that gives None (a variant not solved) the level searches.
    `warm_up` loads what the player needs ahead of the first move.
    """

    # Any: each game's builder takes its own state class.
    search: Callable[[Any, bool], Searchable]
    solved: Callable[[Any, Level, random.Random], str | None] | None = None
    warm_up: Callable[[], None] | None = None

    def choose(
        self, state: GameState, level: Level, deadline: float, rng: random.Random
    ) -> SearchResult:
        """The level's move; a search stops at `deadline` (a perf_counter time)."""
        if self.solved is not None:
            move = self.solved(state, level, rng)
            if move is not None:
                return SearchResult(move, 0, 0, 0, 0.0)
        game, root = self.search(state, False)
        return search_player.choose(game, root, level, deadline, rng)


def _oware_search(state: oware.OwareState, baseline: bool) -> Searchable:
    # The levels' search stops at the endgame tables (exact leaves); the baseline does not.
    if baseline:
        return oware_game.searchable(state, oware_eval.material, tables=False)
    return oware_game.searchable(state, oware_eval.evaluate, weights=oware_eval.WEIGHTS)


def _lasca_search(state: lasca.LascaState, baseline: bool) -> Searchable:
    continues = state.variant["promotion"] == "continues"
    if baseline:
        game = lasca_game.LascaGame(continues, lasca_eval.material)
    else:
        weights = dataclasses.astuple(lasca_eval.WEIGHTS)
        game = lasca_game.LascaGame(continues, lasca_eval.evaluate, weights)
    return game, lasca_game.from_state(state)


def _oska_search(state: oska.OskaState, baseline: bool) -> Searchable:
    # Only the baseline searches Oska (material either way): every level plays from
    # the solved table, capture=huff-opponent included.
    mode, elimination = oska_game.rules_of(state.variant)
    game = oska_game.OskaGame(mode, elimination, oska_game.material)
    return game, oska_game.from_state(state)


def _oska_warm_up() -> None:
    # Maps the shared cache file of the decoded tables (34.6 MB, decoded once a machine).
    if oska_solver.has_table():
        for mode, elimination in oska_solver.VARIANTS:
            oska_solver.table(mode, elimination)


ADAPTERS: dict[str, AiAdapter] = {
    oska.SPEC.name: AiAdapter(_oska_search, solved=oska_player.choose, warm_up=_oska_warm_up),
    lasca.SPEC.name: AiAdapter(_lasca_search),
    oware.SPEC.name: AiAdapter(_oware_search, solved=oware_game.solved),
}


def _missing(name: str) -> MissingAdapter:
    return MissingAdapter(
        f"the game `{name}` has no computer player: add an AiAdapter for it to "
        "ADAPTERS in games/ai/adapters.py"
    )


def adapter_for(game: GameSpec | str) -> AiAdapter:
    """The computer player of a game, by its spec or registry name (any case).

    Raises MissingAdapter naming the game and where its adapter goes.
    """
    name = (game if isinstance(game, str) else game.name).strip().lower()
    adapter = ADAPTERS.get(name)
    if adapter is None:
        raise _missing(name)
    return adapter


def searchable(state: GameState, *, baseline: bool = False) -> Searchable:
    """The search adapter and root position of a state of any game."""
    return adapter_for(state.spec).search(state, baseline)


def check_games(names: Iterable[str]) -> None:
    """Refuse to start when a game has no computer player (the bot's start-up
    passes every registered game's name); MissingAdapter names them all."""
    missing = sorted({name.strip().lower() for name in names} - ADAPTERS.keys())
    if len(missing) == 1:
        raise _missing(missing[0])
    if missing:
        raise MissingAdapter(
            f"the games {', '.join(f'`{name}`' for name in missing)} have no computer "
            "player: add an AiAdapter for each to ADAPTERS in games/ai/adapters.py"
        )
