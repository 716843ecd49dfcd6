"""Which painter draws which game: a table keyed by the registry's game names.

A game added to `games/registry.py` needs a painter here too; the bot checks
at start-up (`check_games`) so that a missing one fails before anyone plays,
not with a broken image in the middle of a game.
"""

from __future__ import annotations

from collections.abc import Iterable

from games import registry
from games.base import GameSpec
from render import lasca, oska, oware
from render.scene import Painter

PAINTERS: dict[str, Painter] = {
    "oska": oska.PAINTER,
    "lasca": lasca.PAINTER,
    "oware": oware.PAINTER,
}


class MissingPainter(LookupError):
    """A registered game that nothing here can draw: a fault of ours, not a player's."""


def painter_for(spec: GameSpec) -> Painter:
    """The painter of `spec`'s game; MissingPainter says where to add one."""
    painter = PAINTERS.get(spec.name)
    if painter is None:
        raise MissingPainter(f"{spec.title} has no painter: add one to render/painters.py PAINTERS")
    return painter


def check_games(names: Iterable[str] = registry.GAMES) -> None:
    """Fail loudly, naming every game of `names` (registry names) that has no painter."""
    missing = [registry.GAMES[name] for name in names if name not in PAINTERS]
    if missing:
        raise MissingPainter(
            "; ".join(
                f"{spec.title} has no painter: add one to render/painters.py PAINTERS"
                for spec in missing
            )
        )
