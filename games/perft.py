"""Perft: the number of move sequences of each length from a position.

A capture sequence and a pass each count as one move; a finished game has no
children. The counts are the regression tables of the engines.
"""

from __future__ import annotations

from games.base import GameState


def perft(state: GameState, depth: int) -> int:
    """The number of leaves of the move tree `depth` moves deep."""
    moves = state.legal_moves()
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    return sum(perft(state.play(move), depth - 1) for move in moves)


def perft_table(state: GameState, depth: int) -> list[int]:
    """Counts for every depth from 1 to `depth`."""
    return [perft(state, d) for d in range(1, depth + 1)]
