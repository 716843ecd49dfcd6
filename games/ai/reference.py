"""The benchmark's reference players (bench/ai.py), for any game with a search adapter."""

from __future__ import annotations

import random

from games.ai.adapters import searchable
from games.ai.search import INF, SearchResult
from games.ai.search_player import deepen, root_moves
from games.base import GameState


def baseline_move(state: GameState, depth: int = 4, seed: int | None = None) -> SearchResult:
    """Alpha-beta to a fixed depth, material only."""
    game, root = searchable(state, baseline=True)
    return deepen(game, root, None, random.Random(seed), quiescence=0, max_depth=depth)


def greedy_move(state: GameState, seed: int | None = None) -> str:
    """The move with the best material right after it (seeds taken, pieces
    won), ties broken by the seed."""
    game, root = searchable(state, baseline=True)
    moves = root_moves(game, root, random.Random(seed))
    best, best_score = moves[0], -INF
    for move in moves:
        child = game.play(root, move)
        terminal, _ = game.expand(child)
        score = -terminal if terminal is not None else -game.evaluate(child)
        if score > best_score:
            best, best_score = move, score
    return game.text(root, best)
