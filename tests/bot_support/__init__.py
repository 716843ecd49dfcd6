"""Running Kamen's bot against the fake Discord, as a real `python -m bot` process.

`BotProcess` runs the bot with the fake's environment and a SQLite file, as
a self-hoster would (the tests never import `bot`: the layering test forbids
it, and what is tested is the program). Its time can be moved forward
through `KAMEN_CLOCK_OFFSET_FILE` (`Table.advance`), so deadlines pass
without waiting. `Table` is a server with three players, and the helpers
below read what a player sees. `process_table` starts a process for one test;
`shared_bot` one for a module, whose tests each get a server of their own
(`SharedBot.table`): use it unless a test needs settings of its own or counts
the bot's connections (a test may still kill and restart the shared process).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from games.registry import GAMES
from tests.fake_discord import Channel, FakeDiscord, Guild, Message, Reply, User, perms

ROOT = Path(__file__).resolve().parents[2]
MENTION = re.compile(r"<@!?(\d+)>")
# Quick sweeps, so that expiries and timeouts show within a test's patience; a repair or a
# new try after Discord failed comes in a fifth of a second, not in one to three.
# Health endpoints off: parallel bot processes would all want port 8080.
# Passes often; the heartbeat too, so that a killed process's shard lease (held for three
# beats) lapses within a second and a half for the test's next start.
FAST = {
    "KAMEN_SWEEP_INTERVAL": "0.1",
    "KAMEN_HEARTBEAT_INTERVAL": "0.5",
    "KAMEN_REPAIR_SOON": "0.2",
    "KAMEN_RETRY_FIRST": "0.2",
    "LOG_LEVEL": "INFO",
    "HEALTH_PORT": "off",
}


def shared_database_url(tmp: Path, name: str = "kamen.db") -> str:
    """The database the bot processes of a test share: `KAMEN_TEST_DATABASE_URL` when set
    (e.g. a PostgreSQL database made for the test), else a SQLite file in `tmp`."""
    return os.environ.get("KAMEN_TEST_DATABASE_URL", "").strip() or f"sqlite:///{tmp / name}"


class BotProcess:
    """`python -m bot` as a child process, its log kept in a file.

    `shards` (with `shard_count`): the process serves those shards only
    (`SHARD_IDS`, `SHARD_COUNT`); `start` waits until each is identified, `kill` until
    each is gone, while other processes' shards stay connected.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        database_url: str,
        log_path: Path,
        env: Mapping[str, str] | None = None,
        *,
        shards: tuple[int, ...] | None = None,
        shard_count: int | None = None,
    ) -> None:
        self.fake = fake
        self.database_url = database_url
        self.log_path = log_path
        self.env = dict(env or {})
        self.shards: list[tuple[int, int]] = []
        if shard_count is not None:
            ids = shards if shards is not None else tuple(range(shard_count))
            self.env["SHARD_COUNT"] = str(shard_count)
            self.env["SHARD_IDS"] = ",".join(map(str, ids))
            self.shards = [(shard, shard_count) for shard in ids]
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0
        self.took: list[float] = []  # the seconds each start took

    async def start(self, *, timeout: float = 30.0) -> float:
        """Start the bot and wait until it has identified (its commands synced, by it or by a
        process before it: each list is synced once); the seconds it took."""
        loop = asyncio.get_running_loop()
        began = loop.time()
        await self._spawn()
        self.starts += 1
        fake = self.fake
        before = {session.id for session in fake.sessions}
        wanted = set(self.shards)

        def ready() -> bool:
            new = [s for s in fake.hub.live_sessions() if s.id not in before]
            identified = {s.shard for s in new} >= wanted if wanted else bool(new)
            return identified and fake.core.command_syncs > 0

        # Shards of one bucket identify `identify_every` apart (Discord's limit, the fake's pace).
        spaced = fake.hub.identify_every * len(wanted)
        await fake.wait_for(
            ready, timeout=timeout + spaced, what="the bot process to identify and sync"
        )
        self.took.append(loop.time() - began)
        return self.took[-1]

    async def _spawn(self) -> None:
        env = {
            **os.environ,
            **FAST,
            **self.fake.env(),
            "DATABASE_URL": self.database_url,
            **self.env,
        }
        env.pop("PYTHONSTARTUP", None)
        log = self.log_path.open("ab")
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=ROOT, env=env, stdout=log, stderr=log
        )
        log.close()

    async def run_to_exit(self, timeout: float = 30.0) -> int:
        """Start the bot and wait for it to stop by itself (refused at start); its exit status."""
        await self._spawn()
        assert self.process is not None
        return await asyncio.wait_for(self.process.wait(), timeout)

    async def kill(self) -> None:
        """SIGKILL: no goodbye, no flush; then wait until the fake sees the connection gone."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        await self.fake.wait_disconnected(shards=self.shards or None)

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), 10)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    async def logged(self, text: str, times: int = 1, timeout: float = 30.0) -> None:
        """Until the process's log holds `text` `times` times: what it did and said it did."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self.log().count(text) < times:
            assert loop.time() < end, f"{self.log_path.name} never said {text!r} {times} times"
            await asyncio.sleep(0.05)


@dataclass
class Table:
    """A server with #games and #quiet, three players, and ways to read what they see."""

    fake: FakeDiscord
    guild: Guild
    ann: User
    bob: User
    carol: User
    database_url: str
    tmp: Path
    bot: BotProcess | None = None
    seen_violations: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def games(self) -> Channel:
        return self.guild.channel("games")

    def user(self, user_id: int) -> User:
        return next(u for u in (self.ann, self.bob, self.carol, self.fake.bot) if u.id == user_id)

    def advance(self, delta: timedelta) -> None:
        """Move the bot's clock forward (the fake's own clock is left alone)."""
        path = self.tmp / "clock-offset"
        offset = float(path.read_text()) if path.exists() else 0.0
        path.write_text(str(offset + delta.total_seconds()))

    def new_violations(self) -> list[str]:
        found = self.fake.violations[self.seen_violations :]
        self.seen_violations = len(self.fake.violations)
        return found


def new_table(fake: FakeDiscord, tmp: Path, **guild: Any) -> Table:
    server = fake.add_guild("Stone Club", channels=("games", "quiet", "chat"), **guild)
    ann, bob, carol = fake.add_user("ann"), fake.add_user("bob"), fake.add_user("carol")
    return Table(fake, server, ann, bob, carol, f"sqlite:///{tmp / 'kamen.db'}", tmp)


@contextlib.asynccontextmanager
async def process_table(
    tmp: Path, env: Mapping[str, str] | None = None, **guild: Any
) -> AsyncIterator[Table]:
    """A fake Discord, a server, and `python -m bot` connected to it, on a clock of its own."""
    async with FakeDiscord() as fake:
        table = new_table(fake, tmp, **guild)
        clock = {"KAMEN_CLOCK_OFFSET_FILE": str(tmp / "clock-offset")}
        bot = BotProcess(fake, table.database_url, tmp / "bot.log", {**clock, **(env or {})})
        table.bot = bot
        try:
            await bot.start()
            yield table
            await settle(fake)
        except BaseException:
            sys.stderr.write(f"--- the bot's log ---\n{bot.log()[-6000:]}\n")
            raise
        finally:
            await bot.stop()
        assert fake.violations == [], "Discord's rules broken:\n" + "\n".join(fake.violations)
        errors = [
            line for line in bot.log().splitlines() if " ERROR " in line or "Traceback" in line
        ]
        assert errors == [], "the bot logged errors:\n" + bot.log()[-6000:]


class SharedBot:
    """One fake Discord and one `python -m bot` for a whole module, each test in a server of
    its own with players of its own (`table`): a test then costs its own work, not a bot
    process's start and stop. The servers are joined while the bot runs (GUILD_CREATE), as
    Discord sends a server that adds Kamen. Its clock moves for every server at once."""

    def __init__(self, fake: FakeDiscord, bot: BotProcess, tmp: Path) -> None:
        self.fake = fake
        self.bot = bot
        self.tmp = tmp
        self.servers = 0

    @contextlib.asynccontextmanager
    async def table(self, **guild: Any) -> AsyncIterator[Table]:
        """A new server with #games, #quiet and #chat, and three new players shown as ann, bob
        and carol; the test fails on a rule of Discord's broken or an error logged meanwhile."""
        fake, bot = self.fake, self.bot
        self.servers += 1
        number = self.servers
        logged = len(bot.log())
        broken = len(fake.violations)
        name = "Stone Club" if number == 1 else f"Stone Club {number}"
        server = fake.add_guild(name, channels=("games", "quiet", "chat"), **guild)
        ann, bob, carol = (
            fake.add_user(f"{who}-{number}", global_name=who) for who in ("ann", "bob", "carol")
        )
        table = Table(fake, server, ann, bob, carol, bot.database_url, self.tmp, bot, broken)
        try:
            yield table
            await settle(fake)
        except BaseException:
            sys.stderr.write(f"--- the bot's log ---\n{bot.log()[logged:][-6000:]}\n")
            raise
        finally:
            fake.clear_faults()  # a fault the test left unspent is not the next test's
        found = fake.violations[broken:]
        assert found == [], "Discord's rules broken:\n" + "\n".join(found)
        log = bot.log()[logged:]
        errors = [line for line in log.splitlines() if " ERROR " in line or "Traceback" in line]
        assert errors == [], "the bot logged errors:\n" + log[-6000:]


@contextlib.asynccontextmanager
async def shared_bot(tmp: Path, env: Mapping[str, str] | None = None) -> AsyncIterator[SharedBot]:
    """A fake Discord and `python -m bot` connected to it, for `SharedBot.table`s."""
    async with FakeDiscord() as fake:
        clock = {"KAMEN_CLOCK_OFFSET_FILE": str(tmp / "clock-offset")}
        bot = BotProcess(
            fake, f"sqlite:///{tmp / 'kamen.db'}", tmp / "bot.log", {**clock, **(env or {})}
        )
        try:
            await bot.start()
            yield SharedBot(fake, bot, tmp)
        finally:
            await bot.stop()
        # Between the tests and at the end too: no rule broken, no error logged.
        assert fake.violations == [], "Discord's rules broken:\n" + "\n".join(fake.violations)
        errors = [
            line for line in bot.log().splitlines() if " ERROR " in line or "Traceback" in line
        ]
        assert errors == [], "the bot logged errors:\n" + bot.log()[-6000:]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def module_bot(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[SharedBot]:
    """A module's one bot process: `shared = bot_support.module_bot` makes it its `shared`
    fixture (with `pytestmark = pytest.mark.asyncio(loop_scope="module")`)."""
    async with shared_bot(tmp_path_factory.mktemp("bot")) as bot:
        yield bot


async def settle(fake: FakeDiscord, quiet: float = 0.3, timeout: float = 10.0) -> None:
    """Until the bot has sent nothing for `quiet` seconds: its work after the replies is done."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    seen = -1
    while loop.time() < end and seen != len(fake.requests):
        seen = len(fake.requests)
        await asyncio.sleep(quiet)


# ---------------------------------------------------------------- reading what players see


def mentions(text: str) -> list[int]:
    return [int(found) for found in MENTION.findall(text)]


def to_move(table: Table, board: Message) -> User:
    """The player a board pings: its text opens with `<@id>, your move`."""
    found = mentions(board.content)
    assert found and "your move" in board.content, f"no one to move on: {board.content!r}"
    return table.user(found[0])


def other(table: Table, user: User) -> User:
    return table.bob if user is table.ann else table.ann


def board_png(message: Message) -> bytes:
    [image] = [a for a in message.attachments if a.filename == "board.png"]
    assert image.content_type == "image/png" and image.data.startswith(b"\x89PNG")
    return image.data


def options(message: Message) -> list[str]:
    """The moves a board offers: its menu's, or the one of its "Play …" button (a forced
    move); empty when it offers none."""
    forced = play_button(message)
    if forced is not None:
        return [forced["custom_id"].rsplit(":", 1)[1]]
    selects = [s for s in message.selects if s["custom_id"].startswith("kamen:move:")]
    return [o["value"] for o in selects[0]["options"]] if selects else []


def play_button(message: Message) -> dict[str, Any] | None:
    """The board's one-tap button for a forced move, if it has one."""
    found = [b for b in message.buttons if str(b.get("custom_id", "")).startswith("kamen:play:")]
    return found[0] if found else None


async def move_on_board(
    table: Table, user: User, board: Message, move: str, menu: str = "Pick a move"
) -> Reply:
    """`user` plays `move` from the board: one tap on "Play …" when it is forced, else the
    menu (whose placeholder is `menu`)."""
    forced = play_button(board)
    if forced is not None:
        assert options(board) == [move]
        return await table.fake.click(user, board, forced["custom_id"])
    return await table.fake.select(user, board, menu, [move])


def custom_ids(message: Message) -> list[str]:
    ids: list[str] = [s["custom_id"] for s in message.selects]
    ids += [b["custom_id"] for b in message.buttons]
    return ids


async def game_thread(table: Table, challenge: Message) -> Channel:
    """The thread an accepted challenge opened, once its board is in."""
    fake = table.fake
    await fake.wait_for(lambda: challenge.thread_id is not None, what="the game's thread")
    thread = next(t for t in fake.threads(table.games) if t.id == challenge.thread_id)
    await fake.wait_for(lambda: bool(fake.messages(thread)), what="the board in the thread")
    return thread


def last_board(table: Table, channel: Channel) -> Message:
    boards = [m for m in table.fake.messages(channel) if m.attachments and m.embeds]
    assert boards, f"no board in #{channel.name}"
    return boards[-1]


async def start_game(
    table: Table, game: str, *, first: str = "me", channel: Channel | None = None, **options: Any
) -> tuple[Channel, Message]:
    """Ann challenges Bob (Ann moves first), Bob accepts: the game's channel and its board."""
    where = channel or table.games
    reply = await table.fake.slash(
        table.ann, where, f"{game} challenge", opponent=table.bob, first=first, **options
    )
    assert reply.message is not None and not reply.ephemeral
    accepted = await table.fake.click(table.bob, reply.message, "Accept")
    assert accepted.type == 7
    if reply.message.attachments:  # no thread: the challenge became the board
        return where, reply.message
    thread = await game_thread(table, reply.message)
    return thread, last_board(table, thread)


async def wait_board(table: Table, board: Message, versions: int) -> None:
    """Until `board` has been edited `versions` times (the bot's reply or a later edit)."""
    await table.fake.wait_for(lambda: len(board.versions) >= versions, what="the board's edit")


async def start_against_kamen(table: Table, game: str, level: str) -> tuple[Channel, Message]:
    """Ann challenges Kamen (Ann moves first): the game's thread and its board."""
    fake = table.fake
    reply = await fake.slash(
        table.ann, table.games, f"{game} challenge", opponent=fake.bot, level=level, first="me"
    )
    assert reply.message is not None
    await fake.wait_for(lambda: bool(fake.threads(table.games)), what="the thread")
    [thread] = fake.threads(table.games)
    await fake.wait_for(lambda: bool(fake.messages(thread)), what="the board")
    return thread, last_board(table, thread)


def natural(game: str, moves: list[str]) -> list[str]:
    """The legal moves after `moves`, in the order the bot offers them: captures first."""
    state = GAMES[game].new()
    for move in moves:
        state = state.play(move)
    legal = state.legal_moves()
    taken = {move: len(state.describe(move).captured) for move in legal}
    return sorted(legal, key=lambda move: -taken[move])


async def both_move_once(table: Table, thread: Channel, first: User, second: User) -> None:
    """In a new Oska game in `thread`, `first` then `second` plays its first legal move."""
    played: list[str] = []
    for mover in (first, second):
        move = natural("oska", played)[0]
        reply = await table.fake.slash(mover, thread, "oska move", move=move)
        assert not reply.ephemeral, reply.text
        played.append(move)


async def play_rated(
    table: Table, first: User, second: User, how: str = "1-0", *, czech: bool = False
) -> Message:
    """`first` challenges `second` to Oska (moving first), each moves once, and the game
    ends as `how` says: "1-0" the second resigns, "0-1" the first does, "draw" agreed.
    A rated game; its final board, once it shows the result. `czech`: the server speaks
    Czech (its public buttons and the result are in Czech)."""
    fake = table.fake
    accept = "Přijmout" if czech else "Accept"  # public, in the server's language
    offered = await fake.slash(first, table.games, "oska challenge", opponent=second, first="me")
    challenge = offered.message
    assert challenge is not None
    await fake.click(second, challenge, accept)
    await fake.wait_for(lambda: challenge.thread_id is not None, what="the thread")
    thread = next(t for t in fake.threads(table.games) if t.id == challenge.thread_id)
    await fake.wait_for(lambda: bool(fake.messages(thread)), what="the board")
    await both_move_once(table, thread, first, second)
    if how == "draw":
        await fake.slash(first, thread, "oska draw")
        await fake.slash(second, thread, "oska draw")
    else:
        loser = second if how == "1-0" else first
        asked = await fake.slash(loser, thread, "oska resign")
        assert asked.message is not None
        await fake.click(loser, asked.message, "Yes, resign")  # private: the player's English
    over = "Konec hry" if czech else "Game over"
    await fake.wait_for(lambda: over in last_board(table, thread).content, what="the game's end")
    return last_board(table, thread)


def ephemeral_text(reply: Reply) -> str:
    assert reply.message is not None and reply.ephemeral, f"not ephemeral: {reply!r}"
    return reply.text


__all__ = ["BotProcess", "SharedBot", "Table", "perms", "shared_bot", "shared_database_url"]
