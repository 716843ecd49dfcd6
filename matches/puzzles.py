"""Puzzles for players: which one to give, and what an answer did.

The puzzles themselves are shipped with the games (`games.puzzles`). A player
is given one they have not answered on this server yet, at random (the same
puzzles again, in a new order, once they have answered them all), and only
positions the move menu shows whole (at most `MENU_MOVES` legal moves). A
player's first answer to a puzzle on a server is the one that counts: it is
kept (solved or not) and makes their score, shown on `/profile`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from games import puzzles
from games.puzzles import Puzzle
from games.registry import GAMES
from matches.clock import Clock
from matches.errors import BadInput
from matches.inputs import snowflake
from matches.storage import Store

MENU_MOVES = 25  # a Discord select menu's options at most


@dataclass(frozen=True, slots=True)
class Verdict:
    """An answer to a puzzle: right or wrong, and whether it was the one that counts."""

    puzzle: Puzzle
    move: str
    right: bool
    counted: bool


@dataclass(frozen=True, slots=True)
class PuzzleScore:
    """A player's puzzles on a server: answered first time right, and answered at all."""

    solved: int
    answered: int


@cache
def playable(game: str) -> tuple[Puzzle, ...]:
    """A game's puzzles whose moves all fit in the move menu (worked out once a process)."""
    return tuple(
        p for p in puzzles.load(game) if len(puzzles.position(p).legal_moves()) <= MENU_MOVES
    )


@cache
def _by_id() -> dict[str, Puzzle]:
    return {p.id: p for game in GAMES for p in puzzles.load(game)}


def find(puzzle_id: str) -> Puzzle:
    """The shipped puzzle of that id; BadInput if there is none (an old or forged button)."""
    found = _by_id().get(puzzle_id)
    if found is None:
        raise BadInput("puzzle.unknown", id=puzzle_id)
    return found


class Puzzles:
    """Puzzles given and answered, kept in `store`."""

    def __init__(self, store: Store, clock: Clock, rng: random.Random | None = None) -> None:
        self.store = store
        self.clock = clock
        self.rng = rng or random.Random()

    async def next_for(self, guild_id: int, user_id: int, game: str) -> Puzzle:
        """A puzzle of `game` the player has not answered here yet (any, once they all are)."""
        every = playable(game)
        if not every:
            raise BadInput("puzzle.none", game=game)
        answered = await self.store.puzzles_answered(
            snowflake(guild_id, "server"), snowflake(user_id, "user")
        )
        fresh = [p for p in every if p.id not in answered]
        return self.rng.choice(fresh or list(every))

    async def answer(self, guild_id: int, user_id: int, puzzle_id: str, move: str) -> Verdict:
        """Check `move` against the solution and keep it if it is the player's first answer."""
        puzzle = find(puzzle_id)
        right = puzzles.check(puzzle, move)
        counted = await self.store.answer_puzzle(
            snowflake(guild_id, "server"), snowflake(user_id, "user"), puzzle.id, right,
            self.clock(),
        )  # fmt: skip
        return Verdict(puzzle, move, right, counted)

    async def score(self, guild_id: int, user_id: int) -> PuzzleScore:
        answered = await self.store.puzzles_answered(
            snowflake(guild_id, "server"), snowflake(user_id, "user")
        )
        return PuzzleScore(sum(answered.values()), len(answered))
