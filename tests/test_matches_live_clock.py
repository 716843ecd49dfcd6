"""Live clocks (`5+3`: 5 minutes each, 3 seconds added after each move), on a real SQLite file.

Each side's time left is stored; the side to move's runs out at the game's
deadline, so the sweeper ends it on time exactly as for a per-move limit, the
low-time warning is the reminder, and the downtime credit gives Kamen's
absence back. The clock starts when the game does (see matches/live_clocks.py).
Driven by a ManualClock; a restart is the store closed and opened again.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from games.base import Side, Termination
from matches import (
    BadInput,
    Ending,
    FirstLegalMove,
    GameView,
    ManualClock,
    MatchService,
    OutOfTime,
    Status,
    SweepKind,
)
from matches.inputs import LIVE_CONTROLS, time_control
from matches.live_clocks import LiveControl, clock_text
from matches.runner import Runner
from store import open_store
from store.schema import migrations
from tests.matches_support import refused

GUILD, CHANNEL = 1, 10
ALICE, BOB, BOT = 100, 200, 999
SECOND = timedelta(seconds=1)
MINUTE = timedelta(minutes=1)


@asynccontextmanager
async def running(path: Path, clock: ManualClock) -> AsyncIterator[MatchService]:
    """Kamen running on `path`: a store opened, a service built; closed when it stops."""
    store = await open_store(f"sqlite:///{path}")
    try:
        yield MatchService(
            store, bot_user_id=BOT, picker=FirstLegalMove(), clock=clock, rng=random.Random(0)
        )
    finally:
        await store.close()


async def live_game(
    service: MatchService, time: str = "5+3", channel: int = CHANNEL, game: str = "oska"
) -> GameView:
    """Alice (first) against Bob, accepted now: Alice's time runs."""
    offered = await service.challenge(
        guild_id=GUILD, channel_id=channel, challenger_id=ALICE, game=game, opponent_id=BOB,
        first="challenger", time=time,
    )  # fmt: skip
    return await service.accept(offered.id, BOB)


def left(view: GameView, clock: ManualClock) -> tuple[timedelta | None, timedelta | None]:
    """Both sides' time left on the game's live clock now."""
    return view.clock_left(Side.FIRST, clock()), view.clock_left(Side.SECOND, clock())


# ------------------------------------------------------------------ choosing


def test_the_offered_controls_and_any_m_plus_s_in_bounds_are_live_clocks() -> None:
    assert LIVE_CONTROLS == ("3+2", "5+3", "10+5")
    for text in (*LIVE_CONTROLS, "1+0", "180+60", " 15 + 10 "):
        control = time_control(text).live
        assert control is not None and time_control(text).move_seconds is None
        assert str(control) == "".join(text.split())
    assert time_control("5+3").live == LiveControl(300, 3)
    assert time_control("5m") == time_control(timedelta(minutes=5))  # per move, as before
    assert time_control("5m").live is None and time_control("5m").move_seconds == 300
    assert time_control("none").live is None and time_control(None).move_seconds is None


_EXAMPLES = r"3\+2, 5\+3, 10\+5"


@pytest.mark.parametrize(
    ("text", "code", "said"),
    [
        ("soon", "match.clock.bad-time", rf"live clock \({_EXAMPLES}\).*\(5m, 1h, 1d, 3d\)"),
        ("5+", "match.clock.bad-time", _EXAMPLES),
        ("+3", "match.clock.bad-time", _EXAMPLES),
        ("5+3+1", "match.clock.bad-time", _EXAMPLES),
        ("2.5+1", "match.clock.bad-time", _EXAMPLES),
        ("-5+3", "match.clock.bad-time", _EXAMPLES),
        ("0+5", "match.clock.live-range", rf"1 to 180 minutes.*0 to 60 seconds.*{_EXAMPLES}"),
        ("181+0", "match.clock.live-range", _EXAMPLES),
        ("5+61", "match.clock.live-range", _EXAMPLES),
    ],
)
async def test_bad_time_texts_are_refused_with_examples_and_nothing_is_written(
    tmp_path: Path, text: str, code: str, said: str
) -> None:
    async with running(tmp_path / "k.db", ManualClock()) as service:
        with refused(BadInput, said, code=code, time=text):
            await live_game(service, time=text)
        assert await service.open_games_of(ALICE) == []


def test_a_live_control_given_as_a_value_is_held_to_the_same_bounds() -> None:
    assert time_control(LiveControl(600, 5)).live == LiveControl(600, 5)
    with refused(BadInput, code="match.clock.live-range"):
        time_control(LiveControl(90, 0))  # not whole minutes


# ------------------------------------------------------------------ the clocks


async def test_the_clock_starts_when_the_game_begins_not_with_the_challenge(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    async with running(tmp_path / "k.db", clock) as service:
        offered = await service.challenge(
            guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oska",
            opponent_id=BOB, first="challenger", time="5+3",
        )  # fmt: skip
        assert str(offered.live_control) == "5+3" and offered.has_live_clock
        clock.advance(timedelta(hours=2))  # the challenge waits: no clock runs
        waiting = offered.live_clock(clock())
        assert waiting is not None and waiting.running is None
        assert waiting.left == (5 * MINUTE, 5 * MINUTE)
        game = await service.accept(offered.id, BOB)
        assert game.deadline == clock() + 5 * MINUTE  # Alice's first move is timed
        assert game.live_clock(clock()).running is Side.FIRST  # type: ignore[union-attr]
        clock.advance(5 * MINUTE - SECOND)
        assert left(game, clock) == (SECOND, 5 * MINUTE)
        assert [e.kind for e in await service.sweep()] == [SweepKind.REMINDER]  # 30 s left
        clock.advance(SECOND)
        [timeout] = await service.sweep()
        assert (timeout.kind, timeout.user_id, timeout.view.ply) == (SweepKind.TIMEOUT, ALICE, 0)


async def test_each_move_takes_the_time_spent_and_adds_the_increment(tmp_path: Path) -> None:
    path, clock = tmp_path / "k.db", ManualClock()
    async with running(path, clock) as service:
        game = await live_game(service)
        assert left(game, clock) == (5 * MINUTE, 5 * MINUTE)
        clock.advance(timedelta(seconds=12.3))
        assert left(game, clock) == (timedelta(seconds=287.7), 5 * MINUTE)
        moved = await service.move(ALICE, "e1-f2", channel_id=CHANNEL)
        alice = timedelta(seconds=300 - 12.3 + 3)
        assert left(moved.view, clock) == (alice, 5 * MINUTE)
        assert moved.view.deadline == clock() + 5 * MINUTE  # Bob's time runs now
        clock.advance(timedelta(seconds=20))
        assert left(await service.view(game_id=game.id), clock) == (alice, 280 * SECOND)
        moved = await service.move(BOB, "a5-b4", channel_id=CHANNEL)
        assert left(moved.view, clock) == (alice, 283 * SECOND)
        assert moved.view.deadline == clock() + alice
    clock.advance(timedelta(seconds=1.5))  # a quick restart: the stored times are exact
    async with running(path, clock) as service:
        row = await service.store.get_game(game.id)
        assert row is not None
        assert (row.base_seconds, row.increment_seconds) == (300, 3)
        assert (row.first_left_ms, row.second_left_ms) == (290_700, 283_000)
        view = await service.view(game_id=game.id)
        assert left(view, clock) == (alice - timedelta(seconds=1.5), 283 * SECOND)
        moved = await service.move(ALICE, "c1-d2", channel_id=CHANNEL)
        assert left(moved.view, clock) == (alice - timedelta(seconds=1.5) + 3 * SECOND,
                                           283 * SECOND)  # fmt: skip


async def test_a_player_loses_on_time_at_the_exact_moment_and_not_a_second_before(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    async with running(tmp_path / "k.db", clock) as service:
        game = await live_game(service, time="1+0")
        clock.advance(10)
        await service.move(ALICE, "e1-f2", channel_id=CHANNEL)  # Alice keeps 50 s
        clock.advance(MINUTE - SECOND)
        assert [e.kind for e in await service.sweep()] != [SweepKind.TIMEOUT]
        assert (await service.view(game_id=game.id)).status is Status.ACTIVE
        clock.advance(SECOND)
        with refused(OutOfTime):
            await service.move(BOB, "a5-b4", channel_id=CHANNEL)
        [timeout] = await service.sweep()
        assert (timeout.kind, timeout.user_id) == (SweepKind.TIMEOUT, BOB)
        view = timeout.view
        assert view.status is Status.FINISHED and view.ending is Ending.TIME
        assert view.result == "1-0" and view.reason is Termination.TIME
        assert left(view, clock) == (50 * SECOND, timedelta(0))  # the clocks it ended with
        clock.advance(MINUTE)
        assert left(view, clock) == (50 * SECOND, timedelta(0))  # stopped
        assert await service.sweep(clock() + timedelta(days=1)) == []


async def test_the_low_time_warning_comes_once_a_turn_and_not_to_a_player_already_short(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    async with running(tmp_path / "k.db", clock) as service:
        # 3+2: a fifth of 3 minutes is 36 s, so the warning comes at 30 s left.
        game = await live_game(service, time="3+2")
        start = clock()
        assert game.row.remind_at == start + 150 * SECOND
        clock.advance(149)
        assert await service.sweep() == []
        clock.advance(1)
        [warning] = await service.sweep()
        assert (warning.kind, warning.user_id) == (SweepKind.REMINDER, ALICE)
        assert warning.view.clock_left(Side.FIRST, clock()) == 30 * SECOND
        clock.advance(10)
        assert await service.sweep() == []  # once
        moved = await service.move(ALICE, "e1-f2", channel_id=CHANNEL)  # 20 s + 2 s left
        assert moved.view.row.remind_at == clock() + 150 * SECOND  # Bob's turn: his own warning
        clock.advance(5)
        moved = await service.move(BOB, "a5-b4", channel_id=CHANNEL)
        # Alice's turn begins with 22 s, under 30 s: no warning this turn, the loss at 0.
        assert moved.view.row.remind_at is None
        assert moved.view.deadline == clock() + 22 * SECOND
        clock.advance(22 * SECOND - SECOND)
        assert await service.sweep() == []
        clock.advance(SECOND)
        assert [(e.kind, e.user_id) for e in await service.sweep()] == [(SweepKind.TIMEOUT, ALICE)]


async def test_a_short_base_is_warned_at_a_fifth_of_it(tmp_path: Path) -> None:
    clock = ManualClock()
    async with running(tmp_path / "k.db", clock) as service:
        game = await live_game(service, time="1+0")
        assert game.row.remind_at == clock() + 48 * SECOND  # 12 s left of 60


async def test_kamen_away_does_not_count_on_a_live_clock(tmp_path: Path) -> None:
    path, clock = tmp_path / "k.db", ManualClock()
    async with running(path, clock) as service:
        runner = Runner(service)
        assert await runner.leases.take()
        game = await live_game(service)
        await runner.leases.renew()
        clock.advance(30)  # 30 s of Alice's 5 minutes
        await runner.leases.renew()
        before = await service.store.get_game(game.id)
        assert before is not None and before.deadline is not None
    clock.advance(6 * MINUTE)  # Kamen is down
    async with running(path, clock) as service:
        runner = Runner(service)
        assert await runner.leases.take()
        [(credited, away)] = await runner.credit_downtime()
        assert (credited.id, away) == (game.id, 6 * MINUTE)
        assert credited.deadline == before.deadline + 6 * MINUTE
        assert credited.row.remind_at == before.remind_at + 6 * MINUTE  # type: ignore[operator]
        # Her stored time is untouched; what she has now is what she had when Kamen went.
        assert credited.row.first_left_ms == before.first_left_ms == 300_000
        assert left(credited, clock) == (270 * SECOND, 5 * MINUTE)
        assert await service.sweep() == []
        moved = await service.move(ALICE, "e1-f2", channel_id=CHANNEL)
        assert left(moved.view, clock) == (273 * SECOND, 5 * MINUTE)


async def test_two_sweepers_on_one_file_warn_once_and_flag_once(tmp_path: Path) -> None:
    url, clock = f"sqlite:///{tmp_path}/k.db", ManualClock()
    one, two = await open_store(url), await open_store(url)
    try:
        first, second = (
            MatchService(store, bot_user_id=BOT, clock=clock, rng=random.Random(0))
            for store in (one, two)
        )
        ids = {(await live_game(first, "1+0", channel, "oware")).id for channel in range(20, 25)}
        clock.advance(48)  # 12 s left: each is warned
        batches = await asyncio.gather(first.sweep(), second.sweep())
        warned = [(e.kind, e.view.id) for batch in batches for e in batch]
        assert sorted(warned) == sorted((SweepKind.REMINDER, game) for game in ids)
        clock.advance(12)
        batches = await asyncio.gather(first.sweep(), second.sweep())
        flagged = [(e.kind, e.view.id) for batch in batches for e in batch]
        assert sorted(flagged) == sorted((SweepKind.TIMEOUT, game) for game in ids)
        assert await first.sweep(clock() + timedelta(days=1)) == []
    finally:
        await one.close()
        await two.close()


async def test_kamens_own_moves_are_on_the_clock(tmp_path: Path) -> None:
    clock = ManualClock()
    async with running(tmp_path / "k.db", clock) as service:
        game = await service.challenge(
            guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="lasca",
            opponent_id=BOT, first="opponent", time="3+2",
        )  # fmt: skip
        assert game.bot_to_move and game.deadline == clock() + 3 * MINUTE
        clock.advance(4)  # Kamen thinks
        moved = await service.play_bot_move(game.id)
        assert moved is not None and moved.view.to_move_id == ALICE
        assert left(moved.view, clock) == (178 * SECOND, 3 * MINUTE)
        clock.advance(10)
        moved = await service.move(ALICE, moved.view.state.legal_moves()[0], game_id=game.id)
        assert left(moved.view, clock) == (178 * SECOND, 172 * SECOND)
        clock.advance(178)  # Kamen never answers: it loses on time like anyone
        [timeout] = [e for e in await service.sweep() if e.kind is SweepKind.TIMEOUT]
        assert timeout.user_id == BOT and timeout.view.winner_id == ALICE


async def test_an_automatic_pass_takes_no_time_and_earns_no_increment(tmp_path: Path) -> None:
    # After Red's c3xa1 here, Blue can only pass: Kamen plays it, and Red moves again.
    record = (
        '[Game "Oska"]\n\n1. e1-f2 e5-d4 2. c1-d2 a5-b4 3. d2-e3 b4-c3 4. e3-f4 g5xe3 5. a1-b2 *\n'
    )
    clock = ManualClock()
    async with running(tmp_path / "k.db", clock) as service:
        offered = await service.import_record(
            guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, text=record, opponent_id=BOB,
            first="challenger", time="3+2",
        )  # fmt: skip
        game = await service.accept(offered.id, BOB)
        assert game.to_move_id == BOB  # Red, after nine moves
        clock.advance(7)
        moved = await service.move(BOB, "c3xa1", channel_id=CHANNEL)
        assert moved.passes == (Side.FIRST,) and moved.view.to_move_id == BOB
        assert left(moved.view, clock) == (3 * MINUTE, 175 * SECOND)
        assert moved.view.deadline == clock() + 175 * SECOND


async def test_a_finished_game_keeps_the_clocks_it_ended_with(tmp_path: Path) -> None:
    clock = ManualClock()
    async with running(tmp_path / "k.db", clock) as service:
        game = await live_game(service, time="10+5")
        clock.advance(40)
        ended = await service.resign(BOB, channel_id=CHANNEL)  # during Alice's turn
        assert ended.status is Status.FINISHED and ended.deadline is None
        assert left(ended, clock) == (560 * SECOND, 10 * MINUTE)
        clock.advance(MINUTE)
        assert left(await service.view(game_id=game.id), clock) == (560 * SECOND, 10 * MINUTE)


async def test_a_per_move_game_is_unchanged(tmp_path: Path) -> None:
    clock = ManualClock()
    async with running(tmp_path / "k.db", clock) as service:
        game = await live_game(service, time="5m")
        assert not game.has_live_clock and game.live_control is None
        assert game.live_clock(clock()) is None and game.clock_left(Side.FIRST, clock()) is None
        assert game.move_seconds == 300 and game.deadline == clock() + 5 * MINUTE
        clock.advance(MINUTE)
        moved = await service.move(ALICE, "e1-f2", channel_id=CHANNEL)
        assert moved.view.deadline == clock() + 5 * MINUTE
        assert moved.view.row.remind_at == clock() + 150 * SECOND
        row = moved.view.row
        assert (row.base_seconds, row.increment_seconds, row.first_left_ms) == (None, None, None)


def test_times_left_are_written_as_a_clock_shows_them() -> None:
    cases = {
        timedelta(minutes=4, seconds=32.9): "4:32",
        timedelta(seconds=10): "0:10",
        timedelta(seconds=9.56): "0:09.5",
        timedelta(seconds=0.04): "0:00.0",
        timedelta(0): "0:00.0",
        -SECOND: "0:00.0",
        timedelta(minutes=59, seconds=59.99): "59:59",
        timedelta(hours=1): "1:00:00",
        timedelta(hours=1, minutes=2, seconds=3): "1:02:03",
        timedelta(hours=3): "3:00:00",
    }
    assert {span: clock_text(span) for span in cases} == cases


# ------------------------------------------------------------------ the schema


def make_version_12(path: Path) -> None:
    """A database as migrations 1-12 leave it: a game with 5 minutes a move, Alice to move."""
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
    )
    for migration in migrations()[:12]:
        for statement in migration.statements("sqlite"):
            db.execute(statement)
        db.execute(
            "INSERT INTO schema_migrations VALUES (?, ?, 0)", (migration.number, migration.name)
        )
    now = ManualClock()().timestamp()
    db.execute(
        "INSERT INTO games (id, guild_id, channel_id, game, status, challenger_id, opponent_id,"
        " first_id, second_id, moves, ply, move_seconds, deadline, remind_at, created_at,"
        " updated_at, version) VALUES (7, 1, 10, 'oska', 'active', 100, 200, 100, 200,"
        " 'e1-f2 a5-b4', 2, 300, ?, ?, ?, ?, 2)",
        (now + 300, now + 150, now, now),
    )
    db.commit()
    db.close()


async def test_a_version_12_database_upgrades_and_its_games_play_on(tmp_path: Path) -> None:
    path, clock = tmp_path / "old.db", ManualClock()
    make_version_12(path)
    async with running(path, clock) as service:
        assert await service.store.schema_version() >= 13  # and any migration after
        old = await service.view(game_id=7)
        assert old.move_seconds == 300 and not old.has_live_clock
        clock.advance(MINUTE)
        moved = await service.move(ALICE, "c1-d2", game_id=7)
        assert moved.view.deadline == clock() + 5 * MINUTE and moved.view.version == 3
        live = await live_game(service, channel=11)
        assert str(live.live_control) == "5+3"
        # The database holds a game to one time control.
        with pytest.raises(sqlite3.IntegrityError):
            await service.store.update_game(replace(moved.view.row, base_seconds=300))
