"""The demo set: images of each game's start, a middle game and an end, and replays,
a few of them again for a Czech reader.

The middle games are found by playing seeded random games until a position
shows what the renderer must make readable (Lasca columns of three and more
with officers, an Oware pit of 12+ seeds with seeds in both stores, an Oska
capture just made), so the set is the same on every run and needs no data.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from games.base import GameState, Outcome, Side, Termination
from games.lasca import SQUARES as LASCA_SQUARES
from games.lasca import LascaState
from games.oware import OwareState
from games.registry import GAMES
from render.boards import board, last_move_of
from render.gif import replay

Found = Callable[[GameState], bool]


@dataclass(frozen=True)
class Shot:
    """One image of the set: its file name and how to make it."""

    name: str
    make: Callable[[], bytes]
    shows: str


def playout(game: str, seed: int, until: Found, variant: str = "", limit: int = 400) -> GameState:
    """The first position of a seeded random game where `until` holds (the end if never)."""
    state = GAMES[game].new(variant)
    rng = random.Random(seed)
    while not until(state) and (legal := state.legal_moves()) and len(state.moves) < limit:
        state = state.play(rng.choice(legal))
    return state


def search(game: str, until: Found, variant: str = "", seeds: int = 500) -> GameState:
    """A position where `until` holds, from the first seed that reaches one."""
    for seed in range(seeds):
        state = playout(game, seed, until, variant)
        if until(state):
            return state
    raise LookupError(f"no random {game} game in {seeds} reached the position wanted")


def _oska_capture(state: GameState) -> bool:
    return bool(state.moves) and "x" in state.moves[-1] and len(state.moves) >= 6


def _oska_huff(state: GameState) -> bool:
    return bool(state.moves) and "/" in state.moves[-1]


def _lasca_middle(state: GameState) -> bool:
    if not isinstance(state, LascaState) or not state.moves or "x" not in state.moves[-1]:
        return False
    columns = [state.column(square) for square in LASCA_SQUARES]
    tall = [column for column in columns if len(column) >= 3]
    officers = sum(column.count("W") + column.count("B") for column in columns)
    return len(tall) >= 2 and any(len(c) >= 6 for c in columns) and officers >= 2


def _oware_middle(state: GameState) -> bool:
    if not isinstance(state, OwareState) or max(state.pits) < 12 or min(state.stores) == 0:
        return False
    last = last_move_of(state)
    return last is not None and bool(last.captured)


def _over(state: GameState) -> bool:
    return state.outcome() is not None


def _must_capture(state: GameState) -> bool:
    """A position whose every legal move is a capture (compulsory in Oska and Lasca)."""
    legal = state.legal_moves()
    return len(state.moves) >= 6 and bool(legal) and all("x" in move for move in legal)


def _free(state: GameState) -> bool:
    """A middle game whose player to move has several stones free to step, no capture due."""
    legal = state.legal_moves()
    return len(state.moves) >= 4 and len(legal) >= 4 and not any("x" in move for move in legal)


def _first_origin(state: GameState) -> str:
    """The square (pit) the first legal move starts from: a piece to show picked."""
    return state.describe(state.legal_moves()[0]).path[0]


def shots() -> list[Shot]:
    """Every image of the demo set, in the order a reader should look at them."""
    oska_mid = search("oska", _oska_capture)
    oska_huff = search("oska", _oska_huff, "capture=huff")
    oska_end = search("oska", _over)
    lasca_mid = search("lasca", _lasca_middle)
    lasca_end = search("lasca", _over)
    oware_mid = search("oware", _oware_middle)
    oware_end = search("oware", _over)
    oska_must = search("oska", _must_capture)
    oska_free = search("oska", _free)
    lasca_must = search("lasca", _must_capture)
    names = ("Ann", "Bartholomew")
    czech = ("Anna", "Bartoloměj")
    start = {name: GAMES[name].new() for name in GAMES}
    resigned = Outcome(Side.SECOND, Termination.RESIGNATION, side=Side.FIRST)
    return [
        Shot("oska-1-start.png", lambda: board(start["oska"]), "Oska's start"),
        Shot(
            "oska-2-capture.png",
            lambda: board(oska_mid, players=names),
            "an Oska capture just made, with the players' names",
        ),
        Shot(
            "oska-3-hints.png",
            lambda: board(oska_free, hints=True),
            "a middle game, the stones that can move ringed",
        ),
        Shot(
            "oska-3-selected.png",
            lambda: board(oska_free, selected=_first_origin(oska_free), perspective=Side.SECOND),
            "a stone picked, from Red's side: its brick green, dots where it can go",
        ),
        Shot(
            "oska-3-compulsory.png",
            lambda: board(oska_must, hints=True),
            "a compulsory capture: gold spiked rings, and the note says so",
        ),
        Shot(
            "oska-3-compulsory-selected.png",
            lambda: board(oska_must, selected=_first_origin(oska_must)),
            "the capturing stone picked: a gold brick, a gold sight where it lands",
        ),
        Shot(
            "oska-4-red-view.png",
            lambda: board(oska_mid, perspective=Side.SECOND),
            "the same position from Red's side",
        ),
        Shot(
            "oska-5-huff.png",
            lambda: board(oska_huff),
            "capture=huff: a step that forfeits a stone",
        ),
        Shot("oska-6-end.png", lambda: board(oska_end), "a finished Oska game"),
        Shot(
            "oska-7-czech.png",
            lambda: board(oska_mid, players=czech, locale="cs"),
            "the capture for a Czech reader: the caption and the side names in Czech",
        ),
        Shot("lasca-1-start.png", lambda: board(start["lasca"]), "Lasca's start"),
        Shot(
            "lasca-2-middle.png",
            lambda: board(lasca_mid, players=names),
            "Lasca columns of 3+ pieces with officers, one taller than shown",
        ),
        Shot(
            "lasca-3-hints.png",
            lambda: board(lasca_mid, hints=True, perspective=Side.SECOND),
            "the same from Black's side, the columns that can move framed",
        ),
        Shot(
            "lasca-3-compulsory.png",
            lambda: board(lasca_must, hints=True),
            "a compulsory Lasca capture: gold frames with corner wedges",
        ),
        Shot(
            "lasca-3-compulsory-selected.png",
            lambda: board(lasca_must, selected=_first_origin(lasca_must)),
            "the capturing column picked, with where it can land",
        ),
        Shot(
            "lasca-3-czech-400.png",
            lambda: board(lasca_mid, locale="cs", size=400),
            "a Czech Lasca board at a phone's 400 px: the legend in Czech",
        ),
        Shot("lasca-4-end.png", lambda: board(lasca_end), "a finished Lasca game"),
        Shot(
            "lasca-5-czech.png",
            lambda: board(lasca_end, locale="cs"),
            "the finished Lasca game in Czech (Laska, Bílý, Černý)",
        ),
        Shot("oware-1-start.png", lambda: board(start["oware"]), "Oware's start"),
        Shot(
            "oware-2-middle.png",
            lambda: board(oware_mid, hints=True),
            "an Oware capture, a pit of 12+ seeds, both stores holding seeds, hints",
        ),
        Shot(
            "oware-2-selected.png",
            lambda: board(oware_mid, hints=True, selected=_first_origin(oware_mid)),
            "a pit picked: a bold ring, and a beaded ring where its last seed falls",
        ),
        Shot(
            "oware-3-north-view.png",
            lambda: board(oware_mid, perspective=Side.SECOND),
            "the same from North's side",
        ),
        Shot("oware-4-end.png", lambda: board(oware_end), "a finished Oware game"),
        Shot(
            "oware-5-resigned.png",
            lambda: board(oware_mid, outcome=resigned, players=names),
            "a game ended by resignation (an outcome the engine does not know)",
        ),
        Shot(
            "oware-6-czech.png",
            lambda: board(oware_mid, players=czech, locale="cs"),
            "the Oware capture in Czech, the stores named Jih and Sever",
        ),
        Shot("oska-replay.gif", lambda: replay(oska_end), "a whole Oska game"),
        Shot("lasca-replay.gif", lambda: replay(lasca_end), "a whole Lasca game"),
        Shot("oware-replay.gif", lambda: replay(oware_end), "a whole Oware game"),
        Shot(
            "oware-replay-czech.gif",
            lambda: replay(oware_end, locale="cs"),
            "the whole Oware game, every frame in Czech",
        ),
    ]


def write(directory: Path) -> list[tuple[Path, str]]:
    """Write the demo set into `directory`; the files written and what each shows."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for shot in shots():
        path = directory / shot.name
        path.write_bytes(shot.make())
        written.append((path, shot.shows))
    return written
