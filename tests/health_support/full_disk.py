"""`/healthz` of a store on a disk that fills up, in a process of its own.

    python -m tests.health_support.full_disk DB_PATH

Opens the store on DB_PATH, serves its health check on a free port and prints
the port. A line `full` on stdin fills the disk: from then on no file of this
process may grow past its size now (RLIMIT_FSIZE, which fails a write as a
full disk does, and without root or a mount); it answers `full` when done.
A process of its own because the limit holds for every file the process
writes, pytest's included.
"""

from __future__ import annotations

import asyncio
import resource
import signal
import sys
from datetime import timedelta
from pathlib import Path

from matches import system_clock
from matches.leases import Leases
from matches.shards import Shards
from runtime.health import Health, HealthServer, store_check
from store import open_store


def fill_disk(path: Path) -> None:
    """No file may grow any more: the largest of the database's files is the limit."""
    sizes = [p.stat().st_size for p in path.parent.glob(path.name + "*")]
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a failed write, not a killed process
    resource.setrlimit(resource.RLIMIT_FSIZE, (max(sizes), resource.RLIM_INFINITY))


async def main(path: Path) -> None:
    store = await open_store(f"sqlite:///{path}")
    leases = Leases(store, system_clock, Shards(), "this process", timedelta(seconds=30))
    await leases.take()
    loop = asyncio.get_running_loop()
    try:
        async with HealthServer(Health([store_check(leases.renew)]), "127.0.0.1", 0) as server:
            print(server.port, flush=True)
            while line := await loop.run_in_executor(None, sys.stdin.readline):
                if line.strip() == "full":
                    fill_disk(path)
                    print("full", flush=True)
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
