"""The Oware and Lasca levels: alpha-beta search with the level's depth,
time and mistakes (levels.py).

These functions work on a search adapter and its root position (any game's:
`adapters.searchable` makes them from a state), so they know no game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from typing import Any

from bench.baseline_ai.levels import Level
from bench.baseline_ai.search import MATE_ZONE, Adapter, Searcher, SearchResult, Timeout

MAX_DEPTH = 64


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
) -> SearchResult:
    """Iterative deepening until the deadline or `max_depth`."""
    searcher = Searcher(game, deadline=deadline, quiescence=quiescence)
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


def choose(
    game: Adapter[Any, Any], root: Any, level: Level, deadline: float, rng: random.Random
) -> SearchResult:
    """The level's move: deepening to the deadline, or a fixed depth with mistakes."""
    if level.depth is None:
        return deepen(game, root, deadline, rng, quiescence=level.quiescence)
    scores, depth, nodes = scored_moves(game, root, level.depth, deadline, rng, level.quiescence)
    move = with_mistakes(scores, rng, level.mistakes, level.temperature)
    return SearchResult(move, scores[move], depth, nodes, 0.0, scores)
