"""The Oware and Lasca levels: alpha-beta search with the level's depth,
time and mistakes (levels.py).

These functions work on a search adapter and its root position (any game's:
`adapters.searchable` makes them from a state), so they know no game.

The timed levels search in C where the adapter has the search in its kernel
(`compiled`: Oware's and Lasca's, oware_kernel.c and lasca_kernel.c through
timed_search.h, search.py's rules, ten times the nodes or more), with the table the
kernel keeps from one move to the next (2^20 entries, 16 MiB a kernel, keyed
by the game rules, evaluation and quiescence too). Elsewhere search.py
searches and keeps its transposition table from one move to the next
(`kept_table`, one per game rules, evaluation and quiescence, the two most
recent in a process, TABLE_LIMIT entries at most between them, about 45 MiB:
a table past it is emptied, an older one dropped). Either way a move starts
from what the search saw two plies earlier. The fixed-depth levels search in
Python and start afresh every time, so a seed fixes their moves.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable
from typing import Any

from games.ai.levels import Level
from games.ai.search import MATE_ZONE, Adapter, Searcher, SearchResult, Table, Timeout

MAX_DEPTH = 64
TABLE_LIMIT = 200_000  # entries kept from one move to the next, all tables together
TABLES_KEPT = 2
KEPT = 2  # a C search's `table`: the one its kernel kept from the last search

_tables: dict[Hashable, Table] = {}


def _identity(value: Any) -> Hashable:
    """What decides an adapter's scores: its class, its settings (plain values
    and objects of plain values) and its evaluation (a function, by name). A
    slotted object, such as a root position an adapter holds, counts by its
    class alone: it is no setting."""
    if value is None or isinstance(value, (bool, int, float, str, tuple)):
        return repr(value)
    if callable(value) and hasattr(value, "__qualname__"):
        return (getattr(value, "__module__", ""), value.__qualname__)
    if hasattr(value, "__dict__"):
        fields = sorted(vars(value).items())
        return (type(value).__qualname__, tuple((k, _identity(v)) for k, v in fields))
    return type(value).__qualname__


def kept_table(game: Adapter[Any, Any], quiescence: int) -> Table:
    """The table the last searches of this game's rules, evaluation and
    quiescence left, or a new one; emptied when it grew past TABLE_LIMIT.
    The older table is dropped when the two hold more than TABLE_LIMIT
    entries together, so a worker's tables stay within one limit."""
    identity = (_identity(game), quiescence)
    table = _tables.pop(identity, None)
    if table is None or len(table) > TABLE_LIMIT:
        table = {}
    _tables[identity] = table  # the most recent last
    while len(_tables) > TABLES_KEPT or (
        len(_tables) > 1 and sum(map(len, _tables.values())) > TABLE_LIMIT
    ):
        del _tables[next(iter(_tables))]
    return table


def root_moves(game: Adapter[Any, Any], root: Any, rng: random.Random) -> list[Hashable]:
    _, moves = game.expand(root)
    moves = list(moves)
    rng.shuffle(moves)  # the seed decides among equally good moves
    return moves


def deepen(
    game: Adapter[Any, Any],
    root: Any,
    deadline: float | None,
    rng: random.Random,
    *,
    quiescence: int,
    max_depth: int = MAX_DEPTH,
    table: Table | None = None,
    reductions: bool = False,
) -> SearchResult:
    """Iterative deepening until the deadline or `max_depth`."""
    searcher = Searcher(
        game, deadline=deadline, quiescence=quiescence, table=table, reductions=reductions
    )
    return searcher.iterate(root, root_moves(game, root, rng), max_depth)


def scored_moves(
    game: Adapter[Any, Any],
    root: Any,
    depth: int,
    deadline: float | None,
    rng: random.Random,
    quiescence: int,
) -> tuple[dict[str, int], int, int]:
    """Every move's score at the deepest depth up to `depth` finished in time,
    with that depth and the nodes searched."""
    moves = root_moves(game, root, rng)
    searcher = Searcher(game, deadline=deadline, quiescence=quiescence)
    scores = {move: 0 for move in moves}
    done = 0
    for current in range(1, depth + 1):
        try:
            scores = searcher.root_scores(root, moves, current)
        except Timeout:
            break
        done = current
        moves.sort(key=scores.__getitem__, reverse=True)
    return {game.text(root, move): scores[move] for move in moves}, done, searcher.nodes


def with_mistakes(
    scores: dict[str, int], rng: random.Random, share: float, temperature: int
) -> str:
    """The best move, except on `share` of the calls a plausible other one:
    within 4 temperatures of the best, weighted by exp(-(best - score) / temperature).
    With no plausible other move, or a forced win in hand, the best."""
    ranked = sorted(scores, key=scores.__getitem__, reverse=True)
    best = scores[ranked[0]]
    if share and rng.random() < share and best < MATE_ZONE:
        others = [m for m in ranked if best - 4 * temperature <= scores[m] < best]
        if others:
            weights = [math.exp((scores[m] - best) / temperature) for m in others]
            return rng.choices(others, weights=weights)[0]
    return ranked[0]


def compiled(
    game: Adapter[Any, Any],
    root: Any,
    moves: list[Hashable],
    deadline: float | None,
    quiescence: int,
    *,
    clock: Callable[[], float] = time.perf_counter,
    max_depth: int = MAX_DEPTH,
) -> SearchResult | None:
    """The timed search in C where the adapter has one (`think`: Oware's and
    Lasca's kernels, search.py's rules over their own kept table), with
    reductions; None where it has not (then search.py searches)."""
    think = getattr(game, "think", None)
    if think is None:
        return None
    began = clock()
    found = think(
        root,
        moves,
        max_depth=max_depth,
        quiescence=quiescence,
        reductions=True,
        table=KEPT,
        deadline=deadline,
        clock=clock,
    )
    if found is None:
        return None
    move, score, depth, nodes = found
    return SearchResult(game.text(root, move), score, depth, nodes, clock() - began)


def choose(
    game: Adapter[Any, Any], root: Any, level: Level, deadline: float, rng: random.Random
) -> SearchResult:
    """The level's move: deepening to the deadline or the level's cap (in C where the
    adapter has it), or a fixed depth with mistakes."""
    if level.depth is None:
        cap = level.cap or MAX_DEPTH
        moves = root_moves(game, root, rng)
        fast = compiled(game, root, moves, deadline, level.quiescence, max_depth=cap)
        if fast is not None:
            return fast
        table = kept_table(game, level.quiescence)
        q = level.quiescence
        return deepen(
            game, root, deadline, rng, quiescence=q, max_depth=cap, table=table, reductions=True
        )
    scores, depth, nodes = scored_moves(game, root, level.depth, deadline, rng, level.quiescence)
    move = with_mistakes(scores, rng, level.mistakes, level.temperature)
    return SearchResult(move, scores[move], depth, nodes, 0.0, scores)
