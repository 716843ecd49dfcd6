"""Static evaluations of a Lasca position, from the side to move's view.

A soldier in a column its own side commands is worth 100, an officer 230.
Pieces are never removed in Lasca, so what counts is who commands them: the
run of a side's pieces at the top of a column is its force; an enemy piece
below them is a prisoner (a small gain for the holder, a small hope of
liberation for its owner, more so when it lies right under the run); pieces
of the holder under a prisoner are worth less, they need two liberations.
To that `evaluate` adds the advancement of soldier commanders (promotion
ahead) and mobility: the empty squares the commanders could step to.
`material` counts the free pieces by rank only, the baseline's evaluation.
"""

from __future__ import annotations

from functools import lru_cache

from games import lasca as engine
from games.ai.lasca_game import LascaPos

SOLDIER = 100
OFFICER = 230
HELD = 20  # per prisoner, to the side holding it
LIBERATION_NEAR = 30  # per value 100, the prisoner right under the commanding run
LIBERATION_DEEP = 10
BURIED = 45  # per value 100, an own piece under a prisoner
ADVANCE = 6  # per rank a soldier commander has advanced
STEP = 5  # per empty square a commander could step to
TEMPO = 10

_VALUE = {"w": SOLDIER, "b": SOLDIER, "W": OFFICER, "B": OFFICER}
_WHITE = frozenset("wW")
_RANK = engine.RANK
_STEPS = engine.STEPS  # per kind (White soldier, Black soldier, officer), per square


@lru_cache(maxsize=65536)
def column_value(column: str) -> tuple[int, int]:
    """What a column is worth to White and to Black, advancement aside."""
    worth = [0, 0]
    owner = 0 if column[-1] in _WHITE else 1
    depth = len(column) - 1
    while depth >= 0 and (column[depth] in _WHITE) == (owner == 0):
        worth[owner] += _VALUE[column[depth]]
        depth -= 1
    first_prisoner = True
    while depth >= 0:
        piece = column[depth]
        side = 0 if piece in _WHITE else 1
        if side != owner:
            worth[owner] += HELD
            share = LIBERATION_NEAR if first_prisoner else LIBERATION_DEEP
            worth[side] += _VALUE[piece] * share // 100
            first_prisoner = False
        else:
            worth[side] += _VALUE[piece] * BURIED // 100
        depth -= 1
    return worth[0], worth[1]


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
    """Material by rank and ownership, advancement, mobility."""
    return board_value(pos.board, pos.side)


@lru_cache(maxsize=1 << 16)
def board_value(board: tuple[str, ...], side: int) -> int:
    """`evaluate` of a board with `side` to move (kept: the search meets
    the same boards again through transpositions)."""
    score = [0, 0]
    for square, column in enumerate(board):
        if not column:
            continue
        white, black = column_value(column)
        score[0] += white
        score[1] += black
        top = column[-1]
        if top == "w":
            kind, owner = 0, 0
            score[0] += ADVANCE * (_RANK[square] - 1)
        elif top == "b":
            kind, owner = 1, 1
            score[1] += ADVANCE * (7 - _RANK[square])
        else:
            kind, owner = 2, 0 if top == "W" else 1
        free = 0
        for target, _, _ in _STEPS[kind][square]:
            if not board[target]:
                free += 1
        score[owner] += STEP * free
    return score[side] - score[1 - side] + TEMPO
