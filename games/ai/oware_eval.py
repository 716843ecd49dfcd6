"""Static evaluations of an Oware position, from the side to move's view.

One seed in the store is worth 100. `evaluate` adds what a store count misses:
the seeds on each row (they go to the row's owner when the game ends by
starvation or repetition, and they are what a player moves with), pits of 1
or 2 seeds the other side can reach (the next captures), the number of pits a
player can play, and a large pit (12 or more, a kroo) that laps the board.
`material` is the store difference alone, the baseline's evaluation.
`evaluate` is `python_evaluate` computed by oware_kernel.c where it was built.

The weights are fitted to self-play (games.ai.fit_oware, 7 December 2026:
4,000 games, the cross-entropy of the results on the fifth of the games the
fit never saw 0.5513 -> 0.5362) from 12, 22, 8, 40 and 10: the pits a player
can play weigh more than a seed in the store (a row with few of them is near
starvation and leaves few replies), the row seeds and the tempo nothing.
In play (bench.oware_weights, `hard` at 0.1 s a move, 60 games sides
swapped) they scored 70.8 and 65.0 % against the old ones (two runs), and
75.8 % at 0.3 s a move.
"""

from __future__ import annotations

from collections.abc import Callable

from games.ai import oware_kernel
from games.ai.oware_game import OwarePos

STORE = 100
ROW_SEED = 0
TARGET = 30
PLAYABLE = 130
KROO = 20
TEMPO = 0


def material(pos: OwarePos) -> int:
    """The store difference, in hundredths of a seed."""
    side = pos.side
    return STORE * (pos.stores[side] - pos.stores[1 - side])


def _threatened(pits: tuple[int, ...], attacker: int) -> int:
    """Seeds in the defender's 1- and 2-seed pits that one of the attacker's
    pits ends its sowing on (a plain reach test, first lap only), each such
    pit counted once, plus one."""
    base = 6 * attacker
    hit: list[int] = []
    threatened = 0
    for origin in range(base, base + 6):
        seeds = pits[origin]
        if 0 < seeds < 12:
            target = (origin + seeds) % 12
            if (target < 6) != (base == 0) and pits[target] in (1, 2) and target not in hit:
                hit.append(target)
                threatened += pits[target] + 1
    return threatened


def features(pos: OwarePos) -> tuple[int, int, int, int, int, int]:
    """What `python_evaluate` weighs, from the side to move's view, in the order
    of WEIGHTS: the store difference, the row seeds' difference, the threats'
    difference, the playable pits' difference, the kroos' difference (-1, 0 or
    1) and 1 (the move's tempo). The evaluation is their sum by the weights."""
    side = pos.side
    other = 1 - side
    pits = pos.pits
    mine = pits[6 * side : 6 * side + 6]
    theirs = pits[6 * other : 6 * other + 6]
    return (
        pos.stores[side] - pos.stores[other],
        sum(mine) - sum(theirs),
        _threatened(pits, side) - _threatened(pits, other),
        sum(1 for n in mine if n) - sum(1 for n in theirs if n),
        (max(mine) >= 12) - (max(theirs) >= 12),
        1,
    )


def python_evaluate(pos: OwarePos) -> int:
    """Stores first, then seeds on each row, threats, mobility and a kroo."""
    return sum(w * f for w, f in zip(WEIGHTS, features(pos), strict=True))


WEIGHTS: tuple[int, ...] = (
    STORE,
    ROW_SEED,
    TARGET,
    PLAYABLE,
    KROO,
    TEMPO,
)  # `evaluate`'s, for the C search
_compiled = oware_kernel.compiled_evaluation(WEIGHTS)
evaluate: Callable[[OwarePos], int] = python_evaluate
if _compiled is not None:
    _value = _compiled

    def evaluate(pos: OwarePos) -> int:
        """`python_evaluate`'s value, by oware_kernel.c."""
        return _value(pos.pits, pos.stores, pos.side)
