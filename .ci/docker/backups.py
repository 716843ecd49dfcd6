"""The README's Docker backup and restore commands for SQLite, run as the README writes them.

    .venv/bin/python .ci/docker/backups.py [IMAGE]        (IMAGE: kamen:ci by default)

In a folder of its own, a Compose project as a self-hoster has it: `compose.yaml` as it
is, `.env` (the fake Discord's address and token), and one override, `compose.ci.yaml`,
that runs IMAGE (CI cannot build from the official base) on the host's network (where
the fake Discord is). With the bot up (`docker compose up -d`) and a game played to its
first move, the README's backup block (`<!-- commands: docker-sqlite-backup -->`) is run
while the bot runs; a second move is played; the README's restore block is run (the bot
stopped, the backup read from a read-only mount, the bot started again). The database must
then hold the game as the backup had it: one move. The backup on the host must be one
self-contained file (not in WAL mode).

`docker compose` is Compose v2 where its plugin answers, else Debian 12's `docker-compose`
1.29 (what run.sh installs), the README's words swapped for it as the README says to.
Any failure prints the bot's log and exits 1; the project (its container and volume) is
removed at the end, whatever happened.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.registry import GAMES  # noqa: E402
from tests.bot_support import new_table, start_game  # noqa: E402
from tests.fake_discord import FakeDiscord  # noqa: E402
from tests.test_backups import EXAMPLE_DATE, readme_commands, today  # noqa: E402

PROJECT = "kamen-ci-backups"
READ_GAMES = (
    "import json, sqlite3; db = sqlite3.connect('file:/data/kamen.db?mode=ro', uri=True);"
    " print(json.dumps(db.execute('SELECT status, moves FROM games ORDER BY id').fetchall()))"
)


class BackupFailed(Exception):
    """A step did not hold; the message says which and what was seen."""


def step(text: str) -> None:
    print(f"[docker backups] {text}", flush=True)


def compose_words() -> str:
    """How this machine spells `docker compose`."""
    plugin = subprocess.run(["docker", "compose", "version"], capture_output=True, check=False)
    return "docker compose" if plugin.returncode == 0 else "docker-compose"


async def shell(commands: str, work: Path, tool: str, timeout: float = 180) -> str:
    """The README's `commands` in bash in `work`, `docker compose` spelt as `tool`."""
    commands = commands.replace("docker compose", tool)
    process = await asyncio.create_subprocess_exec(
        "bash", "-euo", "pipefail", "-c", commands, cwd=work,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        process.kill()
        raise BackupFailed(f"{commands}: no end within {timeout:.0f} s") from None
    if process.returncode != 0:
        raise BackupFailed(f"{commands}\nexited {process.returncode}: {err.decode().strip()}")
    return out.decode()


async def games(work: Path, tool: str) -> list[list[str]]:
    out = await shell(f'docker compose exec -T bot python -c "{READ_GAMES}"', work, tool)
    rows = json.loads(out)
    assert isinstance(rows, list)
    return rows


async def wait_connected(fake: FakeDiscord, before: set[str]) -> None:
    """Until a gateway session not among `before` is live (the bot (re)started)."""
    await fake.wait_for(
        lambda: any(s.id not in before for s in fake.hub.live_sessions()),
        timeout=120,
        what="the bot to connect",
    )


def project(work: Path, image: str, env: dict[str, str]) -> None:
    (work / "compose.yaml").write_text((ROOT / "compose.yaml").read_text())
    (work / "compose.ci.yaml").write_text(
        f"services:\n  bot:\n    image: {image}\n    pull_policy: never\n    network_mode: host\n"
    )
    settings = {
        **env,
        "COMPOSE_PROJECT_NAME": PROJECT,
        "COMPOSE_FILE": "compose.yaml:compose.ci.yaml",
        "HEALTH_PORT": "off",
    }
    dotenv = work / ".env"
    dotenv.write_text("".join(f"{key}={value}\n" for key, value in settings.items()))
    dotenv.chmod(0o600)


async def check(image: str, work: Path, tool: str) -> None:
    began = time.monotonic()
    oska = GAMES["oska"]
    first = str(oska.new().legal_moves()[0])
    second = str(oska.new().play(first).legal_moves()[0])
    async with FakeDiscord() as fake:
        table = new_table(fake, work / "table")
        project(work, image, fake.env())
        step(f"{tool} up -d ({image}, project {PROJECT})")
        await shell("docker compose up -d", work, tool)
        await wait_connected(fake, set())
        thread, _ = await start_game(table, "oska")
        reply = await fake.slash(table.ann, thread, "oska move", move=first)
        if reply.message is None or reply.ephemeral:
            raise BackupFailed(f"the move {first} was refused: {reply.text!r}")
        if await games(work, tool) != [["active", first]]:
            raise BackupFailed(f"after the move {first}: {await games(work, tool)}")

        step("the README's backup, while the bot runs")
        await shell(readme_commands("docker-sqlite-backup"), work, tool)
        backup = work / f"kamen-{today()}.db"
        with closing(sqlite3.connect(f"file:{backup}?immutable=1", uri=True)) as db:
            mode = db.execute("PRAGMA journal_mode").fetchone()[0]
            moves = db.execute("SELECT moves FROM games").fetchall()
        if mode != "delete" or moves != [(first,)]:
            raise BackupFailed(f"the backup: journal mode {mode}, moves {moves}")
        step(f"{backup.name}: {backup.stat().st_size} bytes, journal mode {mode}, moves {moves}")

        reply = await fake.slash(table.bob, thread, "oska move", move=second)
        if reply.message is None or reply.ephemeral:
            raise BackupFailed(f"the move {second} was refused: {reply.text!r}")
        if await games(work, tool) != [["active", f"{first} {second}"]]:
            raise BackupFailed(f"after the move {second}: {await games(work, tool)}")

        step("the README's restore (the bot stopped, the backup on a read-only mount)")
        sessions = {s.id for s in fake.sessions}
        restore = readme_commands("docker-sqlite-restore").replace(EXAMPLE_DATE, today())
        await shell(restore, work, tool)
        await wait_connected(fake, sessions)
        rows = await games(work, tool)
        if rows != [["active", first]]:
            raise BackupFailed(f"after the restore the games are {rows}, not the backup's")
        step(f"restored: the database holds {rows}, as the backup did")
        await shell("docker compose stop", work, tool)
        await fake.wait_disconnected(timeout=30)
    step(f"passed in {time.monotonic() - began:.0f} s")


async def main(image: str) -> int:
    tool = compose_words()
    with tempfile.TemporaryDirectory(prefix="kamen-docker-backups-") as folder:
        work = Path(folder)
        work.chmod(0o755)
        try:
            await check(image, work, tool)
        except (BackupFailed, AssertionError, TimeoutError) as error:
            print(f"[docker backups] FAILED: {error}", file=sys.stderr, flush=True)
            logs = await shell("docker compose logs --no-color bot", work, tool)
            print(f"[docker backups] the bot's log:\n{logs[-6000:]}", file=sys.stderr)
            return 1
        finally:
            await shell("docker compose down --volumes", work, tool)
    return 0


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "kamen:ci")))
