"""Puzzles: positions of real games where exactly one move wins or saves the game.

A `Puzzle` is a position reached from a game's start by ordinary moves (so it
is an engine state like any other, replayed with `games.registry`), the one
move that solves it and how that was verified. `games.ai.make_puzzles` finds
them in games the computer plays against itself and writes them to
`games/puzzles/<game>.json`; its docstring says what `win`, `save` and each
way of verifying mean. This module only reads them:

    from games import puzzles
    puzzle = puzzles.pick("oska", 7)           # or a seed text, or an id
    state = puzzles.position(puzzle)           # the engine state to show
    puzzles.check(puzzle, "C3-d4")             # any notation the engine reads

The file: a JSON list, one compact object a line, each with the fields of
`Puzzle` (`moves` as one space-separated text, `variant` as `key=value`
text, empty for the defaults).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Literal

from games.base import GameState, MoveError
from games.registry import get

DIRECTORY = Path(__file__).with_name("puzzles")

Goal = Literal["win", "save"]
Verifier = Literal["table", "endgame-table", "search"]
GOALS: tuple[Goal, ...] = ("win", "save")
VERIFIERS: tuple[Verifier, ...] = ("table", "endgame-table", "search")


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle: the position after `moves` and its one solving move.

    `goal` is `win` (the solution wins the game by force, and no other move
    does) or `save` (no move wins; the solution does not lose by force, every
    other move does). `verified_by` names what proved it (`table`: the solved
    Oska table; `endgame-table`: Oware's endgame tables; `search`: the C
    kernels' full-width search, twice), `depth` the plies that proof looked
    ahead (for the Oska table, the length of the forced win, 0 for a saved
    draw; 0 for the Oware tables). games/ai/verify_puzzles.py proves them. `theme` is a
    short code (`capture`, `quiet`, `ends-game`, ...) or empty.
    """

    id: str
    game: str
    variant: str
    moves: tuple[str, ...]
    solution: str
    goal: Goal
    verified_by: Verifier
    depth: int
    theme: str = ""

    def as_json(self) -> dict[str, object]:
        """The puzzle as its line of the file (without the game, which names the file)."""
        found: dict[str, object] = {
            "id": self.id,
            "variant": self.variant,
            "moves": " ".join(self.moves),
            "solution": self.solution,
            "goal": self.goal,
            "verified_by": self.verified_by,
            "depth": self.depth,
        }
        if self.theme:
            found["theme"] = self.theme
        return found

    @classmethod
    def from_json(cls, game: str, data: dict[str, object]) -> Puzzle:
        goal = str(data["goal"])
        verified_by = str(data["verified_by"])
        if goal not in GOALS or verified_by not in VERIFIERS:
            raise ValueError(f"puzzle {data.get('id')!r}: bad goal or verifier")
        depth = data["depth"]
        if not isinstance(depth, int):
            raise ValueError(f"puzzle {data.get('id')!r}: depth is not a number")
        return cls(
            id=str(data["id"]),
            game=game,
            variant=str(data.get("variant", "")),
            moves=tuple(str(data["moves"]).split()),
            solution=str(data["solution"]),
            goal=goal,  # checked against GOALS above
            verified_by=verified_by,  # checked against VERIFIERS
            depth=depth,
            theme=str(data.get("theme", "")),
        )


def puzzle_id(game: str, variant: str, moves: tuple[str, ...]) -> str:
    """A stable id made of the game and the position's moves: `oska-3f9c0a12b4`."""
    digest = hashlib.sha1(f"{game}|{variant}|{' '.join(moves)}".encode()).hexdigest()
    return f"{game}-{digest[:10]}"


def path_of(game: str) -> Path:
    return DIRECTORY / f"{get(game).name}.json"


def dumps(puzzles: tuple[Puzzle, ...] | list[Puzzle]) -> str:
    """The file's text: a JSON list with one compact puzzle a line."""
    lines = [json.dumps(p.as_json(), separators=(",", ":")) for p in puzzles]
    return "[\n" + ",\n".join(lines) + "\n]\n"


@cache
def load(game: str) -> tuple[Puzzle, ...]:
    """The shipped puzzles of a game (empty when it has none), in the file's order."""
    name = get(game).name
    path = path_of(name)
    if not path.exists():
        return ()
    raw = json.loads(path.read_text(encoding="utf-8"))
    return tuple(Puzzle.from_json(name, item) for item in raw)


def pick(game: str, seed_or_index: int | str) -> Puzzle:
    """One puzzle of a game: by index (modulo the count), by id, or by any other
    text as a seed (the same text always gives the same puzzle).

    Raises LookupError when the game has no puzzles.
    """
    found = load(game)
    if not found:
        raise LookupError(f"no puzzles for {game}")
    if isinstance(seed_or_index, int):
        return found[seed_or_index % len(found)]
    for puzzle in found:
        if puzzle.id == seed_or_index:
            return puzzle
    digest = hashlib.sha256(seed_or_index.encode()).digest()
    return found[int.from_bytes(digest[:8], "big") % len(found)]


@lru_cache(maxsize=256)
def position(puzzle: Puzzle) -> GameState:
    """The engine state of the puzzle: its variant's start with its moves played."""
    return get(puzzle.game).replay(puzzle.variant, puzzle.moves)


def check(puzzle: Puzzle, move: str) -> bool:
    """Whether `move` is the solution, in any notation the engine reads for it
    (`C3-D4` for `c3-d4`); a move the engine refuses is simply wrong."""
    state = position(puzzle)
    try:
        return state.parse_move(move) == state.parse_move(puzzle.solution)
    except MoveError:
        return False
