"""Iterative-deepening alpha-beta (negamax) over any game that meets `Adapter`.

The search knows nothing of a game: an adapter expands a position into its
terminal score or its moves (in the adapter's heuristic order), plays a move,
evaluates a position from the side to move's view and names it for the
transposition table. On top of that order the search puts the table's move,
then the killer moves of the ply, then the history heuristic.

Scores are integers from the side to move's view. A won game scores
`WIN - plies` (a quicker win is worth more), a lost one `-WIN + plies`.

History: the adapters detect repetitions and move-count draws exactly, as
the engines do, from the history each position carries. The transposition
table is keyed by the position without that history, so a draw by repetition
met below a position can be stored with it and reused on another path: the
usual compromise of game programs, kept small by the adapters (Lasca keys
positions near the 80-ply limit apart). An entry is filed under the hash of
the adapter's key, an int, so the table keeps no position alive (a third of
the memory); two of a million positions share a 64-bit hash with a chance of
about one in ten million, and a table's move is tried only when it is legal.

Pruning: principal-variation search with aspiration windows at the root
(a narrow window around the last iteration's score, widened when the score
falls outside it) and late-move reductions inside the tree (a quiet move late
in the order, one that is no capture and forces no reply, is first searched a
ply or two shallower, and again at full depth only when it beats the best so
far). Both are for the timed levels (`reductions`). The transposition table
is probed before a position's moves are generated, and may be handed from
one search to the next (search_player.py keeps one per game and
evaluation), so a new move starts from what the last one learned.

Time: the clock is read every few hundred nodes; past the deadline the
current iteration is abandoned. A move that beat the last iteration's best in
the abandoned one is the better guess and is played, else the last best. A
single legal move is answered without searching. Between iterations
`another_iteration` decides: the next one starts when its predicted time (the
last one's times the growth between the last two) fits before the deadline;
when it does not fit it starts anyway, runs to the deadline and its partial
result counts, unless the position is settled (the same best move and no fall
of the score for SETTLED iterations) and SETTLED_SHARE of the time is spent.
So a falling score gets the whole budget, and a settled position stops as
soon as the next depth would not finish, once a quarter of its time is spent
(`python -m bench.settled` counts how often and how much time it keeps).
Pondering on the opponent's time is games/ai/ponder.py: it fills the kept table through
`clock`, which also reads a stop signal.

The timed levels of Oware and Lasca run this search in C (games/ai/timed_search.h,
included by the games' kernels): the same rules and numbers, so that a search
to a fixed depth without reductions or table gives this one's score (tested);
this one remains the search of the fixed-depth levels, of Oska's baseline and
wherever the kernels were not built.

The search itself uses no randomness: a seeded shuffle of the root moves by
the caller decides among equal moves, so a fixed depth and seed give the same
move every time (with a fresh table).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

WIN = 1_000_000
MATE_ZONE = WIN - 10_000
INF = 10 * WIN

P = TypeVar("P")
M = TypeVar("M", bound=Hashable)

# The hash of a position's key -> (depth, value, bound, best move).
Table = dict[int, tuple[int, int, int, Any]]

_EXACT, _LOWER, _UPPER = 0, 1, 2
_CHECK_EVERY = 255  # nodes between two looks at the clock (a mask)
_TT_LIMIT = 1_500_000
_MAX_PLY = 128
ASPIRATION = 40  # half the root's first window, in score units (0.4 seed or soldier)
ASPIRATION_FROM = 4  # the first depth searched with a window
LMR_DEPTH = 3  # the least depth left at which late quiet moves are reduced
LMR_AFTER = 2  # moves searched in full before the reductions start
LMR_MORE = 6  # from this move on, two plies less
DROP = 30  # a fall of the root score this large unsettles the position
GROWTH = (1.5, 8.0)  # bounds of the predicted growth from one iteration to the next
SETTLED = 4  # iterations with the same best move and no fall make a settled position
SETTLED_SHARE = 0.25  # a settled position may stop from this share of its time on


class Timeout(Exception):
    """The deadline passed inside a search."""


class Adapter(Protocol[P, M]):
    """What the search needs of a game. Positions are the adapter's own values."""

    def expand(self, pos: P) -> tuple[int | None, Sequence[M]]:
        """`(score, ())` for a finished game (WIN, -WIN or 0 for the side to
        move), else `(None, moves)` in the adapter's preferred order."""
        ...

    def play(self, pos: P, move: M) -> P: ...

    def evaluate(self, pos: P) -> int:
        """A static score for the side to move; well inside ±MATE_ZONE."""
        ...

    def key(self, pos: P) -> Hashable:
        """The position for the table. Two positions of one key are both
        finished or both not (the table is probed before `expand`)."""
        ...

    def text(self, pos: P, move: M) -> str:
        """The move in the game's notation."""
        ...

    def tactics(self, pos: P, moves: Sequence[M]) -> tuple[bool, Sequence[M]]:
        """For quiescence: whether the moves are forced (no standing pat) and
        the moves worth searching past the horizon (never reduced)."""
        ...


@dataclass(slots=True)
class SearchResult:
    """The move chosen and what the search saw on the way."""

    move: str
    score: int
    depth: int
    nodes: int
    elapsed: float
    scores: dict[str, int] = field(default_factory=dict)


def _distance(terminal: int, ply: int) -> int:
    """A finished game's score `ply` plies from the root: quick wins, slow losses."""
    if terminal > 0:
        return terminal - ply
    return terminal + ply if terminal < 0 else 0


def _to_tt(value: int, ply: int) -> int:
    if value >= MATE_ZONE:
        return value + ply
    if value <= -MATE_ZONE:
        return value - ply
    return value


def _from_tt(value: int, ply: int) -> int:
    if value >= MATE_ZONE:
        return value - ply
    if value <= -MATE_ZONE:
        return value + ply
    return value


def another_iteration(times: Sequence[float], spent: float, left: float, settled: bool) -> bool:
    """Whether to start the next iteration after iterations that took `times`,
    `spent` seconds in all with `left` to the deadline. Yes while its predicted
    time (the last one's times the last growth) fits; when it does not, still
    yes (it runs to the deadline, its partial result counts) unless the
    position is settled and at least SETTLED_SHARE of the time is spent."""
    if left <= 0:
        return False
    if len(times) < 2 or times[-2] <= 0:
        growth = GROWTH[1]
    else:
        growth = min(max(times[-1] / times[-2], GROWTH[0]), GROWTH[1])
    if times[-1] * growth <= left:
        return True
    return not (settled and spent >= SETTLED_SHARE * (spent + left))


class Searcher(Generic[P, M]):
    """One search: a transposition table, killers and history, a node count.

    `table` may be one handed over from an earlier search with the same game
    rules, evaluation and quiescence. `reductions` turns on aspiration windows
    and late-move reductions (the timed levels); without them a search to a
    fixed depth is a plain alpha-beta search, exact up to that depth.
    """

    def __init__(
        self,
        game: Adapter[P, M],
        *,
        deadline: float | None = None,
        quiescence: int = 0,
        clock: Callable[[], float] = time.perf_counter,
        table: Table | None = None,
        reductions: bool = False,
    ) -> None:
        self.game = game
        self.deadline = deadline
        self.quiescence = quiescence
        self.clock = clock
        self.reductions = reductions
        self.nodes = 0
        self.table: Table = {} if table is None else table
        self.killers: list[list[M]] = [[] for _ in range(_MAX_PLY + 1)]
        self.history: dict[M, int] = {}
        self.root_depth = 0
        self.partial: tuple[int, M] | None = None
        self.iteration_times: list[float] = []

    # ------------------------------------------------------------ the root

    def iterate(self, root: P, moves: Sequence[M], max_depth: int) -> SearchResult:
        """Deepen from 1 to `max_depth` until the deadline; `moves` are the root
        moves in the order that decides among equal ones."""
        began = self.clock()
        order = list(moves)
        best, score, done = order[0], 0, 0
        if len(order) == 1:
            return self._result(root, best, 0, 0, began)
        settled = 0  # iterations in a row with the same best move and no fall
        for depth in range(1, max_depth + 1):
            self.root_depth = depth
            self.partial = None
            started = self.clock()
            last_best, last_score = best, score
            try:
                score, best, order = self._aspirated(root, order, depth, best, score)
            except Timeout:
                # A move that beat the last best at the new depth is the better guess.
                if self.partial is not None and self.partial[1] != best:
                    score, best = self.partial
                break
            done = depth
            if abs(score) >= MATE_ZONE:
                break  # a forced result inside the horizon: deeper shows nothing new
            if self.deadline is not None:
                now = self.clock()
                self.iteration_times.append(now - started)
                steady = best == last_best and score >= last_score - DROP
                settled = settled + 1 if depth > 1 and steady else 0
                calm = settled >= SETTLED
                spent, left = now - began, self.deadline - now
                if not another_iteration(self.iteration_times, spent, left, calm):
                    break
        return self._result(root, best, score, done, began)

    def _result(self, root: P, move: M, score: int, depth: int, began: float) -> SearchResult:
        text = self.game.text(root, move)
        return SearchResult(text, score, depth, self.nodes, self.clock() - began)

    def _aspirated(
        self, root: P, order: list[M], depth: int, previous: M, score: int
    ) -> tuple[int, M, list[M]]:
        """One iteration: first in a window around the last score, then, when
        the score falls outside it, again with that side of the window open."""
        if not self.reductions or depth < ASPIRATION_FROM or abs(score) >= MATE_ZONE:
            return self._root(root, order, depth, previous, -INF, INF)
        alpha, beta = score - ASPIRATION, score + ASPIRATION
        while True:
            value, best, new_order = self._root(root, order, depth, previous, alpha, beta)
            if value <= alpha:
                alpha = -INF  # fail low: the order says nothing, keep the old one
            elif value >= beta:
                beta = INF  # fail high: that move first in the search again
                previous = best
                order = new_order
            else:
                return value, best, new_order

    def _root(
        self, root: P, order: list[M], depth: int, previous: M, alpha: int, beta: int
    ) -> tuple[int, M, list[M]]:
        game = self.game
        first = [previous, *(m for m in order if m != previous)]
        scored: list[tuple[int, int, M]] = []
        best, best_value = first[0], -INF
        for index, move in enumerate(first):
            child = game.play(root, move)
            if index == 0:
                value = -self._negamax(child, depth - 1, -beta, -alpha, 1)
            else:
                value = -self._negamax(child, depth - 1, -alpha - 1, -alpha, 1)
                if alpha < value < beta:
                    value = -self._negamax(child, depth - 1, -beta, -alpha, 1)
            scored.append((value, -index, move))
            if value > best_value:
                best_value = value
                if value > alpha:
                    alpha, best = value, move
                    if index:
                        self.partial = (value, move)
                    if alpha >= beta:
                        break
        scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
        searched = [move for _, _, move in scored]
        rest = first[len(scored) :]
        return best_value, best, searched + rest

    def root_scores(self, root: P, moves: Sequence[M], depth: int) -> dict[M, int]:
        """The exact score of every root move at `depth` (no pruning between
        root moves), for the levels that choose among them."""
        game = self.game
        self.root_depth = depth
        return {
            move: -self._negamax(game.play(root, move), depth - 1, -INF, INF, 1) for move in moves
        }

    # ---------------------------------------------------------- the tree

    def _tick(self) -> None:
        if self.deadline is not None and self.clock() > self.deadline:
            raise Timeout

    def _negamax(self, pos: P, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if not self.nodes & _CHECK_EVERY:
            self._tick()
        game = self.game
        hint: M | None = None
        interior = depth > 0 and ply < _MAX_PLY
        if interior:
            # Before the moves are generated: a cut-off here saves that work.
            key = hash(game.key(pos))  # an int: a table entry keeps no position alive
            entry = self.table.get(key)
            if entry is not None:
                e_depth, e_value, e_flag, hint = entry
                if e_depth >= depth:
                    value = _from_tt(e_value, ply)
                    if e_flag == _EXACT:
                        return value
                    if e_flag == _LOWER:
                        if value >= beta:
                            return value
                    elif value <= alpha:
                        return value
        terminal, moves = game.expand(pos)
        if terminal is not None:
            return _distance(terminal, ply)
        if not interior:
            return self._quiesce(pos, moves, alpha, beta, ply, self.quiescence)

        ordered = self._order(moves, hint, ply)
        # A single legal move costs no depth: forced replies are followed further.
        extend = len(moves) == 1 and ply < 2 * self.root_depth + 4
        next_depth = depth if extend else depth - 1
        loud: Sequence[M] = ()
        reduce = self.reductions and depth >= LMR_DEPTH and len(ordered) > LMR_AFTER
        if reduce:
            forced, loud = game.tactics(pos, moves)
            reduce = not forced
        start_alpha = alpha
        best, best_move = -INF, ordered[0]
        for index, move in enumerate(ordered):
            child = game.play(pos, move)
            if index == 0:
                value = -self._negamax(child, next_depth, -beta, -alpha, ply + 1)
            else:
                if reduce and index >= LMR_AFTER and move not in loud and self._quiet(child):
                    cut = 2 if index >= LMR_MORE and next_depth > 2 else 1
                    value = -self._negamax(child, next_depth - cut, -alpha - 1, -alpha, ply + 1)
                    if value > alpha:
                        value = -self._negamax(child, next_depth, -alpha - 1, -alpha, ply + 1)
                else:
                    value = -self._negamax(child, next_depth, -alpha - 1, -alpha, ply + 1)
                if alpha < value < beta:
                    value = -self._negamax(child, next_depth, -beta, -alpha, ply + 1)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        self._reward(move, ply, depth)
                        break

        flag = _UPPER if best <= start_alpha else _LOWER if best >= beta else _EXACT
        if len(self.table) >= _TT_LIMIT:
            self.table.clear()
        self.table[key] = (depth, _to_tt(best, ply), flag, best_move)
        return best

    def _quiet(self, pos: P) -> bool:
        """Whether a position leaves its side to move a free choice: not over,
        no forced reply (a capture due). A move into such a threat is not reduced."""
        game = self.game
        terminal, moves = game.expand(pos)
        return terminal is None and not game.tactics(pos, moves)[0]

    def _quiesce(
        self, pos: P, moves: Sequence[M], alpha: int, beta: int, ply: int, left: int
    ) -> int:
        game = self.game
        if left <= 0 or ply >= _MAX_PLY:
            return game.evaluate(pos)
        forced, tactical = game.tactics(pos, moves)
        if forced:
            best = -INF
        else:
            best = game.evaluate(pos)
            if best >= beta or not tactical:
                return best
            alpha = max(alpha, best)
        for move in tactical:
            child = game.play(pos, move)
            self.nodes += 1
            if not self.nodes & _CHECK_EVERY:
                self._tick()
            terminal, child_moves = game.expand(child)
            if terminal is not None:
                value = -_distance(terminal, ply + 1)
            else:
                value = -self._quiesce(child, child_moves, -beta, -alpha, ply + 1, left - 1)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best

    # ------------------------------------------------------------ ordering

    def _order(self, moves: Sequence[M], hint: M | None, ply: int) -> list[M]:
        if len(moves) == 1:
            return list(moves)
        history = self.history
        if history:
            rest = sorted(moves, key=lambda m: history.get(m, 0), reverse=True)
        else:
            rest = list(moves)
        front: list[M] = []
        if hint is not None and hint in rest:
            front.append(hint)
        for killer in self.killers[ply]:
            if killer not in front and killer in rest:
                front.append(killer)
        if not front:
            return rest
        return front + [m for m in rest if m not in front]

    def _reward(self, move: M, ply: int, depth: int) -> None:
        killers = self.killers[ply]
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]
        self.history[move] = self.history.get(move, 0) + depth * depth
