"""Kamen in two processes, one shard each, on one database; and both shards in one process.

Servers are made on both shards of two (Discord's formula, `(id >> 22) % 2`).
Each `python -m bot` process leases its shards and does the work of their
servers only: their deadlines, boards, tournaments. While the process serving a
shard is down nobody does that shard's work, so nobody there loses on time for
Kamen's outage: the process that takes the shard over gives its clocks the time
back, exactly its shard's outage. A second process for a shard already served
waits for its lease; one with another number of shards is refused.

Each test runs on a fresh PostgreSQL database (this machine's server; none answering
fails the test) and on a SQLite file the processes share.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
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
    async with fresh_postgres(migrated=True) as url:
        yield url


@dataclass
class World:
    fake: FakeDiscord
    tables: dict[int, Table]  # by shard: a server on that shard, with ann, bob and carol
    processes: list[BotProcess]
    tmp: Path
    database_url: str
    env: dict[str, str]  # what every process is started with

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
        world = World(fake, tables, bots, tmp, database_url, clock)
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
async def test_a_downed_shards_players_lose_nothing_and_get_exactly_its_outage_back(
    tmp_path: Path, database_url: str
) -> None:
    async with sharded_world(tmp_path, database_url, [(0,), (1,)]) as world:
        fake, zero, one = world.fake, world.tables[0], world.tables[1]
        first, second = world.processes
        # a game on each shard, moves in both; each process identified its own shard only
        _, board0 = await start_game(zero, "oska")
        slow_thread, slow_board = await start_game(one, "oware", time="5m")
        fast_thread, fast_board = await start_game(zero, "oware", time="5m")
        _, board1 = await start_game(one, "oska")
        for _ in range(2):
            await move(zero, board0)
            await move(one, board1)
        await move(one, slow_board)  # Bob to move on shard 1, with five minutes
        await move(zero, fast_board)  # and on shard 0
        assert served_shards(first) == {0} and served_shards(second) == {1}

        # shard 1's process is killed for longer than the move's limit; shard 0 goes on
        await second.kill()
        await move(zero, board0)
        world.advance(timedelta(minutes=6))
        # Shard 0's own clock ran: its loss on time is said (the signal that its sweeper
        # passed the moment shard 1's game would have been lost too).
        await fake.wait_for(lambda: LOST_ON_TIME in fast_board.text, what="shard 0's loss")
        await move(zero, board0)

        # shard 1 is back: its clocks had stopped, and its players are told so, once
        await second.start()
        await fake.wait_for(lambda: bool(said(fake, slow_thread, AWAY)), what="the credit")
        await settle(fake)
        [told] = said(fake, slow_thread, AWAY)
        assert "6 minutes" in told.content
        assert LOST_ON_TIME not in slow_board.text and not said(fake, slow_thread, REMINDED)
        assert not said(fake, fast_thread, AWAY)  # shard 0 was never away
        await move(one, slow_board)  # Bob moves, in time
        await move(one, board1)
        await move(zero, board0)


@pytest.mark.asyncio
async def test_a_second_process_for_a_served_shard_waits_and_takes_over_when_it_dies(
    tmp_path: Path, database_url: str
) -> None:
    async with sharded_world(tmp_path, database_url, [(0,), (1,)]) as world:
        fake, one = world.fake, world.tables[1]
        second = world.processes[1]
        thread, board = await start_game(one, "oska", time="5m")
        await move(one, board)
        spare = BotProcess(
            fake, world.database_url, tmp_path / "bot-1-spare.log", world.env,
            shards=(1,), shard_count=2,
        )  # fmt: skip
        world.processes.append(spare)
        starting = asyncio.create_task(spare.start())
        await spare.logged("shard 1 of 2 is served by another process")
        assert not starting.done()  # it waits, connected to nothing
        await move(one, board)  # the first process serves the shard alone
        await second.kill()
        await starting  # its lease lapsed: the spare process takes the shard over
        await move(one, board)
        await settle(fake)
        assert not said(fake, thread, AWAY)  # a second and a half away is no downtime
        # nothing was said twice: one board, one answer per move
        assert [m for m in fake.messages(thread) if m.components] == [board]


@pytest.mark.asyncio
async def test_a_process_frozen_past_its_lease_stops_when_it_wakes_and_the_other_serves(
    tmp_path: Path,
) -> None:
    # On PostgreSQL, where processes on several machines share a database. (On one machine's
    # SQLite file, a process frozen inside a write would hold the file's one lock.)
    async with (
        fresh_postgres(migrated=True) as database_url,
        sharded_world(tmp_path, database_url, [(0, 1)]) as world,
    ):
        fake, zero = world.fake, world.tables[0]
        [frozen] = world.processes
        _, board = await start_game(zero, "oska")
        await move(zero, board)
        assert frozen.process is not None
        frozen.process.send_signal(signal.SIGSTOP)  # a machine paused, a process swapped out
        spare = BotProcess(
            fake, world.database_url, tmp_path / "bot-spare.log", world.env,
            shards=(0, 1), shard_count=2,
        )  # fmt: skip
        world.processes.append(spare)
        await spare.start()  # the frozen one's leases lapsed: the spare serves both shards
        frozen.process.send_signal(signal.SIGCONT)
        # Awake, its first renewal finds its shards taken: it stops, and says why.
        assert await asyncio.wait_for(frozen.process.wait(), 30) == 1
        said = frozen.log()
        assert "kamen: another process took over shard(s) 0, 1 of 2" in said
        world.processes.remove(frozen)  # its one ERROR line is the news above
        await move(zero, board)  # served by the spare alone


@pytest.mark.asyncio
async def test_a_process_with_another_number_of_shards_is_refused(
    tmp_path: Path, database_url: str
) -> None:
    async with sharded_world(tmp_path, database_url, [(0, 1)]) as world:
        wrong = BotProcess(
            world.fake, world.database_url, tmp_path / "bot-wrong.log", world.env,
            shards=(2,), shard_count=3,
        )  # fmt: skip
        code = await wrong.run_to_exit()
        assert code == 2
        [line] = [line for line in wrong.log().splitlines() if line.startswith("kamen:")]
        assert line == (
            "kamen: SHARD_COUNT=3, but the processes running on this database serve 2 shards:"
            " give every process the same SHARD_COUNT (to change it, stop them all first)."
        )


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
        assert fake.core.command_syncs == 1  # the list synced once, not at every start


@pytest.mark.asyncio
async def test_a_tournament_on_each_shard_is_run_by_its_own_process(
    tmp_path: Path, database_url: str
) -> None:
    # The tournaments' upkeep was one process's, for every server: it could not open the
    # games of a server on another process's shard, and every pass failed.
    async with sharded_world(tmp_path, database_url, [(0,), (1,)]) as world:
        fake = world.fake

        def rounds(table: Table) -> list[Message]:
            return [m for m in fake.messages(table.games) if " · round 1 of" in m.text]

        for table in world.tables.values():
            reply = await fake.slash(
                table.guild.owner, table.games, "tournament create",
                game="oska", format="round-robin", name="Cup", starts="1h",
            )  # fmt: skip
            assert reply.message is not None, reply.text
            for user in (table.ann, table.bob, table.carol, table.guild.owner):
                await fake.click(user, reply.message, "Join")
        world.advance(timedelta(hours=2))

        def opened() -> bool:
            return all(
                rounds(table) and len(fake.threads(table.games)) == 2
                for table in world.tables.values()
            )

        await fake.wait_for(opened, what="each server's first round told, its games opened")
        await settle(fake)
        for table in world.tables.values():
            assert len(rounds(table)) == 1 and len(fake.threads(table.games)) == 2


@pytest.mark.asyncio
async def test_a_tournament_due_while_its_process_is_down_starts_when_it_is_back(
    tmp_path: Path, database_url: str
) -> None:
    async with sharded_world(tmp_path, database_url, [(0,), (1,)]) as world:
        fake, one = world.fake, world.tables[1]
        second = world.processes[1]
        reply = await fake.slash(
            one.guild.owner, one.games, "tournament create",
            game="oska", format="round-robin", name="Pebble Cup", starts="1h",
        )  # fmt: skip
        assert reply.message is not None, reply.text
        for user in (one.ann, one.bob, one.carol):
            await fake.click(user, reply.message, "Join")
        await second.kill()
        world.advance(timedelta(hours=2))

        def rounds() -> list[Message]:
            told = "**Pebble Cup** · round 1 of"
            return [m for m in fake.messages(one.games) if m.text.startswith(told)]

        await second.start()  # its shard's work waited for it
        await fake.wait_for(lambda: bool(rounds()), what="the first round, told")
        await fake.wait_for(lambda: len(fake.threads(one.games)) == 1, what="its game opened")
        await settle(fake)
        assert len(rounds()) == 1
        assert len(fake.threads(one.games)) == 1
