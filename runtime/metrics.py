"""What the bot counts as it runs, and the Prometheus text of it (`/metrics`).

The bot owns one `Metrics` and counts into it as things happen (moves played,
errors by kind, how long interactions took); `render_metrics` writes it out in
Prometheus' text format with the health checks' outcomes as gauges.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata

# Seconds; Discord voids an interaction not answered within 3 s, hence the buckets near it.
BUCKETS = (0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


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


# ------------------------------------------------------------------ the Prometheus text


def render_metrics(metrics: Metrics, checks: Mapping[str, str], games_active: int | None) -> str:
    """The metrics in Prometheus' text exposition format (version 0.0.4).

    `checks` are the health checks' outcomes by name ("ok" when passing).
    """
    out: list[str] = []

    def family(name: str, kind: str, text: str) -> None:
        out.append(f"# HELP {name} {text}")
        out.append(f"# TYPE {name} {kind}")

    family("kamen_info", "gauge", "The running version of Kamen.")
    out.append(f"kamen_info{_labels(version=version())} 1")
    family("kamen_start_time_seconds", "gauge", "When the bot started, in Unix time.")
    out.append(f"kamen_start_time_seconds {_number(metrics.started)}")
    for name, text in (
        ("gateway", "1 when connected to the Discord gateway."),
        ("store", "1 when the database answers."),
    ):
        metric = "kamen_gateway_connected" if name == "gateway" else "kamen_store_ok"
        family(metric, "gauge", text)
        out.append(f"{metric} {int(checks.get(name) == 'ok')}")
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


def version() -> str:
    try:
        return metadata.version("kamen")
    except metadata.PackageNotFoundError:
        return "unknown"
