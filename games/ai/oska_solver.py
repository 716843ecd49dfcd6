"""Oska solved: the game-theoretic value of every reachable position.

A value is one signed byte from the side to move's view: `100 - n` for a win
in n plies, `-(100 - n)` for a loss in n plies, 0 for a draw. The game is
acyclic (stones only go forward; a pass is always followed by a real move),
so a memoized depth-first search from the start settles every position the
game can reach, through `oska_game.analyse`, which is the engine's own move
generator and win check.

Solving all six variants takes about 15 s of Python, too slow for start-up,
so `make_oska_table.py` writes them to `oska_table.bin` (package data) and
this module reads the variant a game needs on first use. The file holds, per
variant, one byte per position of a dense numbering of every pair of stone
sets with at most four stones each, times the side to move, with 0x80 where
the position cannot be reached; each array is lzma-compressed, and the
`win=elimination` arrays are stored as their XOR with the `win=goal` array of
the same capture rule (they differ in few positions). A position the table
does not hold (a study set up from text) is solved on the spot.

`python -m games.ai.oska_solver` solves every variant afresh, prints the
value of the start position and the length of perfect play, and checks the
shipped table against the fresh solve.
"""

from __future__ import annotations

import lzma
from functools import cache
from math import comb
from pathlib import Path

from games.ai.oska_game import MODES, analyse, child, key

WIN = 100
UNREACHABLE = 0x80
TABLE_PATH = Path(__file__).with_name("oska_table.bin")
MAGIC = b"KAMEN-OSKA-1\n"
# The variants in the table, in its order. capture=huff-opponent is not: its
# positions carry a pending removal the numbering has no room for.
SOLVED = ("forced", "huff", "optional")
VARIANTS: tuple[tuple[int, bool], ...] = tuple(
    (MODES.index(name), elimination) for name in SOLVED for elimination in (False, True)
)

ROW1 = 0b1111
ROW5 = 0b1111 << 12


# ------------------------------------------------------------------ values


def step_back(value: int) -> int:
    """A child's value seen from its parent: negated, one ply further away."""
    value = -value
    if value > 0:
        return value - 1
    return value + 1 if value < 0 else 0


def describe(value: int) -> str:
    """`win in 21 plies`, `loss in 4 plies`, `draw`."""
    if value == 0:
        return "draw"
    plies = WIN - abs(value)
    return f"{'win' if value > 0 else 'loss'} in {plies} plies"


class Solver:
    """Memoized negamax over the positions reachable from wherever it is asked."""

    def __init__(self, mode: int, elimination: bool) -> None:
        self.mode = mode
        self.elimination = elimination
        self.memo: dict[int, int] = {}

    def value(self, blue: int, red: int, side: int) -> int:
        memo = self.memo
        found = memo.get(key(blue, red, side))
        if found is not None:
            return found
        return self._solve(blue, red, side)

    def _solve(self, blue: int, red: int, side: int) -> int:
        memo = self.memo
        winner, table = analyse(blue, red, side, self.mode, self.elimination)
        if winner is not None:
            value = 0 if winner < 0 else WIN if winner == side else -WIN
        else:
            value = -WIN - 1
            for entry in table.values():
                b, r, s = child(side, entry)
                found = memo.get(key(b, r, s))
                if found is None:
                    found = self._solve(b, r, s)
                found = step_back(found)
                if found > value:
                    value = found
        memo[key(blue, red, side)] = value
        return value


# ---------------------------------------------------------------- numbering

_SUBSETS: tuple[int, ...] = tuple(
    sorted((m for m in range(1 << 16) if m.bit_count() <= 4), key=lambda m: (m.bit_count(), m))
)
_COMB: tuple[tuple[int, ...], ...] = tuple(tuple(comb(n, k) for k in range(6)) for n in range(17))
# _BEFORE[k][m]: how many subsets of k squares with at most 4 stones have fewer than m.
_BEFORE: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(comb(k, j) for j in range(m)) for m in range(6)) for k in range(17)
)


def _pair_bases() -> tuple[dict[int, int], int]:
    bases: dict[int, int] = {}
    total = 0
    for blue in _SUBSETS:
        bases[blue] = total
        total += _BEFORE[16 - blue.bit_count()][5]
    return bases, total


_PAIR_BASE, PAIRS = _pair_bases()
SIZE = 2 * PAIRS


def index(blue: int, red: int, side: int) -> int:
    """The position's place in the dense numbering: side, then Blue's set in
    (size, mask) order, then Red's set among the squares Blue leaves free."""
    rank = 0
    count = 0
    rest = red
    while rest:
        low = rest & -rest
        rest ^= low
        count += 1
        square = low.bit_length() - 1 - (blue & (low - 1)).bit_count()
        rank += _COMB[square][count]
    return side * PAIRS + _PAIR_BASE[blue] + _BEFORE[16 - blue.bit_count()][count] + rank


def dense(memo: dict[int, int]) -> bytearray:
    """A solve's values in the dense numbering, UNREACHABLE elsewhere."""
    out = bytearray([UNREACHABLE]) * SIZE
    mask = 0xFFFF
    for packed, value in memo.items():
        out[index(packed & mask, packed >> 16 & mask, packed >> 32)] = value & 0xFF
    return out


def solve_variant(mode: int, elimination: bool) -> Solver:
    """Every position reachable from the start, solved."""
    solver = Solver(mode, elimination)
    solver.value(ROW1, ROW5, 0)
    return solver


# -------------------------------------------------------------------- file


def _xor(a: bytes, b: bytes) -> bytes:
    return (int.from_bytes(a, "big") ^ int.from_bytes(b, "big")).to_bytes(len(a), "big")


def encode(tables: dict[tuple[int, bool], bytes]) -> bytes:
    """The file: MAGIC, then per variant (VARIANTS order) an 8-byte length and
    the lzma stream (elimination arrays XORed with their goal array)."""
    parts = [MAGIC]
    for mode, elimination in VARIANTS:
        data = tables[mode, elimination]
        if elimination:
            data = _xor(data, tables[mode, False])
        blob = lzma.compress(data, preset=9 | lzma.PRESET_EXTREME)
        parts += [len(blob).to_bytes(8, "big"), blob]
    return b"".join(parts)


def _streams(raw: bytes) -> dict[tuple[int, bool], bytes]:
    if not raw.startswith(MAGIC):
        raise ValueError("not a Kamen Oska table")
    streams: dict[tuple[int, bool], bytes] = {}
    at = len(MAGIC)
    for variant in VARIANTS:
        length = int.from_bytes(raw[at : at + 8], "big")
        streams[variant] = raw[at + 8 : at + 8 + length]
        at += 8 + length
    return streams


@cache
def _file_streams() -> dict[tuple[int, bool], bytes]:
    return _streams(TABLE_PATH.read_bytes())


@cache
def table(mode: int, elimination: bool) -> bytes:
    """The shipped table of one variant, decompressed (about 4.5 MB)."""
    streams = _file_streams()
    data = lzma.decompress(streams[mode, False])
    if elimination:
        data = _xor(lzma.decompress(streams[mode, True]), data)
    if len(data) != SIZE:
        raise ValueError("the Oska table has the wrong size")
    return data


def has_table() -> bool:
    return TABLE_PATH.exists()


def solves(mode: int, elimination: bool) -> bool:
    """Whether the variant is one this module solves (the table's six)."""
    return (mode, elimination) in VARIANTS


_FALLBACK: dict[tuple[int, bool], Solver] = {}


def value(blue: int, red: int, side: int, mode: int, elimination: bool) -> int:
    """The solved value of a position: from the table, else solved now."""
    if has_table():
        byte = table(mode, elimination)[index(blue, red, side)]
        if byte != UNREACHABLE:
            return byte - 256 if byte > 127 else byte
    solver = _FALLBACK.get((mode, elimination))
    if solver is None or len(solver.memo) > 2_000_000:
        solver = _FALLBACK[mode, elimination] = Solver(mode, elimination)
    return solver.value(blue, red, side)


# ------------------------------------------------------------ perfect play


def perfect_lengths(
    solver: Solver, blue: int = ROW1, red: int = ROW5, side: int = 0
) -> tuple[int, int]:
    """The shortest and longest game from a position when both sides play
    only moves that keep its value (for a win or loss both are the distance)."""
    memo: dict[int, tuple[int, int]] = {}

    def walk(b: int, r: int, s: int) -> tuple[int, int]:
        packed = key(b, r, s)
        found = memo.get(packed)
        if found is not None:
            return found
        here = solver.value(b, r, s)
        winner, moves = analyse(b, r, s, solver.mode, solver.elimination)
        if winner is not None:
            result = (0, 0)
        else:
            spans = [
                walk(*after)
                for after in (child(s, entry) for entry in moves.values())
                if step_back(solver.value(*after)) == here
            ]
            result = (1 + min(lo for lo, _ in spans), 1 + max(hi for _, hi in spans))
        memo[packed] = result
        return result

    return walk(blue, red, side)


def main() -> None:
    import time

    print(
        f"{'variant':<34}{'start value':<22}{'perfect play':<16}{'positions':>10}{'solve s':>9}"
        "  table"
    )
    for mode, elimination in VARIANTS:
        began = time.perf_counter()
        solver = solve_variant(mode, elimination)
        seconds = time.perf_counter() - began
        start = solver.memo[key(ROW1, ROW5, 0)]
        shortest, longest = perfect_lengths(solver)
        span = f"{shortest} plies" if shortest == longest else f"{shortest}-{longest} plies"
        check = "absent"
        if has_table():
            check = (
                "matches" if table(mode, elimination) == bytes(dense(solver.memo)) else "DIFFERS"
            )
        names = f"capture={MODES[mode]} win={'elimination' if elimination else 'goal'}"
        print(
            f"{names:<34}{'Blue ' + describe(start):<22}{span:<16}{len(solver.memo):>10,}"
            f"{seconds:>9.1f}  {check}"
        )


if __name__ == "__main__":
    main()
