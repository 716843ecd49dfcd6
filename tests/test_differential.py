"""The engines against independent, naive reference implementations.

`tests/reference/` holds a second implementation of each game, written from
games/RULES.md alone by someone who had not seen the engines: plain coordinates,
mutable objects, no tables. Seeded random games are played on both at once and
every position must agree on the set of legal moves and on the outcome.
"""

from __future__ import annotations

import importlib
import random

import pytest

from games.base import Variant
from games.registry import GAMES

GAMES_PER_VARIANT = {"oska": 500, "oware": 200, "lasca": 200}

CASES = [
    pytest.param(name, variant, id=f"{name}-{variant or 'default'}")
    for name, spec in GAMES.items()
    for variant in spec.all_variants()
]


@pytest.mark.parametrize(("name", "variant"), CASES)
def test_engine_agrees_with_the_reference_move_by_move(name: str, variant: Variant) -> None:
    reference = importlib.import_module(f"tests.reference.{name}_ref")
    spec = GAMES[name]
    for seed in range(GAMES_PER_VARIANT[name]):
        rng = random.Random(f"differential/{name}/{variant}/{seed}")
        state = spec.start(variant)
        ref = reference.Game(variant.as_dict())
        while True:
            legal = state.legal_moves()
            assert set(legal) == ref.legal(), f"after {' '.join(state.moves)}"
            assert len(set(legal)) == len(legal)
            outcome = state.outcome()
            assert (outcome.label if outcome else None) == ref.result(), " ".join(state.moves)
            if not legal:
                break
            move = rng.choice(legal)
            state = state.play(move)
            ref.play(move)
