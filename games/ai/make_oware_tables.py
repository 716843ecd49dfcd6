"""Write `oware_endgame.bin`: Oware solved for up to 12 seeds on the board (see oware_tables).

    python -m games.ai.make_oware_tables [--out PATH] [--cc gcc]

Compiles the C helper oware_tables.c (gcc -O2, in a temporary directory),
runs it once per grand-slam rule (about 3 s each, printing the exact
positions per layer), and writes the default table whole with the positions
where `nocapture` and `opponent-takes` differ from it: 4.2 MiB, about 10 s in
all. The tables are a pure function of the rules in games/oware.py: rebuild
them whenever those change (tests/test_oware_tables.py checks the shipped
file against a search of the engine's own game).
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from pathlib import Path

from games import oware as engine
from games.ai.oware_tables import HEADER, MAGIC, MAX_SEEDS, POSITIONS, TABLE_PATH

SOURCE = Path(__file__).with_name("oware_tables.c")
RULES = (engine.FORBIDDEN, engine.NOCAPTURE, engine.OPPONENT_TAKES)


def solve(rule: int, helper: Path, work: Path) -> tuple[bytes, bytes]:
    """One grand-slam rule's whole table, from the C helper: per position the
    bounds byte (low | high << 4) and the move byte."""
    out = work / f"rule{rule}.bin"
    subprocess.run([str(helper), str(MAX_SEEDS), str(rule), str(out)], check=True)
    data = out.read_bytes()
    if len(data) != 2 * POSITIONS:
        raise RuntimeError(f"the helper wrote {len(data)} bytes, not {2 * POSITIONS}")
    return data[:POSITIONS], data[POSITIONS:]


def pack_moves(moves: bytes) -> bytes:
    """Two moves a byte: position 2k in the low four bits, 2k + 1 in the high four."""
    padded = moves + bytes(len(moves) % 2)
    return bytes(padded[i] | padded[i + 1] << 4 for i in range(0, len(padded), 2))


def encode(whole: dict[int, tuple[bytes, bytes]]) -> bytes:
    """The file: header, the default table's bounds (a byte a position) and moves
    (half a byte), then per variant its differences (the positions' numbers as
    4-byte integers, aligned, then their bounds bytes, then their move bytes)."""
    default_bounds, default_moves = whole[engine.FORBIDDEN]
    body = default_bounds + pack_moves(default_moves)
    parts: list[bytes] = []
    counts = []
    size = HEADER.size + len(body)
    for rule in RULES[1:]:
        bounds, moves = whole[rule]
        numbers = [
            n
            for n in range(POSITIONS)
            if bounds[n] != default_bounds[n] or moves[n] != default_moves[n]
        ]
        counts.append(len(numbers))
        pad = -size % 4
        block = b"\0" * pad + b"".join(n.to_bytes(4, "little") for n in numbers)
        block += bytes(bounds[n] for n in numbers) + bytes(moves[n] for n in numbers)
        parts.append(block)
        size += len(block)
    header = HEADER.pack(MAGIC, MAX_SEEDS, POSITIONS, *counts)
    return header + body + b"".join(parts)


def build(compiler: str = "gcc") -> bytes:
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        helper = work / "oware_tables"
        subprocess.run([compiler, "-O2", "-o", str(helper), str(SOURCE)], check=True)
        whole: dict[int, tuple[bytes, bytes]] = {}
        for rule in RULES:
            began = time.perf_counter()
            whole[rule] = solve(rule, helper, work)
            print(f"grandslam={rule}: {time.perf_counter() - began:.1f} s", flush=True)
    return encode(whole)


def main() -> None:
    parser = argparse.ArgumentParser(description="solve Oware endgames into a table file")
    parser.add_argument("--out", type=Path, default=TABLE_PATH)
    parser.add_argument("--cc", default="gcc", help="the C compiler (default gcc)")
    args = parser.parse_args()
    began = time.perf_counter()
    data = build(args.cc)
    args.out.write_bytes(data)
    took = time.perf_counter() - began
    print(f"wrote {args.out} ({len(data):,} bytes) in {took:.1f} s")


if __name__ == "__main__":
    main()
