"""The Lasca evaluation: fair to both sides, and it prefers what wins."""

from __future__ import annotations

import random

from games import lasca as engine
from games.ai import lasca_eval
from games.ai.lasca_eval import Weights, evaluate, evaluation
from games.ai.lasca_game import LascaPos, from_state, moves_of, play
from games.registry import GAMES

_SWAP = str.maketrans("wbWB", "bwBW")
_EMPTY = ("",) * len(engine.SQUARES)


def _turned(square: int) -> int:
    """The square seen from the other side of the board."""
    name = engine.SQUARES[square]
    file, rank = engine.FILES.index(name[0]), int(name[1])
    return engine.SQUARES.index(f"{engine.FILES[6 - file]}{8 - rank}")


def _mirror(pos: LascaPos) -> LascaPos:
    """The same position with the colours swapped and the board turned round."""
    board = [""] * len(pos.board)
    for square, column in enumerate(pos.board):
        board[_turned(square)] = column.translate(_SWAP)
    return LascaPos(tuple(board), 1 - pos.side, pos.quiet, ())


def _positions(games: int, seed: int) -> list[LascaPos]:
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        pos = from_state(GAMES["lasca"].new(""))  # type: ignore[arg-type]
        while moves := list(moves_of(pos, False)):
            found.append(pos)
            pos = play(pos, rng.choice(moves), False)
    return found


def _board(**columns: str) -> tuple[str, ...]:
    board = list(_EMPTY)
    for name, column in columns.items():
        board[engine.SQUARES.index(name)] = column
    return tuple(board)


def test_both_sides_are_judged_alike() -> None:
    # Every feature on, so that each one is checked for a bias to one colour.
    weights = Weights(
        threat=40,
        home=20,
        unit=30,
        reserve=80,
        rank5=10,
        rank6=20,
        edge=7,
        centre=9,
        trade=30,
        backed=11,
        officer_step=3,
    )
    value = evaluation(weights)
    for pos in _positions(20, seed=4):
        mirrored = _mirror(pos)
        assert evaluate(mirrored) == evaluate(pos)
        assert value(mirrored.board, mirrored.side) == value(pos.board, pos.side)


def test_a_side_to_move_sees_the_negated_score_of_its_opponent() -> None:
    # Without the threat term, the only difference between the two views is the tempo.
    value = evaluation(Weights(threat=0))
    tempo = lasca_eval.WEIGHTS.tempo
    for pos in _positions(5, seed=5):
        white, black = value(pos.board, 0), value(pos.board, 1)
        assert white - tempo == -(black - tempo)


def test_a_free_piece_more_is_better_and_an_officer_more_better_still() -> None:
    even = _board(c3="w", e5="b")
    soldier_up = _board(c3="w", a1="w", e5="b")
    officer_up = _board(c3="w", a1="W", e5="b")
    assert lasca_eval.board_value(soldier_up, 0) > lasca_eval.board_value(even, 0)
    assert lasca_eval.board_value(officer_up, 0) > lasca_eval.board_value(soldier_up, 0)
    assert lasca_eval.board_value(soldier_up, 1) < lasca_eval.board_value(even, 1)


def test_a_threatened_column_costs_its_side_when_threats_count() -> None:
    # Black to move; White's soldier on c3 could jump Black's column on d4 to e5.
    threatened = _board(c3="w", d4="wb", a7="b")
    safe = _board(c3="w", f4="wb", a7="b")
    careless = evaluation(Weights(threat=0))
    careful = evaluation(Weights(threat=50))
    gap_careless = careless(safe, 1) - careless(threatened, 1)
    gap_careful = careful(safe, 1) - careful(threatened, 1)
    assert gap_careful > gap_careless


def test_each_placement_term_counts_its_weight_for_the_side_it_helps() -> None:
    # White to move; each pair of boards differs in one thing only.
    cases = {
        "rank6": (_board(d6="w", a7="b"), _board(d4="w", a7="b")),
        "rank5": (_board(c5="w", a7="b"), _board(c3="w", a7="b")),
        "backed": (_board(d4="w", c3="w", e3="w", a7="b"), _board(d4="w", c3="w", g3="w", a7="b")),
        "edge": (_board(a3="w", g7="b"), _board(c3="w", g7="b")),
        "centre": (_board(d4="W", g7="b"), _board(a5="W", g7="b")),
    }
    for name, (helped, other) in cases.items():
        base = dict(threat=0, step=0, home=0, advance=0, edge=0, centre=0, rank5=0, rank6=0)
        on = evaluation(Weights(**{**base, "backed": 0, name: 40}))
        off = evaluation(Weights(**{**base, "backed": 0}))
        gain = (on(helped, 0) - on(other, 0)) - (off(helped, 0) - off(other, 0))
        assert gain == 40, name  # once, for White's piece only
        # Black's view: White's gain, to the point.
        assert on(helped, 1) - off(helped, 1) == -(on(helped, 0) - off(helped, 0)), name
