"""Reviews made in the AI workers, a few moves a job, behind Kamen's own moves.

A review of a long game takes up to a minute of search. It is cut into jobs
of `PLIES_A_JOB` moves, each sent to the workers' slow lane
(`PooledPicker.submit_deferred`): a move Kamen must play waits at most for
one short job, never for a whole review. The parts come back in order and
make the review (`games.ai.review.assemble`). A deep review (made after the
quick one, in the background: `matches.reviews`) spends up to ~1.5 s a move,
so it goes one move a job.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from games.ai.review import BUDGET, Review, assemble, review_plies
from runtime.opponent import Opponent

PLIES_A_JOB = 4  # the quick review: a fraction of a second a move
DEEP_PLIES_A_JOB = 1  # the deep one: up to ~1.5 s a move (its budget, `review.DEEP`)


class PooledReviewer:
    """A `matches.reviews.Reviewer` on the AI workers of `picker`."""

    def __init__(self, picker: Opponent) -> None:
        self.picker = picker

    async def review(
        self, game: str, variant: str, moves: Sequence[str], deep: bool = False
    ) -> Review:
        moves = tuple(moves)
        step = DEEP_PLIES_A_JOB if deep else PLIES_A_JOB
        parts = await asyncio.gather(
            *(
                self.picker.submit_deferred(
                    review_plies,
                    game,
                    variant,
                    moves,
                    start,
                    min(start + step, len(moves)),
                    BUDGET,
                    deep,
                )
                for start in range(0, len(moves), step)
            )
        )
        return assemble(game, variant, [entry for part in parts for entry in part], deep)
