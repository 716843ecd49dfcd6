"""A move through the bot under load: latency, throughput and the bot's memory.

    python -m bench.bot [--games 200] [--rate 50] [--seconds 60] [--stored 10000]
                        [--seed N] [--keep DIR] [--lock-game-seconds S]
                        [--database postgresql://USER@HOST:PORT/DB] [--processes 2]

Starts the fake Discord of the tests and `python -m bot` against it on a
fresh SQLite file that already holds `--stored` games (finished ones with
their moves, and some ongoing), then plays `--games` games at once between
pairs of users, one move every 1/`--rate` seconds in turn, half of the moves
by the board's menu and half by `/<game> move`, for `--seconds`. A finished
game is replaced by a new one (its challenge and accept are not counted).

Latency is measured by the fake Discord: from the moment it builds the
interaction to the moment the bot's response (with the new board PNG, after
the database commit) arrives. Printed: p50/p90/p99/max, moves answered per
second, refusals, the bot's peak resident memory (VmHWM), its start-up, and
the memory right after start-up with the stored games.
Reads are timed too: `/games` and the move autocomplete, `--read-rate` a
second, in every game but the first.

`--lock-game-seconds S` injects a slow write: another connection to the file
(as a backup or a second process would) takes the write lock inside an
update of the first game's row, holds it S seconds, commits, and does it again
every `--lock-every` seconds. SQLite has one writer per file, so moves
everywhere wait for it; reads must not. The figures are then printed for
the locked game and for the others apart.
`--database postgresql://…` runs on PostgreSQL instead: the URL names a database on
a server where its user may CREATE DATABASE; the bench makes a fresh database beside it
and drops it at the end (the injected write lock is SQLite's alone). `--processes 2`
runs two bot processes, shards 0 and 1 of 2, on one shared database, with half the
games in a server on each shard (memory is then the two processes' sum).
Discord's global limit (50 requests a second for the whole bot, every process and
shard together) counts every request made with the bot's token, not interaction
responses nor their webhook's followups, edits and deletes. The fake lists those it
counts; printed are such requests per 100 moves of each kind: the players' moves of
the main run (the cost of the games begun meanwhile, measured when the games first
began, taken off) and, after it, Kamen's moves in `--kamen-games` games against Kamen
(level 1, the players' moves in them included) for `--kamen-seconds`; with the
ceiling it puts on the whole bot's moves a second.
Budgets (DESIGN.md §6): median <= 20 ms, p99 <= 60 ms with 200 games and
50 moves/s; <= 150 MiB resident with 10,000 stored games; start-up to ready
<= 2 s after the gateway answers.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import socket
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from games.registry import GAMES
from matches import FirstChoice, Status, StoredGame
from store import open_store
from store.postgres import shown
from tests.bot_support import MENTION, BotProcess, settle
from tests.fake_discord import Channel, FakeDiscord, Message, User
from tests.store_support import POSTGRES_ENV, fresh_postgres

GLOBAL_LIMIT = 50.0  # Discord's requests a second for the whole bot
GLOBAL_SAMPLE = re.compile(r'kamen_global_requests_total\{[^}]*kind="(\w+)"[^}]*\} (\S+)')

GAME_NAMES = ("oska", "lasca", "oware")


@dataclass
class Game:
    """One game the bench plays, as the players see it."""

    name: str
    first: User
    second: User
    parent: Channel
    channel: Channel | None = None
    board: Message | None = None
    busy: bool = False
    moves: int = 0
    locked: bool = False  # the game whose row the injected write lock is taken on


@dataclass
class Figures:
    latencies: list[float] = field(default_factory=list)
    by_kind: dict[str, list[float]] = field(default_factory=lambda: {"menu": [], "command": []})
    locked_game: list[float] = field(default_factory=list)  # moves in the locked game
    other_games: list[float] = field(default_factory=list)  # moves in all the others
    reads: dict[str, list[float]] = field(
        default_factory=lambda: {"/games": [], "autocomplete": []}
    )
    refused: int = 0
    failed: int = 0
    skipped: int = 0
    restarted: int = 0
    sent: int = 0


# ---------------------------------------------------------------- the stored games


def playouts(seed: int, count: int = 30) -> list[tuple[str, tuple[str, ...], str]]:
    """Finished random games: (game, moves, result)."""
    rng = random.Random(seed)
    found = []
    for index in range(count):
        name = GAME_NAMES[index % 3]
        state = GAMES[name].new()
        while (legal := state.legal_moves()) and len(state.moves) < 300:
            state = state.play(rng.choice(legal))
        outcome = state.outcome()
        if outcome is not None:
            found.append((name, state.moves, outcome.result))
    return found


async def seed_store(url: str, count: int, seed: int) -> float:
    """Store `count` games (nine in ten finished) before the bot starts; the seconds it took."""
    began = time.perf_counter()
    store = await open_store(url)
    games = playouts(seed)
    now = datetime.now(UTC) - timedelta(days=30)
    try:
        for index in range(count):
            name, moves, result = games[index % len(games)]
            active = index % 10 == 0
            row = StoredGame(
                guild_id=1000 + index % 50,
                channel_id=10_000_000 + index,
                game=name,
                status=Status.CHALLENGE,
                challenger_id=100 + index % 500,
                created_at=now,
                updated_at=now,
                opponent_id=600 + index % 500,
                first_choice=FirstChoice.CHALLENGER,
            )
            created = await store.create_game(row)
            # A game ended by the rules needs no reason code: its moves give the outcome.
            done = replace(
                created,
                status=Status.ACTIVE if active else Status.FINISHED,
                first_id=created.challenger_id,
                second_id=created.opponent_id,
                moves=moves[: len(moves) // 2] if active else moves,
                result=None if active else result,
            )
            await store.update_game(done)
    finally:
        await store.close()
    return time.perf_counter() - began


# ---------------------------------------------------------------- playing


def mover(game: Game, board: Message) -> User | None:
    found = MENTION.findall(board.content)
    if not found or "your move" not in board.content:
        return None
    return game.first if int(found[0]) == game.first.id else game.second


def menu(board: Message) -> list[str]:
    """The moves the board offers: its menu's, or the one of its "Play …" button."""
    for button in board.buttons:
        if str(button.get("custom_id", "")).startswith("kamen:play:"):
            return [str(button["custom_id"]).rsplit(":", 1)[1]]
    for select in board.selects:
        if select["custom_id"].startswith("kamen:move:"):
            return [option["value"] for option in select["options"]]
    return []


def play_button(board: Message) -> str | None:
    """The custom id of the board's one-tap button for a forced move, if it has one."""
    for button in board.buttons:
        if str(button.get("custom_id", "")).startswith("kamen:play:"):
            return str(button["custom_id"])
    return None


async def begin(fake: FakeDiscord, game: Game, rng: random.Random) -> None:
    """Challenge, accept, and find the board in the new thread."""
    game.name = rng.choice(GAME_NAMES)
    reply = await fake.slash(
        game.first, game.parent, f"{game.name} challenge", opponent=game.second, first="me"
    )
    assert reply.message is not None
    challenge = reply.message
    await fake.click(game.second, challenge, "Accept")
    await fake.wait_for(lambda: challenge.thread_id is not None, what="the thread")
    thread = fake.world.channels[challenge.thread_id]  # type: ignore[index]
    await fake.wait_for(lambda: bool(fake.messages(thread)), what="the first board")
    game.channel = thread
    game.board = fake.messages(thread)[-1]
    game.moves = 0


async def move(
    fake: FakeDiscord, game: Game, rng: random.Random, by_menu: bool, figures: Figures
) -> None:
    """One move of `game`, timed by the fake; a finished game is replaced by a new one."""
    board = game.board
    assert board is not None and game.channel is not None
    user = mover(game, board)
    choices = menu(board)
    if user is None or not choices:
        await begin(fake, game, rng)
        figures.restarted += 1
        return
    pick = rng.choice(choices)
    figures.sent += 1
    forced = play_button(board)
    if by_menu and forced is not None:  # one tap
        reply = await fake.click(user, board, forced, wait=False)
    elif by_menu:
        reply = await fake.select(user, board, "Pick a move", [pick], wait=False)
    else:
        reply = await fake.slash(user, game.channel, f"{game.name} move", move=pick, wait=False)
    try:
        await reply.wait()
    except Exception:
        figures.failed += 1
        return
    record = reply.record
    assert record.responded_at is not None
    took = record.responded_at - record.created_at
    figures.latencies.append(took)
    figures.by_kind["menu" if by_menu else "command"].append(took)
    (figures.locked_game if game.locked else figures.other_games).append(took)
    message = reply.message
    if message is None or message.ephemeral:
        figures.refused += 1
        return
    game.board = message
    game.moves += 1
    if "Game over" in message.content:
        await begin(fake, game, rng)
        figures.restarted += 1


async def drive(
    fake: FakeDiscord, games: list[Game], rate: float, seconds: float, rng: random.Random
) -> Figures:
    """Send moves at a steady `rate`, round-robin over the games."""
    figures = Figures()
    loop = asyncio.get_running_loop()
    tasks: set[asyncio.Task[None]] = set()
    began = loop.time()
    total = int(rate * seconds)
    for index in range(total):
        delay = began + index / rate - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        game = games[index % len(games)]
        if game.busy:
            figures.skipped += 1
            continue
        game.busy = True

        async def one(game: Game = game, by_menu: bool = index % 2 == 0) -> None:
            try:
                await move(fake, game, rng, by_menu, figures)
            finally:
                game.busy = False

        task = loop.create_task(one())
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    if tasks:
        await asyncio.gather(*tasks, return_exceptions=True)
    figures.elapsed = loop.time() - began  # type: ignore[attr-defined]
    return figures


async def read(
    fake: FakeDiscord, games: list[Game], rate: float, seconds: float, figures: Figures
) -> None:
    """`/games` and the move autocomplete, in turn, in every game but the locked one."""
    others = [game for game in games if not game.locked]
    loop = asyncio.get_running_loop()
    began = loop.time()
    for index in range(int(rate * seconds)):
        delay = began + index / rate - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        game = others[index % len(others)]
        if game.channel is None:
            continue
        started = time.perf_counter()
        try:
            if index % 2:
                await fake.autocomplete(game.first, game.channel, f"{game.name} move", "move", "")
                kind = "autocomplete"
            else:
                await fake.slash(game.first, game.channel, "games")
                kind = "/games"
        except Exception:
            figures.failed += 1
            continue
        figures.reads[kind].append(time.perf_counter() - started)


@dataclass
class KamenTally:
    """What the games against Kamen did: moves of each side, games begun."""

    player: int = 0
    kamen: int = 0
    begun: int = 0


def asks(board: Message, user: User) -> bool:
    """Whether the board asks `user` to move."""
    found = MENTION.findall(board.content)
    return bool(found) and int(found[0]) == user.id and "your move" in board.content


async def begin_against_kamen(fake: FakeDiscord, user: User, parent: Channel, name: str) -> Message:
    """`user` challenges Kamen to `name` (level 1, moving first): the board in the new
    thread."""
    reply = await fake.slash(
        user, parent, f"{name} challenge", opponent=fake.bot, level="1", first="me"
    )
    assert reply.message is not None, reply.text
    started = reply.message
    await fake.wait_for(lambda: started.thread_id is not None, what="the thread")
    thread = fake.world.channels[started.thread_id]  # type: ignore[index]
    await fake.wait_for(lambda: bool(fake.messages(thread)), what="the first board")
    return fake.messages(thread)[-1]


async def against_kamen(
    fake: FakeDiscord, user: User, parent: Channel, name: str, board: Message, until: float,
    tally: KamenTally,
) -> None:  # fmt: skip
    """`user` plays Kamen at `name` until `until`, by the menu and by `/<game> move` in
    turn; a finished game is replaced by a new one."""
    loop = asyncio.get_running_loop()
    turn = 0
    while loop.time() < until:
        choices = menu(board)
        if "Game over" in board.content or not choices or not asks(board, user):
            board = await begin_against_kamen(fake, user, parent, name)
            tally.begun += 1
            continue
        forced = play_button(board)
        if forced is not None:
            reply = await fake.click(user, board, forced)
        elif turn % 2 == 0:
            reply = await fake.select(user, board, "Pick a move", [choices[0]])
        else:
            thread = fake.world.channels[board.channel_id]
            reply = await fake.slash(user, thread, f"{name} move", move=choices[0])
            if reply.message is not None and not reply.ephemeral:
                board = reply.message
        if reply.ephemeral:  # refused (a click the bot found stale): a new game
            board = await begin_against_kamen(fake, user, parent, name)
            tally.begun += 1
            continue
        turn += 1
        tally.player += 1
        await answered_by_kamen(fake, board, user)
        if asks(board, user):
            tally.kamen += 1


async def answered_by_kamen(fake: FakeDiscord, board: Message, user: User) -> None:
    """Until the board asks `user` to move again, or the game is over."""
    await fake.wait_for(
        lambda: asks(board, user) or "Game over" in board.content,
        timeout=30.0, what="Kamen's move",
    )  # fmt: skip


async def kamen_phase(
    fake: FakeDiscord, users: list[User], parent: Channel, seconds: float
) -> tuple[KamenTally, float, int]:
    """Games against Kamen for `seconds`: what they did, the global-limit requests one
    game's start cost, and those made meanwhile."""
    limited = fake.global_requests
    before = len(limited)
    names = [GAME_NAMES[index % len(GAME_NAMES)] for index in range(len(users))]
    boards = [
        await begin_against_kamen(fake, user, parent, name)
        for user, name in zip(users, names, strict=True)
    ]
    await settle(fake)
    per_start = (len(limited) - before) / len(users)
    tally = KamenTally()
    before = len(limited)
    until = asyncio.get_running_loop().time() + seconds
    await asyncio.gather(
        *(
            against_kamen(fake, user, parent, name, board, until, tally)
            for user, name, board in zip(users, names, boards, strict=True)
        )
    )
    await settle(fake)
    return tally, per_start, len(limited) - before


def per_hundred(requests: float, moves: int) -> str:
    """Requests per 100 moves, and the moves a second the global limit then allows."""
    if moves <= 0:
        return "no moves"
    each = max(requests, 0.0) / moves
    ceiling = f"{GLOBAL_LIMIT / each:,.0f} moves/s" if each > 0 else "no ceiling from it"
    return f"{100 * each:.1f} per 100 moves ({moves} moves; the global limit allows {ceiling})"


class WriteLock:
    """Another connection that holds the write lock inside one game's update, now and then."""

    def __init__(self, path: Path, channel_id: int, hold: float, every: float) -> None:
        self.path, self.channel_id, self.hold, self.every = path, channel_id, hold, every
        self.stop = threading.Event()
        self.held = 0
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
        try:
            while not self.stop.wait(self.every - self.hold):
                db.execute("BEGIN IMMEDIATE")
                # The same values again: the bot's version check sees no change.
                db.execute(
                    "UPDATE games SET updated_at = updated_at"
                    " WHERE channel_id = ? AND status = 'active'",
                    (self.channel_id,),
                )
                self.stop.wait(self.hold)
                db.execute("COMMIT")
                self.held += 1
        finally:
            db.close()

    def __enter__(self) -> WriteLock:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self._thread.join()


def quantiles(values: list[float]) -> str:
    """p50 and p99 of seconds, in ms."""
    if len(values) < 3:
        return f"{len(values)} samples, too few"
    cuts = statistics.quantiles(sorted(v * 1000 for v in values), n=100, method="inclusive")
    return f"({len(values)}): p50 {cuts[49]:.1f}  p99 {cuts[98]:.1f}  max {max(values) * 1000:.1f}"


# ---------------------------------------------------------------- memory


def memory_kib(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (peak resident) of a process, in KiB."""
    found: dict[str, int] = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0])
    return found


def cpu_seconds(pids: list[int]) -> float:
    """The CPU time (user and system) the processes `pids` have used so far, in seconds."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


async def backends(url: str) -> list[int]:
    """The PostgreSQL server's processes serving the database of `url` (on this machine)."""
    import asyncpg  # type: ignore[import-untyped]  # asyncpg ships no type hints

    database = url.rsplit("/", 1)[1].split("?")[0]
    connection = await asyncpg.connect(url)
    try:
        rows = await connection.fetch(
            "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
            database,
        )
    finally:
        await connection.close()
    return [row["pid"] for row in rows]


def workers_rss(pid: int) -> int:
    """Resident KiB of the bot's child processes (the AI's workers)."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                total += memory_kib(int(entry.name)).get("VmRSS", 0)
        except (OSError, ValueError, IndexError):
            continue
    return total


# ---------------------------------------------------------------- the run


async def run(args: argparse.Namespace) -> int:
    async with contextlib.AsyncExitStack() as stack:
        if args.database.startswith(("postgresql://", "postgres://")):
            os.environ[POSTGRES_ENV] = args.database
            url = await stack.enter_async_context(fresh_postgres())
            print(f"database: PostgreSQL, a fresh database on {shown(args.database)}")
        else:
            url = ""
            print("database: a SQLite file")
        return await bench(args, url)


async def bench(args: argparse.Namespace, url: str) -> int:
    rng = random.Random(args.seed)
    work = Path(args.keep or tempfile.mkdtemp(prefix="kamen-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    db = work / "kamen.db"
    for stale in work.glob("kamen.db*"):
        stale.unlink()
    sqlite = not url
    url = url or f"sqlite:///{db}"
    seeded = await seed_store(f"{url}?synchronous=normal" if sqlite else url, args.stored,
                              args.seed)  # fmt: skip
    print(f"stored games: {args.stored} ({seeded:.1f} s to write)")
    count = args.processes
    async with FakeDiscord() as fake:
        channels = [f"games-{i}" for i in range(10)]
        guilds = [
            fake.add_guild(f"Bench Club {shard}", channels=channels,
                           shard=(shard, count) if count > 1 else None)
            for shard in range(count)
        ]  # fmt: skip
        guild = guilds[0]
        users = [fake.add_user(f"p{i}") for i in range(2 * args.games)]
        env = {"LOG_LEVEL": "WARNING", "KAMEN_SWEEP_INTERVAL": "5"}
        ports = [free_port() for _ in range(count)]  # each process's /metrics
        bots = [
            BotProcess(fake, url, work / f"bot-{shard}.log",
                       {**env, "HEALTH_PORT": str(ports[shard])},
                       shards=(shard,) if count > 1 else None,
                       shard_count=count if count > 1 else None)
            for shard in range(count)
        ]  # fmt: skip
        started = time.perf_counter()
        for one in bots:
            await one.start()
        to_synced = time.perf_counter() - started
        connected = time.perf_counter()
        probe = await fake.slash(users[0], guild.channel("games-0"), "games")
        first_answer = time.perf_counter() - connected
        assert probe.ephemeral
        pids = [one.process.pid for one in bots if one.process is not None]
        await asyncio.sleep(1.0)
        idle = _summed([memory_kib(each) for each in pids])
        print(
            f"start-up: {to_synced:.2f} s from launch to identified and synced "
            f"(Python imports included); first interaction answered {first_answer * 1000:.0f}"
            f" ms later"
        )
        print(
            f"memory after start-up with {args.stored} stored games: "
            f"{idle['VmRSS'] / 1024:.1f} MiB resident"
        )

        games = [
            Game("", users[2 * i], users[2 * i + 1],
                 guilds[i % count].channel(f"games-{(i // count) % 10}"))
            for i in range(args.games)
        ]  # fmt: skip
        began = time.perf_counter()
        limited = fake.global_requests
        before = len(limited)
        for batch in range(0, len(games), 20):
            await asyncio.gather(*(begin(fake, g, rng) for g in games[batch : batch + 20]))
        print(f"{len(games)} games started in {time.perf_counter() - began:.1f} s")
        await settle(fake)
        per_start = (len(limited) - before) / len(games)
        before = len(limited)

        games[0].locked = True
        assert games[0].channel is not None
        lock = WriteLock(db, games[0].channel.id, args.lock_game_seconds, args.lock_every)
        database_pids = [] if sqlite else await backends(url)
        cpu_before = cpu_seconds(pids), cpu_seconds(database_pids)
        with contextlib.ExitStack() as stack:
            if args.lock_game_seconds > 0 and sqlite:
                stack.enter_context(lock)
            read_figures = Figures()
            reading = asyncio.ensure_future(
                read(fake, games, args.read_rate, args.seconds, read_figures)
            )
            figures = await drive(fake, games, args.rate, args.seconds, rng)
            await reading
        figures.reads = read_figures.reads
        figures.failed += read_figures.failed
        await settle(fake)
        moves_limited = len(limited) - before - figures.restarted * per_start
        kamen_users = [fake.add_user(f"k{i}") for i in range(args.kamen_games)]
        kamen: tuple[KamenTally, float, int] | None = None
        if args.kamen_games and args.kamen_seconds > 0:
            kamen = await kamen_phase(
                fake, kamen_users, guild.channel("games-0"), args.kamen_seconds
            )
        bot_cpu = cpu_seconds(pids) - cpu_before[0]
        database_cpu = cpu_seconds(database_pids) - cpu_before[1]
        peak = _summed([memory_kib(each) for each in pids])
        violations = list(fake.violations)
        errors = [line for one in bots for line in one.log().splitlines() if " ERROR " in line]
        children = sum(workers_rss(each) for each in pids)
        by_kind = await global_requests_by_kind(ports)
        for one in bots:
            await one.stop()

    latencies = sorted(x * 1000 for x in figures.latencies)
    if not latencies:
        print("no move was answered")
        return 1
    cuts = statistics.quantiles(latencies, n=100, method="inclusive")
    elapsed = figures.elapsed  # type: ignore[attr-defined]
    print(
        f"moves: {figures.sent} sent over {elapsed:.1f} s, {len(latencies)} answered "
        f"({len(latencies) / elapsed:.1f}/s), {figures.refused} refused, "
        f"{figures.failed} unanswered, {figures.skipped} skipped (game busy), "
        f"{figures.restarted} games finished and replaced"
    )
    print(
        f"latency, interaction in -> response sent (ms): p50 {cuts[49]:.1f}  "
        f"p90 {cuts[89]:.1f}  p99 {cuts[98]:.1f}  max {latencies[-1]:.1f}"
    )
    for kind, values in figures.by_kind.items():
        print(f"  by {kind} {quantiles(values)}")
    if args.lock_game_seconds > 0:
        print(
            f"injected write lock: {args.lock_game_seconds:g} s every {args.lock_every:g} s"
            f" in one game, held {lock.held} times"
        )
    else:
        print("no injected write lock")
    print(f"  moves in the first game {quantiles(figures.locked_game)}")
    print(f"  moves in the other games {quantiles(figures.other_games)}")
    for kind, values in figures.reads.items():
        print(f"  reads in the other games, {kind} {quantiles(values)}")
    answered = len(latencies)
    print(
        "requests on Discord's global limit: game starts "
        f"{per_start:.1f} each; the players' moves "
        f"{per_hundred(moves_limited, answered - figures.refused)}"
    )
    if kamen is not None:
        tally, kamen_start, kamen_limited = kamen
        print(
            f"  against Kamen: starts {kamen_start:.1f} each; Kamen's moves "
            f"{per_hundred(kamen_limited - tally.begun * kamen_start, tally.kamen)}"
            f" ({tally.player} of the players' in those games included)"
        )
    print(
        "  as the bot's /metrics counts them (kamen_global_requests_total), by kind: "
        + (", ".join(f"{kind} {count:.0f}" for kind, count in sorted(by_kind.items())) or "none")
    )
    if kamen is not None and kamen[0].kamen:
        own = by_kind.get("kamen", 0.0)
        print(f"  Kamen's moves' own (kind kamen): {per_hundred(own, kamen[0].kamen)}")
    print(
        f"CPU per move answered (reads included): the bot {bot_cpu / answered * 1000:.2f} ms"
        + ("" if sqlite else f", PostgreSQL {database_cpu / answered * 1000:.2f} ms")
        + f" (the bot {bot_cpu:.1f} s in all over {len(pids)} process(es))"
    )
    print(
        f"bot memory: peak resident {peak['VmHWM'] / 1024:.1f} MiB, "
        f"now {peak['VmRSS'] / 1024:.1f} MiB; its AI worker processes {children / 1024:.1f} MiB"
    )
    print(
        f"budgets: median <= 20 ms {'ok' if cuts[49] <= 20 else 'MISSED'}, p99 <= 60 ms "
        f"{'ok' if cuts[98] <= 60 else 'MISSED'}, memory <= 150 MiB a process "
        f"{'ok' if peak['VmHWM'] <= 150 * 1024 * args.processes else 'MISSED'}"
    )
    if violations or errors:
        print(f"violations: {violations[:5]}\nbot errors: {errors[:5]}")
        return 1
    return 0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def global_requests_by_kind(ports: list[int]) -> dict[str, float]:
    """`kamen_global_requests_total` of the bot processes' /metrics, summed by kind."""

    def fetch(port: int) -> str:
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
            return str(answer.read().decode())

    found: dict[str, float] = {}
    for port in ports:
        text = await asyncio.to_thread(fetch, port)
        for kind, value in GLOBAL_SAMPLE.findall(text):
            found[kind] = found.get(kind, 0.0) + float(value)
    return found


def _summed(figures: list[dict[str, int]]) -> dict[str, int]:
    """Several processes' memory figures, added up."""
    total: dict[str, int] = {}
    for each in figures:
        for key, value in each.items():
            total[key] = total.get(key, 0) + value
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description="a move through the bot, under load")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rate", type=float, default=50.0, help="moves a second")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--stored", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", help="a folder for the database and the bot's log")
    parser.add_argument("--read-rate", type=float, default=10.0, help="reads a second")
    parser.add_argument(
        "--lock-game-seconds",
        type=float,
        default=0.0,
        help="another connection holds the write lock this long, inside one game's update",
    )
    parser.add_argument(
        "--lock-every", type=float, default=6.0, help="seconds from one lock to the next"
    )
    parser.add_argument(
        "--database", default="sqlite",
        help="sqlite (a fresh file), or a postgresql:// URL of a server to make a fresh one on",
    )  # fmt: skip
    parser.add_argument(
        "--kamen-games",
        type=int,
        default=4,
        help="games against Kamen played after the run (0: none)",
    )
    parser.add_argument("--kamen-seconds", type=float, default=10.0)
    parser.add_argument("--processes", type=int, choices=(1, 2), default=1,
                        help="bot processes: 2 serve shards 0 and 1 of 2")  # fmt: skip
    args = parser.parse_args()
    if args.lock_game_seconds and args.lock_every <= args.lock_game_seconds:
        parser.error("--lock-every must be longer than --lock-game-seconds")
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
