"""The Oware endgame tables: build time, size, lookup speed, memory of two workers.

    python -m bench.oware_tables [--build] [--lookups N] [--games N]
                                 [--versus N] [--budget S]

`--build` rebuilds the file into a temporary directory (as
`python -m games.ai.make_oware_tables` does), prints the time and whether it
is byte for byte the shipped file. Then: the shipped file's size; the time of
`lookup` and of the search's leaf (`oware_game.table_score`) on N random
positions of 1..12 seeds; and two worker processes (spawned, as the bot's
pool is) that each read every page of the table, measured at the same moment
from /proc/self/smaps_rollup (the whole process) and /proc/self/smaps (the
table's mapping alone). PSS divides a page shared by two processes between
them: the bench's own process maps the table too (for the lookups), so each
worker's PSS of it is about a third of its size.

Play (`--games N`, default 1000): games from N random positions of 2..12
seeds (South to move, the stores split evenly) under the engine's own rules,
the repetition rule included, where South plays `max`'s table move against a
random North, and then against the tables' move on both sides. Prints how
often the result (won, drawn, lost) and the seeds South ends with are what
the table's lower bound said or worse (worse would be a bug: the bound holds
whatever the history), and how many games ended by repetition.

`--versus N`: `hard` searching with the tables as leaves against `hard`
without them, S seconds a move (default 0.3), from N positions of 13..16
seeds reached by random moves from the start, each played with both colours.
Prints the tables side's wins, draws and losses.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time
from multiprocessing.synchronize import Barrier
from pathlib import Path

from games import oware
from games.ai import adapters, make_oware_tables, oware_eval, oware_game, oware_tables
from games.ai.levels import level_of
from games.base import Side, Termination

MIB = 1024 * 1024


def random_pits(rng: random.Random) -> tuple[int, ...]:
    seeds = rng.randint(1, oware_tables.MAX_SEEDS)
    bars = sorted(rng.sample(range(seeds + 11), 11))
    edges = (-1, *bars, seeds + 11)
    return tuple(edges[i + 1] - edges[i] - 1 for i in range(12))


def build() -> None:
    began = time.perf_counter()
    data = make_oware_tables.build()
    took = time.perf_counter() - began
    same = data == oware_tables.TABLE_PATH.read_bytes()
    print(f"build: {took:.1f} s, {len(data):,} bytes, the same as the shipped file: {same}")


def lookups(count: int) -> None:
    rng = random.Random(1)
    positions = [random_pits(rng) for _ in range(count)]
    began = time.perf_counter()
    oware_tables.lookup(positions[0])
    print(f"first lookup (maps the file): {1e6 * (time.perf_counter() - began):.0f} µs")
    for variant in ("", "grandslam=nocapture"):
        began = time.perf_counter()
        for pits in positions:
            oware_tables.lookup(pits, variant)
        took = time.perf_counter() - began
        name = variant or "default"
        print(f"lookup ({name}): {1e6 * took / count:.2f} µs, {count / took:,.0f} a second")
    nodes = [
        oware_game.OwarePos(pits, (18, 48 - 18 - sum(pits)), 0, (False, False), (pits,), 0)
        for pits in positions
    ]
    began = time.perf_counter()
    for pos in nodes:
        oware_game.table_score(pos, oware.FORBIDDEN)
    took = time.perf_counter() - began
    print(f"search leaf (table_score): {1e6 * took / count:.2f} µs")


def _memory(path: str) -> dict[str, int]:
    values: dict[str, int] = {}
    for line in Path(path).read_text().splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[-1] == "kB":
            values[parts[0].rstrip(":")] = int(parts[-2]) * 1024
    return values


def _mapping() -> dict[str, int]:
    """Rss and Pss of the table file's mapping in this process."""
    found: dict[str, int] = {}
    inside = False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        first = line.split()[0] if line.split() else ""
        if "-" in first and not first.endswith(":"):
            inside = line.rstrip().endswith(oware_tables.TABLE_PATH.name)
        elif inside and first in ("Rss:", "Pss:"):
            found[first[:-1]] = found.get(first[:-1], 0) + int(line.split()[1]) * 1024
    return found


def worker(name: str, barrier: Barrier, queue: multiprocessing.Queue[str]) -> None:
    before = _memory("/proc/self/smaps_rollup")
    table = oware_tables.tables().map
    total = sum(table[i] for i in range(0, len(table), 4096))  # every page, once
    oware_tables.lookup((1,) * 12)
    barrier.wait()  # both workers have read the whole table
    after = _memory("/proc/self/smaps_rollup")
    mapping = _mapping()
    barrier.wait()  # measured in both before either exits
    queue.put(
        f"{name}: process RSS {before['Rss'] / MIB:.1f} -> {after['Rss'] / MIB:.1f} MiB, "
        f"PSS {before['Pss'] / MIB:.1f} -> {after['Pss'] / MIB:.1f} MiB; "
        f"the table's mapping RSS {mapping.get('Rss', 0) / MIB:.2f} MiB, "
        f"PSS {mapping.get('Pss', 0) / MIB:.2f} MiB (checksum {total})"
    )


def shared_memory() -> None:
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(2)
    queue: multiprocessing.Queue[str] = context.Queue()
    workers = [context.Process(target=worker, args=(f"worker {n}", barrier, queue)) for n in (1, 2)]
    for process in workers:
        process.start()
    lines = [queue.get(timeout=120) for _ in workers]
    for process in workers:
        process.join()
    for line in sorted(lines):
        print(line)


def table_position(pits: tuple[int, ...]) -> oware.OwareState:
    seeds = sum(pits)
    south = (48 - seeds) // 2
    text = "\n".join(
        [
            f"North  f  e  d  c  b  a     store {48 - seeds - south}",
            " ".join(str(n) for n in reversed(pits[6:])),
            " ".join(str(n) for n in pits[:6]),
            f"South  A  B  C  D  E  F     store {south}",
            "South to move",
        ]
    )
    return oware.from_text(text, oware.SPEC.variant())


def _result(total: int) -> int:
    return 1 if total > 24 else 0 if total == 24 else -1


def play(games: int) -> None:
    for against in ("random", "tables"):
        rng = random.Random(2)
        same_result = worse_result = same_seeds = fewer = repeated = played = 0
        while played < games:
            pits = random_pits(rng)
            state = table_position(pits)
            bounds = oware_tables.bounds(pits)
            if bounds is None or not state.legal_moves() or sum(pits) < 2:
                continue
            value = bounds[0]  # what South is sure of, whatever the history
            played += 1
            start = state.stores[0]
            while state.legal_moves():
                if state.to_move == Side.FIRST or against == "tables":
                    move = oware_game.table_choice(state)
                    assert move is not None
                else:
                    move = rng.choice(state.legal_moves())
                state = state.play(move)
            outcome = state.outcome()
            assert outcome is not None
            total = outcome.score[0] if outcome.score else state.stores[0]
            same_result += _result(total) == _result(start + value)
            worse_result += _result(total) < _result(start + value)
            if outcome.reason != Termination.TWENTY_FIVE:
                same_seeds += total - start == value
                fewer += total - start < value
            repeated += outcome.reason == Termination.REPETITION
        print(
            f"play, South by the tables against {against}, {games} games: South's result "
            f"as the table said {100 * same_result / games:.1f} %, worse "
            f"{100 * worse_result / games:.1f} %; its seeds as said "
            f"{100 * same_seeds / games:.1f} %, fewer {100 * fewer / games:.1f} %; "
            f"ended by repetition {100 * repeated / games:.1f} %"
        )


def _search(state: oware.OwareState, baseline: bool) -> adapters.Searchable:
    return oware_game.searchable(state, oware_eval.evaluate, tables=True)


def versus(pairs: int, budget: float) -> None:
    """`hard` with the tables' leaves against `hard` without, both colours."""
    with_tables = adapters.AiAdapter(_search, solved=oware_game.solved)
    without = adapters.ADAPTERS[oware.SPEC.name]
    level = level_of("hard")
    rng = random.Random(5)
    tally = [0, 0, 0]  # wins, draws, losses of the tables' side
    starts: list[oware.OwareState] = []
    while len(starts) < pairs:
        state = oware.start(oware.SPEC.variant())
        while state.legal_moves() and sum(state.pits) > 16:
            state = state.play(rng.choice(state.legal_moves()))
        if state.legal_moves() and sum(state.pits) >= 13:
            starts.append(state)
    for start in starts:
        for tables_side in Side:
            state = start
            while state.legal_moves():
                player = with_tables if state.to_move == tables_side else without
                legal = state.legal_moves()
                if len(legal) == 1:
                    move = legal[0]
                else:
                    deadline = time.perf_counter() + budget
                    move = player.choose(state, level, deadline, random.Random(1)).move
                state = state.play(move)
            outcome = state.outcome()
            assert outcome is not None
            won = outcome.winner
            tally[0 if won == tables_side else 1 if won is None else 2] += 1
    print(
        f"hard with tables against hard without, {budget} s a move, {2 * pairs} games "
        f"from 13..16 seeds: {tally[0]}-{tally[1]}-{tally[2]} (W-D-L)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="measure the Oware endgame tables")
    parser.add_argument("--build", action="store_true", help="rebuild the file and time it")
    parser.add_argument("--lookups", type=int, default=200_000)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--versus", type=int, default=0)
    parser.add_argument("--budget", type=float, default=0.3)
    args = parser.parse_args()
    if args.build:
        build()
    size = oware_tables.TABLE_PATH.stat().st_size
    print(
        f"file: {oware_tables.TABLE_PATH.name}, {size:,} bytes ({size / MIB:.2f} MiB), "
        f"{oware_tables.POSITIONS:,} positions of 0..{oware_tables.MAX_SEEDS} seeds"
    )
    lookups(args.lookups)
    shared_memory()
    if args.games:
        play(args.games)
    if args.versus:
        versus(args.versus, args.budget)


if __name__ == "__main__":
    main()
