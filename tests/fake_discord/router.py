"""A small router for the REST API under `/api/v10`.

It parses JSON and multipart bodies the way Discord accepts them, checks the
bot token, answers with `Content-Type: application/json` exactly (discord.py
parses nothing else), turns `ApiError` into Discord's error JSON, and records
unknown routes as violations. Every request made with the bot's token is noted as
one on Discord's global limit; interaction callbacks and the interaction webhook's
routes (`auth=False`: the token is in the URL) are not.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web

from .errors import ApiError
from .faults import Fault

if TYPE_CHECKING:
    from .core import Core
    from .interactions import InteractionRecord


@dataclass
class Upload:
    """A file sent by the bot as `files[n]` in a multipart body."""

    filename: str
    data: bytes
    content_type: str | None = None


@dataclass
class Request:
    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    uploads: dict[int, Upload] = field(default_factory=dict)
    #: The fake's clock when the request arrived (before any injected delay).
    received_at: float = 0.0

    def int_param(self, name: str) -> int:
        try:
            return int(self.params[name])
        except ValueError:
            raise ApiError(
                404,
                0,
                "404: Not Found",
                violation=f"{name} {self.params[name]!r} is not a snowflake",
            ) from None

    def json_body(self) -> dict[str, Any]:
        if self.body is None:
            return {}
        if not isinstance(self.body, dict):
            raise ApiError(
                400,
                50109,
                "The request body contains invalid JSON.",
                violation="body is not a JSON object",
            )
        return self.body


@dataclass
class Response:
    status: int = 200
    body: Any = None


Handler = Callable[[Request], Awaitable[Response]]


@dataclass
class Route:
    method: str
    pattern: str
    regex: re.Pattern[str]
    handler: Handler
    auth: bool


def json_response(body: Any, status: int = 200) -> web.Response:
    if status == 204:
        return web.Response(status=204)
    return web.Response(
        status=status, body=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )


class Router:
    def __init__(self, core: Core) -> None:
        self.core = core
        self.routes: list[Route] = []

    def add(self, method: str, pattern: str, handler: Handler, *, auth: bool = True) -> None:
        regex = re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", pattern) + "$")
        self.routes.append(Route(method, pattern, regex, handler, auth))

    async def handle(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info.get("tail", "")
        method = request.method
        core = self.core
        if core.outage == "503":
            core.log_request(method, path, 503)
            return json_response({"message": "503: Service Unavailable", "code": 0}, 503)
        received_at = core.world.now()
        matches = [(r, m) for r in self.routes if (m := r.regex.match(path))]
        chosen = next(((r, m) for r, m in matches if r.method == method), None)
        if chosen is None:
            status = 405 if matches else 404
            message = "405: Method Not Allowed" if matches else "404: Not Found"
            core.violation(
                f"{method} {path}: no such route in Discord's API (or the fake lacks it)"
            )
            core.log_request(method, path, status)
            return json_response({"message": message, "code": 0}, status)
        route, match = chosen
        if route.auth:  # the bot's token: Discord's global limit counts it (see Core.limited)
            core.limited.append(f"{method} {route.pattern}")
        fault = core.faults.take(method, path, route.pattern)
        if fault is not None and not fault.carried_out:
            if fault.delay:
                record = self._interaction(match.groupdict())
                if record is not None and not record.acknowledged:
                    # Sent in time and held up by the fault: a lapse is not the bot's doing.
                    record.faults.append(f"an injected delay of {fault.delay} s on the callback")
                await asyncio.sleep(fault.delay)
            if fault.status is not None:
                return self._faulted(method, route.pattern, match.groupdict(), fault)
        answer = await self._answer(request, method, path, route, match, received_at)
        if fault is not None and fault.carried_out:
            if fault.delay:
                await asyncio.sleep(fault.delay)
            if fault.status is not None:
                return self._faulted(method, route.pattern, match.groupdict(), fault)
        return answer

    def _interaction(self, params: dict[str, str]) -> InteractionRecord | None:
        raw = params.get("interaction_id")
        return self.core.interactions.get(int(raw)) if raw and raw.isdigit() else None

    def _faulted(
        self, method: str, pattern: str, params: dict[str, str], fault: Fault
    ) -> web.Response:
        """The injected answer; an interaction it hits remembers it (see `check_deadline`)."""
        assert fault.status is not None
        record = self._interaction(params)
        if record is not None:
            what = f"injected {fault.status} on the callback"
            if fault.carried_out:
                # Answered in fact: the bot's retry then meets 40060, through no fault of its own.
                record.faults.append(what + ", though it was carried out")
            elif fault.retryable:
                record.faults.append(what)
            elif not record.acknowledged:
                record.rejections.append(what)
            self.core.pulse()
        self.core.log_request(method, pattern, fault.status)
        return fault.response()

    async def _answer(
        self,
        request: web.Request,
        method: str,
        path: str,
        route: Route,
        match: re.Match[str],
        received_at: float,
    ) -> web.Response:
        try:
            if route.auth:
                self._check_auth(request)
            try:
                body, uploads = await self._read_body(request)
            except ConnectionResetError:
                # The bot went away (killed) before its request was read: Discord never got it.
                self.core.log_request(method, route.pattern, 0)
                return json_response({"message": "connection lost", "code": 0}, 400)
            req = Request(
                method,
                path,
                match.groupdict(),
                dict(request.query),
                body,
                uploads,
                received_at=received_at,
            )
            result = await route.handler(req)
        except ApiError as error:
            if error.violation:
                self.core.violation(f"{method} {route.pattern}: {error.violation}")
            self.core.log_request(method, route.pattern, error.status)
            return json_response(error.body(), error.status)
        except (
            Exception
        ) as error:  # a bug of the fake: make it loud, not a 500 that discord.py retries
            self.core.violation(f"{method} {path}: fake-discord bug: {error!r}")
            self.core.log_request(method, route.pattern, 400)
            return json_response({"message": f"fake-discord bug: {error!r}", "code": 0}, 400)
        self.core.log_request(method, route.pattern, result.status)
        return json_response(result.body, result.status)

    def _check_auth(self, request: web.Request) -> None:
        header = request.headers.get("Authorization", "")
        if header != f"Bot {self.core.token}":
            raise ApiError(
                401,
                0,
                "401: Unauthorized",
                violation="missing or wrong `Authorization: Bot <token>` header",
            )

    async def _read_body(self, request: web.Request) -> tuple[Any, dict[int, Upload]]:
        if not request.body_exists:
            return None, {}
        ctype = request.content_type
        if ctype == "multipart/form-data":
            return await self._read_multipart(request)
        raw = await request.read()
        if not raw:
            return None, {}
        if ctype != "application/json":
            raise ApiError(
                400,
                50109,
                "The request body contains invalid JSON.",
                violation=f"body sent as {ctype!r}, not application/json",
            )
        try:
            return json.loads(raw), {}
        except ValueError:
            raise ApiError(
                400,
                50109,
                "The request body contains invalid JSON.",
                violation="body is not valid JSON",
            ) from None

    async def _read_multipart(self, request: web.Request) -> tuple[Any, dict[int, Upload]]:
        reader = await request.multipart()
        body: Any = None
        uploads: dict[int, Upload] = {}
        while True:
            part = await reader.next()
            if part is None:
                break
            if not isinstance(part, BodyPartReader):  # nested multipart: not Discord's format
                raise ApiError(400, 50035, "Invalid Form Body", violation="nested multipart body")
            name = part.name or ""
            data = await part.read(decode=False)
            if name == "payload_json":
                try:
                    body = json.loads(bytes(data))
                except ValueError:
                    raise ApiError(
                        400,
                        50109,
                        "The request body contains invalid JSON.",
                        violation="payload_json is not valid JSON",
                    ) from None
            elif (found := re.fullmatch(r"files\[(\d+)\]", name)) is not None:
                uploads[int(found.group(1))] = Upload(
                    filename=part.filename or f"file{found.group(1)}",
                    data=bytes(data),
                    content_type=part.headers.get("Content-Type"),
                )
            else:
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    violation=f"unexpected multipart field {name!r}",
                )
        return body, uploads
