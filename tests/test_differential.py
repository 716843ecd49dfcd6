"""The engines against independent, naive reference implementations.

`tests/reference/` holds a second implementation of each game, written from
games/RULES.md alone by someone who had not seen the engines: plain coordinates,
mutable objects, no tables. Seeded random games are played on both at once and
every position must agree on the set of legal moves and on the outcome.
"""

from __future__ import annotations

import importlib
import random
from textwrap import dedent
from typing import Any

import pytest

from games import oska
from games.base import Side, Variant
from games.registry import GAMES
from tests.test_ai_oska import REMOVE_THEN_STEP_HOME, REMOVE_THEN_TAKE_THE_LAST
from tests.test_oska import REMOVAL_THEN_NO_MOVE

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


def reference_oska(state: oska.OskaState) -> Any:
    """The reference game at an engine position (a study: no history)."""
    from tests.reference import oska_ref

    ref = oska_ref.Game(state.variant.as_dict())
    for side, colour in ((Side.FIRST, oska_ref.BLUE), (Side.SECOND, oska_ref.RED)):
        for square in oska.SQUARES:
            if ref.board[square] == colour:
                ref.board[square] = None
        for square in state.stones(side):
            ref.board[square] = colour
    ref.to_move = oska_ref.BLUE if state.to_move is Side.FIRST else oska_ref.RED
    ref.must_remove = list(state.forfeitable())
    return ref


@pytest.mark.parametrize("win", ["goal", "elimination"])
def test_oska_removal_studies_agree_and_after_each_move(win: str) -> None:
    # Random games never meet a pass or a draw right after a removal (a removal
    # frees a square for the stone that could have been jumped): studies do.
    variant = oska.SPEC.variant(f"capture=huff-opponent win={win}")
    for diagram in (REMOVAL_THEN_NO_MOVE, REMOVE_THEN_STEP_HOME, REMOVE_THEN_TAKE_THE_LAST):
        root = oska.from_text(dedent(diagram), variant)
        root_ref = reference_oska(root)
        pairs = [(root, root_ref)]
        for move in root.legal_moves():
            ref = root_ref.copy()
            ref.play(move)
            pairs.append((root.play(move), ref))
        for state, ref in pairs:
            assert set(state.legal_moves()) == ref.legal(), state.to_text()
            outcome = state.outcome()
            assert (outcome.label if outcome else None) == ref.result(), state.to_text()
