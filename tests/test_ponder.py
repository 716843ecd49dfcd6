"""Kamen ponders on the player's time: the ponder warms the next search's table, a move asked
meanwhile starts at once, and easy, medium and Oska are never pondered."""

from __future__ import annotations

import asyncio
import itertools
import logging
import mmap
import os
import random
import struct
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import pytest

from games import oware
from games.ai import ponder, search_player
from games.ai.adapters import adapter_for
from games.ai.levels import level_of
from games.ai.player import choose_move
from games.ai.search import Searcher, Table
from games.base import GameState
from games.registry import GAMES
from runtime import opponent
from runtime.ai_queue import FairQueue
from runtime.opponent import PooledPicker, thinking_for


def random_position(game: str, plies: int, seed: int) -> GameState:
    rng = random.Random(seed)
    state = GAMES[game].new()
    for _ in range(plies):
        state = state.play(rng.choice(state.legal_moves()))
    return state


async def until(condition: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    """Until `condition` holds: a loaded machine only makes the wait longer."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        if loop.time() > end:
            raise AssertionError(f"no {what} in {timeout} s")
        await asyncio.sleep(0.01)


async def until_pondering(picker: PooledPicker) -> None:
    await until(lambda: bool(picker.queue.pondering), "ponder started")


LOOKS = "KAMEN_TEST_PONDER_LOOKS"  # a file where a worker's ponder counts its looks at the stop


class CountedStop:
    """The worker's stop signal; each look at it that finds it unset, the ponder searching
    on, is counted in `counter` (8 bytes shared with the test)."""

    def __init__(self, stop: ponder.StopSignal, counter: mmap.mmap) -> None:
        self.stop = stop
        self.counter = counter

    def is_set(self) -> bool:
        stopped = self.stop.is_set()
        if not stopped:
            (looks,) = struct.unpack_from("q", self.counter)
            struct.pack_into("q", self.counter, 0, looks + 1)
        return stopped


def consider_counted(
    game: str, variant: str, moves: tuple[str, ...], level: str, seconds: float
) -> ponder.PonderReport:
    """Run in a worker instead of `opponent.consider`: the same ponder, its looks at the stop
    signal (one every 256 nodes or sooner) counted in the file `LOOKS` names."""
    stop = ponder._stop
    assert stop is not None
    with open(os.environ[LOOKS], "r+b") as file, mmap.mmap(file.fileno(), 8) as counter:
        ponder.install(CountedStop(stop, counter))
        try:
            return ponder.ponder(game, variant, moves, level, seconds)
        finally:
            ponder.install(stop)


def looks(path: Path) -> int:
    (counted,) = struct.unpack("q", path.read_bytes())
    return int(counted)


def die_soon(*args: object) -> object:
    """Run in a worker instead of a ponder: the worker dies, the stop signal unheard."""
    time.sleep(0.3)
    os._exit(3)


# ------------------------------------------------------------------ in this process


def test_a_ponder_lets_the_next_search_go_deeper(monkeypatch: pytest.MonkeyPatch) -> None:
    # Clocks that count the searches' looks at them (one every 256 nodes): no wall time.
    monkeypatch.setattr(search_player, "_tables", {})
    level = level_of("hard")
    parent = random_position("lasca", 10, seed=5)  # the player to move, 6 moves
    child = parent.play(choose_move(parent, "medium", seed=1))  # Kamen to move: 4 moves
    budget = 40  # about 10,000 nodes

    def kamen_searches(table: Table) -> int:
        game, root = adapter_for(child.spec).search(child, False)
        searcher = Searcher(
            game,
            deadline=budget,
            quiescence=level.quiescence,
            clock=itertools.count().__next__,
            table=table,
            reductions=True,
        )
        moves = search_player.root_moves(game, root, random.Random(0))
        return searcher.iterate(root, moves, search_player.MAX_DEPTH).depth

    cold = kamen_searches({})
    game, root = adapter_for(parent.spec).search(parent, False)
    report = ponder.ponder_search(game, root, level, 400, None, clock=itertools.count().__next__)
    assert report.depth > 0 and report.entries > 0
    warm = kamen_searches(search_player.kept_table(game, level.quiescence))
    assert warm >= cold >= 2
    assert warm > cold  # the replies' subtrees were in the table


def test_a_ponder_in_c_lets_the_next_search_in_c_go_deeper() -> None:
    # The same with the search in C: its kernel keeps the table; clocks count its looks at
    # them (one every 1,024 nodes), no wall time.
    level = level_of("hard")
    parent = random_position("lasca", 10, seed=5)  # the player to move, 6 moves
    child = parent.play(choose_move(parent, "medium", seed=1))  # Kamen to move: 4 moves
    game, root = adapter_for(parent.spec).search(parent, False)
    mine, start = adapter_for(child.spec).search(child, False)
    moves = search_player.root_moves(mine, start, random.Random(0))
    budget = 30  # about 30,000 nodes

    def kamen_searches(table: int) -> int:
        found = mine.think(  # type: ignore[attr-defined]
            start,
            moves,
            max_depth=search_player.MAX_DEPTH,
            quiescence=level.quiescence,
            reductions=True,
            table=table,
            deadline=budget,
            clock=itertools.count().__next__,
        )
        return int(found[2])

    cold = kamen_searches(1)  # a fresh table
    # Emptied again: a search of one ply from the parent, whose replies are not stored.
    game.think(  # type: ignore[attr-defined]
        root,
        list(game.expand(root)[1]),
        max_depth=1,
        quiescence=0,
        reductions=True,
        table=1,
        deadline=None,
    )
    report = ponder.ponder_compiled(game, root, level, 300, None, clock=itertools.count().__next__)
    assert report is not None and report.depth > 0
    warm = kamen_searches(search_player.KEPT)
    assert warm >= cold >= 2
    assert warm > cold  # the replies' subtrees were in the kernel's table


def test_a_ponder_ends_when_its_stop_signal_is_set() -> None:
    class StopAfter:
        def __init__(self, looks: int) -> None:
            self.looks = looks

        def is_set(self) -> bool:
            self.looks -= 1
            return self.looks < 0

    state = random_position("oware", 10, seed=4)
    report = ponder.ponder_state(state, "max", 60.0, StopAfter(20))
    assert report.ended == "stopped" and report.elapsed < 5


def test_nothing_is_pondered_where_the_oware_endgame_tables_settle_the_move() -> None:
    # South A1 D1 against e1 f1, 21 to 23: A wins whatever came before, D loses.
    text = "\n".join(
        [
            "North  f  e  d  c  b  a     store 23",
            "1 1 0 0 0 0",
            "1 0 0 1 0 0",
            "South  A  B  C  D  E  F     store 21",
            "South to move",
        ]
    )
    state = oware.from_text(text, oware.SPEC.variant())
    assert ponder.ponder_state(state, "max", 60.0, None).ended == "skipped"
    searched = random_position("oware", 10, seed=4)
    assert ponder.ponder_state(searched, "easy", 60.0, None).ended == "skipped"


# ---------------------------------------------------------------- the queue


class Signal:
    def __init__(self) -> None:
        self.flag = False

    def set(self) -> None:
        self.flag = True

    def clear(self) -> None:
        self.flag = False


class HeldPool(Executor):
    """An executor whose jobs finish when the test says (by their first argument)."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.jobs: dict[str, Future[Any]] = {}

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.started.append(str(args[0]))
        future: Future[Any] = Future()
        self.jobs[str(args[0])] = future
        return future

    def finish(self, name: str) -> None:
        self.jobs.pop(name).set_result(name)


async def settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


async def test_the_queue_stops_a_ponder_for_any_other_job_and_drops_stale_ones() -> None:
    pool, stop = HeldPool(), Signal()
    queue = FairQueue(lambda: pool, 1, stop=stop)
    stop.set()
    first = asyncio.create_task(queue.submit_ponder("A", str, "ponder A1"))
    await settle()
    assert pool.started == ["ponder A1"] and not stop.flag  # cleared as it starts
    stale = asyncio.create_task(queue.submit_ponder("B", str, "ponder B1"))
    newer = asyncio.create_task(queue.submit_ponder("B", str, "ponder B2"))  # replaces B1
    dropped = asyncio.create_task(queue.submit_ponder("A", str, "ponder A2"))
    review = asyncio.create_task(queue.submit_deferred(str, "review"))
    await settle()
    assert stop.flag  # the review stops the running ponder
    move = asyncio.create_task(queue.submit("A", str, "move A"))  # A's position is gone
    await settle()
    pool.finish("ponder A1")
    await settle()
    assert pool.started == ["ponder A1", "move A"]  # a move first, then the review
    pool.finish("move A")
    await settle()
    pool.finish("review")
    await settle()
    assert pool.started == ["ponder A1", "move A", "review", "ponder B2"]
    assert not stop.flag
    pool.finish("ponder B2")
    assert await asyncio.gather(first, newer, move, review) == [
        "ponder A1",
        "ponder B2",
        "move A",
        "review",
    ]
    for cancelled in (stale, dropped):
        with pytest.raises(asyncio.CancelledError):
            await cancelled


# ---------------------------------------------------------------- real workers


async def test_a_move_asked_during_a_ponder_starts_at_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Counted in the ponder's own work, not in seconds: a loaded machine changes neither count.
    counter = tmp_path / "looks"
    counter.write_bytes(bytes(8))
    monkeypatch.setenv(LOOKS, str(counter))  # before the workers are spawned: they inherit it
    monkeypatch.setattr(opponent, "consider", consider_counted)
    lasca = random_position("lasca", 8, seed=13)  # every move of Kamen's leaves two replies
    oware_state = random_position("oware", 6, seed=5)
    picker = PooledPicker(1, ponder_seconds=60)
    try:
        await picker.start()
        with thinking_for("lasca game"):
            await picker.pick(lasca, "hard")
        (pondering,) = picker.ponders
        # well into its search: 40 looks at the stop signal are some 10,000 nodes
        await until(lambda: looks(counter) >= 40, "ponder well into its search")
        with thinking_for("oware game"):
            asked = asyncio.create_task(picker.pick(oware_state, "medium"))
        await asyncio.sleep(0)  # the move is asked: the queue sets the stop signal at once
        asked_at = looks(counter)
        move = await asked
        report = await pondering
    finally:
        picker.close()
    assert move in oware_state.legal_moves()
    assert report is not None and report.ended == "stopped" and report.depth >= 1
    # Set before `asked_at` was read, the stop was seen at the ponder's next look at the
    # latest (a few hundred nodes on), not after its 60 s.
    assert looks(counter) <= asked_at + 1


async def test_no_pondering_at_easy_or_medium_nor_in_oska() -> None:
    picker = PooledPicker(1, ponder_seconds=60)
    asked = [
        (random_position("lasca", 12, seed=5), "easy"),
        (random_position("oware", 6, seed=5), "medium"),
        (random_position("oska", 2, seed=5), "hard"),
        (random_position("oska", 3, seed=5), "max"),
    ]
    try:
        await picker.start()
        for number, (state, level) in enumerate(asked):
            with thinking_for(number):
                assert await picker.pick(state, level) in state.legal_moves()
            assert not picker.ponders and not picker.queue.pondering
    finally:
        picker.close()


async def test_a_worker_dying_while_it_ponders_does_not_cost_the_next_move(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    lasca = random_position("lasca", 12, seed=5)
    oware_state = random_position("oware", 6, seed=5)
    picker = PooledPicker(1, ponder_seconds=60)
    try:
        await picker.start()
        monkeypatch.setattr(opponent, "consider", die_soon)
        with thinking_for("lasca game"):
            await picker.pick(lasca, "hard")
        (pondering,) = picker.ponders
        await until_pondering(picker)
        with thinking_for("oware game"):  # asked while the worker ponders, then dies
            move = await picker.pick(oware_state, "medium")
        assert await pondering is None
    finally:
        picker.close()
    assert move in oware_state.legal_moves()
    messages = [record.message for record in caplog.records]
    assert "an AI worker died while pondering; the next move starts a new one" in messages
    assert not any("playing at random" in message for message in messages)
