"""The health endpoint: `/healthz` readiness, `/metrics` in Prometheus' format, the CLI probe."""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import sys
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from matches import Store, system_clock
from matches.leases import Leases
from matches.shards import Shards
from runtime.environment import health_address
from runtime.health import (
    Check,
    Health,
    HealthServer,
    gateway_check,
    probe_url,
    store_check,
    work_check,
)  # fmt: skip
from runtime.metrics import CONTENT_TYPE, Metrics
from store import open_store

ROOT = Path(__file__).resolve().parents[1]
# A sample line of the text format: name, optional labels, a number.
SAMPLE = re.compile(
    r'^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*",?)*\})? '
    r"([-+]?[0-9.]+(e[-+]?[0-9]+)?|[-+]Inf|NaN)$"
)


class Switch:
    """A probe whose answer the test sets."""

    def __init__(self, value: bool = True) -> None:
        self.value = value

    async def __call__(self) -> bool:
        return self.value


async def broken() -> bool:
    raise OSError("disk I/O error")


async def stuck() -> bool:
    await asyncio.sleep(30)
    return True


@pytest.fixture
async def served() -> AsyncIterator[tuple[Health, Switch, Switch, str]]:
    gateway, store = Switch(), Switch()
    health = Health(
        [Check("gateway", gateway, "not connected"), Check("store", store, "no database")],
        timeout=0.2,
    )
    async with HealthServer(health, "127.0.0.1", 0) as server:
        yield health, gateway, store, f"http://127.0.0.1:{server.port}"


async def get(url: str) -> tuple[int, str, Any, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        text = await response.text()
        body = await response.json() if response.content_type == "application/json" else None
        return response.status, response.headers["Content-Type"], body, text


async def test_healthz_is_200_when_connected_and_the_store_answers(served: Any) -> None:
    _, _, _, base = served
    status, _, body, _ = await get(base + "/healthz")
    assert status == 200
    assert body["status"] == "ok"
    assert body["checks"] == {"gateway": "ok", "store": "ok"}


async def test_healthz_is_503_with_the_reason_when_the_gateway_is_down(served: Any) -> None:
    _, gateway, _, base = served
    gateway.value = False
    status, _, body, _ = await get(base + "/healthz")
    assert status == 503
    assert body["status"] == "unavailable"
    assert body["checks"] == {"gateway": "not connected", "store": "ok"}


async def test_a_failing_or_silent_store_makes_it_unready(served: Any) -> None:
    health, _, _, base = served
    health.checks = (health.checks[0], Check("store", broken, "no database"))
    status, _, body, _ = await get(base + "/healthz")
    assert status == 503 and body["checks"]["store"] == "OSError: disk I/O error"
    health.checks = (health.checks[0], Check("store", stuck, "no database"))
    status, _, body, _ = await get(base + "/healthz")
    assert status == 503 and body["checks"]["store"] == "no answer within 0.2 s"


async def test_metrics_are_prometheus_text(served: Any) -> None:
    health, gateway, _, base = served
    metrics: Metrics = health.metrics
    metrics.move_played("oska")
    metrics.move_played("oska")
    metrics.move_played("oware")
    metrics.error("command")
    for seconds in (0.004, 0.015, 0.015, 4.0):
        metrics.interaction("command", seconds)
    metrics.interaction("autocomplete", 0.001)

    async def three() -> int:
        return 3

    health.games_active = three
    gateway.value = False
    status, content_type, _, text = await get(base + "/metrics")
    assert status == 200 and content_type == CONTENT_TYPE
    for line in text.splitlines():
        if line.startswith("#"):
            assert re.match(r"^# (HELP|TYPE) kamen_[a-z_]+ .+$", line), line
    samples = samples_of(text, metrics.process)
    assert samples["kamen_games_active"] == 3
    assert samples['kamen_moves_total{game="oska"}'] == 2
    assert samples['kamen_moves_total{game="oware"}'] == 1
    assert samples['kamen_errors_total{kind="command"}'] == 1
    assert samples["kamen_gateway_connected"] == 0 and samples["kamen_store_ok"] == 1
    assert samples['kamen_interaction_seconds_bucket{kind="command",le="0.005"}'] == 1
    assert samples['kamen_interaction_seconds_bucket{kind="command",le="0.02"}'] == 3
    assert samples['kamen_interaction_seconds_bucket{kind="command",le="3.0"}'] == 3
    assert samples['kamen_interaction_seconds_bucket{kind="command",le="+Inf"}'] == 4
    assert samples['kamen_interaction_seconds_count{kind="command"}'] == 4
    assert samples['kamen_interaction_seconds_sum{kind="command"}'] == pytest.approx(4.034)
    assert samples['kamen_interaction_seconds_count{kind="autocomplete"}'] == 1
    types = dict(re.findall(r"^# TYPE (\S+) (\S+)$", text, re.M))
    assert types["kamen_moves_total"] == "counter"
    assert types["kamen_interaction_seconds"] == "histogram"


def samples_of(text: str, process: str) -> dict[str, float]:
    """The samples of a /metrics page by name and labels, each one checked to carry
    `process` (left out of the name, so that it reads as the metric does; prometheus_client
    writes the labels in alphabetical order)."""
    samples = {}
    for line in text.splitlines():
        if line.startswith("#") or not line:
            continue
        assert SAMPLE.match(line), line
        name, value = line.rsplit(" ", 1)
        assert f'process="{process}"' in name, line
        name = re.sub(r',?process="[^"]*"', "", name).replace("{,", "{").replace("{}", "")
        samples[name] = float(value)
    return samples


async def test_what_the_operator_watches_has_a_process_and_shard_label(
    served: Any, tmp_path: Path
) -> None:
    """Gateway latency by shard, REST 429s and errors by route, store and AI queue times,
    the sweeper's lag, failed passes and leases held: each sample names its process."""
    health, _, _, base = served
    metrics: Metrics = health.metrics
    route = "POST /channels/{channel_id}/messages"
    metrics.rest_answer(route, 429)
    metrics.rest_answer(route, 429)
    metrics.rest_answer(route, 503)
    metrics.rest_answer(route, 200)
    metrics.ai_waited("move", 0.03)
    metrics.swept(1, "timeout", 2.5)
    metrics.pass_failed("tournaments")
    metrics.on_scrape(lambda: metrics.set_latency(1, 0.042))
    metrics.on_scrape(lambda: metrics.set_lease(1, True))
    metrics.on_scrape(lambda: metrics.set_ai_depth("move", 2))
    store = await open_store(f"sqlite:///{tmp_path / 'kamen.db'}")
    try:
        metrics.time_store(store)
        await store.last_beat()
    finally:
        await store.close()
    _, _, _, text = await get(base + "/metrics")
    samples = samples_of(text, metrics.process)
    assert samples[f'kamen_rest_rate_limited_total{{route="{route}"}}'] == 2
    assert samples[f'kamen_rest_errors_total{{route="{route}",status="503"}}'] == 1
    assert not any('status="200"' in name for name in samples)
    assert samples['kamen_ai_queue_wait_seconds_count{lane="move"}'] == 1
    assert samples['kamen_ai_queue_depth{lane="move"}'] == 2
    assert samples['kamen_sweeper_lag_seconds_bucket{kind="timeout",le="5.0",shard="1"}'] == 1
    assert samples['kamen_sweeper_lag_seconds_bucket{kind="timeout",le="2.0",shard="1"}'] == 0
    assert samples['kamen_pass_failures_total{job="tournaments"}'] == 1
    assert samples['kamen_errors_total{kind="pass:tournaments"}'] == 1
    assert samples['kamen_gateway_latency_seconds{shard="1"}'] == 0.042
    assert samples['kamen_leases_held{shard="1"}'] == 1
    assert samples['kamen_store_seconds_count{operation="last_beat"}'] == 1


def test_the_address_comes_from_the_environment() -> None:
    assert health_address({}) == ("127.0.0.1", 8080)
    assert health_address({"HEALTH_PORT": "9100", "HEALTH_HOST": "0.0.0.0"}) == ("0.0.0.0", 9100)
    assert health_address({"HEALTH_PORT": "off"}) is None
    assert health_address({"HEALTH_PORT": "0"}) is None
    for wrong in ("http", "-1", "70000"):
        with pytest.raises(ValueError, match="HEALTH_PORT"):
            health_address({"HEALTH_PORT": wrong})


def test_the_probe_asks_the_local_address() -> None:
    assert probe_url("127.0.0.1", 8080) == "http://127.0.0.1:8080/healthz"
    assert probe_url("0.0.0.0", 8080) == "http://127.0.0.1:8080/healthz"
    assert probe_url("::", 9000) == "http://[::1]:9000/healthz"


async def run_probe(port: int | str) -> tuple[int, str]:
    env = {**os.environ, "HEALTH_PORT": str(port), "HEALTH_HOST": "127.0.0.1"}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "runtime.health",
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode()


async def test_the_healthcheck_command_exits_0_only_when_ready(served: Any) -> None:
    _, gateway, _, base = served
    port = int(base.rsplit(":", 1)[1])
    code, out = await run_probe(port)
    assert code == 0 and '"status": "ok"' in out
    gateway.value = False
    code, out = await run_probe(port)
    assert code == 1 and "not connected" in out


async def test_the_healthcheck_command_fails_when_nothing_answers() -> None:
    async with HealthServer(Health([]), "127.0.0.1", 0) as server:
        port = server.port  # free once the server is gone
    code, out = await run_probe(port)
    assert code == 1 and "cannot reach" in out
    code, out = await run_probe("off")
    assert code == 1 and "turned off" in out


class FakeSocket:
    def __init__(self, is_open: bool) -> None:
        self.open = is_open


class FakeClient:
    """What `gateway_check` reads of a discord.py client."""

    def __init__(self, ready: bool, closed: bool, ws: FakeSocket | None) -> None:
        self.ready, self.closed, self.ws = ready, closed, ws

    def is_ready(self) -> bool:
        return self.ready

    def is_closed(self) -> bool:
        return self.closed


class FakeShard:
    def __init__(self, closed: bool) -> None:
        self.closed = closed

    def is_closed(self) -> bool:
        return self.closed


class FakeShardedClient(FakeClient):
    def __init__(self, shards: dict[int, FakeShard]) -> None:
        super().__init__(True, False, None)
        self.shards = shards


@pytest.mark.parametrize(
    ("client", "connected"),
    [
        (FakeClient(True, False, FakeSocket(True)), True),
        (FakeClient(False, False, FakeSocket(True)), False),  # not READY yet
        (FakeClient(True, False, FakeSocket(False)), False),  # dropped, reconnecting
        (FakeClient(True, False, None), False),
        (FakeClient(True, True, FakeSocket(True)), False),  # closed
        (FakeShardedClient({0: FakeShard(False), 1: FakeShard(False)}), True),
        (FakeShardedClient({0: FakeShard(False), 1: FakeShard(True)}), False),
        (FakeShardedClient({}), False),
    ],
)
async def test_the_gateway_check(client: Any, connected: bool) -> None:
    assert await gateway_check(client).probe() is connected


def leased(store: Store, moment: Callable[[], datetime]) -> Leases:
    return Leases(store, moment, Shards(), "this process", timedelta(seconds=30))


class Troubled:
    """A runner with `troubles` to say."""

    def __init__(self, *troubles: str) -> None:
        self.said = list(troubles)

    def troubles(self) -> list[str]:
        return self.said


async def test_the_work_check_says_what_keeps_the_background_work_from_going_on() -> None:
    runner: Troubled | None = None
    health = Health([work_check(lambda: runner)])
    assert (await health.readiness()).checks == {"work": "starting"}
    runner = Troubled()
    assert (await health.readiness()).ready
    runner.said = [
        "waiting for shard 1 of 2: served by another process (host:12:ab)",
        "the tournaments pass for tournament #4 has failed 6 times since 12:00:00",
    ]
    readiness = await health.readiness()
    assert not readiness.ready
    assert readiness.checks["work"] == "; ".join(runner.said)


async def test_the_store_check_writes_the_heartbeat(tmp_path: Path) -> None:
    store = await open_store(f"sqlite:///{tmp_path / 'kamen.db'}")
    moment = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    leases = leased(store, lambda: moment)
    assert await leases.take()
    health = Health([store_check(leases.renew)])
    assert await store.last_beat() is None
    assert (await health.readiness()).ready
    assert await store.last_beat() == moment
    await store.close()
    readiness = await health.readiness()
    assert not readiness.ready
    assert readiness.checks["store"] == "the database cannot write: the store is not open"


async def test_the_store_check_writes_so_a_full_disk_makes_it_unready(tmp_path: Path) -> None:
    """Every move fails on a full disk while reads still work: the check must write."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.health_support.full_disk", str(tmp_path / "kamen.db"),
        cwd=ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert child.stdin is not None and child.stdout is not None
    try:
        port = int(await asyncio.wait_for(child.stdout.readline(), 30))
        status, _, body, _ = await get(f"http://127.0.0.1:{port}/healthz")
        assert status == 200 and body["checks"] == {"store": "ok"}
        child.stdin.write(b"full\n")
        assert await asyncio.wait_for(child.stdout.readline(), 30) == b"full\n"
        status, _, body, _ = await get(f"http://127.0.0.1:{port}/healthz")
        assert status == 503 and body["status"] == "unavailable"
        assert body["checks"]["store"] in (
            "the database cannot write: disk I/O error",  # the log could not grow
            "the database cannot write: database or disk is full",
        )
    finally:
        child.stdin.close()
        await child.wait()


async def test_a_write_lock_held_longer_than_the_check_makes_it_unready(tmp_path: Path) -> None:
    """Reads still answer, but a move would wait: the store is not ready."""
    path = tmp_path / "kamen.db"
    store = await open_store(f"sqlite:///{path}")
    leases = leased(store, system_clock)
    assert await leases.take()
    health = Health([store_check(leases.renew)], timeout=0.5)
    try:
        assert (await health.readiness()).ready
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        other.execute("UPDATE schema_migrations SET name = name")
        readiness = await health.readiness()
        other.execute("ROLLBACK")
        other.close()
        assert readiness.checks == {"store": "no answer within 0.5 s"}
    finally:
        await store.close()
