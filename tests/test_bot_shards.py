"""Kamen in two processes, one shard each, on one database; and both shards in one process.

Servers are made on both shards of two (Discord's formula, `(id >> 22) % 2`).
Each `python -m bot` process serves its shard's servers; both sweep every
deadline, and a deadline acts once (the versioned write that lands), so a
reminder or a loss on time is said once, also when it came due while the
process serving that server was down.

Each test runs on a fresh PostgreSQL database (this machine's server; none answering
fails the test) and on a SQLite file the processes share.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest

from tests.bot_support import (
    BotProcess,
    Table,
    move_on_board,
    options,
    settle,
    shared_database_url,
    start_game,
    to_move,
)
from tests.fake_discord import Channel, FakeDiscord, Message
from tests.store_support import fresh_postgres

REMINDED = "half of your time for this move is gone"
LOST_ON_TIME = "ran out of time"
AWAY = "Kamen was away"


@pytest.fixture(params=["postgresql", "sqlite"])
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """One database the processes share: a fresh PostgreSQL database (what several
    processes on several machines use), and a SQLite file (several processes on one)."""
    if request.param == "sqlite":
        yield shared_database_url(tmp_path)
        return
    async with fresh_postgres() as url:
        yield url


@dataclass
class World:
    fake: FakeDiscord
    tables: dict[int, Table]  # by shard: a server on that shard, with ann, bob and carol
    processes: list[BotProcess]
    tmp: Path

    def advance(self, delta: timedelta) -> None:
        """Every process's clock (one offset file) moves on."""
        self.tables[0].advance(delta)


@contextlib.asynccontextmanager
async def sharded_world(
    tmp: Path, database_url: str, processes: list[tuple[int, ...]]
) -> AsyncIterator[World]:
    """A fake Discord with a server on each of two shards and a bot process per entry of
    `processes` (the shards it serves), started one after the other on `database_url`."""
    async with FakeDiscord(recommended_shards=2) as fake:
        servers = {
            shard: fake.add_guild(name, channels=("games",), shard=(shard, 2))
            for shard, name in ((0, "Stone Club"), (1, "Pebble Club"))
        }
        ann, bob, carol = fake.add_user("ann"), fake.add_user("bob"), fake.add_user("carol")
        tables = {
            shard: Table(fake, guild, ann, bob, carol, database_url, tmp)
            for shard, guild in servers.items()
        }
        # Beats often: the tests' clock jumps minutes, and a process started just after a
        # jump sees Kamen's heartbeat as old until the next one.
        clock = {
            "KAMEN_CLOCK_OFFSET_FILE": str(tmp / "clock-offset"),
            "KAMEN_HEARTBEAT_INTERVAL": "0.5",
        }
        bots = [
            BotProcess(
                fake,
                database_url,
                tmp / f"bot-{'-'.join(map(str, shards))}.log",
                clock,
                shards=shards,
                shard_count=2,
            )
            for shards in processes
        ]
        world = World(fake, tables, bots, tmp)
        try:
            for bot in bots:
                await bot.start()
            yield world
            await settle(fake)
        except BaseException:
            for bot in bots:
                sys.stderr.write(f"--- {bot.log_path.name} ---\n{bot.log()[-5000:]}\n")
            raise
        finally:
            for bot in bots:
                await bot.stop()
        assert fake.violations == [], "Discord's rules broken:\n" + "\n".join(fake.violations)
        for bot in bots:
            errors = [
                line for line in bot.log().splitlines() if " ERROR " in line or "Traceback" in line
            ]
            assert errors == [], f"{bot.log_path.name} logged errors:\n" + bot.log()[-5000:]


def said(fake: FakeDiscord, channel: Channel, text: str) -> list[Message]:
    return [m for m in fake.messages(channel) if text in m.content]


async def move(table: Table, board: Message) -> None:
    """The player to move plays the first move the board offers; the board shows it."""
    mover = to_move(table, board)
    answer = await move_on_board(table, mover, board, options(board)[0])
    assert answer.type == 7 and answer.message is board
    assert to_move(table, board) is not mover


def results_said(fake: FakeDiscord, thread: Channel, board: Message) -> int:
    """How many messages besides the board say the game was lost on time."""
    assert LOST_ON_TIME in board.text
    return sum(1 for m in fake.messages(thread) if LOST_ON_TIME in m.text and m is not board)


def served_shards(bot: BotProcess) -> set[int]:
    """The shards a process said it connected (discord.py's own log line)."""
    return {
        int(line.split("Shard ID ")[1].split()[0])
        for line in bot.log().splitlines()
        if "has connected to Gateway" in line
    }


@pytest.mark.asyncio
async def test_two_processes_each_serve_their_shard_and_a_deadline_acts_once(
    tmp_path: Path, database_url: str
) -> None:
    async with sharded_world(tmp_path, database_url, [(0,), (1,)]) as world:
        fake, zero, one = world.fake, world.tables[0], world.tables[1]
        first, second = world.processes
        # a game on each shard, moves in both; each process identified its own shard only
        _, board0 = await start_game(zero, "oska")
        slow_thread, slow_board = await start_game(one, "oware", time="5m")
        _, board1 = await start_game(one, "oska")
        for _ in range(2):
            await move(zero, board0)
            await move(one, board1)
        await move(one, slow_board)  # Bob to move, with five minutes
        assert served_shards(first) == {0} and served_shards(second) == {1}

        # shard 1's process is killed: shard 0's games never stop
        await second.kill()
        await move(zero, board0)
        # Bob's reminder comes due while shard 1 is down: said once, by shard 0's process
        world.advance(timedelta(minutes=3))
        await fake.wait_for(lambda: bool(said(fake, slow_thread, REMINDED)), what="the reminder")
        await move(zero, board0)

        # shard 1 is back: its games go on, and the reminder is not said again
        await second.start()
        await move(one, board1)
        await move(zero, board0)
        await settle(fake)
        reminders = said(fake, slow_thread, REMINDED)
        assert len(reminders) == 1 and reminders[0] in fake.notifications(one.bob)

        # the loss on time, with both processes sweeping: one result, once
        world.advance(timedelta(minutes=3))
        await fake.wait_for(lambda: LOST_ON_TIME in slow_board.text, what="the loss on time")
        await settle(fake)
        # the board shows the result, and one message says it (the players are pinged)
        assert results_said(fake, slow_thread, slow_board) == 1
        assert len(said(fake, slow_thread, REMINDED)) == 1
        assert not said(fake, slow_thread, AWAY)  # shard 0 kept Kamen's heartbeat going
        await move(one, board1)
        await move(zero, board0)


@pytest.mark.asyncio
async def test_a_loss_on_time_while_its_process_is_down_is_said_once(
    tmp_path: Path, database_url: str
) -> None:
    async with sharded_world(tmp_path, database_url, [(0,), (1,)]) as world:
        fake, one = world.fake, world.tables[1]
        second = world.processes[1]
        thread, board = await start_game(one, "oska", time="5m")
        await move(one, board)
        # A later game on shard 1, to see the restarted process's board repairs at work.
        late_thread, late_board = await start_game(one, "oska", time="1h")
        await move(one, late_board)
        await second.kill()
        world.advance(timedelta(minutes=6))  # past the reminder and the deadline
        await fake.wait_for(lambda: LOST_ON_TIME in board.text, what="the loss on time")
        # The later game is lost on time too, and shard 0's process cannot show it: its board
        # lags, for shard 1's process to repair when it is back.
        refused = fake.fail("PATCH", rf"/channels/{late_thread.id}/messages/{late_board.id}$", 403)
        world.advance(timedelta(hours=1))
        await fake.wait_for(lambda: refused.hits == 1, timeout=30, what="the later loss, unshown")
        edits = len(board.versions)
        await second.start()
        # The keeper reads lagging boards least recently changed first: when it has repaired
        # the later game's, it has looked at the first game's board too.
        await fake.wait_for(
            lambda: LOST_ON_TIME in late_board.text, timeout=30, what="the later board repaired"
        )
        await settle(fake)
        assert results_said(fake, thread, board) == 1
        assert len(said(fake, thread, REMINDED)) <= 1  # the reminder may be skipped, not doubled
        # the finished board is shown once, and the restarted process leaves it be
        assert len(board.versions) == edits


@pytest.mark.asyncio
async def test_both_restarted_after_an_outage_give_the_time_back_once(
    tmp_path: Path, database_url: str
) -> None:
    async with sharded_world(tmp_path, database_url, [(0,), (1,)]) as world:
        fake, zero, one = world.fake, world.tables[0], world.tables[1]
        thread0, board0 = await start_game(zero, "oware", time="5m")
        thread1, board1 = await start_game(one, "oware", time="5m")
        await move(zero, board0)
        await move(one, board1)
        for bot in world.processes:
            await bot.kill()
        world.advance(timedelta(minutes=6))
        # started together: the one serving shard 1 waits for shard 0's credit
        await asyncio.gather(*(bot.start() for bot in reversed(world.processes)))
        await settle(fake)
        for thread in (thread0, thread1):
            told = said(fake, thread, AWAY)
            assert len(told) == 1, [m.content for m in fake.messages(thread)]
            assert "6 minutes" in told[0].content
        assert LOST_ON_TIME not in board0.text and LOST_ON_TIME not in board1.text
        await move(zero, board0)
        await move(one, board1)


@pytest.mark.asyncio
async def test_one_process_serves_both_shards(tmp_path: Path, database_url: str) -> None:
    async with sharded_world(tmp_path, database_url, [(0, 1)]) as world:
        fake, zero, one = world.fake, world.tables[0], world.tables[1]
        [bot] = world.processes
        thread, board0 = await start_game(zero, "oska", time="5m")
        _, board1 = await start_game(one, "lasca")
        for _ in range(2):
            await move(zero, board0)
            await move(one, board1)
        assert served_shards(bot) == {0, 1}
        world.advance(timedelta(minutes=3))
        await fake.wait_for(lambda: bool(said(fake, thread, REMINDED)), what="the reminder")
        await bot.kill()
        await bot.start()
        await move(one, board1)
        await move(zero, board0)
        assert len(said(fake, thread, REMINDED)) == 1


@pytest.mark.asyncio
async def test_a_tournament_due_while_one_process_is_down_is_started_by_the_other_once(
    tmp_path: Path, database_url: str
) -> None:
    # The tournaments' upkeep was shard 0's process's alone: with it down, nothing started.
    async with sharded_world(tmp_path, database_url, [(0,), (1,)]) as world:
        fake, one = world.fake, world.tables[1]
        first, second = world.processes
        reply = await fake.slash(
            one.guild.owner, one.games, "tournament create",
            game="oska", format="round-robin", name="Pebble Cup", starts="1h",
        )  # fmt: skip
        assert reply.message is not None, reply.text
        for user in (one.ann, one.bob, one.carol):
            await fake.click(user, reply.message, "Join")
        await first.kill()  # perhaps holding the tournaments' claim: it lapses
        world.advance(timedelta(hours=2))

        def rounds() -> list[Message]:
            told = "**Pebble Cup** · round 1 of"
            return [m for m in fake.messages(one.games) if m.text.startswith(told)]

        await fake.wait_for(lambda: bool(rounds()), what="the first round, told")
        await fake.wait_for(lambda: len(fake.threads(one.games)) == 1, what="its game opened")
        [thread] = fake.threads(one.games)
        await first.start()  # back: it takes the upkeep over, and does nothing twice
        # The upkeep's first pass in a process looks for its games' threads, and shard 1's
        # threads are not in shard 0's cache: it asks Discord (answered a moment late).
        asked = fake.fail("GET", rf"/channels/{thread.id}$", None, delay=0.01)
        await second.kill()  # the claim lapses: shard 0's process is the one to run the upkeep
        world.advance(timedelta(minutes=1))
        await fake.wait_for(lambda: asked.hits == 1, timeout=30, what="the upkeep's pass")
        await settle(fake)
        assert len(rounds()) == 1
        assert len(fake.threads(one.games)) == 1
