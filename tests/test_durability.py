"""SIGKILL at random moments never loses a move that was reported as committed.

A child process (tests/durability/mover.py) plays moves in a loop on one SQLite
file and prints each move once the service has returned it. The test kills it
at a random moment, over and over, and after every kill checks that the file
is sound, that every reported move is in it at its place, and that every game
replays to a legal position.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from games.base import GameError
from games.registry import GAMES
from matches import MatchService
from store import open_store

ROOT = Path(__file__).resolve().parent.parent
MOVER = ROOT / "tests" / "durability" / "mover.py"
KILLS = 24

Reported = dict[tuple[int, int], str]


def run_until_killed(path: Path, seed: int, chooser: random.Random, reported: Reported) -> int:
    """Start the mover, let it report some moves, kill it mid-flight; the lines it printed."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, str(MOVER), str(path), str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=ROOT,
    )
    assert child.stdout is not None and child.stderr is not None
    wanted = chooser.randint(1, 40)
    lines: list[bytes] = []
    try:
        while len(lines) < wanted:
            line = child.stdout.readline()
            if not line:
                raise AssertionError(f"the mover stopped by itself: {child.stderr.read()!r}")
            lines.append(line)
        time.sleep(chooser.uniform(0, 0.004))  # land inside a write as often as not
    finally:
        os.kill(child.pid, signal.SIGKILL)
        rest, _ = child.communicate()
    assert child.returncode == -signal.SIGKILL
    lines += rest.splitlines(keepends=True)
    for line in lines:
        game_id, index, move = line.decode().split()
        reported[(int(game_id), int(index))] = move
    return len(lines)


def check(path: Path, reported: Reported) -> int:
    """The file is sound, holds every reported move, and every game replays legally."""
    db = sqlite3.connect(path)
    try:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        rows = db.execute("SELECT id, game, variant, status, moves, result FROM games").fetchall()
        rated = dict(
            db.execute("SELECT game_id, count(*) FROM rating_changes GROUP BY game_id").fetchall()
        )
    finally:
        db.close()
    games = {row[0]: row for row in rows}
    for (game_id, index), move in reported.items():
        moves = games[game_id][4].split()
        assert index < len(moves) and moves[index] == move, (game_id, index, move, moves)
    for game_id, name, variant, status, moves, result in rows:
        state = GAMES[name].new(variant)
        for move in moves.split():
            try:
                state = state.play(move)
            except GameError as error:
                raise AssertionError(f"game {game_id} does not replay: {error}") from error
        outcome = state.outcome()
        if status in ("challenge", "active"):  # a kill may fall between challenge and accept
            assert outcome is None
        else:
            assert status == "finished" and outcome is not None and outcome.result == result
        # Rated with its end, in the same transaction: both players once, never twice, never not.
        assert rated.get(game_id, 0) == (2 if status == "finished" else 0), (game_id, status)
    return len(rows)


def test_sigkill_never_loses_a_committed_move(tmp_path: Path) -> None:
    path = tmp_path / "kamen.db"
    chooser = random.Random(20261129)
    reported: Reported = {}
    printed = 0
    for kill in range(KILLS):
        printed += run_until_killed(path, kill, chooser, reported)
        games = check(path, reported)
    assert printed >= KILLS and len(reported) == printed  # no move was reported twice
    assert games >= 3
    # The stored ratings are exactly what the stored games give, whatever the kills hit.
    recompute = subprocess.run(
        [sys.executable, "-m", "store", "recompute", "--database", f"sqlite:///{path}"],
        capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert recompute.returncode == 0, recompute.stdout + recompute.stderr
    assert "the stored ratings are exact" in recompute.stdout
    assert not recompute.stdout.startswith("0 rated games")


def test_an_offer_a_kill_left_open_is_accepted_on_the_next_run(tmp_path: Path) -> None:
    """A kill between a challenge and its accept leaves the offer open. The next run
    makes the same offer, which the service refuses as a repeat: the mover accepts
    the open one and plays on (it once stopped there, and then hung at its exit)."""
    path = tmp_path / "kamen.db"

    async def leave_offers_open() -> list[int]:
        store = await open_store(f"sqlite:///{path}")
        try:
            service = MatchService(store, rng=random.Random(1))
            offers = []
            for channel, game in enumerate(sorted(GAMES), start=1000):
                offered = await service.challenge(
                    guild_id=1, channel_id=channel, challenger_id=100, opponent_id=200, game=game
                )
                offers.append(offered.id)
            return offers
        finally:
            await store.close()

    offers = asyncio.run(leave_offers_open())
    reported: Reported = {}
    assert run_until_killed(path, 7, random.Random(3), reported) > 0
    assert check(path, reported) >= 3
    db = sqlite3.connect(path)
    try:
        statuses = dict(db.execute("SELECT id, status FROM games").fetchall())
    finally:
        db.close()
    assert any(statuses[offer] != "challenge" for offer in offers)  # taken up, not offered again
