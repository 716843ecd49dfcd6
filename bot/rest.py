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
"""

from __future__ import annotations

import contextvars
import functools
from types import SimpleNamespace
from typing import Any

import aiohttp
from discord.http import HTTPClient, Route

from runtime.metrics import Metrics

_ROUTE: contextvars.ContextVar[str] = contextvars.ContextVar("kamen_route", default="webhook")


def trace(metrics: Metrics) -> aiohttp.TraceConfig:
    """The aiohttp trace that counts each answer into `metrics` by route."""

    async def answered(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        metrics.rest_answer(_ROUTE.get(), params.response.status)

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
