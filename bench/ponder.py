"""Pondering: what thinking on the player's time buys Kamen, and what it costs a move.

    python -m bench.ponder [--positions N] [--ponder S] [--budget S] [--reference S]
                           [--latency N] [--seed N] [--games oware lasca]

Gain, in this process: for N positions of Oware and of Lasca (random games of
8 to 40 plies; positions where the reply is forced, the game is over or Oware
is inside its endgame tables are passed over), the player's reply is a
`medium` move, and Kamen's `hard` search of the position after it, with
`--budget` seconds (0.3), runs twice: from an empty table ("cold") and after
a ponder of `--ponder` seconds (2) of the position before the reply into the
table that search takes ("warm", games.ai.ponder.ponder_search). Printed: the
depth each finished (the search's own report), and how often each one's move
is the move of a `--reference` search (3 s, empty table).

Latency, with the real `runtime.opponent.PooledPicker` and one worker: a
move asked while the worker ponders (a ponder of 60 s, long under way) against
one asked of an idle worker, `--latency` times each: the seconds until it
starts in the worker (the worker's wall clock at its start less the asking
time) and until a `medium` Oware move comes back.
Wall-clock figures on a shared machine.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench.random_plies import random_plies
from games.ai import ponder, search_player
from games.ai.adapters import adapter_for
from games.ai.levels import level_of
from games.ai.player import choose_move, think
from games.ai.search import MATE_ZONE
from games.base import GameState
from games.registry import GAMES


@dataclass
class Case:
    """One position: the player to move (`parent`) and Kamen's after the reply (`child`)."""

    parent: GameState
    child: GameState


def cases(game: str, count: int, rng: random.Random) -> list[Case]:
    """`count` positions of `game` worth pondering, from random games."""
    found: list[Case] = []
    level = level_of("hard")
    adapter = adapter_for(game)
    while len(found) < count:
        state = random_plies(GAMES[game].new(), rng.randint(8, 40), rng)
        if len(state.legal_moves()) < 2:
            continue
        if adapter.solved is not None and adapter.solved(state, level, rng) is not None:
            continue
        child = state.play(choose_move(state, "medium", seed=rng.getrandbits(32)))
        if len(child.legal_moves()) < 2:
            continue
        found.append(Case(state, child))
    return found


@dataclass
class Figures:
    cold_depths: list[int]
    warm_depths: list[int]
    cold_agree: int
    warm_agree: int
    ponder_depths: list[int]
    cold_forced: int = 0
    warm_forced: int = 0
    open_pairs: list[tuple[int, int]] = field(default_factory=list)  # neither saw one


def gain(found: Sequence[Case], seconds: float, budget: float, reference: float) -> Figures:
    figures = Figures([], [], 0, 0, [])
    level = level_of("hard")
    for case in found:
        search_player._tables.clear()
        best = think(case.child, "hard", budget=reference).move
        search_player._tables.clear()
        cold = think(case.child, "hard", budget=budget)
        search_player._tables.clear()
        game, root = adapter_for(case.parent.spec).search(case.parent, False)
        report = ponder.ponder_search(game, root, level, seconds, None)
        warm = think(case.child, "hard", budget=budget)
        figures.cold_depths.append(cold.depth)
        figures.warm_depths.append(warm.depth)
        figures.ponder_depths.append(report.depth)
        figures.cold_agree += cold.move == best
        figures.warm_agree += warm.move == best
        figures.cold_forced += abs(cold.score) >= MATE_ZONE
        figures.warm_forced += abs(warm.score) >= MATE_ZONE
        if max(abs(cold.score), abs(warm.score)) < MATE_ZONE:
            figures.open_pairs.append((cold.depth, warm.depth))
    search_player._tables.clear()
    return figures


def show_gain(game: str, figures: Figures, count: int) -> None:
    cold, warm = figures.cold_depths, figures.warm_depths
    deeper = sum(w > c for c, w in zip(cold, warm, strict=True))
    shallower = sum(w < c for c, w in zip(cold, warm, strict=True))
    print(
        f"{game:6} {count} positions: depth cold {statistics.mean(cold):.2f} "
        f"(median {statistics.median(cold)}), warm {statistics.mean(warm):.2f} "
        f"(median {statistics.median(warm)}); warm deeper in {deeper}, shallower in "
        f"{shallower}; the ponder reached depth {statistics.mean(figures.ponder_depths):.1f}"
    )
    print(
        f"{'':6} agreement with the reference move: cold {figures.cold_agree}/{count}, "
        f"warm {figures.warm_agree}/{count}; a forced result seen (the search stops there): "
        f"cold {figures.cold_forced}, warm {figures.warm_forced}"
    )
    if figures.open_pairs:
        pairs = figures.open_pairs
        print(
            f"{'':6} where neither saw a forced result ({len(pairs)}): depth cold "
            f"{statistics.mean(c for c, _ in pairs):.2f}, warm "
            f"{statistics.mean(w for _, w in pairs):.2f}"
        )


async def latency(times: int) -> None:
    from runtime.opponent import PooledPicker, _trimming, consider, thinking_for

    picker = PooledPicker(1, ponder_seconds=0)  # the ponders are asked for here
    rng = random.Random(5)
    lasca = GAMES["lasca"].new()
    for _ in range(12):
        lasca = lasca.play(rng.choice(lasca.legal_moves()))
    oware = GAMES["oware"].new().play("C").play("d")
    args = ("lasca", str(lasca.variant), lasca.moves, "hard", 60.0)
    rows: dict[str, tuple[list[float], list[float]]] = {"idle": ([], []), "pondering": ([], [])}
    try:
        await picker.start()
        for _ in range(times):
            for kind, (starts, answers) in rows.items():
                task = None
                if kind == "pondering":
                    task = asyncio.create_task(
                        picker.queue.submit_ponder("L", _trimming, consider, *args)
                    )
                    while not picker.queue.pondering:
                        await asyncio.sleep(0.01)
                    await asyncio.sleep(0.5)  # well into the search
                asked = time.time()
                started = await picker.queue.submit("O", time.time)
                starts.append(started - asked)
                if task is not None:
                    report = await task
                    assert report.ended == "stopped", report  # not "full": it searched
                    task = asyncio.create_task(
                        picker.queue.submit_ponder("L", _trimming, consider, *args)
                    )
                    while not picker.queue.pondering:
                        await asyncio.sleep(0.01)
                    await asyncio.sleep(0.5)
                asked = time.time()
                with thinking_for("O"):
                    await picker.pick(oware, "medium")
                answers.append(time.time() - asked)
                if task is not None:
                    await task
    finally:
        picker.close()
    for kind, (starts, answers) in rows.items():
        print(
            f"a move asked of a worker {kind:9}: starts after "
            f"{1000 * statistics.median(starts):6.1f} ms median, {1000 * max(starts):6.1f} max; "
            "a medium Oware move back after "
            f"{1000 * statistics.median(answers):6.1f} ms median, {1000 * max(answers):6.1f} max"
            f" ({len(starts)} times)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--ponder", type=float, default=2.0)
    parser.add_argument("--budget", type=float, default=0.3)
    parser.add_argument("--reference", type=float, default=3.0)
    parser.add_argument("--latency", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", nargs="+", default=["oware", "lasca"])
    options = parser.parse_args()
    rng = random.Random(options.seed)
    print(
        f"hard {options.budget} s from an empty table (cold) or after a ponder of "
        f"{options.ponder} s (warm); reference: hard {options.reference} s"
    )
    for game in options.games:
        found = cases(game, options.positions, rng)
        figures = gain(found, options.ponder, options.budget, options.reference)
        show_gain(game, figures, len(found))
    if options.latency:
        asyncio.run(latency(options.latency))


if __name__ == "__main__":
    main()
