"""Oware endgames with up to 12 seeds on the board: bounds that hold whatever the history.

    from games.ai import oware_tables
    oware_tables.bounds(pits, "grandslam=nocapture")  # (low, high) of the mover's seeds
    oware_tables.exact(pits)                          # the value where low == high, else None
    oware_tables.best_moves(pits)                     # where exact: the pits (0..5) that get it

`pits` are the 12 counts as the player to move sees them: their six pits in
sowing order, then the opponent's six in sowing order (South to move: A..F,
a..f; North to move: a..f, A..F). The stores play no part.

What a value means. The value of a position with n seeds on the board is how
many of those n the player to move captures, counting the share-out at the
end, when both players play to capture as many as they can, under
games/RULES.md: a player to move without seeds takes nothing and the other
their own row; a player who cannot feed the other takes their own row; and
the first repetition of a position (pits, stores, player to move) ends the
game, each player taking the seeds on their own row. That last rule makes the
value depend on the positions passed through since the last capture (a player
may end the game by repeating one of them). The tables hold for every
position the least (`low`) and the most (`high`) the mover gets over every
possible history, and the value is **exact** where they meet: then it is the
true value whatever came before.

How. A capture leads to a smaller layer (fewer seeds), where the past no
longer matters (the stores changed). Within the n-seed layer a child c of p
can be a repeated position only if c can reach p (every earlier position
since the capture leads to p), that is when c lies in p's strongly connected
component of the no-capture moves; such a child counts as the worse, for the
mover, of the share-out (each taking their own row) and of c's bounds for
`low`, the better for `high`; the other children by their bounds, captures by
the smaller layers' bounds. Components are solved sinks first; within one the
iteration starts where every child in the component is a repetition (the
history holds the whole component) and loosens until nothing changes, one
more new position allowed per round: by induction on the positions of the
component not yet passed through, every round's bounds hold for every such
history, so the last ones hold for every history. The move kept (`max`'s)
attains `low` whatever the history: after it, along any play, what the mover
is sure of never falls, and every way the game can end (a capture, a share-out,
a repetition by either player) gives at least that.

How much is exact (default rule; nocapture and opponent-takes within 0.1
point): all of 0-1 seeds, 83.3 % of 2, 54.4 % of 3, 34.7 % of 4, 22.2 % of 5,
13.9 % of 6, 8.4 % of 7, 5.1 % of 8, 3.2 % of 9, 2.1 % of 10, 1.4 % of 11 and
1.0 % of 12 seeds; 46,601 of 2,704,156 positions (1.7 %). Most positions lie in
one large component where a long past lets a player end the game by a
well-timed repetition. Checked (tests/test_oware_tables.py,
games/ai/check_oware_tables.py) against a search of the engine's own game
from every position of 0-3 seeds and a sample up to 12, all three rules: the
true value with no history lies within the bounds everywhere and equals the
exact ones. The result (won, drawn, lost) is settled more often than the
value: a caller adds the stores to both bounds (oware_game.table_score).

Twenty-five. "25 or more wins at once" does not change who wins when seeds
are maximised: a player who can reach 25 can make their total 25 or more, and
one whose total reaches 25 leaves the other at most 23, who then never
reaches 25. So the tables ignore it and count all n seeds; a caller adds the
stores and compares with 24 (the engine ends the game at 25, so a won
position's last few seeds may stay on the board).

Variants: all. `grandslam` changes the values (the file holds the default
table and, for `nocapture` and `opponent-takes`, the positions where they
differ); `must-play-12` does not: with 12 seeds or fewer on the board a pit
of more than 11 holds every seed of its owner's row, so the obligation keeps
the moves the player had anyway.

The file. `oware_endgame.bin` (written by make_oware_tables.py, whose C
helper oware_tables.c does the analysis; about 3 s a grand-slam rule, 10 s in
all) holds a byte per position, `low | high << 4`, then the moves, half a
byte each (two to a byte, 7 where there is none), then the variants'
differences: 4,392,808 bytes (4.2 MiB). Positions are numbered by seeds on
the board, then the pits in lexicographic order. The file is mapped on the
first lookup (nothing is read at import), read-only, so worker processes
share its pages.
"""

from __future__ import annotations

import bisect
import mmap
import struct
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from games import oware as engine
from games.ai import oware_kernel

MAX_SEEDS = 12
TABLE_PATH = Path(__file__).with_name("oware_endgame.bin")
MAGIC = b"KAMEN-OWARE-2\n\0\0"
# The magic, the seeds, the positions, and the differences of nocapture and opponent-takes.
HEADER = struct.Struct("<16sIIII")
NO_MOVE = 7
PITS = 12


# ------------------------------------------------------------------ numbering


def _ways(pits: int, seeds: int) -> int:
    """How many ways `seeds` seeds lie in `pits` pits."""
    if pits == 0:
        return 1 if seeds == 0 else 0
    result = 1  # C(seeds + pits - 1, pits - 1)
    for k in range(1, pits):
        result = result * (seeds + k) // k
    return result


def _numbering(top: int) -> tuple[tuple[int, ...], tuple[tuple[tuple[int, ...], ...], ...]]:
    """The first number of each layer, and RANK[i][left][count]: how many
    positions come before one whose pit i holds `count` with `left` seeds in
    pits i.. (the earlier pits equal)."""
    bases = []
    total = 0
    for seeds in range(top + 1):
        bases.append(total)
        total += _ways(PITS, seeds)
    bases.append(total)
    rank = []
    for pit in range(PITS - 1):
        rest = PITS - 1 - pit
        rank.append(
            tuple(
                tuple(sum(_ways(rest, left - v) for v in range(count)) for count in range(left + 1))
                for left in range(top + 1)
            )
        )
    return tuple(bases), tuple(rank)


BASES, _RANK = _numbering(MAX_SEEDS)
POSITIONS = BASES[-1]
"""Positions with 0..MAX_SEEDS seeds on the board: 2,704,156."""


def index(pits: Sequence[int]) -> int:
    """The number of a position with at most MAX_SEEDS seeds on the board."""
    left = sum(pits)
    number = BASES[left]
    rank = _RANK
    for pit in range(PITS - 1):
        count = pits[pit]
        number += rank[pit][left][count]
        left -= count
    return number


# ------------------------------------------------------------------- the file


class Tables:
    """The mapped file: the default table and the grand-slam variants' differences."""

    def __init__(self, path: Path) -> None:
        with path.open("rb") as file:
            self.map = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        magic, top, positions, *diffs = HEADER.unpack_from(self.map, 0)
        if magic != MAGIC or top != MAX_SEEDS or positions != POSITIONS:
            raise ValueError(f"{path} is not an Oware table of {MAX_SEEDS} seeds (format 2)")
        self.start = HEADER.size
        self.moves = self.start + positions
        offset = self.moves + (positions + 1) // 2
        # Per grand-slam rule: the sorted numbers of the positions that differ,
        # their bounds bytes and their moves (a byte each).
        self.diffs: dict[int, tuple[memoryview, memoryview, memoryview]] = {}
        view = memoryview(self.map)
        for rule, count in zip((engine.NOCAPTURE, engine.OPPONENT_TAKES), diffs, strict=True):
            offset += -offset % 4
            numbers = view[offset : offset + 4 * count].cast("I")
            offset += 4 * count
            self.diffs[rule] = (
                numbers,
                view[offset : offset + count],
                view[offset + count : offset + 2 * count],
            )
            offset += 2 * count
        if offset != len(self.map):
            raise ValueError(f"{path} has the wrong length")

    def entry(self, number: int, grandslam: int) -> tuple[int, int, int]:
        """A position's low, high and move (NO_MOVE where there is none)."""
        diff = self.diffs.get(grandslam)
        if diff is not None:
            numbers, bounds, moves = diff
            at = bisect.bisect_left(numbers, number)
            if at < len(numbers) and numbers[at] == number:
                byte = bounds[at]
                return byte & 15, byte >> 4, moves[at]
        byte = self.map[self.start + number]
        move = self.map[self.moves + (number >> 1)] >> (4 * (number & 1)) & 15
        return byte & 15, byte >> 4, move


@cache
def buffers(grandslam: int) -> tuple[memoryview, memoryview | None, memoryview | None]:
    """The file's bounds bytes of every position and, for a grand-slam rule
    with differences, their sorted position numbers (uint32) and bounds bytes:
    what oware_kernel.c's `think` reads the tables from."""
    found = tables()
    view = memoryview(found.map)
    diff = found.diffs.get(grandslam)
    bounds = view[found.start : found.start + POSITIONS]
    if diff is None:
        return bounds, None, None
    return bounds, diff[0], diff[1]


@cache
def tables() -> Tables:
    """The file, mapped on first use (once per process)."""
    return Tables(TABLE_PATH)


def is_loaded() -> bool:
    return tables.cache_info().currsize > 0


# ------------------------------------------------------------------ variants


def holds(grandslam: int, must_play_12: bool) -> bool:
    """Whether the tables hold the rules (OwareState.grandslam, .must_play_12)."""
    # Above 12 seeds on the board the obligation could matter: these tables would not do.
    return grandslam in (engine.FORBIDDEN, engine.NOCAPTURE, engine.OPPONENT_TAKES) and (
        not must_play_12 or MAX_SEEDS <= 12
    )


@cache
def grandslam_of(variant: str) -> int | None:
    """The grand-slam rule of a variant string, or None when the tables do not hold it."""
    parsed = engine.SPEC.variant(variant)
    grandslam = {
        "forbidden": engine.FORBIDDEN,
        "nocapture": engine.NOCAPTURE,
        "opponent-takes": engine.OPPONENT_TAKES,
    }[parsed["grandslam"]]
    return grandslam if holds(grandslam, parsed["must-play-12"] == "on") else None


@cache
def present() -> bool:
    """Whether the table file is there (it is, in the package; a fresh checkout
    without it plays by search alone until make_oware_tables.py writes it)."""
    return TABLE_PATH.exists()


def covers(variant: str) -> bool:
    """Whether the tables hold a variant (`key=value` text as games.oware reads it;
    a malformed one raises the engine's VariantError)."""
    return grandslam_of(variant) is not None and present()


# -------------------------------------------------------------------- lookups


def _check(pits: Sequence[int]) -> None:
    if len(pits) != PITS or min(pits) < 0:
        raise ValueError(f"not the 12 pits of an Oware board: {pits!r}")


def entry(pits: Sequence[int], grandslam: int) -> tuple[int, int, int] | None:
    """A position's (low, high, move) under a grand-slam rule (the move NO_MOVE
    where there is none), None above MAX_SEEDS seeds."""
    if sum(pits) > MAX_SEEDS:
        return None
    return tables().entry(index(pits), grandslam)


def bounds(pits: Sequence[int], variant: str = "") -> tuple[int, int] | None:
    """The least and the most of the seeds on the board the player to move
    captures with best play, whatever the game's history (the repetitions it
    makes possible); None above MAX_SEEDS seeds or for a variant not held."""
    _check(pits)
    grandslam = grandslam_of(variant)
    if grandslam is None or not present():
        return None
    found = entry(pits, grandslam)
    return None if found is None else (found[0], found[1])


def exact(pits: Sequence[int], variant: str = "") -> int | None:
    """How many of the seeds on the board the player to move captures with best
    play, where that is the same whatever the game's history; else None (also
    above MAX_SEEDS seeds or for a variant not held)."""
    found = bounds(pits, variant)
    return found[0] if found is not None and found[0] == found[1] else None


lookup = exact
"""The old name of `exact`: a value only where it is exact."""


def table_move(pits: Sequence[int], grandslam: int) -> int | None:
    """The move the table plays (the mover's pit 0..5): it attains `low` whatever
    the history; None where there is no move."""
    found = entry(pits, grandslam)
    if found is None or found[2] == NO_MOVE:
        return None
    return found[2]


def legal(pits: tuple[int, ...], grandslam: int) -> list[int]:
    """The mover's legal pits (0..5) (OwareState.legal_moves; must-play-12
    never restricts here)."""
    return oware_kernel.legal(pits, 0, False, grandslam == engine.FORBIDDEN)


def move_bounds(pits: Sequence[int], grandslam: int) -> dict[int, tuple[int, int]]:
    """For each legal move (the mover's pit 0..5): the least and the most of the
    seeds of the board the mover ends with after it, whatever the history (a
    position after the move that the history might hold counts both as the
    share-out that would end the game there and as played on); {} without a move."""
    position = tuple(pits)
    if sum(position) > MAX_SEEDS:
        raise ValueError(f"{sum(position)} seeds on the board: the tables hold {MAX_SEEDS} at most")
    found: dict[int, tuple[int, int]] = {}
    for move in legal(position, grandslam):
        after, stores, _, _, starved = oware_kernel.play(
            position, (0, 0), 0, move, grandslam, False, (False, False)
        )
        taken = stores[0]
        if starved:  # the game ends: each takes their own row
            found[move] = (taken + sum(after[:6]), taken + sum(after[:6]))
            continue
        child = after[6:] + after[:6]
        seeds = sum(child)
        low, high, _ = tables().entry(index(child), grandslam)
        if seeds == sum(position):  # no capture: the child might repeat, each taking their own row
            theirs = sum(child[:6])
            low, high = min(low, theirs), max(high, theirs)
        found[move] = (taken + seeds - high, taken + seeds - low)
    return found


def move_values(pits: Sequence[int], grandslam: int) -> dict[int, int]:
    """For each legal move whose result is exact whatever the history: the seeds
    of the board the mover ends with after it (`move_bounds` where low == high)."""
    return {move: low for move, (low, high) in move_bounds(pits, grandslam).items() if low == high}


def best_moves(pits: Sequence[int], variant: str = "") -> list[int] | None:
    """Where the position's value is exact: the mover's pits (0..5) that attain
    it whatever the history, the table's own move first; [] without a move; None
    where `exact` is None."""
    value = exact(pits, variant)
    grandslam = grandslam_of(variant)
    if value is None or grandslam is None:
        return None
    own = table_move(pits, grandslam)
    if own is None:
        return []
    moves = [own]
    moves += [
        move
        for move, (low, _) in move_bounds(pits, grandslam).items()
        if low >= value and move != own
    ]
    return moves
