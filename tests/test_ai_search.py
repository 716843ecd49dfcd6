"""The alpha-beta search itself: exact on small games, reproducible at a fixed depth."""

from __future__ import annotations

import random

import pytest

from games import oska
from games.ai import oska_game, oska_solver
from games.ai.adapters import searchable
from games.ai.search import WIN, Searcher
from games.ai.search_player import deepen
from games.base import Side
from games.registry import GAMES


def late_oska_positions(variant: str, count: int, stones: int) -> list[oska.OskaState]:
    rng = random.Random(variant)
    found: list[oska.OskaState] = []
    while len(found) < count:
        state = oska.start(oska.SPEC.variant(variant))
        while state.legal_moves() and sum(len(state.stones(s)) for s in Side) > stones:
            state = state.play(rng.choice(state.legal_moves()))
        if len(state.legal_moves()) > 1:
            found.append(state)
    return found


@pytest.mark.parametrize("variant", ["", "capture=huff win=elimination"])
def test_a_deep_search_finds_the_solved_value(variant: str) -> None:
    """Searched to the end, alpha-beta with its table and move ordering gives
    every small Oska position the solver's value, distance included."""
    for state in late_oska_positions(variant, 12, stones=5):
        mode, elimination = oska_game.rules_of(state.variant)
        solved = oska_solver.value(*oska_game.masks(state), mode, elimination)
        game = oska_game.OskaGame(mode, elimination, oska_game.material)
        root = oska_game.from_state(state)
        _, moves = game.expand(root)
        result = Searcher(game).iterate(root, moves, 40)
        if solved == 0:
            assert result.score == 0, state.to_text()
        else:
            plies = oska_solver.WIN - abs(solved)
            assert result.score == (WIN - plies if solved > 0 else -WIN + plies), state.to_text()


@pytest.mark.parametrize("name", ["oware", "lasca"])
def test_a_fixed_depth_and_seed_give_the_same_move(name: str) -> None:
    rng = random.Random(4)
    state = GAMES[name].new()
    for _ in range(10):
        state = state.play(rng.choice(state.legal_moves()))
    game, root = searchable(state)
    first = deepen(game, root, None, random.Random(1), quiescence=4, max_depth=4)
    game, root = searchable(state)
    again = deepen(game, root, None, random.Random(1), quiescence=4, max_depth=4)
    assert (first.move, first.score, first.nodes) == (again.move, again.score, again.nodes)
    assert first.depth == 4
    assert first.move in state.legal_moves()


class FakeClock:
    """A clock that moves a millisecond each time it is read."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return self.reads / 1000


def test_the_deadline_stops_the_search() -> None:
    state = GAMES["lasca"].new()
    game, root = searchable(state)
    _, moves = game.expand(root)
    clock = FakeClock()
    result = Searcher(game, deadline=0.05, clock=clock).iterate(root, moves, 64)
    assert result.move in state.legal_moves()
    assert 0 < result.depth < 64
    assert clock.reads <= 55  # never much past the deadline (50 looks)
