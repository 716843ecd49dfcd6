"""Oska solved: the game-theoretic value of every reachable position.

A value is one signed byte from the side to move's view: `100 - n` for a win
in n plies, `-(100 - n)` for a loss in n plies, 0 for a draw. The game is
acyclic (stones only go forward; a pass is always followed by a real move),
so a memoized depth-first search from the start settles every position the
game can reach, through `oska_game.analyse`, which is the engine's own move
generator and win check.

Under capture=huff-opponent a position can carry a pending removal: the
opponent's stones (those that could have captured) the side to move must
remove one of before moving. Such a position is a state of its own: its value
is the best, over the stones it may remove, of the position each removal
leaves, the same side to move and nothing pending (`removal_value`; a removal
that decides the game is the whole move, `a1:`, so that win or loss comes one
ply later). The solver and the table hold the positions with nothing pending,
those a removal leads to included, and a pending one is derived from at most
four of them.

Solving all eight variants takes about a minute of Python, too slow for start-up,
so `make_oska_table.py` writes them to `oska_table.bin` (package data). The
file holds, per variant, one byte per position of a dense numbering of every
pair of stone sets with at most four stones each, times the side to move,
with 0x80 where the position cannot be reached; each array is
lzma-compressed, most stored as their XOR with a similar array (`BASES`),
and the header carries the SHA-256 of the decoded arrays.

The decoded arrays (8 x 4.5 MB) are not copied into every process: the first
process decodes them into a cache file (`oska-<hash>.bin` in the directory
$KAMEN_CACHE_DIR, else $XDG_CACHE_HOME/kamen or ~/.cache/kamen), written
atomically under a lock and checked by size and SHA-256 whenever it is
opened, and every process maps that file read-only, so the AI worker
processes share one copy in the page cache. A process that can write no cache
decodes the arrays into its own memory. A position the table does not hold
(a study set up from text) is solved on the spot.

`python -m games.ai.oska_solver` solves every variant afresh, prints the
value of the start position and the length of perfect play, and checks the
shipped table against the fresh solve.
"""

from __future__ import annotations

import fcntl
import hashlib
import lzma
import mmap
import os
import tempfile
from collections.abc import Callable
from functools import cache
from math import comb
from pathlib import Path

from games.ai.oska_game import MODES, analyse, child, key
from games.oska import decided

WIN = 100
UNREACHABLE = 0x80
TABLE_PATH = Path(__file__).with_name("oska_table.bin")
MAGIC = b"KAMEN-OSKA-2\n"
CACHE_ENV = "KAMEN_CACHE_DIR"
# The variants in the table, in its order: every capture rule, goal then elimination.
VARIANTS: tuple[tuple[int, bool], ...] = tuple(
    (mode, elimination) for mode in range(len(MODES)) for elimination in (False, True)
)

# The array each variant is stored as its XOR with, an earlier one it differs
# little from: win=elimination from win=goal, huff-opponent from huff (the
# positions with nothing pending are the same, their values often too).
BASES: dict[tuple[int, bool], tuple[int, bool]] = {
    (0, True): (0, False),
    (1, True): (1, False),
    (2, True): (2, False),
    (3, False): (1, False),
    (3, True): (3, False),
}

ROW1 = 0b1111
ROW5 = 0b1111 << 12

Lookup = Callable[[int, int, int], int]


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


def state_key(blue: int, red: int, side: int, pending: int = 0) -> int:
    """One integer for a position and its pending removal (as `OskaGame.key`)."""
    return key(blue, red, side) | pending << 33


def removal_value(
    blue: int, red: int, side: int, pending: int, elimination: bool, lookup: Lookup
) -> int:
    """The value of a position whose side to move must first remove one of the
    opponent's `pending` stones, from `lookup(blue, red, side)`, the values of
    positions with nothing pending.

    After the removal the side to move plays on from the position it leaves
    (`oska.removals` generates exactly that position's moves, or its pass, or
    its blocked draw), so the value is that position's, except that a game
    the removal decides ends with the removal itself, `a1:`: one ply later.
    """
    outcome = decided(blue, red, elimination)
    if outcome is not None:  # never after a step, but the engine checks first
        return 0 if outcome.winner is None else WIN if int(outcome.winner) == side else -WIN
    best = -WIN - 1
    while pending:
        bit = pending & -pending
        pending ^= bit
        found = lookup(blue ^ bit, red, 1) if side else lookup(blue, red ^ bit, 0)
        if found == WIN or found == -WIN:
            found = step_back(-found)
        if found > best:
            best = found
    return best


class Solver:
    """Memoized negamax over the positions reachable from wherever it is asked."""

    def __init__(self, mode: int, elimination: bool) -> None:
        self.mode = mode
        self.elimination = elimination
        self.memo: dict[int, int] = {}

    def value(self, blue: int, red: int, side: int, pending: int = 0) -> int:
        found = self.memo.get(state_key(blue, red, side, pending))
        if found is not None:
            return found
        return self._solve(blue, red, side, pending)

    def _solve(self, blue: int, red: int, side: int, pending: int = 0) -> int:
        memo = self.memo
        if pending:
            value = removal_value(blue, red, side, pending, self.elimination, self.value)
            memo[state_key(blue, red, side, pending)] = value
            return value
        winner, table = analyse(blue, red, side, self.mode, self.elimination)
        if winner is not None:
            value = 0 if winner < 0 else WIN if winner == side else -WIN
        else:
            value = -WIN - 1
            for entry in table.values():
                b, r, s = child(side, entry)
                due = entry[2]
                found = memo.get(key(b, r, s) | due << 33)
                if found is None:
                    found = self._solve(b, r, s, due)
                found = step_back(found)
                if found > value:
                    value = found
        memo[key(blue, red, side)] = value
        return value

    def positions(self) -> int:
        """How many positions with nothing pending it has solved (the table's)."""
        return sum(1 for packed in self.memo if not packed >> 33)


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
    """A solve's values of the positions with nothing pending in the dense
    numbering, UNREACHABLE elsewhere."""
    out = bytearray([UNREACHABLE]) * SIZE
    mask = 0xFFFF
    for packed, value in memo.items():
        if not packed >> 33:
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
    """The file: MAGIC, the SHA-256 of the decoded arrays (VARIANTS order, one
    after the other), then per variant an 8-byte length and the lzma stream of
    its array XORed with its base's (BASES), if it has one."""
    digest = hashlib.sha256(b"".join(tables[variant] for variant in VARIANTS)).digest()
    parts = [MAGIC, digest]
    for variant in VARIANTS:
        data = tables[variant]
        base = BASES.get(variant)
        if base is not None:
            data = _xor(data, tables[base])
        blob = lzma.compress(data, preset=9 | lzma.PRESET_EXTREME)
        parts += [len(blob).to_bytes(8, "big"), blob]
    return b"".join(parts)


def digest_of(raw: bytes) -> bytes:
    """The SHA-256 of the arrays a table file decodes to, from its header."""
    if not raw.startswith(MAGIC):
        raise ValueError("not a Kamen Oska table (or one of an older format)")
    return raw[len(MAGIC) : len(MAGIC) + 32]


def decode(raw: bytes) -> bytes:
    """Every variant's array, one after the other in VARIANTS order, checked
    against the file's SHA-256 (about 0.5 s)."""
    digest = digest_of(raw)
    arrays: dict[tuple[int, bool], bytes] = {}
    at = len(MAGIC) + 32
    for mode, elimination in VARIANTS:
        length = int.from_bytes(raw[at : at + 8], "big")
        data = lzma.decompress(raw[at + 8 : at + 8 + length])
        at += 8 + length
        base = BASES.get((mode, elimination))
        if base is not None:
            data = _xor(data, arrays[base])
        arrays[mode, elimination] = data
    out = b"".join(arrays[variant] for variant in VARIANTS)
    if len(out) != len(VARIANTS) * SIZE or hashlib.sha256(out).digest() != digest:
        raise ValueError("the Oska table is damaged")
    return out


# ------------------------------------------------------------------- cache


def cache_dir() -> Path:
    """$KAMEN_CACHE_DIR, else $XDG_CACHE_HOME/kamen, else ~/.cache/kamen."""
    named = os.environ.get(CACHE_ENV)
    if named:
        return Path(named)
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base) if base else Path.home() / ".cache") / "kamen"


def _open_checked(path: Path, digest: bytes) -> memoryview | None:
    """The cache file mapped read-only, or None when it is missing, of the
    wrong size or not what the table decodes to."""
    try:
        with path.open("rb") as file:
            if os.fstat(file.fileno()).st_size != len(VARIANTS) * SIZE:
                return None
            mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    except FileNotFoundError:
        return None
    if hashlib.sha256(mapped).digest() != digest:
        mapped.close()
        return None
    return memoryview(mapped)


def map_cache(directory: Path, raw: bytes) -> memoryview:
    """The decoded table `raw` as a read-only map of its cache file in
    `directory`, decoded and written there first if it is not there whole.

    Under an exclusive lock on `oska.lock`, so that workers starting together
    decode once and all map the same file; the file is written under a
    temporary name and renamed into place, and cache files of other tables
    are removed. Raises OSError when the directory cannot be written.
    """
    digest = digest_of(raw)
    path = directory / f"oska-{digest.hex()[:16]}.bin"
    found = _open_checked(path, digest)
    if found is not None:
        return found
    directory.mkdir(parents=True, exist_ok=True)
    with (directory / "oska.lock").open("ab") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        found = _open_checked(path, digest)
        if found is not None:
            return found
        handle, temporary = tempfile.mkstemp(prefix=".oska-", dir=directory)
        try:
            os.fchmod(handle, 0o644)  # mkstemp's 0600 would keep other users' workers out
            with os.fdopen(handle, "wb") as out:
                out.write(decode(raw))
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        for old in directory.glob("oska-*.bin"):
            if old != path:
                old.unlink(missing_ok=True)
        found = _open_checked(path, digest)
    if found is None:
        raise OSError(f"the Oska table cache {path} does not read back")
    return found


@cache
def _decoded() -> memoryview:
    raw = TABLE_PATH.read_bytes()
    try:
        return map_cache(cache_dir(), raw)
    except (OSError, RuntimeError):  # RuntimeError: no home directory
        return memoryview(decode(raw))


@cache
def table(mode: int, elimination: bool) -> memoryview:
    """The shipped table of one variant (4.5 MB), read-only, shared between processes."""
    at = VARIANTS.index((mode, elimination)) * SIZE
    return _decoded()[at : at + SIZE]


def has_table() -> bool:
    return TABLE_PATH.exists()


def solves(mode: int, elimination: bool) -> bool:
    """Whether the variant is one this module solves (every variant there is)."""
    return (mode, elimination) in VARIANTS


_FALLBACK: dict[tuple[int, bool], Solver] = {}


def value(blue: int, red: int, side: int, mode: int, elimination: bool, pending: int = 0) -> int:
    """The solved value of a position (with `pending`, the stones the side to
    move must remove one of first): from the table, else solved now."""
    if pending:

        def lookup(b: int, r: int, s: int) -> int:
            return value(b, r, s, mode, elimination)

        return removal_value(blue, red, side, pending, elimination, lookup)
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

    def walk(b: int, r: int, s: int, due: int) -> tuple[int, int]:
        packed = state_key(b, r, s, due)
        found = memo.get(packed)
        if found is not None:
            return found
        here = solver.value(b, r, s, due)
        winner, moves = analyse(b, r, s, solver.mode, solver.elimination, due)
        if winner is not None:
            result = (0, 0)
        else:
            spans = [
                walk(*after, entry[2])
                for after, entry in ((child(s, entry), entry) for entry in moves.values())
                if step_back(solver.value(*after, entry[2])) == here
            ]
            result = (1 + min(lo for lo, _ in spans), 1 + max(hi for _, hi in spans))
        memo[packed] = result
        return result

    return walk(blue, red, side, 0)


def main() -> None:
    import time

    print(
        f"{'variant':<40}{'start value':<22}{'perfect play':<16}{'positions':>10}{'solve s':>9}"
        "  table"
    )
    for mode, elimination in VARIANTS:
        began = time.perf_counter()
        solver = solve_variant(mode, elimination)
        seconds = time.perf_counter() - began
        start = solver.value(ROW1, ROW5, 0)
        shortest, longest = perfect_lengths(solver)
        span = f"{shortest} plies" if shortest == longest else f"{shortest}-{longest} plies"
        check = "absent"
        if has_table():
            check = (
                "matches" if table(mode, elimination) == bytes(dense(solver.memo)) else "DIFFERS"
            )
        names = f"capture={MODES[mode]} win={'elimination' if elimination else 'goal'}"
        print(
            f"{names:<40}{'Blue ' + describe(start):<22}{span:<16}{solver.positions():>10,}"
            f"{seconds:>9.1f}  {check}"
        )


if __name__ == "__main__":
    main()
