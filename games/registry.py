"""The registry: a game's name to its spec. Everything above is generated from it."""

from __future__ import annotations

from games import lasca, oska, oware
from games.base import GameError, GameSpec

GAMES: dict[str, GameSpec] = {spec.name: spec for spec in (oska.SPEC, lasca.SPEC, oware.SPEC)}


def get(name: str) -> GameSpec:
    """The spec of a game by name, any case; GameError `game.unknown` names the games there are."""
    spec = GAMES.get(name.strip().lower())
    if spec is None:
        raise GameError("game.unknown", name=name, games=tuple(GAMES))
    return spec
