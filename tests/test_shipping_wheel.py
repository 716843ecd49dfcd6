"""The Docker image, rehearsed without a Docker engine.

The Dockerfile itself is read and obeyed: the build context is what
.dockerignore lets through, copied to a fresh folder; the build stage's RUN
commands run unchanged in it (but apt-get's: this machine has the compiler
it installs), with `python` and `pip` the Python of this machine and the
image's paths /src, /wheels, /opt/kamen and /data mapped to temporary
folders, so the wheel is built and installed, not editable, into a clean
virtual environment without pip. The final stage's ENV, WORKDIR,
HEALTHCHECK and CMD then start the installed bot, from a working directory
outside the repository (so the source tree cannot be imported), against the
fake Discord: it must become ready, pass its HEALTHCHECK, answer slash commands
(the rules, a challenge accepted by button, a move), count them in its metrics,
write nothing but JSON lines without the token, and stop cleanly on SIGTERM
(`docker stop`).

It downloads what `docker build` would (discord.py and the build backend), in
about 15 s here.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from games.registry import GAMES
from tests.bot_support import new_table, start_game
from tests.fake_discord import FakeDiscord
from tests.test_health import samples_of
from tests.test_shipping_dockerfile import build_context, env_pairs, exec_form, parse

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "games", "matches", "render", "store")
# The paths of the image, and their stand-ins under the test's temporary folder.
IMAGE_PATHS = ("/src", "/wheels", "/opt/kamen", "/data")
BASE_PATH = "/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin"


@dataclass
class Image:
    """What the rehearsed build left: the environment, and how the container would run."""

    root: Path
    paths: dict[str, Path]
    env: dict[str, str] = field(default_factory=dict)
    workdir: Path | None = None
    command: list[str] = field(default_factory=list)
    healthcheck: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)

    @property
    def venv(self) -> Path:
        return self.paths["/opt/kamen"]

    @property
    def data(self) -> Path:
        return self.paths["/data"]

    def local(self, text: str) -> str:
        """`text` with the image's paths replaced by their stand-ins."""
        for image_path in sorted(IMAGE_PATHS, key=len, reverse=True):
            text = re.sub(
                rf"(?<![\w.-]){re.escape(image_path)}(?=[/\s\"':*]|$)",
                str(self.paths[image_path]),
                text,
            )
        return text


def run(
    args: list[str] | str, *, cwd: Path, env: Mapping[str, str], timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        cwd=cwd,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=timeout,
        shell=isinstance(args, str),
        executable="/bin/bash" if isinstance(args, str) else None,
    )


def container_env(image: Image, **more: str) -> dict[str, str]:
    """The environment the container would have: the image's ENV and little else."""
    return {"HOME": str(image.data), "LANG": "C.UTF-8", **image.env, **more}


@pytest.fixture(scope="module")
def image(tmp_path_factory: pytest.TempPathFactory) -> Image:
    """Run the Dockerfile's two stages, as far as they can run without Docker."""
    root = tmp_path_factory.mktemp("image")
    image = Image(root, {path: root / path.strip("/").replace("/", "-") for path in IMAGE_PATHS})
    image.paths["/src"].mkdir()
    build_context(ROOT, image.paths["/src"])
    # `python` and `pip` of the base image: this machine's Python and its pip.
    shims = root / "shims"
    shims.mkdir()
    (shims / "python").symlink_to(sys.executable)
    (shims / "pip").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m pip "$@"\n')
    (shims / "pip").chmod(0o755)
    outside = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}

    build, final = parse((ROOT / "Dockerfile").read_text())
    env = {**outside, "PATH": f"{shims}:{BASE_PATH}"}
    cwd = root
    for instruction in build.instructions:
        if instruction.keyword == "ENV":
            env.update({k: image.local(v) for k, v in env_pairs(instruction).items()})
        elif instruction.keyword == "WORKDIR":
            cwd = Path(image.local(instruction.args))
            cwd.mkdir(parents=True, exist_ok=True)
        elif instruction.keyword == "COPY":
            assert instruction.args == ". .", "the context goes whole into the WORKDIR"
            assert cwd == image.paths["/src"]
        elif instruction.keyword == "RUN" and instruction.args.startswith("apt-get"):
            # The base's packages (a C compiler): root's business, and this machine has them.
            assert shutil.which("gcc"), "the build stage compiles Lasca's kernel"
            assert "apt-get install" in instruction.args and "pip" not in instruction.args
        elif instruction.keyword == "RUN":
            done = run(image.local(instruction.args), cwd=cwd, env=env)
            image.log.append(done.stdout + done.stderr)
            assert done.returncode == 0, f"RUN {instruction.args}\n{done.stdout}{done.stderr}"
        else:
            pytest.fail(f"the rehearsal does not know {instruction.keyword} in the build stage")

    image.env = {"PATH": BASE_PATH}
    for instruction in final.instructions:
        keyword = instruction.keyword
        if keyword == "ENV":
            for key, value in env_pairs(instruction).items():
                image.env[key] = image.local(value).replace("$PATH", image.env["PATH"])
        elif keyword == "RUN":  # the user and the volume's folder: root's business
            assert re.search(r"useradd|mkdir /data", instruction.args), instruction.args
            image.data.mkdir(exist_ok=True)
        elif keyword == "COPY":
            source, target = instruction.args.split()[-2:]
            assert source == target == "/opt/kamen", "the venv keeps its path (its scripts do)"
        elif keyword == "WORKDIR":
            image.workdir = Path(image.local(instruction.args))
        elif keyword == "HEALTHCHECK":
            image.healthcheck = exec_form(instruction.args.partition(" CMD ")[2])
        elif keyword == "CMD":
            image.command = exec_form(instruction.args)
        elif keyword not in ("LABEL", "USER", "VOLUME", "EXPOSE"):
            pytest.fail(f"the rehearsal does not know {keyword} in the final stage")
    assert image.workdir == image.data
    return image


def test_the_wheel_is_installed_not_editable_into_a_clean_environment(image: Image) -> None:
    python = image.venv / "bin" / "python"
    assert python.exists() and not (image.venv / "bin" / "pip").exists()
    script = (
        "import bot, games, matches, render, runtime, store, words;"
        " print(bot.__file__, runtime.__file__, store.__file__)"
    )
    done = run(["python", "-c", script], cwd=image.data, env=container_env(image))
    assert done.returncode == 0, done.stderr
    for path in done.stdout.split():
        assert Path(path).is_relative_to(image.venv), f"{path} is not the installed copy"
    site = next((image.venv / "lib").glob("python3.*/site-packages"))
    assert not list(site.glob("__editable__*")) and not list(site.glob("*.pth"))
    [dist] = site.glob("kamen-*.dist-info")
    assert "editable" not in (dist / "direct_url.json").read_text()
    # Nothing but the runtime: the project's packages and its dependencies.
    assert not (site / "tests").exists() and not (site / "pytest").exists()
    # The search kernels compiled in the build stage, imported from the wheel.
    script = (
        "from games.ai import lasca_kernel, oware_kernel;"
        " print(lasca_kernel.COMPILED, oware_kernel.COMPILED)"
    )
    done = run([str(python), "-c", script], cwd=image.data, env=container_env(image))
    assert done.stdout.strip() == "True True", done.stderr


def test_every_data_file_of_the_packages_is_in_the_wheel(image: Image) -> None:
    site = next((image.venv / "lib").glob("python3.*/site-packages"))
    wanted = []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*"):
            parts = path.relative_to(ROOT).parts
            if "__pycache__" in parts or "gallery" in parts:  # the README's pictures
                continue
            if path.is_file() and path.suffix != ".py":
                wanted.append(path.relative_to(ROOT))
    assert any(p.suffix == ".sql" for p in wanted) and any(p.suffix == ".ttf" for p in wanted)
    missing = [str(p) for p in wanted if not (site / p).is_file()]
    assert not missing, f"not packaged (add them to package-data): {missing}"
    script = (
        "from importlib import resources as r; "
        "print(sorted(f.name for f in r.files('store.migrations').iterdir()"
        " if f.name.endswith('.sql')))"
    )
    done = run(["python", "-c", script], cwd=image.data, env=container_env(image))
    expected = sorted(p.name for p in (ROOT / "store/migrations").glob("*.sql"))
    assert done.stdout.strip() == str(expected), done.stderr


def test_the_installed_bot_refuses_to_start_without_a_token(image: Image) -> None:
    done = run(image.command, cwd=image.data, env=container_env(image), timeout=60)
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr and "discord.com/developers" in done.stderr


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def healthcheck(image: Image, env: Mapping[str, str]) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        *image.healthcheck,
        cwd=image.data,
        env=dict(env),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(process.communicate(), 10)
    assert process.returncode is not None
    return process.returncode, out.decode()


def fetch(url: str) -> str:
    with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(url, timeout=5) as r:
        return str(r.read().decode())


async def test_the_installed_bot_runs_against_discord_and_passes_its_healthcheck(
    image: Image,
) -> None:
    log_path = image.root / "bot.log"
    async with FakeDiscord() as fake:
        table = new_table(fake, image.root)
        port = free_port()
        env = container_env(
            image, **fake.env(), HEALTH_PORT=str(port), LOG_LEVEL="DEBUG", LOG_FORMAT="json"
        )
        code, out = await healthcheck(image, env)
        assert code == 1, "unhealthy before the bot runs"
        with log_path.open("wb") as log:
            process = await asyncio.create_subprocess_exec(
                *image.command, cwd=image.data, env=env, stdout=log, stderr=log
            )
        try:
            await fake.wait_ready(timeout=60)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 20
            code, out = await healthcheck(image, env)
            while code != 0 and loop.time() < deadline:
                await asyncio.sleep(0.2)
                code, out = await healthcheck(image, env)
            assert code == 0, out
            health = json.loads(out)
            assert health["status"] == "ok"
            assert health["checks"] == {"gateway": "ok", "store": "ok", "work": "ok"}

            rules = await fake.slash(table.ann, table.games, "oska rules")
            assert rules.ephemeral and "Oska" in rules.text
            thread, _ = await start_game(table, "oska")  # a challenge, accepted, in a thread
            first = str(GAMES["oska"].new().legal_moves()[0])
            moved = await fake.slash(table.ann, thread, "oska move", move=first)
            assert moved.message is not None and not moved.ephemeral

            expected = {
                "kamen_gateway_connected": 1,
                "kamen_store_ok": 1,
                "kamen_games_active": 1,
                'kamen_moves_total{game="oska"}': 1,
                'kamen_interaction_seconds_count{kind="command"}': 3,
                'kamen_interaction_seconds_count{kind="component"}': 1,
            }
            # A handler's time is counted when it is done, a moment after its reply is out.
            deadline = loop.time() + 10
            while True:
                metrics = await loop.run_in_executor(
                    None, fetch, f"http://127.0.0.1:{port}/metrics"
                )
                found = samples_of(metrics, f"{socket.gethostname()}:{process.pid}")
                missing = [name for name, value in expected.items() if found.get(name) != value]
                if not missing or loop.time() > deadline:
                    break
                await asyncio.sleep(0.2)
            assert missing == [], metrics
            (image.root / "healthz.json").write_text(out)
            (image.root / "metrics.txt").write_text(metrics)
            assert (image.data / "kamen.db").exists(), "the database is on the volume"
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)  # docker stop
            code = await asyncio.wait_for(process.wait(), 30)
        assert code == 0, log_path.read_text()
        await fake.wait_disconnected()
        fake.assert_no_violations()

    text = log_path.read_text()
    assert fake.token not in text
    lines = text.splitlines()
    assert len(lines) > 10
    for line in lines:
        event = json.loads(line)  # one JSON object per line, whatever logged it
        assert {"time", "level", "logger", "message"} <= event.keys(), line
    loggers = {json.loads(line)["logger"] for line in lines}
    assert any(name.startswith("discord") for name in loggers)


def test_the_rehearsal_substitutes_only_the_image_paths(tmp_path: Path) -> None:
    image = Image(tmp_path, {path: tmp_path / path.strip("/") for path in IMAGE_PATHS})
    text = "pip --python /opt/kamen/bin/python install /wheels/kamen-*.whl sqlite:////data/x.db"
    assert image.local(text) == (
        f"pip --python {tmp_path}/opt/kamen/bin/python install {tmp_path}/wheels/kamen-*.whl"
        f" sqlite:///{tmp_path}/data/x.db"
    )
    assert image.local("/database /srcs /usr/src") == "/database /srcs /usr/src"
    assert shlex.split(image.local('"/data"')) == [f"{tmp_path}/data"]
