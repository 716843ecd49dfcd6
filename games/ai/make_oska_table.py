"""Write `oska_table.bin`: every variant of Oska solved (see oska_solver).

    python -m games.ai.make_oska_table [--out PATH]

Takes two to three minutes (a minute solving, the rest lzma at its strongest). The table
is a pure function of the engine in `games/oska.py`: regenerate it whenever
the engine's rules change (a test re-solves the default variant and compares
it with the shipped file). Processes that find a cache file of another table
decode the new one into a new cache file (its name is the table's hash).
"""

from __future__ import annotations

import argparse
import logging
import os
import time
from pathlib import Path

from games.ai.oska_game import MODES
from games.ai.oska_solver import TABLE_PATH, VARIANTS, dense, describe, encode, solve_variant

log = logging.getLogger(__name__)


def build() -> bytes:
    tables: dict[tuple[int, bool], bytes] = {}
    for mode, elimination in VARIANTS:
        began = time.perf_counter()
        solver = solve_variant(mode, elimination)
        tables[mode, elimination] = bytes(dense(solver.memo))
        start = solver.value(0b1111, 0b1111 << 12, 0)
        rule = "elimination" if elimination else "goal"
        pending = len(solver.memo) - solver.positions()
        log.info(
            "capture=%s win=%s: %s positions%s, start: Blue %s, %.1f s",
            MODES[mode], rule, f"{solver.positions():,}",
            f" (and {pending:,} with a removal due)" if pending else "",
            describe(start), time.perf_counter() - began,
        )  # fmt: skip
    began = time.perf_counter()
    data = encode(tables)
    log.info("compressed in %.1f s", time.perf_counter() - began)
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description="solve every Oska variant into a table file")
    parser.add_argument("--out", type=Path, default=TABLE_PATH)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    data = build()
    partial = args.out.with_name(args.out.name + ".partial")
    partial.write_bytes(data)
    os.replace(partial, args.out)
    print(f"wrote {args.out} ({len(data):,} bytes)")


if __name__ == "__main__":
    main()
