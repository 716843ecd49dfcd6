"""The bot's health: `/healthz` for Docker's HEALTHCHECK, `/metrics` for Prometheus.

A small aiohttp server (aiohttp comes with discord.py) on `HEALTH_HOST`:
`HEALTH_PORT` (127.0.0.1:8080 by default; `HEALTH_PORT=off` turns it off).
`/healthz` answers 200 and `{"status": "ok", ...}` when the bot is ready,
meaning connected to Discord's gateway *and* able to write to its database
(the heartbeat, within 2 s: a full disk or a held lock fails every move,
though reads still work) *and* doing its background work (its shards leased,
no pass failing for over a minute); otherwise 503 with the reason of each
failing check. `/metrics` is the
Prometheus text format (`runtime.metrics`): games active, moves played,
interaction latency, errors, and the two checks as gauges.

`Health` runs the checks (async callables, each with a timeout) when asked.
`python -m runtime.health` is the HEALTHCHECK's probe: it asks `/healthz` on the
configured port with the standard library alone (the slim image has no curl)
and exits 0 when the bot is ready, 1 otherwise, printing the answer.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from runtime.environment import DEFAULT_HOST, DEFAULT_PORT, health_address, read_dotenv
from runtime.metrics import CONTENT_TYPE, Metrics, render_metrics, version

if TYPE_CHECKING:  # imported when serving: the probe needs neither
    from aiohttp import web

    from matches import Store

CHECK_TIMEOUT = 2.0

Probe = Callable[[], Awaitable[bool]]


class Unready(Exception):
    """A probe's own reason for failing, shown as it is."""


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
        except Unready as error:
            return str(error)
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
        return render_metrics(self.metrics, readiness.checks, games)

    def app(self) -> web.Application:
        from aiohttp import web

        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        return app

    async def _healthz(self, request: web.Request) -> web.Response:
        from aiohttp import web

        readiness = await self.readiness()
        body = {**readiness.as_json(), "version": version()}
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


class _Connection(Protocol):
    def is_closed(self) -> bool: ...


class _Socket(Protocol):
    @property
    def open(self) -> bool: ...


class _Guild(Protocol):
    @property
    def id(self) -> int: ...


class GatewayClient(Protocol):
    """What the checks read of a discord.py client (plain or sharded): no Discord import here."""

    @property
    def ws(self) -> _Socket | None: ...

    @property
    def guilds(self) -> Iterable[_Guild]: ...

    def is_closed(self) -> bool: ...

    def is_ready(self) -> bool: ...


def gateway_check(client: GatewayClient) -> Check:
    """Ready, and every gateway connection of the client open (one, or one per shard)."""

    async def connected() -> bool:
        if client.is_closed() or not client.is_ready():
            return False
        shards: Any = getattr(client, "shards", None)
        if isinstance(shards, dict):  # AutoShardedClient
            connections: list[_Connection] = list(shards.values())
            return bool(connections) and not any(shard.is_closed() for shard in connections)
        ws = client.ws
        return ws is not None and ws.open

    return Check("gateway", connected, "not connected to the Discord gateway")


def store_check(
    beat: Callable[[], Awaitable[object]],
    *,
    started: Callable[[], bool] = lambda: True,
) -> Check:
    """The database takes a write: `beat`, the heartbeat (the renewal of this process's
    shard leases), which is also what records Kamen alive.

    A read alone would pass on a full disk or a read-only file, where every
    move fails; a write held up by the lock fails by the check's timeout. Until
    `started()` (the shards leased, and the time Kamen was away given back to
    their clocks, which reads their last beat) it does not beat: a health check
    polled at start-up must not hide the downtime.
    """

    async def writable() -> bool:
        if not started():
            raise Unready("starting: the clocks are not yet credited with the downtime")
        try:
            await beat()
        except Exception as error:
            raise Unready(f"the database cannot write: {error}") from error
        return True

    return Check("store", writable, "the database cannot write")


class Work(Protocol):
    """What the work check reads of the service's runner (`matches.runner.Runner`)."""

    def troubles(self) -> list[str]: ...


def work_check(work: Callable[[], Work | None]) -> Check:
    """The background work goes on: this process holds its shards' leases (not waiting
    for another process's to lapse, nor replaced), and no pass has been failing for long."""

    async def going() -> bool:
        runner = work()
        if runner is None:
            raise Unready("starting")
        troubles = runner.troubles()
        if troubles:
            raise Unready("; ".join(troubles))
        return True

    return Check("work", going, "the background work is stalled")


def games_active(client: GatewayClient, store: Store) -> Callable[[], Awaitable[int]]:
    """The number of games being played in the client's servers (asked at each scrape)."""

    async def count() -> int:
        counts = await store.active_counts()
        return sum(counts.get(guild.id, 0) for guild in client.guilds)

    return count


# ------------------------------------------------------------------ configuration and probe


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
        prog="python -m runtime.health", description="Ask the running bot whether it is ready."
    )
    parser.add_argument("--url", help="the /healthz URL (default: from HEALTH_HOST, HEALTH_PORT)")
    parser.add_argument("--timeout", type=float, default=3.0, help="seconds to wait (3)")
    args = parser.parse_args(argv)
    url = args.url
    if url is None:
        # the bot reads .env; so does its probe
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
