"""Kamen's AI workers: the fair queue (moves by game, oldest first, deferred jobs last), the
workers' lower CPU priority, and a random move when a worker dies."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

import pytest

from games.registry import GAMES
from runtime import opponent
from runtime.ai_queue import FairQueue
from runtime.opponent import WORKER_NICENESS, PooledPicker, thinking_for
from runtime.settings import Settings, SettingsError


class ManualPool(Executor):
    """An executor whose jobs finish when the test says: `started` is the order they began in."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self._running: dict[str, Future[Any]] = {}

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        name = str(args[0])
        self.started.append(name)
        self._running[name] = future
        return future

    def finish(self, name: str) -> None:
        self._running.pop(name).set_result(f"done {name}")

    def running(self) -> set[str]:
        return set(self._running)


async def settle() -> None:
    """Let the loop deliver the finished jobs and start the next ones."""
    for _ in range(10):
        await asyncio.sleep(0)


async def test_a_game_asking_again_does_not_pass_a_game_that_asked_before() -> None:
    pool = ManualPool()
    queue = FairQueue(lambda: pool, 1)
    answers: list[str] = []

    async def game_a() -> None:  # one move after another, as a game asks for them
        for number in (1, 2, 3):
            answers.append(await queue.submit("A", str, f"A{number}"))

    async def game_b() -> None:
        answers.append(await queue.submit("B", str, "B1"))

    playing_a = asyncio.create_task(game_a())
    await settle()  # A1 is in the worker
    playing_b = asyncio.create_task(game_b())  # B asks while A1 is thought about
    await settle()
    pool.finish("A1")  # A asks again at once: after B, which asked before
    await settle()
    assert pool.started == ["A1", "B1"]
    pool.finish("B1")
    await settle()
    pool.finish("A2")
    await settle()
    pool.finish("A3")
    await asyncio.gather(playing_a, playing_b)
    assert pool.started == ["A1", "B1", "A2", "A3"]
    assert answers == ["done A1", "done B1", "done A2", "done A3"]


async def test_one_move_per_game_in_a_worker_and_the_oldest_game_first() -> None:
    pool = ManualPool()
    queue = FairQueue(lambda: pool, 2)
    # Game 7 asks three times at once (a repeated request); then games 3 and 5 ask, in that order.
    asked = [asyncio.create_task(queue.submit(7, str, f"7-{n}")) for n in (1, 2, 3)]
    await settle()
    asked.append(asyncio.create_task(queue.submit(3, str, "3")))
    await settle()
    asked.append(asyncio.create_task(queue.submit(5, str, "5")))
    await settle()
    assert pool.started == ["7-1", "3"]  # not 7-2: game 7 has a move in a worker already
    pool.finish("3")  # a free worker: game 5 asked after game 7's second request,
    await settle()  # but 7 still has a move in a worker
    assert pool.started == ["7-1", "3", "5"]
    pool.finish("7-1")
    await settle()
    assert pool.running() == {"5", "7-2"}
    pool.finish("5")
    await settle()
    assert pool.running() == {"7-2"}  # 7-3 waits for 7-2: one move per game at a time
    pool.finish("7-2")
    await settle()
    pool.finish("7-3")
    assert await asyncio.gather(*asked) == ["done 7-1", "done 7-2", "done 7-3", "done 3", "done 5"]


async def test_deferred_jobs_start_only_when_no_move_waits() -> None:
    pool = ManualPool()
    queue = FairQueue(lambda: pool, 1)
    first = asyncio.create_task(queue.submit(1, str, "move 1"))
    await settle()
    review = asyncio.create_task(queue.submit_deferred(str, "review"))
    await settle()
    later = [asyncio.create_task(queue.submit(game, str, f"move {game}")) for game in (2, 3)]
    await settle()
    for name in ("move 1", "move 2"):
        pool.finish(name)
        await settle()
    assert pool.started == ["move 1", "move 2", "move 3"]  # the moves asked after it go first
    pool.finish("move 3")
    await settle()
    assert pool.started[-1] == "review"
    pool.finish("review")
    assert await review == "done review"
    assert await asyncio.gather(first, *later) == ["done move 1", "done move 2", "done move 3"]


async def test_the_queue_tells_its_depth_by_lane_and_how_long_each_job_waited() -> None:
    """What /metrics shows of it: kamen_ai_queue_depth{lane}, kamen_ai_queue_wait_seconds."""
    pool = ManualPool()
    queue = FairQueue(lambda: pool, 1)
    waits: list[tuple[str, float]] = []
    queue.on_start = lambda lane, seconds: waits.append((lane, seconds))
    loop = asyncio.get_running_loop()
    asked = loop.time()
    first = asyncio.create_task(queue.submit(1, str, "move 1"))
    await settle()
    later = [
        asyncio.create_task(queue.submit(2, str, "move 2")),
        asyncio.create_task(queue.submit_deferred(str, "review")),
    ]
    await settle()
    second_asked = loop.time()  # after the queue took the second move: no earlier than that
    assert queue.depth() == {"move": 1, "deferred": 1, "ponder": 0}
    waited = loop.time()
    pool.finish("move 1")
    await settle()
    assert queue.depth() == {"move": 0, "deferred": 1, "ponder": 0}
    pool.finish("move 2")
    await settle()
    pool.finish("review")
    await asyncio.gather(first, *later)
    assert [lane for lane, _ in waits] == ["move", "move", "deferred"]
    assert all(0 <= seconds <= loop.time() - asked for _, seconds in waits)
    assert waits[1][1] >= waited - second_asked  # the second move waited for the first's end


async def test_deferred_jobs_leave_a_worker_to_the_moves() -> None:
    pool = ManualPool()
    queue = FairQueue(lambda: pool, 2)
    reviews = [asyncio.create_task(queue.submit_deferred(str, f"review {n}")) for n in (1, 2)]
    await settle()
    assert pool.running() == {"review 1"}  # the second worker stays free for a move
    move = asyncio.create_task(queue.submit(9, str, "move"))
    await settle()
    assert pool.running() == {"review 1", "move"}
    pool.finish("move")
    pool.finish("review 1")
    await settle()
    assert pool.running() == {"review 2"}
    pool.finish("review 2")
    assert await move == "done move"
    assert await asyncio.gather(*reviews) == ["done review 1", "done review 2"]


async def test_a_move_no_longer_awaited_leaves_the_queue() -> None:
    pool = ManualPool()
    queue = FairQueue(lambda: pool, 1)
    busy = asyncio.create_task(queue.submit(1, str, "busy"))
    await settle()
    gone = asyncio.create_task(queue.submit(2, str, "gone"))
    kept = asyncio.create_task(queue.submit(3, str, "kept"))
    await settle()
    gone.cancel()  # e.g. the game ended while the move waited
    await settle()
    pool.finish("busy")
    await settle()
    pool.finish("kept")
    assert await kept == "done kept" and await busy == "done busy"
    assert pool.started == ["busy", "kept"]


# ---------------------------------------------------------------- real workers


def niceness_and_pid() -> tuple[int, int]:
    """Run in a worker: its niceness and process id."""
    return os.getpriority(os.PRIO_PROCESS, 0), os.getpid()


def die(*args: object) -> str:
    """Run in a worker instead of the AI: the worker dies at once."""
    os._exit(3)


async def test_workers_run_at_a_lower_cpu_priority_than_the_bot() -> None:
    picker = PooledPicker(2)
    try:
        await picker.start()
        first, second = await asyncio.gather(
            picker.queue.submit("a", niceness_and_pid), picker.queue.submit("b", niceness_and_pid)
        )
    finally:
        picker.close()
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    assert first[0] == second[0] == min(mine + WORKER_NICENESS, 19) > mine
    assert first[1] != second[1] != os.getpid()  # both workers started by `start`


async def test_a_dead_worker_gives_a_random_legal_move_and_is_replaced(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    state = GAMES["oware"].new()
    picker = PooledPicker(1)
    try:
        with monkeypatch.context() as patched:
            patched.setattr(opponent, "think", die)
            with thinking_for(1):
                fallback = await picker.pick(state, "medium")
        assert fallback in state.legal_moves()
        assert [record.message for record in caplog.records if "died" in record.message] == [
            "the AI worker died; starting a new one, and playing at random this turn"
        ]
        with thinking_for(1):
            move = await picker.pick(state, "medium")  # a new worker thinks
        assert move in state.legal_moves()
        _, pid = await picker.queue.submit(1, niceness_and_pid)  # raises if still broken
        assert pid != os.getpid()
        assert len([record for record in caplog.records if "died" in record.message]) == 1
    finally:
        picker.close()


async def test_a_move_that_needs_no_thinking_does_not_wait_behind_a_search() -> None:
    pool = ManualPool()  # its jobs never finish: a long search in the only worker
    picker = PooledPicker(1)
    picker.queue = FairQueue(lambda: pool, 1)
    lasca = GAMES["lasca"].new()
    with thinking_for("lasca"):
        searching = asyncio.create_task(picker.pick(lasca, "hard"))
        async with asyncio.timeout(30):
            while not pool.started:  # the search reaches the worker
                await asyncio.sleep(0.01)
    oska, oware = GAMES["oska"].new(), GAMES["oware"].new()
    with thinking_for("oska"):  # the solved table's move
        solved = await asyncio.wait_for(picker.pick(oska, "max"), timeout=30)
    with thinking_for("oware"):  # a level that looks two plies ahead
        easy = await asyncio.wait_for(picker.pick(oware, "easy"), timeout=30)
    assert solved in oska.legal_moves() and easy in oware.legal_moves()
    assert len(pool.started) == 1 and not searching.done()  # only Lasca's search was queued
    searching.cancel()


def test_pondering_is_set_in_seconds_and_a_bad_value_says_what_to_write() -> None:
    token = {
        "DISCORD_TOKEN": "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789AB"
    }
    assert Settings.from_env(token, dotenv=None).ai_ponder is None  # each level's own
    assert Settings.from_env({**token, "KAMEN_AI_PONDER": "0"}, dotenv=None).ai_ponder == 0.0
    assert Settings.from_env({**token, "KAMEN_AI_PONDER": "2.5"}, dotenv=None).ai_ponder == 2.5
    with pytest.raises(SettingsError) as raised:
        Settings.from_env({**token, "KAMEN_AI_PONDER": "soon"}, dotenv=None)
    assert str(raised.value) == "KAMEN_AI_PONDER='soon': write a number of seconds, 0 for none."
