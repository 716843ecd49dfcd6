"""The README's Docker backup and restore commands, SQLite's and PostgreSQL's, run as written.

    .venv/bin/python .ci/docker/backups.py [IMAGE]        (IMAGE: kamen:ci by default)

For each engine, in a folder of its own, a Compose project as a self-hoster has it: the
compose files as they are (`compose.yaml`, and `compose.postgres.yaml` for PostgreSQL),
`.env` (the fake Discord's address and token, and POSTGRES_PASSWORD), and one override,
`compose.ci.yaml`, that runs IMAGE (CI cannot build from the official base) on the host's
network (where the fake Discord is). With the bot up (`docker compose up -d`) and a game
played to its first move, the README's backup block (`<!-- commands: docker-sqlite-backup -->`,
`<!-- commands: docker-postgres-backup -->`) is run while the bot runs; a second move is
played; the README's restore block is run (SQLite: the bot stopped, the backup read from a
read-only mount, the bot started again; PostgreSQL: the bot stopped, pg_restore in one
transaction, the bot started again). The database must then hold the game as the backup had
it: one move. SQLite's backup on the host must be one self-contained file (not in WAL mode);
PostgreSQL's a pg_dump archive in the custom format, with the games' rows.

PostgreSQL is `postgres:16` as compose.postgres.yaml names it: in CI, the stand-in that
.ci/docker/postgres.sh builds and tags so in CI's own dockerd (the official image cannot be
pulled there). It runs on the project's network, as in a self-hoster's project; the override
gives that network a fixed subnet and the postgres service a fixed address in it, which the
bot (on the host's network, which reaches the project's bridge) is given as the host name
`postgres` (`extra_hosts`): compose.postgres.yaml's DATABASE_URL is used unchanged. (On the
host's network the server would meet whatever else listens on port 5432 there.)

`docker compose` is Compose v2 where its plugin answers, else Debian 12's `docker-compose`
1.29 (what run.sh installs), the README's words swapped for it as the README says to.
Any failure prints the bot's (and PostgreSQL's) log and exits 1; each project (its
containers, network and volumes) is removed at the end, whatever happened.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import sqlite3
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path
from typing import Literal

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.registry import GAMES  # noqa: E402
from tests.bot_support import new_table, start_game  # noqa: E402
from tests.fake_discord import FakeDiscord  # noqa: E402
from tests.test_backups import EXAMPLE_DATE, readme_commands, today  # noqa: E402

PROJECTS = {"sqlite": "kamen-ci-backups", "postgres": "kamen-ci-backups-pg"}
# The project network's subnet and PostgreSQL's address in it (compose.ci.yaml, see above).
PG_SUBNET = "172.31.254.0/24"
PG_ADDRESS = "172.31.254.10"
READ_GAMES = (
    "import json, sqlite3; db = sqlite3.connect('file:/data/kamen.db?mode=ro', uri=True);"
    " print(json.dumps(db.execute('SELECT status, moves FROM games ORDER BY id').fetchall()))"
)
PG_READ_GAMES = (
    "SELECT coalesce(json_agg(json_build_array(status, moves) ORDER BY id), '[]') FROM games"
)

Engine = Literal["sqlite", "postgres"]


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


async def games(work: Path, tool: str, engine: Engine) -> list[list[str]]:
    """The games' (status, moves), read in the database's container."""
    if engine == "sqlite":
        read = f'docker compose exec -T bot python -c "{READ_GAMES}"'
    else:
        read = (
            "docker compose exec -T postgres psql --username=kamen --dbname=kamen"
            f' --no-psqlrc --tuples-only --no-align -c "{PG_READ_GAMES}"'
        )
    out = await shell(read, work, tool)
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


def project(work: Path, image: str, env: dict[str, str], engine: Engine) -> None:
    files = ["compose.yaml"] + (["compose.postgres.yaml"] if engine == "postgres" else [])
    for name in files:
        (work / name).write_text((ROOT / name).read_text())
    override = (
        f"services:\n  bot:\n    image: {image}\n    pull_policy: never\n    network_mode: host\n"
    )
    if engine == "postgres":
        override += (
            f'    extra_hosts:\n      - "postgres:{PG_ADDRESS}"\n'
            "  postgres:\n    pull_policy: never\n"
            f"    networks:\n      default:\n        ipv4_address: {PG_ADDRESS}\n"
            f"networks:\n  default:\n    ipam:\n      config:\n        - subnet: {PG_SUBNET}\n"
        )
    (work / "compose.ci.yaml").write_text(override)
    settings = {
        **env,
        "COMPOSE_PROJECT_NAME": PROJECTS[engine],
        "COMPOSE_FILE": ":".join([*files, "compose.ci.yaml"]),
        "HEALTH_PORT": "off",
    }
    if engine == "postgres":
        settings["POSTGRES_PASSWORD"] = secrets.token_hex(24)  # as the README says: hex
    dotenv = work / ".env"
    dotenv.write_text("".join(f"{key}={value}\n" for key, value in settings.items()))
    dotenv.chmod(0o600)


def sqlite_backup(backup: Path, first: str) -> str:
    """What SQLite's backup holds, checked: one self-contained file with the first move."""
    with closing(sqlite3.connect(f"file:{backup}?immutable=1", uri=True)) as db:
        mode = db.execute("PRAGMA journal_mode").fetchone()[0]
        moves = db.execute("SELECT moves FROM games").fetchall()
    if mode != "delete" or moves != [(first,)]:
        raise BackupFailed(f"the backup: journal mode {mode}, moves {moves}")
    return f"{backup.stat().st_size} bytes, journal mode {mode}, moves {moves}"


async def postgres_backup(backup: Path, work: Path, tool: str) -> str:
    """What PostgreSQL's backup holds, checked: pg_dump's custom format, the games' rows in it."""
    if backup.read_bytes()[:5] != b"PGDMP":
        raise BackupFailed(f"the backup {backup.name} is not a pg_dump archive in custom format")
    listing = await shell(
        f"docker compose exec -T postgres pg_restore --list < {backup.name}", work, tool
    )
    if not any(" TABLE DATA public games " in line for line in listing.splitlines()):
        raise BackupFailed(f"the backup's table of contents has no games rows:\n{listing}")
    entries = sum(1 for line in listing.splitlines() if line and not line.startswith(";"))
    return f"{backup.stat().st_size} bytes, pg_dump custom format, {entries} entries"


async def check(image: str, work: Path, tool: str, engine: Engine) -> None:
    began = time.monotonic()
    oska = GAMES["oska"]
    first = str(oska.new().legal_moves()[0])
    second = str(oska.new().play(first).legal_moves()[0])
    async with FakeDiscord() as fake:
        table = new_table(fake, work / "table")
        project(work, image, fake.env(), engine)
        step(f"{engine}: {tool} up -d ({image}, project {PROJECTS[engine]})")
        await shell("docker compose up -d", work, tool, timeout=300)
        await wait_connected(fake, set())
        thread, _ = await start_game(table, "oska")
        reply = await fake.slash(table.ann, thread, "oska move", move=first)
        if reply.message is None or reply.ephemeral:
            raise BackupFailed(f"the move {first} was refused: {reply.text!r}")
        if await games(work, tool, engine) != [["active", first]]:
            raise BackupFailed(f"after the move {first}: {await games(work, tool, engine)}")

        step(f"{engine}: the README's backup, while the bot runs")
        await shell(readme_commands(f"docker-{engine}-backup"), work, tool)
        if engine == "sqlite":
            backup = work / f"kamen-{today()}.db"
            held = sqlite_backup(backup, first)
        else:
            backup = work / f"kamen-{today()}.dump"
            held = await postgres_backup(backup, work, tool)
        step(f"{engine}: {backup.name}: {held}")

        reply = await fake.slash(table.bob, thread, "oska move", move=second)
        if reply.message is None or reply.ephemeral:
            raise BackupFailed(f"the move {second} was refused: {reply.text!r}")
        if await games(work, tool, engine) != [["active", f"{first} {second}"]]:
            raise BackupFailed(f"after the move {second}: {await games(work, tool, engine)}")

        how = {
            "sqlite": "the bot stopped, the backup on a read-only mount",
            "postgres": "the bot stopped, pg_restore in one transaction",
        }[engine]
        step(f"{engine}: the README's restore ({how})")
        sessions = {s.id for s in fake.sessions}
        restore = readme_commands(f"docker-{engine}-restore").replace(EXAMPLE_DATE, today())
        await shell(restore, work, tool)
        await wait_connected(fake, sessions)
        rows = await games(work, tool, engine)
        if rows != [["active", first]]:
            raise BackupFailed(f"after the restore the games are {rows}, not the backup's")
        step(f"{engine}: restored: the database holds {rows}, as the backup did")
        await shell("docker compose stop", work, tool, timeout=120)
        await fake.wait_disconnected(timeout=30)
    step(f"{engine}: passed in {time.monotonic() - began:.0f} s")


async def run(image: str, tool: str, engine: Engine) -> bool:
    """One engine's check in a folder of its own; whether it passed."""
    with tempfile.TemporaryDirectory(prefix=f"kamen-docker-backups-{engine}-") as folder:
        work = Path(folder)
        work.chmod(0o755)
        try:
            await check(image, work, tool, engine)
        except (BackupFailed, AssertionError, TimeoutError) as error:
            print(f"[docker backups] {engine}: FAILED: {error}", file=sys.stderr, flush=True)
            services = "bot postgres" if engine == "postgres" else "bot"
            logs = await shell(f"docker compose logs --no-color {services}", work, tool)
            print(f"[docker backups] the log:\n{logs[-8000:]}", file=sys.stderr)
            return False
        finally:
            await shell("docker compose down --volumes", work, tool, timeout=120)
    return True


async def main(image: str, engines: list[Engine]) -> int:
    tool = compose_words()
    passed = [await run(image, tool, engine) for engine in engines]
    return 0 if all(passed) else 1


if __name__ == "__main__":
    os.chdir(ROOT)
    chosen: list[Engine] = ["sqlite", "postgres"]
    if os.environ.get("KAMEN_BACKUPS_ENGINES"):  # e.g. "postgres": one engine alone
        wanted = os.environ["KAMEN_BACKUPS_ENGINES"].split(",")
        chosen = [engine for engine in chosen if engine in wanted]
    sys.exit(asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "kamen:ci", chosen)))
