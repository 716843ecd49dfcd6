"""Perft regression tables: leaf counts of the move tree from the start.

Every table was computed twice, by two independent means: by the engines in
`games/` (through `games.perft`) and by the naive reference implementations in
`tests/reference/`, written from games/RULES.md alone without sight of the engines.
Both are checked here against the same committed numbers. A capture sequence
and a pass each count as one move; a finished game has no children.
"""

from __future__ import annotations

import importlib

import pytest

from games.perft import perft_table
from games.registry import GAMES

OSKA_FORCED = [6, 36, 168, 664, 2034, 4408]
OSKA_HUFF = [6, 36, 168, 784, 3540, 14790]
OSKA_OPTIONAL = [6, 36, 168, 784, 3376, 13584]
# The step no longer multiplies by the stones it could forfeit, the reply does
# (one per stone the opponent may remove): huff and huff-opponent part at depth 5.
OSKA_HUFF_OPPONENT = [6, 36, 168, 784, 3416, 14298]
OWARE = [6, 36, 190, 1014, 5219, 27332]
LASCA_START = [6, 6, 18, 54, 116, 324, 846, 2148, 5692]

TABLES: dict[tuple[str, str], list[int]] = {
    ("oska", ""): OSKA_FORCED,
    ("oska", "win=elimination"): OSKA_FORCED,
    ("oska", "capture=huff"): OSKA_HUFF,
    ("oska", "capture=huff win=elimination"): OSKA_HUFF,
    ("oska", "capture=optional"): OSKA_OPTIONAL,
    ("oska", "capture=optional win=elimination"): OSKA_OPTIONAL,
    ("oska", "capture=huff-opponent"): OSKA_HUFF_OPPONENT,
    ("oska", "capture=huff-opponent win=elimination"): OSKA_HUFF_OPPONENT,
    # Lasca to depth 10, where the promotion variants first part.
    ("lasca", ""): [*LASCA_START, 13898],
    ("lasca", "promotion=continues"): [*LASCA_START, 13890],
    ("oware", ""): OWARE,
    ("oware", "must-play-12=on"): OWARE,
    ("oware", "grandslam=nocapture"): OWARE,
    ("oware", "grandslam=nocapture must-play-12=on"): OWARE,
    ("oware", "grandslam=opponent-takes"): OWARE,
    ("oware", "grandslam=opponent-takes must-play-12=on"): OWARE,
}

CASES = [
    pytest.param(name, variant, id=f"{name}-{variant or 'default'}") for name, variant in TABLES
]


def test_every_variant_of_every_game_has_a_table() -> None:
    expected = {(name, str(v)) for name, spec in GAMES.items() for v in spec.all_variants()}
    assert set(TABLES) == expected


@pytest.mark.parametrize(("name", "variant"), CASES)
def test_engine_perft_matches_the_table(name: str, variant: str) -> None:
    table = TABLES[name, variant]
    assert perft_table(GAMES[name].new(variant), len(table)) == table


@pytest.mark.parametrize(("name", "variant"), CASES)
def test_reference_perft_matches_the_table(name: str, variant: str) -> None:
    reference = importlib.import_module(f"tests.reference.{name}_ref")
    table = TABLES[name, variant]
    options = GAMES[name].variant(variant).as_dict()
    assert reference.perft(options, len(table)) == table
