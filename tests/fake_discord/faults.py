"""Faults a test injects into chosen REST routes: errors, rate limits and slow answers.

Each fault is answered the way Discord answers it, so that discord.py reacts as it
would to the real thing: a 429 carries `Retry-After`, the `X-RateLimit-*` headers,
`Via` (without it discord.py takes a 429 for a Cloudflare ban and gives up) and the
JSON body with `retry_after`, so discord.py sleeps and retries; 500, 502, 504 are
retried by discord.py after 1 s, 3 s, ...; 403 and 404 carry Discord's error body.
"""

from __future__ import annotations

import json
import math
import re
import secrets
import time
from dataclasses import dataclass, field

from aiohttp import web

#: Discord's error bodies when the test names no code or message.
DEFAULT_ERRORS: dict[int, tuple[int, str]] = {
    400: (0, "400: Bad Request"),
    401: (0, "401: Unauthorized"),
    403: (50013, "Missing Permissions"),
    404: (0, "404: Not Found"),
    405: (0, "405: Method Not Allowed"),
    429: (0, "You are being rate limited."),
    500: (0, "500: Internal Server Error"),
    502: (0, "502: Bad Gateway"),
    503: (0, "503: Service Unavailable"),
    504: (0, "504: Gateway Timeout"),
}


@dataclass(eq=False)
class Fault:
    """One injected fault; `hits` counts the requests it answered."""

    method: str
    path_regex: str
    status: int | None
    times: int | None
    retry_after: float | None
    delay: float | None
    code: int | None = None
    message: str | None = None
    global_limit: bool = False
    carried_out: bool = False
    hits: int = 0
    #: "METHOD /concrete/path" of every request it answered.
    seen: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._regex = re.compile(self.path_regex)

    @property
    def spent(self) -> bool:
        return self.times is not None and self.hits >= self.times

    def matches(self, method: str, path: str, pattern: str) -> bool:
        if self.spent or self.method not in ("*", method):
            return False
        return bool(self._regex.search(path) or self._regex.search(pattern))

    @property
    def retryable(self) -> bool:
        """discord.py tries again after this answer (so the interaction is not refused yet)."""
        return self.status is not None and (self.status == 429 or self.status >= 500)

    def response(self) -> web.Response:
        assert self.status is not None
        status = self.status
        default_code, default_message = DEFAULT_ERRORS.get(status, (0, f"{status}: Error"))
        body: dict[str, object] = {
            "message": self.message if self.message is not None else default_message,
            "code": self.code if self.code is not None else default_code,
        }
        headers = {"Content-Type": "application/json"}
        if status == 429:
            wait = self.retry_after if self.retry_after is not None else 0.5
            body["retry_after"] = wait
            body["global"] = self.global_limit
            headers.update(
                {
                    # Cloudflare's header, always on Discord's answers; discord.py requires it.
                    "Via": "1.1 google",
                    "Retry-After": str(max(1, math.ceil(wait))),
                    "X-RateLimit-Limit": "5",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset": f"{time.time() + wait:.3f}",
                    "X-RateLimit-Reset-After": f"{wait:.3f}",
                    "X-RateLimit-Bucket": secrets.token_hex(16),
                    "X-RateLimit-Scope": "global" if self.global_limit else "user",
                }
            )
            if self.global_limit:
                headers["X-RateLimit-Global"] = "true"
        return web.Response(status=status, body=json.dumps(body).encode(), headers=headers)

    def __repr__(self) -> str:
        return (
            f"<Fault {self.method} {self.path_regex!r} -> {self.status} "
            f"delay={self.delay} hits={self.hits}/{self.times}>"
        )


class Faults:
    """The faults in force, first added first matched."""

    def __init__(self) -> None:
        self.active: list[Fault] = []

    def add(self, fault: Fault) -> Fault:
        if fault.status is None and not fault.delay:
            raise ValueError("a fault needs a status, a delay, or both")
        if fault.status is not None and not 400 <= fault.status <= 599:
            raise ValueError(f"status {fault.status} is not an error")
        if fault.times is not None and fault.times < 1:
            raise ValueError("times must be at least 1 (or None: until cleared)")
        self.active.append(fault)
        return fault

    def take(self, method: str, path: str, pattern: str) -> Fault | None:
        for fault in self.active:
            if fault.matches(method, path, pattern):
                fault.hits += 1
                fault.seen.append(f"{method} {path}")
                if fault.spent:
                    self.active.remove(fault)
                return fault
        return None

    def clear(self) -> None:
        self.active.clear()
