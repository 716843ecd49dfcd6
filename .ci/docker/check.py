"""The container check: Kamen's image, run for real against the fake Discord.

    .venv/bin/python .ci/docker/check.py [IMAGE]        (IMAGE: kamen:ci by default)

Starts the tests' fake Discord on this machine's loopback, then a container of the image on
the host's network (so it reaches the fake at 127.0.0.1) with a fresh named volume on /data,
as a self-hoster runs it (`docker run --env-file ... -v VOLUME:/data IMAGE`), and checks, in
order, printing each step:

1. the container becomes healthy by Docker's own HEALTHCHECK (the image's timings: the first
   check comes 30 s after the start), and /healthz says the gateway and the store are ok;
2. its process runs as uid 10001, not root, and the database is a file on the volume; the
   search kernels (Lasca's, Oware's) are the compiled ones (the build stage had a compiler);
3. it plays: a challenge accepted in a thread and a first move, written to the database
   (read back inside the container: the game is active with that move);
4. `docker stop` ends it cleanly (exit code 0), the container is removed, and a new one on the
   same volume becomes healthy again and carries on the same game: the second move is
   accepted and the database then holds both moves;
5. its log is JSON lines without the token, and the fake saw no broken Discord rule.

Any failure prints the container's log and exits 1. The container and the volume are removed
at the end, whatever happened.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.registry import GAMES  # noqa: E402
from tests.bot_support import Table, new_table, start_game  # noqa: E402
from tests.fake_discord import Channel, FakeDiscord  # noqa: E402

NAME = "kamen-ci-check"
VOLUME = "kamen-ci-data"
UID = 10001
HEALTHY_WITHIN = 150.0  # seconds: start period 60 s, interval 30 s, plus the bot's start
READ_GAMES = (
    "import json, sqlite3; db = sqlite3.connect('file:/data/kamen.db?mode=ro', uri=True);"
    " print(json.dumps(db.execute('SELECT status, moves FROM games ORDER BY id').fetchall()))"
)


class CheckFailed(Exception):
    """A step of the check did not hold; the message says which and what was seen."""


def step(text: str) -> None:
    print(f"[docker check] {text}", flush=True)


async def docker(*args: str, check: bool = True, timeout: float = 120.0) -> str:
    """`docker ARGS`; its standard output. Never blocks the fake's event loop."""
    process = await asyncio.create_subprocess_exec(
        "docker",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise CheckFailed(f"docker {' '.join(args)}: no answer within {timeout:.0f} s") from None
    if check and process.returncode != 0:
        raise CheckFailed(
            f"docker {' '.join(args)} exited {process.returncode}: {err.decode().strip()}"
        )
    return out.decode()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def run_container(image: str, env_file: Path) -> None:
    await docker(
        "run", "--detach", "--name", NAME, "--network", "host",
        "--env-file", str(env_file), "--volume", f"{VOLUME}:/data", image,
    )  # fmt: skip


async def wait_connected(fake: FakeDiscord, before: set[str]) -> None:
    """Until a new gateway session (not one of `before`) is live, the commands synced (by
    its first start: a list is synced once per change); fails at once if the container
    exits first."""

    def ready() -> bool:
        new = [s for s in fake.hub.live_sessions() if s.id not in before]
        return bool(new) and fake.core.command_syncs > 0

    began = time.monotonic()
    while not ready():
        state = json.loads(await docker("inspect", "--format", "{{json .State}}", NAME))
        if not state.get("Running"):
            raise CheckFailed(f"the container stopped (exit code {state.get('ExitCode')})")
        if time.monotonic() - began > 90:
            raise CheckFailed("the container's bot did not connect and sync within 90 s")
        with contextlib.suppress(TimeoutError):
            await fake.wait_for(ready, timeout=1, what="the container's bot to connect")


async def wait_healthy() -> float:
    """Until Docker reports the container healthy; the seconds it took. Fails if it exits
    or is reported unhealthy."""
    began = time.monotonic()
    while True:
        state = json.loads(await docker("inspect", "--format", "{{json .State}}", NAME))
        health = (state.get("Health") or {}).get("Status")
        if health == "healthy":
            return time.monotonic() - began
        if not state.get("Running"):
            raise CheckFailed(f"the container stopped (exit code {state.get('ExitCode')})")
        if health == "unhealthy":
            log = (state.get("Health") or {}).get("Log") or [{}]
            raise CheckFailed(f"Docker reports it unhealthy: {log[-1].get('Output', '')!r}")
        if time.monotonic() - began > HEALTHY_WITHIN:
            raise CheckFailed(f"not healthy within {HEALTHY_WITHIN:.0f} s (status {health})")
        await asyncio.sleep(1)


async def games_in_volume() -> list[list[str]]:
    """The games' (status, moves), read by the container's own Python from /data."""
    out = await docker("exec", NAME, "python", "-c", READ_GAMES)
    rows = json.loads(out)
    assert isinstance(rows, list)
    return rows


async def check_user() -> None:
    configured = (await docker("inspect", "--format", "{{.Config.User}}", NAME)).strip()
    ids = (await docker("exec", NAME, "id", "-u")).strip()
    # PID 1 is the bot itself (the image's CMD): its real and effective uid, from the kernel.
    status = await docker("exec", NAME, "cat", "/proc/1/status")
    uid_line = next(line for line in status.splitlines() if line.startswith("Uid:"))
    uids = {int(value) for value in uid_line.split()[1:]}
    if configured.split(":")[0] in ("", "0", "root") or ids != str(UID) or uids != {UID}:
        raise CheckFailed(f"runs as USER {configured!r}, id -u {ids}, PID 1 {uid_line!r}")
    owner = (await docker("exec", NAME, "stat", "-c", "%u %n", "/data/kamen.db")).strip()
    if owner != f"{UID} /data/kamen.db":
        raise CheckFailed(f"the database on the volume: {owner!r}")
    step(f"runs as uid {UID} (USER {configured}; PID 1 {' '.join(uid_line.split()[1:])})")


async def check_kernels() -> None:
    script = (
        "from games.ai import lasca_kernel, oware_kernel;"
        " print(lasca_kernel.COMPILED, oware_kernel.COMPILED)"
    )
    out = (await docker("exec", NAME, "python", "-c", script)).strip()
    if out != "True True":
        raise CheckFailed(f"the search kernels are not compiled in the image (Lasca, Oware): {out}")
    step("the search kernels (Lasca's, Oware's) are the compiled ones")


async def check_healthz(port: int) -> None:
    out = await docker("exec", NAME, "python", "-m", "runtime.health")
    health = json.loads(out)
    wanted = {"gateway": "ok", "store": "ok", "work": "ok"}
    if health.get("status") != "ok" or health.get("checks") != wanted:
        raise CheckFailed(f"/healthz on port {port}: {out.strip()}")


async def play(fake: FakeDiscord, table: Table, player: str, thread: Channel, text: str) -> None:
    user = table.ann if player == "ann" else table.bob
    reply = await fake.slash(user, thread, "oska move", move=text)
    if reply.message is None or reply.ephemeral:
        raise CheckFailed(f"{player}'s move {text} was refused: {reply.text!r}")


async def check(image: str, work: Path) -> None:
    began = time.monotonic()
    await docker("rm", "--force", NAME, check=False)
    await docker("volume", "rm", "--force", VOLUME, check=False)
    await docker("volume", "create", VOLUME)
    oska = GAMES["oska"]
    first = str(oska.new().legal_moves()[0])
    second = str(oska.new().play(first).legal_moves()[0])
    async with FakeDiscord() as fake:
        table = new_table(fake, work)
        port = free_port()
        env = {**fake.env(), "HEALTH_PORT": str(port), "LOG_FORMAT": "json"}
        env_file = work / "container.env"
        env_file.write_text("".join(f"{key}={value}\n" for key, value in env.items()))
        env_file.chmod(0o600)

        step(f"starting {image} on the host network, volume {VOLUME} on /data")
        await run_container(image, env_file)
        await wait_connected(fake, set())
        step("connected to the fake Discord; waiting for Docker's HEALTHCHECK")
        took = await wait_healthy()
        await check_healthz(port)
        step(f"healthy after {took:.0f} s more (gateway ok, store ok)")
        await check_user()
        await check_kernels()

        thread, _ = await start_game(table, "oska")
        await play(fake, table, "ann", thread, first)
        rows = await games_in_volume()
        if rows != [["active", first]]:
            raise CheckFailed(f"after a challenge and the move {first}, the games are {rows}")
        step(f"played: a challenge accepted, the move {first}; the database holds {rows}")

        step("docker stop (SIGTERM), then a new container on the same volume")
        await docker("stop", "--time", "30", NAME, timeout=60)
        code = (await docker("inspect", "--format", "{{.State.ExitCode}}", NAME)).strip()
        if code != "0":
            raise CheckFailed(f"docker stop: the bot exited {code}, not 0")
        await fake.wait_disconnected(timeout=30)
        logs_before = await container_logs()
        await docker("rm", NAME)
        sessions = {s.id for s in fake.sessions}
        await run_container(image, env_file)
        await wait_connected(fake, sessions)
        took = await wait_healthy()
        await check_healthz(port)
        step(f"the new container is healthy after {took:.0f} s")
        await check_user()
        await play(fake, table, "bob", thread, second)
        rows = await games_in_volume()
        if rows != [["active", f"{first} {second}"]]:
            raise CheckFailed(f"after the restart and the move {second}, the games are {rows}")
        step(f"the game went on from the volume: the move {second}; the database holds {rows}")

        logs = logs_before + await container_logs()
        if fake.token in logs:
            raise CheckFailed("the token is in the container's log")
        for line in logs.splitlines():
            event = json.loads(line)
            if not {"time", "level", "logger", "message"} <= event.keys():
                raise CheckFailed(f"a log line that is not a JSON event: {line}")
        step(f"the log: {len(logs.splitlines())} JSON lines, no token")
        await docker("stop", "--time", "30", NAME, timeout=60)
        await fake.wait_disconnected(timeout=30)
        fake.assert_no_violations()
    step(f"passed in {time.monotonic() - began:.0f} s")


async def container_logs() -> str:
    process = await asyncio.create_subprocess_exec(
        "docker", "logs", NAME, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    out, _ = await process.communicate()
    return out.decode(errors="replace")


async def main(image: str) -> int:
    with tempfile.TemporaryDirectory(prefix="kamen-docker-check-") as folder:
        try:
            await check(image, Path(folder))
        except (CheckFailed, AssertionError, TimeoutError) as error:
            print(f"[docker check] FAILED: {error}", file=sys.stderr, flush=True)
            logs = await container_logs()
            print(f"[docker check] the container's log:\n{logs[-6000:]}", file=sys.stderr)
            return 1
        finally:
            await docker("rm", "--force", NAME, check=False)
            await docker("volume", "rm", "--force", VOLUME, check=False)
    return 0


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "kamen:ci")))
