"""The bot's logs: one line per event on stderr, as text or JSON lines, never a token.

`configure_logging` installs one handler on the root logger, so discord.py's,
aiohttp's and asyncio's records come out the same way as Kamen's. Each record
is one line: a traceback is folded into its record's line (escaped newlines
in text, a field in JSON), so that `docker logs` and a log shipper see one
event per line. Every line is scrubbed of the Discord token just before it
is written: the configured token wherever it appears, and anything else shaped
like a bot token (three base64url parts), whether it came in a message, an
argument, an exception's text or a traceback. So are interaction tokens
(each answers, edits and follows up as the bot for 15 minutes): discord.py
writes them at DEBUG in the routes it calls (`/interactions/<id>/<token>/`,
`/webhooks/<app>/<token>/`) and in the events it receives (`"token": ...`).
Uncaught exceptions, in the main
thread or another one, go through the same handler instead of straight to
stderr, and so do `warnings`.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import threading
from collections.abc import Iterable
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, TextIO

FORMATS = ("text", "json")
REDACTED = "[REDACTED]"
# A bot token: the bot's id, a timestamp and an HMAC, base64url, joined by dots.
TOKEN_SHAPE = re.compile(
    r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{17,}\.[A-Za-z0-9_-]{4,10}\.[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])"
)
# An interaction's token inside a route, and a token as a field of an event (repr or JSON).
TOKEN_IN_ROUTE = re.compile(r"(/(?:interactions|webhooks)/[0-9]+/)[A-Za-z0-9_.\-]+")
TOKEN_FIELD = re.compile(r"""((?:'token'|"token"|\\"token\\")\s*:\s*\\?['"])[^'"\\]+""")
# The attributes every LogRecord has; anything else was passed with `extra=`.
_STANDARD = frozenset(
    vars(logging.LogRecord("", 0, "", 0, "", None, None)).keys() | {"message", "asctime"}
)


class Redactor:
    """Removes the secrets it was given, and anything shaped like a bot token, from text."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        # Longest first, so that a secret containing another one goes whole.
        self.secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        text = TOKEN_IN_ROUTE.sub(rf"\1{REDACTED}", text)
        text = TOKEN_FIELD.sub(rf"\1{REDACTED}", text)
        return TOKEN_SHAPE.sub(REDACTED, text)


class _Formatter(logging.Formatter):
    """The common part: the time in UTC, the redaction of the finished line."""

    def __init__(self, redact: Redactor) -> None:
        super().__init__()
        self.redact = redact

    def format(self, record: logging.LogRecord) -> str:
        return self.redact(self.line(record))

    def line(self, record: logging.LogRecord) -> str:
        raise NotImplementedError

    @staticmethod
    def time(record: logging.LogRecord) -> str:
        moment = datetime.fromtimestamp(record.created, UTC)
        return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")

    def problem(self, record: logging.LogRecord) -> str:
        """The traceback and stack of a record, or ''."""
        parts = []
        if record.exc_info:
            parts.append(self.formatException(record.exc_info))
        elif record.exc_text:
            parts.append(record.exc_text)
        if record.stack_info:
            parts.append(self.formatStack(record.stack_info))
        return "\n".join(parts)


class TextFormatter(_Formatter):
    """`2026-05-01T12:00:00.000Z INFO    bot.client: ready as Kamen#0001`, newlines as `\\n`."""

    def line(self, record: logging.LogRecord) -> str:
        text = f"{self.time(record)} {record.levelname:<7} {record.name}: {record.getMessage()}"
        extra = _extra(record)
        if extra:
            text += " " + " ".join(f"{key}={value!r}" for key, value in extra.items())
        problem = self.problem(record)
        if problem:
            text += "\n" + problem
        return text.replace("\\", "\\\\").replace("\r", "\\r").replace("\n", "\\n")


class JsonFormatter(_Formatter):
    """One JSON object a line: time, level, logger, message, `exc` if any, and the extras."""

    def line(self, record: logging.LogRecord) -> str:
        event: dict[str, Any] = {
            "time": self.time(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        problem = self.problem(record)
        if problem:
            event["exc"] = problem
        for key, value in _extra(record).items():
            event.setdefault(key, value)
        return json.dumps(event, default=str, ensure_ascii=False)


def _extra(record: logging.LogRecord) -> dict[str, Any]:
    return {
        key: value
        for key, value in vars(record).items()
        if key not in _STANDARD and not key.startswith("_")
    }


def configure_logging(
    level: str | int = "INFO",
    fmt: str = "text",
    *,
    secrets: Iterable[str] = (),
    stream: TextIO | None = None,
) -> logging.Handler:
    """Send every log record, at `level` and above, to `stream` (stderr) as one line each.

    `secrets` are strings never to be written (the token); anything shaped
    like a bot token is removed as well. Calling it again replaces the handler
    it installed before. Returns the handler.
    """
    if fmt not in FORMATS:
        raise ValueError(f"log format {fmt!r}: write one of {', '.join(FORMATS)}")
    redact = Redactor(secrets)
    formatter: logging.Formatter = (JsonFormatter if fmt == "json" else TextFormatter)(redact)
    handler = logging.StreamHandler(sys.stderr if stream is None else stream)
    handler.setFormatter(formatter)
    handler.set_name("kamen")
    root = logging.getLogger()
    for old in list(root.handlers):
        if old.get_name() == "kamen":
            root.removeHandler(old)
            old.close()
    root.addHandler(handler)
    root.setLevel(level.upper() if isinstance(level, str) else level)
    # aiosqlite writes two DEBUG lines for every statement: noise even when debugging the bot.
    logging.getLogger("aiosqlite").setLevel(max(root.level, logging.INFO))
    logging.captureWarnings(True)
    _route_uncaught_exceptions()
    return handler


def _route_uncaught_exceptions() -> None:
    """Uncaught exceptions are logged (so redacted and on one line), not printed raw."""
    crash = logging.getLogger("kamen.crash")

    def main_hook(
        kind: type[BaseException], error: BaseException, trace: TracebackType | None
    ) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, error, trace)
            return
        crash.critical("uncaught exception", exc_info=(kind, error, trace))

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_type is SystemExit or args.exc_value is None:
            return
        name = args.thread.name if args.thread is not None else "?"
        crash.critical(
            "uncaught exception in thread %s",
            name,
            exc_info=(args.exc_type, args.exc_value, args.exc_traceback),
        )

    sys.excepthook = main_hook
    threading.excepthook = thread_hook
