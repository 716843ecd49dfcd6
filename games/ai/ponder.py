"""Pondering: Kamen thinks on the player's time, in a worker, to warm its table.

After Kamen's move at `hard` or `max` in Oware or Lasca, a worker with
nothing else to do searches the position after that move (the player to move)
with the table the level's next search will take: the C kernel's own table
(`ponder_compiled`: the search in C, its entries keyed by the game rules,
evaluation and quiescence) where the kernel was built, else
`search_player.kept_table` (one per game rules, evaluation and quiescence in
the process) for search.py's search (`ponder_search`). The replies
the player may make are the children of that root, so Kamen's next search
finds their subtrees in the table and goes deeper in its time.

`ponder` takes plain values, for a process pool. It is one iterative
deepening search that ends at the first of: `seconds` spent, the stop signal
(`install`, a `multiprocessing.Event` the pool's initializer hands to each
worker, set by the queue when a move or another job is asked), the table
full (below), or a forced result. The search reads its clock every few hundred
nodes (`search._CHECK_EVERY`, a few milliseconds; the C search every
thousand or so, under a millisecond); that clock reads the stop signal too,
so a move asked during a ponder waits one such slice, not the ponder's time.
What the search learned stays in the table: an abandoned iteration stores
the subtrees it finished. For search.py's search, a table FULL_SHARE full
when a ponder starts is emptied first (its entries are of earlier positions,
and it would leave the ponder no room), and a ponder stops at TABLE_LIMIT
entries (past it the next move's search would start from an empty one); the
C kernel's table has a fixed size, its entries replaced as the search goes.

Oska is solved and Oware, where its endgame tables settle the move, is played
from them, so neither is pondered (`wanted`, and the tables checked in the worker); nor are
`easy` and `medium`, which search a fixed depth afresh every move.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from games.ai.adapters import adapter_for
from games.ai.levels import Level, level_of
from games.ai.search import Adapter, Searcher
from games.ai.search_player import MAX_DEPTH, TABLE_LIMIT, compiled, kept_table, root_moves
from games.base import GameState
from games.registry import get

PONDERED_GAMES = ("oware", "lasca")  # Oska is solved: nothing to ponder
SECONDS_PER_BUDGET = 5  # a ponder's default limit: the level's budget times this
FULL_SHARE = 0.75  # of TABLE_LIMIT: a table this full is emptied before a ponder


class StopSignal(Protocol):
    """What a ponder reads of its stop signal (a `multiprocessing.Event`)."""

    def is_set(self) -> bool: ...


_stop: StopSignal | None = None


def install(stop: StopSignal | None) -> None:
    """In a worker (the pool's initializer): the signal that stops its ponders."""
    global _stop
    _stop = stop


@dataclass(frozen=True, slots=True)
class PonderReport:
    """What a ponder did: the depth it finished, its nodes, the table's size after it,
    the seconds it took and why it ended ("stopped", "time", "full", "done", or
    "skipped" when there was nothing to ponder)."""

    depth: int
    nodes: int
    entries: int
    elapsed: float
    ended: str


SKIPPED = PonderReport(0, 0, 0, 0.0, "skipped")


def wanted(game: str, level: str) -> bool:
    """Whether Kamen ponders in `game` at `level`: the timed levels of the searched games
    that search as deep as their time allows."""
    name = game.strip().lower()
    if name not in PONDERED_GAMES:
        return False
    chosen = level_of(level, name)
    return chosen.depth is None and chosen.cap is None


def default_seconds(level: str) -> float:
    """A ponder's limit at `level`: its move budget times SECONDS_PER_BUDGET."""
    return level_of(level).budget * SECONDS_PER_BUDGET


def ponder(
    game: str, variant: str, moves: Sequence[str], level: str, seconds: float
) -> PonderReport:
    """In a worker: ponder the position of `game` under `variant` after `moves` (the
    player to move) for at most `seconds`, or until the installed stop signal."""
    if not wanted(game, level):
        return SKIPPED
    return ponder_state(get(game).replay(variant, moves), level, seconds, _stop)


def ponder_state(
    state: GameState, level: str, seconds: float, stop: StopSignal | None
) -> PonderReport:
    """Ponder `state` (the player to move) for Kamen's next move at `level`, unless
    there is nothing to ponder: a level or game not pondered, a forced or no reply,
    or Oware where the endgame tables settle the move (`oware_game.solved`)."""
    if not wanted(state.spec.name, level):
        return SKIPPED
    chosen = level_of(level, state.spec.name)
    adapter = adapter_for(state.spec)
    if len(state.legal_moves()) < 2:
        return SKIPPED  # over, or a forced reply: the next position is searched anyway
    if adapter.solved is not None and adapter.solved(state, chosen, random.Random(0)):
        return SKIPPED  # played from the tables
    search, root = adapter.search(state, False)
    report = ponder_compiled(search, root, chosen, seconds, stop)
    if report is not None:
        return report
    return ponder_search(search, root, chosen, seconds, stop)


def ponder_compiled(
    game: Adapter[Any, Any],
    root: Any,
    level: Level,
    seconds: float,
    stop: StopSignal | None,
    *,
    clock: Callable[[], float] = time.perf_counter,
) -> PonderReport | None:
    """`ponder_search` by the search in C (`search_player.compiled`) into the table
    its kernel keeps for `level`'s next search; None where the adapter has none.
    The kernel's table has a fixed size: a ponder never finds it full, and
    reports no entries."""
    began = clock()
    if stop is not None and stop.is_set():
        return PonderReport(0, 0, 0, 0.0, "stopped")
    ended = ["time"]

    def watch() -> float:
        # Read every thousand nodes or so: past the deadline (infinity) the search stops.
        if stop is not None and stop.is_set():
            ended[0] = "stopped"
            return math.inf
        return clock()

    moves = root_moves(game, root, random.Random(0))
    result = compiled(game, root, moves, began + seconds, level.quiescence, clock=watch)
    if result is None:
        return None
    if ended[0] == "time" and clock() < began + seconds:
        ended[0] = "done"  # a forced result, the deepest depth, or a settled search
    return PonderReport(result.depth, result.nodes, 0, clock() - began, ended[0])


def ponder_search(
    game: Adapter[Any, Any],
    root: Any,
    level: Level,
    seconds: float,
    stop: StopSignal | None,
    *,
    clock: Callable[[], float] = time.perf_counter,
) -> PonderReport:
    """Deepen from `root` into the table `level`'s next search takes, for at most
    `seconds` of `clock`, until `stop` is set or the table holds TABLE_LIMIT entries."""
    began = clock()
    if stop is not None and stop.is_set():
        return PonderReport(0, 0, 0, 0.0, "stopped")
    table = kept_table(game, level.quiescence)
    if len(table) >= FULL_SHARE * TABLE_LIMIT:
        table.clear()
    ended = ["time"]

    def watch() -> float:
        # Read every few hundred nodes: past the deadline (infinity) the search stops.
        if stop is not None and stop.is_set():
            ended[0] = "stopped"
            return math.inf
        if len(table) >= TABLE_LIMIT:
            ended[0] = "full"
            return math.inf
        return clock()

    searcher = Searcher(
        game,
        deadline=began + seconds,
        quiescence=level.quiescence,
        clock=watch,
        table=table,
        reductions=True,
    )
    result = searcher.iterate(root, root_moves(game, root, random.Random(0)), MAX_DEPTH)
    if ended[0] == "time" and clock() < began + seconds:
        ended[0] = "done"  # a forced result, the deepest depth, or a settled search
    return PonderReport(result.depth, searcher.nodes, len(table), clock() - began, ended[0])
