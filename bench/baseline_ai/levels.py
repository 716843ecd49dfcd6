"""The four levels of the computer opponent, and how each one plays.

Every level below `max` makes mistakes at a fixed rate: on that share of its
moves it sets the best move aside and picks a plausible other one, the better
ones more likely. So a mistake is a move a person might make, not a random
one, and the rate is set, not an accident of a noisy search.

Oware and Lasca (alpha-beta search, see search.py):

- `easy`: searches 2 plies; 35 % of its moves are mistakes: a move at most
  6 seeds or soldiers (600 points) worse than the best, with weight
  exp(-loss / 150), so one a seed and a half worse is e times less likely
  than one just below the best. With no such move (a win in hand) it plays
  the best.
- `medium`: searches 4 plies; 15 % mistakes, at most 240 points worse,
  weight exp(-loss / 60).
- `hard`: deepens until its time is up (1 s by default), no mistakes.
- `max`: the same with 2 s and a longer capture search past the horizon.

Oska (solved, see oska_solver.py):

- `easy`: half of its moves are those of a human rule of thumb (take stones,
  go forward, do not step into a capture), blind to the solved values; the
  other half are perfect.
- `medium`: the same with a quarter of rule-of-thumb moves.
- `hard`: perfect, except that on 15 % of its moves it plays the rule of thumb
  among the moves that keep the solved result (a win stays a win, perhaps a
  slower one; a draw stays a draw), so it never throws a result away.
- `max`: perfect: never turns a won or drawn position into a worse one, wins
  as fast as possible and loses as slowly as possible.

Oska under `capture=huff-opponent` is not in the solved table (a position
there carries the removal due), so every level plays it by the search, as
Oware and Lasca are played: `max` deepens until its 2 s are up.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Level:
    """How one level plays; see the module docstring."""

    name: str
    budget: float  # default seconds for a move
    depth: int | None  # a fixed search depth, or None to deepen until the budget
    mistakes: float  # the share of moves that set the best one aside
    temperature: int  # score units: how far below the best a mistake tends to fall
    quiescence: int  # plies of capture search past the horizon
    oska_mistakes: float  # Oska: the share of rule-of-thumb moves
    oska_safe: bool  # Oska: those moves keep the solved result


LEVEL_TABLE: dict[str, Level] = {
    level.name: level
    for level in (
        Level("easy", 0.5, 2, 0.35, 150, 2, 0.5, False),
        Level("medium", 0.8, 4, 0.15, 60, 4, 0.25, False),
        Level("hard", 1.0, None, 0.0, 1, 6, 0.15, True),
        Level("max", 2.0, None, 0.0, 1, 10, 0.0, True),
    )
}

LEVELS: tuple[str, ...] = tuple(LEVEL_TABLE)


def level_of(name: str) -> Level:
    """The level named (any case); ValueError names the levels there are."""
    level = LEVEL_TABLE.get(name.strip().lower())
    if level is None:
        raise ValueError(f"`{name}` is not a level (levels: {', '.join(LEVELS)})")
    return level
