"""A move through the bot under load: latency, throughput and the bot's memory.

    python -m bench.bot [--games 200] [--rate 50] [--seconds 60] [--stored 10000]
                        [--seed N] [--keep DIR]

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
Budgets (DESIGN.md §6): median <= 20 ms, p99 <= 60 ms with 200 games and
50 moves/s; <= 150 MiB resident with 10,000 stored games; start-up to ready
<= 2 s after the gateway answers.
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
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from games.registry import GAMES
from matches import FirstChoice, Status, StoredGame
from store import open_store
from tests.bot_support import MENTION, BotProcess, settle
from tests.fake_discord import Channel, FakeDiscord, Message, User

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


@dataclass
class Figures:
    latencies: list[float] = field(default_factory=list)
    by_kind: dict[str, list[float]] = field(default_factory=lambda: {"menu": [], "command": []})
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


async def seed_store(path: Path, count: int, seed: int) -> float:
    """Store `count` games (nine in ten finished) before the bot starts; the seconds it took."""
    began = time.perf_counter()
    store = await open_store(f"sqlite:///{path}?synchronous=normal")
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
            done = StoredGame(
                **{
                    **{f: getattr(created, f) for f in created.__dataclass_fields__},
                    "status": Status.ACTIVE if active else Status.FINISHED,
                    "first_id": created.challenger_id,
                    "second_id": created.opponent_id,
                    "moves": moves[: len(moves) // 2] if active else moves,
                    # A game ended by the rules needs no reason code: its moves give it.
                    "result": None if active else result,
                }
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
    for select in board.selects:
        if select["custom_id"].startswith("kamen:move:"):
            return [option["value"] for option in select["options"]]
    return []


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
    if by_menu:
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
    rng = random.Random(args.seed)
    work = Path(args.keep or tempfile.mkdtemp(prefix="kamen-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    db = work / "kamen.db"
    for stale in work.glob("kamen.db*"):
        stale.unlink()
    seeded = await seed_store(db, args.stored, args.seed)
    print(f"stored games: {args.stored} ({seeded:.1f} s to write)")
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Bench Club", channels=[f"games-{i}" for i in range(10)])
        users = [fake.add_user(f"p{i}") for i in range(2 * args.games)]
        env = {"LOG_LEVEL": "WARNING", "KAMEN_SWEEP_INTERVAL": "5", "HEALTH_PORT": "off"}
        bot = BotProcess(fake, f"sqlite:///{db}", work / "bot.log", env)
        started = time.perf_counter()
        await bot.start()
        to_synced = time.perf_counter() - started
        connected = time.perf_counter()
        probe = await fake.slash(users[0], guild.channel("games-0"), "games")
        first_answer = time.perf_counter() - connected
        assert probe.ephemeral
        assert bot.process is not None
        pid = bot.process.pid
        await asyncio.sleep(1.0)
        idle = memory_kib(pid)
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
            Game("", users[2 * i], users[2 * i + 1], guild.channel(f"games-{i % 10}"))
            for i in range(args.games)
        ]
        began = time.perf_counter()
        for batch in range(0, len(games), 20):
            await asyncio.gather(*(begin(fake, g, rng) for g in games[batch : batch + 20]))
        print(f"{len(games)} games started in {time.perf_counter() - began:.1f} s")
        await settle(fake)

        figures = await drive(fake, games, args.rate, args.seconds, rng)
        await settle(fake)
        peak = memory_kib(pid)
        violations = list(fake.violations)
        errors = [line for line in bot.log().splitlines() if " ERROR " in line]
        children = workers_rss(pid)
        await bot.stop()

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
        if len(values) > 2:
            part = statistics.quantiles(sorted(v * 1000 for v in values), n=100, method="inclusive")
            print(f"  by {kind} ({len(values)}): p50 {part[49]:.1f}  p99 {part[98]:.1f}")
    print(
        f"bot memory: peak resident {peak['VmHWM'] / 1024:.1f} MiB, "
        f"now {peak['VmRSS'] / 1024:.1f} MiB; its AI worker processes {children / 1024:.1f} MiB"
    )
    print(
        f"budgets: median <= 20 ms {'ok' if cuts[49] <= 20 else 'MISSED'}, p99 <= 60 ms "
        f"{'ok' if cuts[98] <= 60 else 'MISSED'}, memory <= 150 MiB "
        f"{'ok' if peak['VmHWM'] <= 150 * 1024 else 'MISSED'}"
    )
    if violations or errors:
        print(f"violations: {violations[:5]}\nbot errors: {errors[:5]}")
        return 1
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description="a move through the bot, under load")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rate", type=float, default=50.0, help="moves a second")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--stored", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", help="a folder for the database and the bot's log")
    args = parser.parse_args()
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
