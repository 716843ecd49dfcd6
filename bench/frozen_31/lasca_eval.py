"""Static evaluations of a Lasca position, from the side to move's view.

A soldier in a column its own side commands is worth 100, an officer more.
Pieces are never removed in Lasca, so what counts is who commands them: the
run of a side's pieces at the top of a column is its force; an enemy piece
below them is a prisoner (a small gain for the holder, a small hope of
liberation for its owner, more so when it lies right under the run); pieces
of the holder under a prisoner are worth less, they need two liberations.
To that `evaluate` adds the advancement of soldier commanders (promotion
ahead) and mobility (the empty squares the commanders could step to).

The weights are a `Weights`; `evaluation(weights)` makes the board
evaluation for any of them (lasca_kernel.c's where it was built, the same
values as `python_evaluation` here), `evaluate` is the one of `WEIGHTS`. Besides the
terms above there are a bonus per soldier kept on its home rank, per
soldier on its fifth and sixth ranks and per soldier with no empty square
behind it (it cannot be jumped from the front), safety (the side to move
stands in a quiet position, the search plays captures out first, so the
opponent's captures threaten it: the most valuable column the opponent could
jump costs a share of what that jump would win), a bonus per commanded
column, per commander on the edge (it cannot be jumped there) and per
officer off it, extra mobility for officers, and a share of the lead that
grows as columns fall (`trade`). The fits set some of them to none.

`WEIGHTS` were fitted to self-play three times (`python -m games.ai.fit_lasca`,
Texel's method), each time to 1,800 games of the weights before:
the hand-set ones (134,000 positions; the error on games the fit never saw
0.1336 -> 0.1291: an officer worth less, 150 for 230, defence more), then
with the ranks, edge, centre and trade terms added (98,000 positions,
0.1222 -> 0.1210), then with the backing and officer mobility terms
(104,000 positions, 0.1434 -> 0.1426: soldiers a step from promotion and
backed soldiers worth more). Each fit was measured in play against the
weights before it (the second 56.7 %, the third 62.5 %, 60 games at 0.2 s a
move) and against the frozen search (README, "Kamen against its old self").
`material` counts the free pieces by rank only, the baseline's evaluation.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from bench.frozen_31.lasca_game import LascaPos
from games import lasca as engine
from games.ai import lasca_kernel as kernel

BoardValue = Callable[[tuple[str, ...], int], int]


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's weights, in points (a soldier is 100) or percents."""

    soldier: int = 100
    officer: int = 170
    held: int = 30  # per prisoner, to the side holding it
    liberation_near: int = 70  # percent of a prisoner right under the commanding run
    liberation_deep: int = 20  # percent of a deeper prisoner
    buried: int = 45  # percent of an own piece under a prisoner
    advance: int = 2  # per rank a soldier commander has advanced
    step: int = 29  # per empty square a commander could step to
    tempo: int = 25
    home: int = 32  # per soldier commander on its home rank
    threat: int = 20  # percent of the best capture the opponent threatens
    unit: int = 0  # per column commanded
    reserve: int = 160  # percent of an own piece under the commander in its run
    rank5: int = 10  # per soldier commander on its fifth rank (counted from its home)
    rank6: int = 35  # per soldier commander on its sixth rank, a step from promotion
    edge: int = 24  # per commander on the board's edge, where it cannot be jumped
    centre: int = 10  # per officer commander off the edge
    trade: int = 0  # percent of the lead gained as the columns fall from 22 to none
    backed: int = 20  # per soldier commander with no empty square behind it
    officer_step: int = 0  # per empty square an officer could step to, beside `step`


WEIGHTS = Weights()

_WHITE = frozenset("wW")
_RANK = engine.RANK
_STEPS = engine.STEPS  # per kind (White soldier, Black soldier, officer), per square
_EDGE = tuple(square[0] in "ag" or _RANK[i] in (1, 7) for i, square in enumerate(engine.SQUARES))
_PIECES = 22
_SOLDIERS = {"w": 0, "b": 1}  # a soldier's kind, which is also its side


def _jumps() -> tuple[tuple[tuple[tuple[int, int], ...], ...], ...]:
    """Per kind and square, the (jumped, landing) pairs: a step, then the
    same step again from the square stepped to."""
    table = []
    for kind in range(3):
        per_square = []
        for square in range(len(engine.SQUARES)):
            pairs: list[tuple[int, int]] = []
            for over, _, _ in _STEPS[2][square]:
                # Squares on a diagonal: the landing is `over` shifted as far again.
                landing = 2 * over - square
                if (
                    0 <= landing < len(engine.SQUARES)
                    and any(t == over for t, _, _ in _STEPS[kind][square])
                    and any(t == landing for t, _, _ in _STEPS[2][over])
                    and abs(_RANK[landing] - _RANK[square]) == 2
                ):
                    pairs.append((over, landing))
            per_square.append(tuple(pairs))
        table.append(tuple(per_square))
    return tuple(table)


_JUMPS = _jumps()


def evaluation(weights: Weights) -> BoardValue:
    """The board evaluation of `weights`: a board and the side to move (0 or
    1) to the score for that side; lasca_kernel.c's where it was built, else
    `python_evaluation`'s (the same values)."""
    compiled = kernel.compiled_evaluation(dataclasses.astuple(weights))
    return compiled if compiled is not None else python_evaluation(weights)


def python_evaluation(weights: Weights) -> BoardValue:
    """`evaluation` in Python, memoized, as the search meets the same boards
    again through transpositions."""
    value = {"w": weights.soldier, "b": weights.soldier, "W": weights.officer}
    value["B"] = weights.officer
    held, near, deep = weights.held, weights.liberation_near, weights.liberation_deep
    buried, advance, step = weights.buried, weights.advance, weights.step
    tempo, home, threat = weights.tempo, weights.home, weights.threat
    unit, reserve = weights.unit, weights.reserve
    rank5, rank6, edge, centre = weights.rank5, weights.rank6, weights.edge, weights.centre
    trade, backed, officer_step = weights.trade, weights.backed, weights.officer_step

    @lru_cache(maxsize=65536)
    def column_value(column: str) -> tuple[int, int, int]:
        """What a column is worth to White and to Black, advancement aside,
        and what its owner loses when its commander is taken."""
        worth = [0, 0]
        owner = 0 if column[-1] in _WHITE else 1
        worth[owner] += unit + value[column[-1]]
        depth = len(column) - 2
        while depth >= 0 and (column[depth] in _WHITE) == (owner == 0):
            worth[owner] += value[column[depth]] * reserve // 100
            depth -= 1
        first_prisoner = True
        while depth >= 0:
            piece = column[depth]
            side = 0 if piece in _WHITE else 1
            if side != owner:
                worth[owner] += held
                share = near if first_prisoner else deep
                worth[side] += value[piece] * share // 100
                first_prisoner = False
            else:
                worth[side] += value[piece] * buried // 100
            depth -= 1
        # Taken: the commander becomes the taker's prisoner, the piece under it
        # (freed when the enemy's) commands what is left.
        loss = value[column[-1]] + held
        if len(column) > 1 and (column[-2] in _WHITE) != (owner == 0):
            loss += value[column[-2]]
        return worth[0], worth[1], loss

    # Per soldier kind and square, what a soldier commander there gets for its rank.
    by_rank = {1: home, 5: rank5, 6: rank6}
    placed = tuple(
        tuple(
            advance * (rank - 1) + by_rank.get(rank, 0)
            for rank in (_RANK[i] if kind == 0 else 8 - _RANK[i] for i in range(len(_RANK)))
        )
        for kind in (0, 1)
    )

    @lru_cache(maxsize=1 << 14)  # ~6 MB; 4x the size hit 17 % against 14 %
    def board_value(board: tuple[str, ...], side: int) -> int:
        score = [0, 0]
        danger = 0
        columns = 0
        for square, column in enumerate(board):
            if not column:
                continue
            columns += 1
            white, black, _ = column_value(column)
            score[0] += white
            score[1] += black
            top = column[-1]
            if top in _SOLDIERS:
                kind = owner = _SOLDIERS[top]
                score[owner] += placed[kind][square]
                if backed and all(board[t] for t, _, _ in _STEPS[1 - kind][square]):
                    score[owner] += backed
            else:
                kind, owner = 2, 0 if top == "W" else 1
                if not _EDGE[square]:
                    score[owner] += centre
            if _EDGE[square]:
                score[owner] += edge
            free = 0
            for target, _, _ in _STEPS[kind][square]:
                if not board[target]:
                    free += 1
            score[owner] += step * free
            if kind == 2:
                score[owner] += officer_step * free
            if threat and owner != side:
                for over, landing in _JUMPS[kind][square]:
                    jumped = board[over]
                    if jumped and not board[landing] and (jumped[-1] in _WHITE) != (owner == 0):
                        loss = column_value(jumped)[2]
                        if loss > danger:
                            danger = loss
        lead = score[side] - score[1 - side]
        if trade:  # rounded alike for both sides
            gain = abs(lead) * trade * (_PIECES - columns) // (100 * _PIECES)
            lead += gain if lead > 0 else -gain
        return lead + tempo - danger * threat // 100

    return board_value


board_value = evaluation(WEIGHTS)


def material(pos: LascaPos) -> int:
    """Free pieces (under their own side's command), soldiers 100, officers 200."""
    score = [0, 0]
    for column in pos.board:
        if not column:
            continue
        owner = 0 if column[-1] in _WHITE else 1
        for piece in column:
            if (piece in _WHITE) == (owner == 0):
                score[owner] += 200 if piece in "WB" else 100
    side = pos.side
    return score[side] - score[1 - side]


def evaluate(pos: LascaPos) -> int:
    """Material by rank and ownership, advancement, mobility, safety."""
    return board_value(pos.board, pos.side)
