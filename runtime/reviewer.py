"""Reviews made in the AI workers, a few moves a job, behind Kamen's own moves.

A review of a long game takes up to a minute of search. It is cut into jobs
of `PLIES_A_JOB` moves, each sent to the workers' slow lane
(`PooledPicker.submit_deferred`): a move Kamen must play waits at most for
one short job, never for a whole review. The parts come back in order and
make the review (`games.ai.review.assemble`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from games.ai.review import Review, assemble, review_plies
from runtime.opponent import Opponent

PLIES_A_JOB = 4  # at most ~2 s a move in the search: a job holds a worker ~8 s at most


class PooledReviewer:
    """A `matches.reviews.Reviewer` on the AI workers of `picker`."""

    def __init__(self, picker: Opponent) -> None:
        self.picker = picker

    async def review(self, game: str, variant: str, moves: Sequence[str]) -> Review:
        moves = tuple(moves)
        parts = await asyncio.gather(
            *(
                self.picker.submit_deferred(
                    review_plies, game, variant, moves, start, min(start + PLIES_A_JOB, len(moves))
                )
                for start in range(0, len(moves), PLIES_A_JOB)
            )
        )
        return assemble(game, variant, [entry for part in parts for entry in part])
