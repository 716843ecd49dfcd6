"""What the bot counts as it runs, and the Prometheus text of it (`/metrics`).

The bot owns one `Metrics` and counts into it as things happen (moves played,
errors by kind, how long interactions, store calls and the AI queue took,
Discord's REST answers, how late the sweeper acted); `render_metrics` writes it
out with the health checks' outcomes and what is read at each scrape (gateway
latency, leases held, the AI queue's depth). prometheus_client keeps the
numbers and writes the text; each `Metrics` has a registry of its own (not the
library's global one), so several in one process never clash. Every sample
carries `process` (host:pid), and those about a shard carry `shard` too: with
several Kamen processes, one dashboard tells them apart.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import os
import socket
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from importlib import metadata
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

# Seconds; Discord voids an interaction not answered within 3 s, hence the buckets near it.
BUCKETS = (0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
# A store call is a millisecond or two; a slow disk or a held lock shows in the upper ones.
STORE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
# A deadline is acted on within a sweep interval (seconds) of it, unless the sweeper lags.
LAG_BUCKETS = (0.5, 1.0, 2.0, 5.0, 10.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0)
CONTENT_TYPE = CONTENT_TYPE_LATEST


def process_name() -> str:
    """The `process` label: where it runs and which process it is there."""
    return f"{socket.gethostname()}:{os.getpid()}"


class Metrics:
    """What the bot counts as it runs. One event loop writes them."""

    def __init__(self, process: str | None = None) -> None:
        self.process = process or process_name()
        self.started = time.time()
        self.registry = CollectorRegistry()
        self._scrapes: list[Callable[[], None]] = []
        at = self.registry
        p = "process"

        def gauge(name: str, text: str, *labels: str) -> Gauge:
            return Gauge(name, text, (p, *labels), registry=at)

        def counter(name: str, text: str, *labels: str) -> Counter:
            return Counter(name, text, (p, *labels), registry=at)

        def histogram(
            name: str, text: str, *labels: str, buckets: Sequence[float] = BUCKETS
        ) -> Histogram:
            return Histogram(name, text, (p, *labels), buckets=buckets, registry=at)

        self.info = gauge("kamen_info", "The running version of Kamen.", "version")
        self.start_time = gauge("kamen_start_time_seconds", "When the bot started, in Unix time.")
        self.gateway = gauge("kamen_gateway_connected", "1 when connected to the Discord gateway.")
        self.store_ok = gauge("kamen_store_ok", "1 when the database answers.")
        self.games_active = gauge("kamen_games_active", "Games being played.")
        self.moves = counter("kamen_moves_total", "Moves played, by game.", "game")
        self.errors = counter("kamen_errors_total", "Errors, by kind.", "kind")
        self.interactions = histogram(
            "kamen_interaction_seconds",
            "Time from an interaction's arrival to the end of its handling, by kind.",
            "kind",
        )
        self.latency = gauge(
            "kamen_gateway_latency_seconds",
            "The gateway's heartbeat round trip, by shard.",
            "shard",
        )
        self.rate_limited = counter(
            "kamen_rest_rate_limited_total",
            "Discord's REST answers 429 (rate limited, waited out or not), by route.",
            "route",
        )
        self.global_requests = counter(
            "kamen_global_requests_total",
            "REST requests on Discord's global limit (50 a second for the whole bot: all but"
            " interaction responses and their webhook's), by the work that made them:"
            " interaction, kamen (its moves), sweeper, repair, other.",
            "kind",
        )
        self.rest_errors = counter(
            "kamen_rest_errors_total",
            "Discord's REST answers 4xx and 5xx other than 429, by route and status.",
            "route",
            "status",
        )
        self.store_calls = histogram(
            "kamen_store_seconds",
            "Time of a call of the store (one or a few statements), by operation.",
            "operation",
            buckets=STORE_BUCKETS,
        )
        self.ai_depth = gauge(
            "kamen_ai_queue_depth", "Jobs waiting for an AI worker, by lane.", "lane"
        )
        self.ai_wait = histogram(
            "kamen_ai_queue_wait_seconds",
            "Time a job waited for an AI worker, by lane.",
            "lane",
        )
        self.sweeper_lag = histogram(
            "kamen_sweeper_lag_seconds",
            "How late the sweeper acted on a deadline (a reminder, an expiry, a loss on time).",
            "shard",
            "kind",
            buckets=LAG_BUCKETS,
        )
        self.pass_failures = counter(
            "kamen_pass_failures_total", "Failed items of a background pass, by job.", "job"
        )
        self.leases = gauge(
            "kamen_leases_held",
            "1 for each of this process's shards whose lease it holds.",
            "shard",
        )
        self.info.labels(self.process, version()).set(1)
        self.start_time.labels(self.process).set(self.started)

    # ------------------------------------------------------------ counted as it happens

    def move_played(self, game: str) -> None:
        self.moves.labels(self.process, game).inc()

    def error(self, kind: str) -> None:
        self.errors.labels(self.process, kind).inc()

    def pass_failed(self, job: str) -> None:
        """An item of the background pass `job` failed (also an error of kind `pass:job`)."""
        self.error(f"pass:{job}")
        self.pass_failures.labels(self.process, job).inc()

    def interaction(self, kind: str, seconds: float) -> None:
        """An interaction of `kind` (command, component, autocomplete, modal) took `seconds`."""
        self.interactions.labels(self.process, kind).observe(seconds)

    @contextlib.contextmanager
    def timing(self, kind: str) -> Iterator[None]:
        """Observe how long the `with` block takes as an interaction of `kind`."""
        began = time.perf_counter()
        try:
            yield
        finally:
            self.interaction(kind, time.perf_counter() - began)

    def rest_answer(self, route: str, status: int) -> None:
        """Discord answered a REST request on `route` (its method and path template)."""
        if status == 429:
            self.rate_limited.labels(self.process, route).inc()
        elif status >= 400:
            self.rest_errors.labels(self.process, route, str(status)).inc()

    def global_request(self, kind: str) -> None:
        """A REST request on Discord's global limit, made for work of `kind`."""
        self.global_requests.labels(self.process, kind).inc()

    def ai_waited(self, lane: str, seconds: float) -> None:
        self.ai_wait.labels(self.process, lane).observe(seconds)

    def swept(self, shard: int, kind: str, late: float) -> None:
        self.sweeper_lag.labels(self.process, str(shard), kind).observe(max(0.0, late))

    def time_store(self, store: Any) -> None:
        """Time every public coroutine method of `store` (patched on the instance, so the
        store stays what it is) into `kamen_store_seconds{operation}`."""
        for name in dir(type(store)):
            method = getattr(store, name, None)
            if name.startswith("_") or not inspect.iscoroutinefunction(method):
                continue
            setattr(store, name, self._timed(name, method))

    def _timed(
        self, name: str, method: Callable[..., Awaitable[Any]]
    ) -> Callable[..., Awaitable[Any]]:
        observed = self.store_calls.labels(self.process, name)

        @functools.wraps(method)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return await method(*args, **kwargs)
            finally:
                observed.observe(time.perf_counter() - began)

        return timed

    # ------------------------------------------------------------ read at each scrape

    def on_scrape(self, read: Callable[[], None]) -> None:
        """`read` sets gauges from the running bot (latency, leases, queue) before each page."""
        self._scrapes.append(read)

    def read_now(self) -> None:
        """Run the `on_scrape` readings; one that fails is counted, never the whole page."""
        for read in self._scrapes:
            try:
                read()
            except Exception:
                self.error("metrics")

    def set_latency(self, shard: int, seconds: float) -> None:
        if seconds == seconds and seconds != float("inf"):  # not NaN nor inf: connected
            self.latency.labels(self.process, str(shard)).set(seconds)

    def set_lease(self, shard: int, held: bool) -> None:
        self.leases.labels(self.process, str(shard)).set(int(held))

    def set_ai_depth(self, lane: str, waiting: int) -> None:
        self.ai_depth.labels(self.process, lane).set(waiting)


def render_metrics(metrics: Metrics, checks: Mapping[str, str], games_active: int | None) -> str:
    """The metrics in Prometheus' text exposition format (version 0.0.4).

    `checks` are the health checks' outcomes by name ("ok" when passing).
    """
    metrics.gateway.labels(metrics.process).set(int(checks.get("gateway") == "ok"))
    metrics.store_ok.labels(metrics.process).set(int(checks.get("store") == "ok"))
    if games_active is not None:
        metrics.games_active.labels(metrics.process).set(games_active)
    metrics.read_now()
    return generate_latest(metrics.registry).decode()


def version() -> str:
    try:
        return metadata.version("kamen")
    except metadata.PackageNotFoundError:
        return "unknown"
