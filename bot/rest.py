"""Discord's REST answers counted by route: the 429s (even those discord.py waits out and
retries, which no caller sees) and the errors.

discord.py sends every request of its `HTTPClient` through `request(route, ...)`,
which retries a 429 or a 5xx by itself. An aiohttp trace (`http_trace`, a
client option) sees every answer, retries included; it knows only the URL, which
holds ids and, for interactions and webhooks, a token. So `name_routes` wraps
`request` to say which route is being asked, as its method and path template
(`POST /channels/{channel_id}/messages`: no id, no token), in a context variable
that the trace reads. Answers to interactions go through discord.py's webhook
adapter instead, with no route object: they are counted under `webhook`.

Every request through `HTTPClient.request` carries the bot's token, and Discord counts
it against the bot's global limit (50 a second for the whole bot, every process and
shard together); interaction callbacks and the interaction webhook's followups, edits
and deletes do not count. `trace` counts the former, each answer (a retry is one more),
by the work that made them (`work`: an interaction, Kamen's move, the sweeper, a board
repair), which a task passes on to the tasks it starts.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import aiohttp
from discord.http import HTTPClient, Route

from runtime.metrics import Metrics

_ROUTE: contextvars.ContextVar[str] = contextvars.ContextVar("kamen_route", default="webhook")
_WORK: contextvars.ContextVar[str] = contextvars.ContextVar("kamen_work", default="other")


@contextlib.contextmanager
def work(kind: str) -> Iterator[None]:
    """Count the requests on the global limit made inside the block (and by the tasks it
    starts) as `kind`'s."""
    token = _WORK.set(kind)
    try:
        yield
    finally:
        _WORK.reset(token)


def trace(metrics: Metrics) -> aiohttp.TraceConfig:
    """The aiohttp trace that counts each answer into `metrics` by route."""

    async def answered(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        route = _ROUTE.get()
        metrics.rest_answer(route, params.response.status)
        if route != "webhook":  # the bot's token: on the global limit, retries included
            metrics.global_request(_WORK.get())

    config = aiohttp.TraceConfig()
    config.on_request_end.append(answered)
    return config


def name_routes(http: HTTPClient) -> None:
    """Make each request of `http` say its route (for `trace`) while it runs."""
    request = http.request

    @functools.wraps(request)
    async def named(route: Route, **kwargs: Any) -> Any:
        token = _ROUTE.set(f"{route.method} {route.path}")
        try:
            return await request(route, **kwargs)
        finally:
            _ROUTE.reset(token)

    http.request = named  # type: ignore[method-assign]
