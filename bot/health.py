"""The bot's health: `/healthz` for Docker's HEALTHCHECK, `/metrics` for Prometheus.

A small aiohttp server (aiohttp comes with discord.py) on `HEALTH_HOST`:
`HEALTH_PORT` (127.0.0.1:8080 by default; `HEALTH_PORT=off` turns it off).
`/healthz` answers 200 and `{"status": "ok", ...}` when the bot is ready,
meaning connected to Discord's gateway *and* able to query its database;
otherwise 503 with the reason of each failing check. `/metrics` is the
Prometheus text format: games active, moves played, interaction latency,
errors, and the two checks as gauges.

The bot owns one `Metrics` and counts into it as things happen; `Health`
runs the checks (async callables, each with a timeout) when asked.
`python -m bot.health` is the HEALTHCHECK's probe: it asks `/healthz` on the
configured port with the standard library alone (the slim image has no curl)
and exits 0 when the bot is ready, 1 otherwise, printing the answer.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported when serving: the settings and the probe need neither
    import discord
    from aiohttp import web

    from store import Store

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8080
CHECK_TIMEOUT = 2.0
# Seconds; Discord voids an interaction not answered within 3 s, hence the buckets near it.
BUCKETS = (0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

Probe = Callable[[], Awaitable[bool]]


@dataclass(frozen=True, slots=True)
class Check:
    """One condition of readiness: a probe that answers True when all is well."""

    name: str
    probe: Probe
    failing: str  # what /healthz says when the probe answers False


@dataclass(frozen=True, slots=True)
class Readiness:
    """The outcome of every check: "ok", or why not."""

    checks: dict[str, str]

    @property
    def ready(self) -> bool:
        return all(outcome == "ok" for outcome in self.checks.values())

    def as_json(self) -> dict[str, Any]:
        return {"status": "ok" if self.ready else "unavailable", "checks": self.checks}


class Histogram:
    """Observations counted into cumulative buckets, as Prometheus wants them."""

    def __init__(self, buckets: Sequence[float] = BUCKETS) -> None:
        self.bounds = tuple(sorted(buckets))
        self.counts = [0] * len(self.bounds)
        self.count = 0
        self.sum = 0.0

    def observe(self, value: float) -> None:
        self.count += 1
        self.sum += value
        for index, bound in enumerate(self.bounds):
            if value <= bound:
                self.counts[index] += 1


@dataclass
class Metrics:
    """What the bot counts as it runs. Plain numbers: one event loop writes them."""

    moves: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    interactions: dict[str, Histogram] = field(default_factory=dict)
    started: float = field(default_factory=time.time)

    def move_played(self, game: str) -> None:
        self.moves[game] += 1

    def error(self, kind: str) -> None:
        self.errors[kind] += 1

    def interaction(self, kind: str, seconds: float) -> None:
        """An interaction of `kind` (command, component, autocomplete, modal) took `seconds`."""
        self.interactions.setdefault(kind, Histogram()).observe(seconds)

    @contextlib.contextmanager
    def timing(self, kind: str) -> Iterator[None]:
        """Observe how long the `with` block takes as an interaction of `kind`."""
        began = time.perf_counter()
        try:
            yield
        finally:
            self.interaction(kind, time.perf_counter() - began)


class Health:
    """Readiness from the checks, and the metrics page."""

    def __init__(
        self,
        checks: Sequence[Check],
        metrics: Metrics | None = None,
        *,
        games_active: Callable[[], Awaitable[int]] | None = None,
        timeout: float = CHECK_TIMEOUT,
    ) -> None:
        self.checks = tuple(checks)
        self.metrics = metrics if metrics is not None else Metrics()
        self.games_active = games_active
        self.timeout = timeout

    async def readiness(self) -> Readiness:
        outcomes = await asyncio.gather(*(self._run(check) for check in self.checks))
        pairs = zip(self.checks, outcomes, strict=True)
        return Readiness({check.name: outcome for check, outcome in pairs})

    async def _run(self, check: Check) -> str:
        try:
            ok = await asyncio.wait_for(check.probe(), self.timeout)
        except TimeoutError:
            return f"no answer within {self.timeout:g} s"
        except Exception as error:
            return f"{type(error).__name__}: {error}"
        return "ok" if ok else check.failing

    async def metrics_text(self) -> str:
        readiness = await self.readiness()
        games = None
        if self.games_active is not None:
            try:
                games = await asyncio.wait_for(self.games_active(), self.timeout)
            except Exception:
                self.metrics.error("metrics")
        return render_metrics(self.metrics, readiness, games)

    def app(self) -> web.Application:
        from aiohttp import web

        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        return app

    async def _healthz(self, request: web.Request) -> web.Response:
        from aiohttp import web

        readiness = await self.readiness()
        body = {**readiness.as_json(), "version": _version()}
        return web.json_response(body, status=200 if readiness.ready else 503)

    async def _metrics(self, request: web.Request) -> web.Response:
        from aiohttp import web

        text = await self.metrics_text()
        return web.Response(body=text.encode(), headers={"Content-Type": CONTENT_TYPE})


class HealthServer:
    """`Health` served on host:port while the `async with` lasts (port 0: any free port)."""

    def __init__(self, health: Health, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> None:
        self.health = health
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    async def __aenter__(self) -> HealthServer:
        from aiohttp import web

        # No access log: Docker asks every 30 s, and that is not an event worth a line.
        runner = web.AppRunner(self.health.app(), access_log=None, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        if self.port == 0:
            self.port = int(runner.addresses[0][1])
        return self

    async def __aexit__(self, *_: object) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


# ------------------------------------------------------------------ the bot's two checks


def gateway_check(client: discord.Client) -> Check:
    """Ready, and every gateway connection of the client open (one, or one per shard)."""

    async def connected() -> bool:
        if client.is_closed() or not client.is_ready():
            return False
        shards = getattr(client, "shards", None)
        if isinstance(shards, dict):  # AutoShardedClient
            return bool(shards) and not any(shard.is_closed() for shard in shards.values())
        ws = client.ws
        return ws is not None and ws.open

    return Check("gateway", connected, "not connected to the Discord gateway")


def store_check(store: Store) -> Check:
    """The database answers a query (the schema version: one small SELECT)."""

    async def reachable() -> bool:
        await store.schema_version()
        return True

    return Check("store", reachable, "the database does not answer")


def games_active(client: discord.Client, store: Store) -> Callable[[], Awaitable[int]]:
    """The number of games being played in the client's servers (asked at each scrape)."""

    async def count() -> int:
        counts = await store.active_counts()
        return sum(counts.get(guild.id, 0) for guild in client.guilds)

    return count


# ------------------------------------------------------------------ the Prometheus text


def render_metrics(metrics: Metrics, readiness: Readiness, games_active: int | None) -> str:
    """The metrics in Prometheus' text exposition format (version 0.0.4)."""
    out: list[str] = []

    def family(name: str, kind: str, text: str) -> None:
        out.append(f"# HELP {name} {text}")
        out.append(f"# TYPE {name} {kind}")

    family("kamen_info", "gauge", "The running version of Kamen.")
    out.append(f"kamen_info{_labels(version=_version())} 1")
    family("kamen_start_time_seconds", "gauge", "When the bot started, in Unix time.")
    out.append(f"kamen_start_time_seconds {_number(metrics.started)}")
    for name, text in (
        ("gateway", "1 when connected to the Discord gateway."),
        ("store", "1 when the database answers."),
    ):
        metric = "kamen_gateway_connected" if name == "gateway" else "kamen_store_ok"
        family(metric, "gauge", text)
        out.append(f"{metric} {int(readiness.checks.get(name) == 'ok')}")
    if games_active is not None:
        family("kamen_games_active", "gauge", "Games being played.")
        out.append(f"kamen_games_active {games_active}")
    family("kamen_moves_total", "counter", "Moves played, by game.")
    for game, count in sorted(metrics.moves.items()):
        out.append(f"kamen_moves_total{_labels(game=game)} {count}")
    family("kamen_errors_total", "counter", "Errors, by kind.")
    for kind, count in sorted(metrics.errors.items()):
        out.append(f"kamen_errors_total{_labels(kind=kind)} {count}")
    family(
        "kamen_interaction_seconds",
        "histogram",
        "Time from an interaction's arrival to the end of its handling, by kind.",
    )
    for kind, histogram in sorted(metrics.interactions.items()):
        for bound, count in zip(histogram.bounds, histogram.counts, strict=True):
            labels = _labels(kind=kind, le=_number(bound))
            out.append(f"kamen_interaction_seconds_bucket{labels} {count}")
        labels = _labels(kind=kind, le="+Inf")
        out.append(f"kamen_interaction_seconds_bucket{labels} {histogram.count}")
        out.append(f"kamen_interaction_seconds_sum{_labels(kind=kind)} {_number(histogram.sum)}")
        out.append(f"kamen_interaction_seconds_count{_labels(kind=kind)} {histogram.count}")
    return "\n".join(out) + "\n"


def _labels(**labels: str) -> str:
    def escape(value: str) -> str:
        return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')

    return "{" + ",".join(f'{key}="{escape(value)}"' for key, value in labels.items()) + "}"


def _number(value: float) -> str:
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    return repr(float(value))


def _version() -> str:
    try:
        return metadata.version("kamen")
    except metadata.PackageNotFoundError:
        return "unknown"


# ------------------------------------------------------------------ configuration and probe


def health_address(env: Mapping[str, str]) -> tuple[str, int] | None:
    """`(HEALTH_HOST, HEALTH_PORT)` from the environment, None when turned off.

    Raises ValueError with a message saying what to write instead.
    """
    host = env.get("HEALTH_HOST", "").strip() or DEFAULT_HOST
    raw = env.get("HEALTH_PORT", "").strip()
    if raw.lower() in ("0", "off"):
        return None
    if not raw:
        return host, DEFAULT_PORT
    if not raw.isdigit() or not 1 <= int(raw) <= 65535:
        raise ValueError(f"HEALTH_PORT={raw!r}: write a port number (1-65535), or off.")
    return host, int(raw)


def probe_url(host: str, port: int) -> str:
    """Where a probe on the same machine finds `/healthz` of a server bound to host:port."""
    local = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    if ":" in local:
        local = f"[{local}]"
    return f"http://{local}:{port}/healthz"


def probe(url: str, timeout: float = 3.0) -> tuple[bool, str]:
    """Ask `/healthz`: whether the bot is ready, and what it said (or why it did not)."""
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never via a proxy
    try:
        with direct.open(url, timeout=timeout) as response:
            return response.status == 200, response.read().decode(errors="replace")
    except urllib.error.HTTPError as error:
        return False, error.read().decode(errors="replace")
    except (OSError, ValueError) as error:
        return False, f"cannot reach {url}: {error}"


def main(argv: Sequence[str] | None = None) -> int:
    """The HEALTHCHECK: exit 0 when the bot says it is ready, 1 otherwise."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.health", description="Ask the running bot whether it is ready."
    )
    parser.add_argument("--url", help="the /healthz URL (default: from HEALTH_HOST, HEALTH_PORT)")
    parser.add_argument("--timeout", type=float, default=3.0, help="seconds to wait (3)")
    args = parser.parse_args(argv)
    url = args.url
    if url is None:
        from bot.settings import read_dotenv  # the bot reads .env; so does its probe

        env = {**read_dotenv(Path(".env")), **os.environ}
        try:
            address = health_address(env)
        except ValueError as error:
            print(f"kamen health: {error}")
            return 1
        if address is None:
            print("kamen health: the health endpoint is turned off (HEALTH_PORT=off)")
            return 1
        url = probe_url(*address)
    ok, text = probe(url, args.timeout)
    print(text.strip())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
