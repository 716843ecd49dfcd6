"""Lasca's search kernel in C: the engine's moves and the evaluation's values, exactly."""

from __future__ import annotations

import dataclasses
import random
import shutil

import pytest

from games import lasca as engine
from games.ai import lasca_kernel
from games.ai.lasca_eval import WEIGHTS, Weights, evaluation, python_evaluation
from games.registry import GAMES

Board = tuple[str, ...]


def _boards(games: int, variant: str, seed: int) -> list[tuple[Board, int]]:
    """The boards and sides to move of random games, to their ends."""
    rng = random.Random(seed)
    continues = "continues" in variant
    found = []
    for _ in range(games):
        state = GAMES["lasca"].new(variant)
        board, side = state.board, 0  # type: ignore[attr-defined]
        while moves := lasca_kernel.python_generate(board, side, continues):
            found.append((board, side))
            board, _ = lasca_kernel.python_apply(board, side, rng.choice(list(moves.values())))
            side = 1 - side
        found.append((board, side))
    return found


def test_the_kernel_is_built_where_a_c_compiler_is() -> None:
    # The README's install builds it; without it Lasca's search sees less in its time.
    assert shutil.which("cc") or shutil.which("gcc"), "this test needs a C compiler"
    assert lasca_kernel.COMPILED


@pytest.mark.parametrize("variant", ["", "promotion=continues"])
def test_the_moves_and_boards_are_the_engines_in_its_order(variant: str) -> None:
    continues = bool(variant)
    captures = 0
    for board, side in _boards(40, variant, seed=3):
        expected = lasca_kernel.python_generate(board, side, continues)
        moves = lasca_kernel.generate(board, side, continues)
        assert list(moves.items()) == list(expected.items()), board
        captures += any("x" in move for move in moves)
        for data in expected.values():
            assert lasca_kernel.apply(board, side, data) == lasca_kernel.python_apply(
                board, side, data
            )
    assert captures > 500  # the capture sequences were met, not only steps


def test_a_promotion_that_goes_on_capturing_is_generated_alike() -> None:
    # A White soldier jumps to the far rank and, under `continues`, on as an officer.
    board = list(("",) * len(engine.SQUARES))
    for name, column in {"c5": "w", "d6": "b", "f6": "wb", "a1": "b"}.items():
        board[engine.SQUARES.index(name)] = column
    for continues in (False, True):
        moves = lasca_kernel.generate(tuple(board), 0, continues)
        assert moves == lasca_kernel.python_generate(tuple(board), 0, continues)
    assert list(lasca_kernel.generate(tuple(board), 0, True)) == ["c5xe7xg5"]
    assert list(lasca_kernel.generate(tuple(board), 0, False)) == ["c5xe7"]
    board_after, irreversible = lasca_kernel.apply(
        tuple(board), 0, lasca_kernel.generate(tuple(board), 0, True)["c5xe7xg5"]
    )
    assert board_after[engine.SQUARES.index("g5")] == "bbW"  # promoted, the prisoners below it
    assert board_after[engine.SQUARES.index("f6")] == "w" and irreversible


def test_the_evaluation_is_pythons_for_any_weights() -> None:
    rng = random.Random(5)
    fields = dataclasses.fields(Weights)
    weights = [
        WEIGHTS,
        # Every term on, negative ones among them (a fit may give those).
        Weights(*(rng.randint(-60, 250) for _ in fields)),
        Weights(trade=-40, threat=-15, backed=12, officer_step=9, unit=5, buried=-20),
    ]
    boards = _boards(20, "", seed=9)
    for each in weights:
        compiled, python = evaluation(each), python_evaluation(each)
        for board, side in boards:
            assert compiled(board, side) == python(board, side), (each, board, side)


def test_a_board_that_is_none_is_refused_not_crashed_on() -> None:
    start: Board = GAMES["lasca"].new("").board  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        lasca_kernel.generate(start[:-1], 0, False)
    with pytest.raises(TypeError):
        lasca_kernel.generate((*start[:-1], 7), 0, False)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        lasca_kernel.apply(start, 0, (30, (3,), ()))
    with pytest.raises(ValueError):
        lasca_kernel.apply(start, 0, (0, (), ()))  # no landing
    with pytest.raises(ValueError):
        lasca_kernel.apply(start, 0, (0, (8,), (12,)))  # jumps an empty square
    with pytest.raises(TypeError):
        evaluation(WEIGHTS)(start[:3], 0)
