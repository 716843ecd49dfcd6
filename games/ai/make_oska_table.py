"""Write `oska_table.bin`: every variant of Oska solved (see oska_solver).

    python -m games.ai.make_oska_table [--out PATH]

Takes about half a minute. The table is a pure function of the engine in
`games/oska.py`: regenerate it whenever the engine's rules change (a test
re-solves the default variant and compares it with the shipped file).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from games.ai.oska_game import MODES
from games.ai.oska_solver import TABLE_PATH, VARIANTS, dense, describe, encode, solve_variant


def build() -> bytes:
    tables: dict[tuple[int, bool], bytes] = {}
    for mode, elimination in VARIANTS:
        began = time.perf_counter()
        solver = solve_variant(mode, elimination)
        tables[mode, elimination] = bytes(dense(solver.memo))
        start = solver.value(0b1111, 0b1111 << 12, 0)
        rule = "elimination" if elimination else "goal"
        print(
            f"capture={MODES[mode]} win={rule}: {len(solver.memo):,} positions, "
            f"start: Blue {describe(start)}, {time.perf_counter() - began:.1f} s"
        )
    return encode(tables)


def main() -> None:
    parser = argparse.ArgumentParser(description="solve every Oska variant into a table file")
    parser.add_argument("--out", type=Path, default=TABLE_PATH)
    args = parser.parse_args()
    data = build()
    args.out.write_bytes(data)
    print(f"wrote {args.out} ({len(data):,} bytes)")


if __name__ == "__main__":
    main()
