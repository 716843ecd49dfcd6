"""The Oware and Lasca levels: alpha-beta search with the level's depth,
time and mistakes (levels.py)."""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from typing import Any

from games.ai import lasca_eval, lasca_game, oska_game, oware_eval, oware_game
from games.ai.levels import Level
from games.ai.search import INF, MATE_ZONE, Adapter, Searcher, SearchResult, Timeout
from games.base import GameState
from games.lasca import LascaState
from games.oska import OskaState
from games.oware import OwareState

MAX_DEPTH = 64


def adapter_for(state: GameState, *, baseline: bool = False) -> tuple[Adapter[Any, Any], Any]:
    """The search adapter for the state's game (full or material-only
    evaluation) and the state as the adapter's position."""
    if isinstance(state, OwareState):
        rules = oware_game.OwareRules.of(state)
        oware_value = oware_eval.material if baseline else oware_eval.evaluate
        return oware_game.OwareGame(rules, oware_value), oware_game.from_state(state)
    if isinstance(state, LascaState):
        continues = state.variant["promotion"] == "continues"
        lasca_value = lasca_eval.material if baseline else lasca_eval.evaluate
        return lasca_game.LascaGame(continues, lasca_value), lasca_game.from_state(state)
    if isinstance(state, OskaState):
        # Only the baseline searches Oska; the levels play from the solved table.
        mode, elimination = oska_game.rules_of(state.variant)
        oska = oska_game.OskaGame(mode, elimination, oska_game.material)
        return oska, oska_game.from_state(state)
    raise TypeError(f"no search for {type(state).__name__}")


def root_moves(game: Adapter[Any, Any], root: Any, rng: random.Random) -> list[Hashable]:
    _, moves = game.expand(root)
    moves = list(moves)
    rng.shuffle(moves)  # the seed decides among equally good moves
    return moves


def deepen(
    state: GameState,
    deadline: float | None,
    rng: random.Random,
    *,
    quiescence: int,
    max_depth: int = MAX_DEPTH,
    baseline: bool = False,
) -> SearchResult:
    """Iterative deepening until the deadline or `max_depth`."""
    game, root = adapter_for(state, baseline=baseline)
    searcher = Searcher(game, deadline=deadline, quiescence=quiescence)
    return searcher.iterate(root, root_moves(game, root, rng), max_depth)


def scored_moves(
    state: GameState, depth: int, deadline: float | None, rng: random.Random, quiescence: int
) -> tuple[dict[str, int], int, int]:
    """Every move's score at the deepest depth up to `depth` finished in time,
    with that depth and the nodes searched."""
    game, root = adapter_for(state)
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


def choose(state: GameState, level: Level, deadline: float, rng: random.Random) -> SearchResult:
    if level.depth is None:
        return deepen(state, deadline, rng, quiescence=level.quiescence)
    scores, depth, nodes = scored_moves(state, level.depth, deadline, rng, level.quiescence)
    move = with_mistakes(scores, rng, level.mistakes, level.temperature)
    return SearchResult(move, scores[move], depth, nodes, 0.0, scores)


# ------------------------------------------------------------- reference players


def baseline_move(state: GameState, depth: int = 4, seed: int | None = None) -> SearchResult:
    """The benchmark's baseline: alpha-beta to a fixed depth, material only."""
    return deepen(state, None, random.Random(seed), quiescence=0, max_depth=depth, baseline=True)


def greedy_move(state: GameState, seed: int | None = None) -> str:
    """The benchmark's greedy player: the move with the best material right
    after it (seeds taken, pieces won), ties broken by the seed."""
    game, root = adapter_for(state, baseline=True)
    moves = root_moves(game, root, random.Random(seed))
    best, best_score = moves[0], -INF
    for move in moves:
        child = game.play(root, move)
        terminal, _ = game.expand(child)
        score = -terminal if terminal is not None else -game.evaluate(child)
        if score > best_score:
            best, best_score = move, score
    return game.text(root, best)
