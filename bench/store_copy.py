"""`python -m store copy`'s memory against the size of the database.

    python -m bench.store_copy [--rows 75000] [--times 1 4]

For each multiple m of `--times`, a fresh SQLite database holding m x ROWS finished
games (one game made through the store, its row cloned with new ids in SQL) is copied
into a fresh PostgreSQL database (on KAMEN_TEST_POSTGRES, by default the local server)
by `python -m store copy` in a child process; prints the rows, the seconds and the
child's peak resident memory (its ru_maxrss). A copy that streams its tables in
batches keeps the same peak whatever the rows; one that reads whole tables grows
with them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

from games.base import Termination
from games.registry import GAMES
from matches import FirstChoice, Status, StoredGame
from store import open_store
from tests.store_support import fresh_postgres


async def seed(path: Path, rows: int) -> None:
    """A Kamen SQLite database with `rows` finished games of a few dozen moves each."""
    store = await open_store(f"sqlite:///{path}")
    try:
        state = GAMES["oware"].new()
        while len(state.moves) < 40 and (legal := state.legal_moves()):
            state = state.play(legal[len(state.moves) % len(legal)])
        now = datetime.now(UTC)
        row = StoredGame(
            guild_id=1000,
            channel_id=10_000_000,
            game="oware",
            status=Status.FINISHED,
            challenger_id=100,
            created_at=now,
            updated_at=now,
            opponent_id=200,
            first_choice=FirstChoice.CHALLENGER,
            first_id=100,
            second_id=200,
            moves=state.moves,
            result="1-0",
            reason=Termination.RESIGNATION,
        )
        await store.create_game(row)
    finally:
        await store.close()
    with closing(sqlite3.connect(path)) as db:
        columns = [info[1] for info in db.execute("PRAGMA table_info(games)") if info[1] != "id"]
        chosen = ", ".join("channel_id + n" if c == "channel_id" else c for c in columns)
        db.execute(
            "WITH RECURSIVE count(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM count WHERE n < ?)"
            f" INSERT INTO games ({', '.join(columns)}) SELECT {chosen}"
            " FROM count, (SELECT * FROM games LIMIT 1)",
            (rows - 1,),
        )
        db.commit()


def peak_of_copy(source: Path, target: str) -> tuple[float, float, str]:
    """Run `python -m store copy`; its seconds, its peak RSS in MiB and its last line."""
    began = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "store", "copy", f"sqlite:///{source}", target],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert child.stdout is not None
    out = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - began
    if child.returncode != 0:
        raise SystemExit(f"store copy exited {child.returncode}:\n{out}")
    return seconds, usage.ru_maxrss / 1024, out.strip().splitlines()[-1]


async def measure(rows: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "kamen.db"
        began = time.perf_counter()
        await seed(source, rows)
        seeded = time.perf_counter() - began
        async with fresh_postgres() as target:
            seconds, peak, last = await asyncio.to_thread(peak_of_copy, source, target)
        size = source.stat().st_size / 2**20
        print(
            f"{rows:>9} games ({size:6.1f} MiB SQLite, seeded in {seeded:5.1f} s):"
            f" copied in {seconds:6.1f} s, peak RSS {peak:6.1f} MiB  [{last}]",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.store_copy", description=__doc__)
    parser.add_argument("--rows", type=int, default=75_000)
    parser.add_argument("--times", type=int, nargs="+", default=[1, 4])
    args = parser.parse_args()
    for times in args.times:
        asyncio.run(measure(args.rows * times))


if __name__ == "__main__":
    main()
