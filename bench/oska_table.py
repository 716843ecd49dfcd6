"""Memory of the AI worker processes with the Oska table: a private copy in
each worker, against one cache file every worker maps.

    python -m bench.oska_table [--workers 4]

Starts pools of 1 and of `--workers` worker processes as the bot does (spawn,
`games.ai.player.warm_up` as the initializer) and reads each worker's
/proc/<pid>/smaps_rollup once the table is loaded: RSS, PSS (shared pages
split between the processes that map them) and USS (pages no other process
has), summed over the pool. Rows:

- `no table`: the worker's imports alone, `warm_up` not called: the floor.
- `copy`: what every worker did before the cache file: decode the table into
  its own memory (here by pointing $KAMEN_CACHE_DIR where no directory can
  be made, so `oska_solver` falls back to exactly that).
- `mapped`: the workers map one cache file (a fresh directory each time, so
  `cold` includes the one decode; `warm` finds the file there).

`warm-up s` is the slowest worker's `warm_up`. Also prints the shipped file's
size and how long decoding it takes.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from games.ai import oska_solver

MIB = 1024 * 1024
_SPENT = 0.0  # in a worker: seconds its warm_up took


def _load(mode: str, cache: str) -> None:
    """The worker's initializer: the bot's warm_up, with the cache directory given."""
    global _SPENT
    os.environ[oska_solver.CACHE_ENV] = cache
    from games.ai.player import warm_up

    began = time.perf_counter()
    if mode != "no table":
        warm_up()
    _SPENT = time.perf_counter() - began


def _report(hold: float) -> tuple[int, float]:
    time.sleep(hold)  # keeps this worker busy so that each task finds another one
    return os.getpid(), _SPENT


def smaps(pid: int) -> dict[str, int]:
    """The process's memory summary in bytes, from /proc/<pid>/smaps_rollup."""
    found: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, _, rest = line.partition(":")
        parts = rest.split()
        if len(parts) == 2 and parts[1] == "kB":
            found[name] = int(parts[0]) * 1024
    return found


def measure(mode: str, workers: int, cache: str) -> tuple[float, int, int, int]:
    """A pool's slowest warm-up in seconds and its summed RSS, PSS and USS in bytes."""
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(
        workers, mp_context=context, initializer=_load, initargs=(mode, cache)
    )
    with pool:
        results = list(pool.map(_report, [1.0] * workers))
        pids = {pid for pid, _ in results}
        if len(pids) != workers:
            raise RuntimeError(f"{len(pids)} workers answered, not {workers}")
        rollups = [smaps(pid) for pid in pids]
    rss = sum(r["Rss"] for r in rollups)
    pss = sum(r["Pss"] for r in rollups)
    uss = sum(r["Private_Clean"] + r["Private_Dirty"] for r in rollups)
    return max(spent for _, spent in results), rss, pss, uss


def main() -> None:
    parser = argparse.ArgumentParser(description="memory of AI workers holding the Oska table")
    parser.add_argument("--workers", type=int, default=4, help="the larger pool (default 4)")
    args = parser.parse_args()
    raw = oska_solver.TABLE_PATH.read_bytes()
    began = time.perf_counter()
    decoded = oska_solver.decode(raw)
    seconds = time.perf_counter() - began
    print(
        f"{oska_solver.TABLE_PATH.name}: {len(raw):,} bytes shipped, "
        f"{len(oska_solver.VARIANTS)} variants, {len(decoded) / MIB:.1f} MiB decoded "
        f"in {seconds:.2f} s"
    )
    del decoded
    print(
        f"{'workers':<22}{'warm-up s':>10}{'RSS MiB':>10}{'PSS MiB':>10}{'USS MiB':>10}"
        f"{'PSS/worker':>12}{'USS/worker':>12}"
    )
    with tempfile.TemporaryDirectory(prefix="kamen-bench-") as scratch:
        blocked = Path(scratch) / "a-file"
        blocked.write_text("no cache directory can be made under a file")
        rows = [("no table", 1, ""), ("no table", args.workers, "")]
        rows += [("copy", n, str(blocked / "cache")) for n in (1, args.workers)]
        for n in (1, args.workers):
            fresh = str(Path(scratch) / f"cache-{n}")
            rows += [("mapped cold", n, fresh), ("mapped warm", n, fresh)]
        for mode, workers, cache in rows:
            spent, rss, pss, uss = measure(mode, workers, cache)
            print(
                f"{mode + f' x{workers}':<22}{spent:>10.2f}{rss / MIB:>10.1f}{pss / MIB:>10.1f}"
                f"{uss / MIB:>10.1f}{pss / workers / MIB:>12.1f}{uss / workers / MIB:>12.1f}"
            )


if __name__ == "__main__":
    main()
