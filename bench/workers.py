"""Kamen's AI workers: the memory they cost, and a human move while Kamen thinks.

    python -m bench.workers [--workers N] [--seconds S] [--games G] [--level hard]
                            [--human-every S] [--seed N]

Does what the bot does before its first move against Kamen: the start-up
checks (`bot.__main__.missing_parts`, which import the renderer and the AI),
discord.py and the client imported, the store open, then the real
`runtime.opponent.PooledPicker` started with the default worker count of
`runtime.settings.Settings` (or `--workers`), which loads the tables.

Memory: RSS, PSS and USS (private clean + dirty) of this process (the bot)
and of each of its child processes (the workers, multiprocessing's resource
tracker), from /proc/<pid>/smaps_rollup, and their sums. PSS counts a page
shared by k processes as 1/k in each, so the PSS total is what the whole bot
costs the machine. Budget (issue 17): at most 250 MiB for the whole bot.

Latency: `--games` games (default 4) against Kamen at `--level` wait for
Kamen's move all the time (a human answers at once, so Kamen is asked
again), while in another game two humans play a move every `--human-every`
seconds through `MatchService.move`, with the board drawn as the bot draws
it. Printed: the time of that human move (service + image), the event
loop's lag (how late a timer of 10 ms fires), and how long each of Kamen's
moves took from asking to answer (what the players waiting for Kamen see),
per game and in all, for `--seconds`. Measured on a shared machine: the
figures are wall-clock.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field, fields
from pathlib import Path

GUILD = 1
ALICE, BOB, BOT = 100, 200, 999
KAMEN_GAMES = ("oska", "lasca", "oware")
MIB = 1024 * 1024


@dataclass
class Memory:
    """One process's memory, in bytes, from /proc/<pid>/smaps_rollup."""

    pid: int
    label: str
    rss: int
    pss: int
    uss: int


def memory_of(pid: int, label: str) -> Memory | None:
    """`pid`'s RSS, PSS and USS; None when it is gone or not readable."""
    values: dict[str, int] = {}
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[-1] == "kB":
            values[parts[0].rstrip(":")] = int(parts[1]) * 1024
    uss = values.get("Private_Clean", 0) + values.get("Private_Dirty", 0)
    return Memory(pid, label, values.get("Rss", 0), values.get("Pss", 0), uss)


def children_of(parent: int) -> list[int]:
    """Every process below `parent` (children, their children...), by /proc/<pid>/stat."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces and parentheses
        parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: list[int] = []
    wanted = [parent]
    while wanted:
        pid = wanted.pop()
        below = sorted(child for child, ppid in parents.items() if ppid == pid)
        found.extend(below)
        wanted.extend(below)
    return found


def label_of(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "?"
    text = raw.replace(b"\0", b" ").decode(errors="replace")
    if "resource_tracker" in text:
        return "resource tracker"
    if "spawn_main" in text or "forkserver" in text:
        return "AI worker"
    return text[:40]


def niceness_of(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])
    except (OSError, IndexError, ValueError):
        return 0


def print_memory(title: str) -> None:
    me = os.getpid()
    rows = [memory_of(me, "bot (this process)")]
    rows += [memory_of(pid, label_of(pid)) for pid in children_of(me)]
    found = [row for row in rows if row is not None]
    print(f"\n{title}")
    print(f"  {'process':<22}{'pid':>8}{'nice':>6}{'RSS MiB':>10}{'PSS MiB':>10}{'USS MiB':>10}")
    for row in found:
        print(
            f"  {row.label:<22}{row.pid:>8}{niceness_of(row.pid):>6}"
            f"{row.rss / MIB:>10.1f}{row.pss / MIB:>10.1f}{row.uss / MIB:>10.1f}"
        )
    totals = [sum(getattr(row, name) for row in found) for name in ("rss", "pss", "uss")]
    rss, pss, uss = (total / MIB for total in totals)
    print(f"  {'total':<28}{'':>6}{rss:>10.1f}{pss:>10.1f}{uss:>10.1f}")
    print(f"  the whole bot costs {pss:.1f} MiB (PSS sum; budget 250 MiB)")


def default_workers() -> int:
    from runtime.settings import Settings

    found = {item.name: item.default for item in fields(Settings)}
    workers = found["ai_workers"]
    assert isinstance(workers, int)
    return workers


@dataclass
class Figures:
    human: list[float] = field(default_factory=list)  # seconds: service move + board image
    lag: list[float] = field(default_factory=list)  # seconds a 10 ms timer fired late
    kamen: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    games_restarted: int = 0


def summary(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)

    def at(share: float) -> float:
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000

    return (
        f"n={len(values)}  p50 {statistics.median(values) * 1000:.1f} ms"
        f"  p90 {at(0.9):.1f}  p99 {at(0.99):.1f}  max {ordered[-1] * 1000:.1f} ms"
    )


async def run(args: argparse.Namespace) -> None:
    from bot.__main__ import missing_parts

    began = time.perf_counter()
    missing = missing_parts()  # as `python -m bot` does: imports the renderer and the AI
    if missing:
        sys.exit(f"bench.workers: {missing}")
    import bot.client  # noqa: F401  (discord.py and the whole bot, as the bot's process holds)
    import render
    from matches import MatchService, Status
    from matches.views import GameView
    from runtime.opponent import PooledPicker
    from store import open_store

    workers = args.workers or default_workers()
    print(f"workers: {workers} (default of runtime.settings: {default_workers()})")
    print(f"level of Kamen's games: {args.level}; games waiting for Kamen: {args.games}")
    with tempfile.TemporaryDirectory(prefix="kamen-bench-workers-") as folder:
        store = await open_store(f"sqlite:///{folder}/kamen.db")
        picker = PooledPicker(workers)
        try:
            print_memory("memory after the start-up, before the workers")
            started = time.perf_counter()
            await picker.start()
            print(f"\nworkers started (tables loaded) in {time.perf_counter() - started:.2f} s")
            print_memory("memory with the workers warm")
            service = MatchService(store, bot_user_id=BOT, picker=picker)
            figures = Figures()
            rng = random.Random(args.seed)
            stop_at = time.perf_counter() + args.seconds
            channels = iter(range(1000, 10**9))

            async def new_kamen_game(index: int) -> GameView:
                return await service.challenge(
                    guild_id=GUILD, channel_id=next(channels), challenger_id=ALICE + index,
                    game=KAMEN_GAMES[index % len(KAMEN_GAMES)], opponent_id=BOT,
                    first="opponent", level=args.level, rated=False,
                )  # fmt: skip

            async def waiting_for_kamen(index: int) -> None:
                view = await new_kamen_game(index)
                while time.perf_counter() < stop_at:
                    if view.status is not Status.ACTIVE:
                        figures.games_restarted += 1
                        view = await new_kamen_game(index)
                        continue
                    if view.bot_to_move:
                        asked = time.perf_counter()
                        result = await service.play_bot_move(view.id, expected_ply=view.ply)
                        figures.kamen[index].append(time.perf_counter() - asked)
                        assert result is not None
                        view = result.view
                        continue
                    human = view.to_move_id
                    assert human is not None
                    move = rng.choice(view.state.legal_moves())
                    view = (await service.move(human, move, game_id=view.id)).view

            async def human_game() -> None:
                await asyncio.sleep(1.0)  # Kamen's games are all waiting by now
                view: GameView | None = None
                while time.perf_counter() < stop_at:
                    if view is None or view.status is not Status.ACTIVE:
                        offered = await service.challenge(
                            guild_id=GUILD, channel_id=next(channels), challenger_id=ALICE,
                            game="lasca", opponent_id=BOB, first="challenger", rated=False,
                        )  # fmt: skip
                        view = await service.accept(offered.id, BOB)
                    await asyncio.sleep(args.human_every)
                    user = view.to_move_id
                    assert user is not None
                    move = rng.choice(view.state.legal_moves())
                    asked = time.perf_counter()
                    result = await service.move(user, move, game_id=view.id, expected_ply=view.ply)
                    render.board(result.view.state, hints=True)
                    figures.human.append(time.perf_counter() - asked)
                    view = result.view

            async def lag_probe() -> None:
                while time.perf_counter() < stop_at:
                    asked = time.perf_counter()
                    await asyncio.sleep(0.01)
                    figures.lag.append(time.perf_counter() - asked - 0.01)

            await asyncio.gather(
                *(waiting_for_kamen(index) for index in range(args.games)),
                human_game(),
                lag_probe(),
            )
            print(f"\nover {args.seconds:.0f} s, while {args.games} games waited for Kamen:")
            print(f"  human move (service + image): {summary(figures.human)}")
            print(f"  event loop lag (10 ms timer): {summary(figures.lag)}")
            everything: list[float] = []
            for index in sorted(figures.kamen):
                times = figures.kamen[index]
                everything += times
                name = KAMEN_GAMES[index % len(KAMEN_GAMES)]
                print(f"  Kamen's moves, game {index + 1} ({name}): {summary(times)}")
            print(f"  Kamen's moves, all games: {summary(everything)}")
            print(f"  games finished and started again: {figures.games_restarted}")
            print_memory("memory at the end")
        finally:
            picker.close()
            await store.close()
    print(f"\nbench took {time.perf_counter() - began:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=0, help="default: the settings' default")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--human-every", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
