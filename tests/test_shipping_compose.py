"""compose.yaml and compose.postgres.yaml, read and checked.

compose.yaml runs the bot alone on its SQLite volume; compose.postgres.yaml,
added to it (`docker compose -f compose.yaml -f compose.postgres.yaml up`),
runs the official PostgreSQL image beside it, healthy by `pg_isready`, its
data on a named volume, and points the bot's DATABASE_URL at it, the bot
starting only once PostgreSQL is healthy. No password and no token is in
either file. The files are read with a reader of the plain YAML they are
written in (no YAML library is a dependency), which refuses anything else.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from runtime.logs import TOKEN_SHAPE
from store.url import store_for
from tests.test_shipping_dockerfile import exec_form, parse

ROOT = Path(__file__).resolve().parents[1]
INTERPOLATION = re.compile(r"\$\{(\w+)(?::?[-?][^}]*)?\}")


def read_yaml(text: str) -> dict[str, Any]:
    """Block mappings, block lists of scalars, scalars (plain, quoted) and one-line JSON
    arrays: what Kamen's compose files use. Anything else is an AssertionError."""
    lines: list[tuple[int, str]] = []
    for raw in text.splitlines():
        line = re.sub(r"(^|\s)#.*$", "", raw).rstrip()
        if line.strip():
            lines.append((len(line) - len(line.lstrip()), line.strip()))

    def scalar(value: str) -> Any:
        if value.startswith("["):
            return json.loads(value)
        if value[:1] in "\"'":
            assert value[-1] == value[0], value
            return value[1:-1]
        return value

    def block(start: int, indent: int) -> tuple[Any, int]:
        if lines[start][1].startswith("- "):
            items: list[Any] = []
            i = start
            while i < len(lines) and lines[i][0] == indent and lines[i][1].startswith("- "):
                items.append(scalar(lines[i][1][2:].strip()))
                i += 1
            return items, i
        mapping: dict[str, Any] = {}
        i = start
        while i < len(lines) and lines[i][0] == indent:
            key, sep, value = lines[i][1].partition(":")
            assert sep and not key.startswith("- "), f"not plain YAML: {lines[i][1]}"
            assert key not in mapping, f"{key} twice"
            value = value.strip()
            if value:
                mapping[key] = scalar(value)
                i += 1
            elif i + 1 < len(lines) and lines[i + 1][0] > indent:
                mapping[key], i = block(i + 1, lines[i + 1][0])
            elif i + 1 < len(lines) and lines[i + 1][0] == indent and lines[i + 1][1][:2] == "- ":
                mapping[key], i = block(i + 1, indent)  # a list at the key's own indent
            else:
                mapping[key] = None  # e.g. a named volume with no options
                i += 1
        return mapping, i

    document, end = block(0, 0)
    assert end == len(lines), f"not plain YAML from: {lines[end][1]}"
    assert isinstance(document, dict)
    return document


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return read_yaml((ROOT / "compose.yaml").read_text())


@pytest.fixture(scope="module")
def postgres_file() -> dict[str, Any]:
    return read_yaml((ROOT / "compose.postgres.yaml").read_text())


def test_the_reader_reads_what_the_files_use_and_refuses_the_rest() -> None:
    text = (
        "a:\n  b: 1  # note\n  c: \"x: y\"\n  d:\n    - one\n    - 'two'\n"
        '  e: ["CMD", "x"]\n  f:\nvolumes:\n  v:\n'
    )
    assert read_yaml(text) == {
        "a": {"b": "1", "c": "x: y", "d": ["one", "two"], "e": ["CMD", "x"], "f": None},
        "volumes": {"v": None},
    }
    with pytest.raises(AssertionError):
        read_yaml("a: 1\na: 2\n")
    with pytest.raises(AssertionError):
        read_yaml("a:\n  - {b: 1}\n  c: 2\n")


def test_compose_builds_the_bot_here_and_never_pulls_it(compose: dict[str, Any]) -> None:
    bot = compose["services"]["bot"]
    # Without pull_policy, `docker compose up` first tries to pull kamen:latest from Docker Hub.
    assert bot["build"] == "." and bot["pull_policy"] == "build"
    assert bot["image"] == "kamen:latest"


def test_compose_runs_the_bot_with_its_volume_env_file_restart_and_healthcheck(
    compose: dict[str, Any],
) -> None:
    bot = compose["services"]["bot"]
    assert bot["env_file"] == ".env" and bot["restart"] == "unless-stopped"
    assert bot["volumes"] == ["kamen-data:/data"] and "kamen-data" in compose["volumes"]
    # The same probe, on the same schedule, as the image's own HEALTHCHECK.
    final = parse((ROOT / "Dockerfile").read_text())[-1]
    options, _, command = final.last("HEALTHCHECK").args.partition(" CMD ")
    assert bot["healthcheck"]["test"] == ["CMD", *exec_form(command)]
    for option in options.split():
        key, _, value = option.removeprefix("--").partition("=")
        assert bot["healthcheck"][key.replace("-", "_")] == value, option
    assert set(compose["services"]) == {"bot"}, "PostgreSQL is in compose.postgres.yaml"


def test_postgres_is_the_official_image_healthy_by_pg_isready_on_its_own_volume(
    postgres_file: dict[str, Any],
) -> None:
    postgres = postgres_file["services"]["postgres"]
    assert re.fullmatch(r"postgres:1[6-9]", postgres["image"]), postgres["image"]
    env = postgres["environment"]
    test = postgres["healthcheck"]["test"]
    assert test[:2] == ["CMD", "pg_isready"]
    assert f"--username={env['POSTGRES_USER']}" in test and f"--dbname={env['POSTGRES_DB']}" in test
    for key in ("interval", "timeout", "retries"):
        assert postgres["healthcheck"][key], key
    assert postgres["volumes"] == ["postgres-data:/var/lib/postgresql/data"]
    assert "postgres-data" in postgres_file["volumes"]
    assert postgres["restart"] == "unless-stopped"


def test_the_bot_waits_for_a_healthy_postgres_and_uses_it(postgres_file: dict[str, Any]) -> None:
    bot = postgres_file["services"]["bot"]
    assert bot["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    env = postgres_file["services"]["postgres"]["environment"]
    url = bot["environment"]["DATABASE_URL"]
    assert url.startswith("postgresql://")
    # The password comes from .env, the same one PostgreSQL is given, and is required.
    [password] = INTERPOLATION.findall(url)
    assert INTERPOLATION.fullmatch(env["POSTGRES_PASSWORD"])
    assert INTERPOLATION.findall(env["POSTGRES_PASSWORD"]) == [password] == ["POSTGRES_PASSWORD"]
    assert ":?" in url and ":?" in env["POSTGRES_PASSWORD"], "a missing password stops compose"
    resolved = INTERPOLATION.sub("s3cret", url)
    assert resolved == (
        f"postgresql://{env['POSTGRES_USER']}:s3cret@postgres:5432/{env['POSTGRES_DB']}"
    )
    assert type(store_for(resolved)).__name__ == "PostgresStore"


def test_no_secret_in_any_file() -> None:
    for name in COMPOSE_FILES:
        text = (ROOT / name).read_text()
        assert not TOKEN_SHAPE.search(text) and "DISCORD_TOKEN=" not in text, name
        for line in text.splitlines():
            if "PASSWORD" in line and not line.lstrip().startswith("#"):
                assert "${POSTGRES_PASSWORD" in line or "POSTGRES_PASSWORD in .env" in line, line


COMPOSE_FILES = ("compose.yaml", "compose.postgres.yaml", "compose.shards.yaml")


def test_every_file_is_one_compose_v2_and_debian_12s_docker_compose_1_29_both_read() -> None:
    """docker-compose 1.29 refuses a top-level `name:` (it has no `version:` to ask for:
    1.27 and later read the Compose Specification without one, and v2 calls it obsolete).
    CI's Docker part runs `docker-compose config` on them for real (.ci/docker/compose.sh)."""
    for name in COMPOSE_FILES:
        document = read_yaml((ROOT / name).read_text())
        assert set(document) <= {"services", "volumes"}, name
    # The project's name (the volumes are named after it) comes from .env instead.
    example = (ROOT / ".env.example").read_text().splitlines()
    assert "COMPOSE_PROJECT_NAME=kamen" in example


def test_the_shards_example_runs_two_processes_one_shard_each_on_postgres(
    compose: dict[str, Any], postgres_file: dict[str, Any]
) -> None:
    shards = read_yaml((ROOT / "compose.shards.yaml").read_text())["services"]
    first, second = shards["bot"], shards["bot-shard-1"]
    assert first["environment"] == {"SHARD_COUNT": "2", "SHARD_IDS": "0"}
    assert {key: second["environment"][key] for key in ("SHARD_COUNT", "SHARD_IDS")} == {
        "SHARD_COUNT": "2",
        "SHARD_IDS": "1",
    }
    # The second process is the first one's twin: the same image, database and checks.
    bot = compose["services"]["bot"]
    same = ("build", "image", "pull_policy", "env_file", "restart", "init", "healthcheck")
    assert {key: second[key] for key in same} == {key: bot[key] for key in same}
    on_postgres = postgres_file["services"]["bot"]
    assert second["environment"]["DATABASE_URL"] == on_postgres["environment"]["DATABASE_URL"]
    assert second["depends_on"] == on_postgres["depends_on"]
    assert "volumes" not in second, "its database is PostgreSQL's: no SQLite volume"
