"""The eight levels of the computer opponent, and how each one plays.

The levels are a ladder, "1" (weakest) to "8" (strongest), so that each rung
scores roughly 70-80 % against the one below (bench/levels.py measures it).
Five rungs keep the names the levels had before the ladder had eight: 1 easy,
3 medium, 5 medium-hard, 7 hard, 8 max (`ALIASES`: the names are still
understood wherever a level is written).

Every level that searches a fixed depth makes mistakes at a fixed rate: on
that share of its moves it sets the best move aside and picks a plausible
other one, the better ones more likely. So a mistake is a move a person might make, not a random
one, and the rate is set, not an accident of a noisy search.

Oware and Lasca (alpha-beta search, see search.py). Levels 1 to 5 (Lasca:
1 to 6) search a fixed depth in Python and make mistakes: on a share of
their moves a move at most 4 temperatures worse than the best (a
temperature in points, 100 a seed or a soldier), with weight
exp(-loss / temperature); with no such move (a win in hand) the best.

    level         1     2     3     4     5     6
    Oware depth   2     3     4     6     8     C, to depth 10, no mistakes
      mistakes   35 %  30 %  20 %  12 %  10 %
      temperature 150  120    75    50    40
    Lasca depth   2     3     4     4     6     8
      mistakes   35 %  35 %  22 %  10 %   8 %   4 %
      temperature 150  135    80    60    45    30

(`LEVEL_TABLE` holds the common ladder, `TUNING` where a game differs: each
ply counts for more in Lasca than in Oware, so its rungs search less deep.)

- 7 (`hard`): deepens until its time is up (1 s by default), no mistakes; it
  stops early, once a quarter of its time is spent, when the best move and the
  score have held for several depths and the next depth would not finish
  (search.py says how the time is managed). The search runs
  in C (timed_search.h in the games' kernels: search.py's search, its table
  kept from move to move; Lasca's also prunes quiet positions near the
  horizon whose score is far above what the search needs), a few plies deeper
  than search.py's in the same time; in Oware the endgame tables play the
  positions they settle and are the search's exact leaves.
- 8 (`max`): the same with 2 s and a longer capture search past the horizon
  (10 plies to `hard`'s 6).

Oska (solved, see oska_solver.py):

- 1 (`easy`): half of its moves are those of a human rule of thumb (take
  stones, go forward, do not step into a capture), blind to the solved values;
  the other half are perfect.
- 2 to 6: the same with 35 %, 25 %, 17 %, 10 % and 5 % of rule-of-thumb moves.
- 7 (`hard`): perfect, except that on 15 % of its moves it plays the rule of thumb
  among the moves that keep the solved result (a win stays a win, perhaps a
  slower one; a draw stays a draw), so it never throws a result away.
- 8 (`max`): perfect: never turns a won or drawn position into a worse one, wins
  as fast as possible and loses as slowly as possible.

Oska under `capture=huff-opponent` is in the solved table too (a position
whose side to move owes a removal is valued through the removals it may
make), so every level plays it as above.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace


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
    # Per game, the strength measured by games between the levels and fixed
    # reference programs, on Kamen's engine scale (see ANCHOR_DEPTH, RATINGS_MEASURED).
    ratings: Mapping[str, int] = field(default_factory=dict, hash=False, compare=False)
    # A level that deepens until its time is up stops at this depth (None: no cap).
    cap: int | None = None


# Kamen's engine scale: Elo points (400 more: 10 to 1 odds), fixed in every
# game by plain full-width alpha-beta on material alone, no capture search,
# ANCHOR_DEPTH plies deep (games.ai.reference.baseline_move) = ANCHOR_RATING.
# A program of known, reproducible strength, not people: no rated player has
# played it, so the bot shows the ratings as "on Kamen's engine scale".
ANCHOR_DEPTH = 4
ANCHOR_RATING = 1000

# The ratings, measured on 7 December 2026 (C kernels with the settled stop at
# a quarter of the time for Oware's last run) by
#     python -m bench.levels --games 16 --scale 0.3 --only oware|lasca --seed S
#     python -m bench.levels --games 40 --scale 0.3 --only oska
# (a Bradley-Terry fit of the levels' neighbours, the reference programs'
# chain and their links to the lower levels; `hard` and `max` at 0.3 and 0.6 s
# a move on 2 shared CPUs). Oware: the last two runs pooled (seeds 4 and 5, 32
# games a pair for the rungs the last tuning left alone, 16 for 3 and 5), load
# average 0.1-9; Lasca: seeds 3 and 4 pooled (16 games for rung 3), load 6-9.
# Two standard errors 80-140. The steps, the stronger level's score:
#     Oware  70 %, 88 %, 75 %, 66 %, 78 %, 77 %, 66 %
#     Lasca  84 %, 81 %, 62 %, 78 %, 66 %, 73 %, 66 %
#     Oska   62 %, 59 %, 60 %, 58 %, 50 %, 54 %, 50 % (a solved, drawish game: the
#            upper rungs draw each other)
RATINGS_MEASURED = "2026-12-07"
# Each level's rating per game (oware, lasca, oska), in the ladder's order.
_RATINGS = {
    "1": (730, 610, 940),
    "2": (900, 930, 1080),
    "3": (1210, 1180, 1180),
    "4": (1420, 1180, 1270),
    "5": (1560, 1360, 1350),
    "6": (1790, 1460, 1350),
    "7": (1990, 1640, 1380),
    "8": (2100, 1740, 1380),
}


def _rated(level: str) -> dict[str, int]:
    return dict(zip(("oware", "lasca", "oska"), _RATINGS[level], strict=True))


LEVEL_TABLE: dict[str, Level] = {
    level.name: level
    for level in (
        Level("1", 0.5, 2, 0.35, 150, 2, 0.5, False, _rated("1")),
        Level("2", 0.6, 3, 0.35, 135, 3, 0.35, False, _rated("2")),
        Level("3", 0.8, 4, 0.15, 60, 4, 0.25, False, _rated("3")),
        Level("4", 0.9, 6, 0.05, 40, 6, 0.17, False, _rated("4")),
        Level("5", 1.0, 8, 0.04, 30, 6, 0.1, False, _rated("5")),
        Level("6", 1.0, None, 0.0, 1, 6, 0.05, False, _rated("6"), cap=10),
        Level("7", 1.0, None, 0.0, 1, 6, 0.15, True, _rated("7")),
        Level("8", 2.0, None, 0.0, 1, 10, 0.0, True, _rated("8")),
    )
}
# Where a game's own ladder differs from the one above, to even its steps out (each game
# gains differently from a ply more or a mistake less): level -> the fields that differ.
TUNING: dict[str, dict[str, dict[str, object]]] = {
    "oware": {
        "2": {"mistakes": 0.3, "temperature": 120},
        "3": {"mistakes": 0.2, "temperature": 75},
        "4": {"mistakes": 0.12, "temperature": 50},
        "5": {"mistakes": 0.1, "temperature": 40},
    },
    "lasca": {
        "3": {"mistakes": 0.22, "temperature": 80},
        "4": {"depth": 4, "mistakes": 0.1, "temperature": 60, "quiescence": 4},
        "5": {"depth": 6, "mistakes": 0.08, "temperature": 45},
        "6": {"depth": 8, "mistakes": 0.04, "temperature": 30, "cap": None},
    },
}
GAME_LEVELS: dict[str, dict[str, Level]] = {
    game: {name: replace(LEVEL_TABLE[name], **changes) for name, changes in tuned.items()}  # type: ignore[arg-type]
    for game, tuned in TUNING.items()
}

# The names the levels had before the ladder had eight rungs, still understood
# wherever a level is written (a command's option, `--vs kamen:hard`).
ALIASES = {"easy": "1", "medium": "3", "medium-hard": "5", "hard": "7", "max": "8"}

LEVELS: tuple[str, ...] = tuple(LEVEL_TABLE)


def level_of(name: str, game: str | None = None) -> Level:
    """The level named (any case; an old name of `ALIASES` too), as it plays in `game`
    (its registry name; None: the ladder's common parameters, the same budget);
    ValueError names the levels there are."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    level = LEVEL_TABLE.get(key)
    if level is None:
        raise ValueError(f"`{name}` is not a level (levels: {', '.join(LEVELS)})")
    return GAME_LEVELS.get(game or "", {}).get(key, level)


def level_rating(game: str, level: str) -> int:
    """The measured rating of `level` (any case) in `game` (its registry
    name), e.g. for "easy \u2248 900"; ValueError for a level or game unknown."""
    ratings = level_of(level).ratings
    rating = ratings.get(game.strip().lower())
    if rating is None:
        raise ValueError(f"no rating of the levels in `{game}` (games: {', '.join(ratings)})")
    return rating
