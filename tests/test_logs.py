"""The bot's logs: one line per event, text or JSON, the level obeyed, the token never written."""

from __future__ import annotations

import io
import json
import logging
import sys
import threading
import warnings
from collections.abc import Iterator

import pytest

from runtime.logs import REDACTED, Redactor, configure_logging

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"
# Shaped like a token but not the configured one: a second bot's, pasted into a message.
OTHER = "OTg3NjU0MzIxMDk4NzY1NDMy.Xy-_zz.ZYXWVUTSRQPONMLKJIHGFEDCBA_-9876543210"


@pytest.fixture
def out() -> Iterator[io.StringIO]:
    """A stream the logs go to; the logging machinery is put back afterwards."""
    root, quiet = logging.getLogger(), logging.getLogger("aiosqlite")
    level, quiet_level, handlers = root.level, quiet.level, list(root.handlers)
    hooks = sys.excepthook, threading.excepthook
    stream = io.StringIO()
    yield stream
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)
    quiet.setLevel(quiet_level)
    sys.excepthook, threading.excepthook = hooks
    logging.captureWarnings(False)


def lines(stream: io.StringIO) -> list[str]:
    return stream.getvalue().splitlines()


def fail_with(text: str) -> None:
    raise RuntimeError(text)


def test_text_lines_carry_time_level_logger_and_message(out: io.StringIO) -> None:
    configure_logging("INFO", "text", stream=out)
    logging.getLogger("bot.client").info("ready as %s", "Kamen#0001")
    [line] = lines(out)
    time, level, rest = line.split(maxsplit=2)
    assert time.endswith("Z") and "T" in time
    assert level == "INFO"
    assert rest == "bot.client: ready as Kamen#0001"


def test_a_traceback_stays_on_its_records_line(out: io.StringIO) -> None:
    configure_logging("INFO", "text", stream=out)
    try:
        fail_with("first line\nsecond line")
    except RuntimeError:
        logging.getLogger("bot").exception("the move failed")
    logging.getLogger("bot").info("next event")
    assert len(lines(out)) == 2
    first = lines(out)[0]
    assert "the move failed\\nTraceback (most recent call last):" in first
    assert "RuntimeError: first line\\nsecond line" in first


def test_json_lines_parse_and_carry_the_fields(out: io.StringIO) -> None:
    configure_logging("DEBUG", "json", stream=out)
    log = logging.getLogger("bot.actions")
    log.debug("move %s played", "a1-b2", extra={"game_id": 42})
    try:
        fail_with("boom")
    except RuntimeError:
        log.error("failed", exc_info=True)
    first, second = (json.loads(line) for line in lines(out))
    assert first["level"] == "DEBUG" and first["logger"] == "bot.actions"
    assert first["message"] == "move a1-b2 played" and first["game_id"] == 42
    assert first["time"].endswith("Z")
    assert second["level"] == "ERROR" and "RuntimeError: boom" in second["exc"]


def test_the_level_is_obeyed(out: io.StringIO) -> None:
    configure_logging("warning", "text", stream=out)
    logging.getLogger("bot").info("not shown")
    logging.getLogger("discord.gateway").info("not shown either")
    logging.getLogger("bot").warning("shown")
    assert [line.split(": ", 1)[1] for line in lines(out)] == ["shown"]


def test_configuring_again_replaces_the_handler(out: io.StringIO) -> None:
    configure_logging("INFO", "text", stream=out)
    configure_logging("INFO", "json", stream=out)
    logging.getLogger("bot").info("once")
    [line] = lines(out)
    assert json.loads(line)["message"] == "once"


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="text, json"):
        configure_logging("INFO", "xml")


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_the_token_is_never_written(out: io.StringIO, fmt: str) -> None:
    configure_logging("DEBUG", fmt, secrets=[TOKEN], stream=out)
    log = logging.getLogger("bot")
    log.info("token " + TOKEN)  # in the message itself
    log.info("token %s", TOKEN)  # as an argument
    log.info("header %r", {"Authorization": f"Bot {TOKEN}"})  # inside a repr
    log.info("extra", extra={"token": TOKEN})  # as an extra field
    logging.getLogger("discord.http").debug("POST with %s", TOKEN)  # discord.py's loggers
    logging.getLogger("discord.gateway").warning("identify %s", OTHER)  # another token's shape
    try:
        fail_with(f"refused {TOKEN}")  # in an exception's text, within a traceback
    except RuntimeError:
        log.exception("login failed")
    log.info("stack", stack_info=True)
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.warn(f"careful with {TOKEN}", UserWarning, stacklevel=1)  # through `warnings`
    try:
        fail_with(f"crash {TOKEN}")
    except RuntimeError:
        sys.excepthook(*sys.exc_info())  # an uncaught exception
    thread = threading.Thread(target=fail_with, args=(f"thread {TOKEN}",), name="worker")
    thread.start()
    thread.join()

    text = out.getvalue()
    assert TOKEN not in text and OTHER not in text
    for part in TOKEN.split("."):  # no fragment leaks either
        assert part not in text
    assert text.count(REDACTED) >= 10
    assert "uncaught exception in thread worker" in text
    assert len(lines(out)) == 11


def test_the_redactor_leaves_ordinary_text_alone() -> None:
    redact = Redactor([TOKEN])
    ordinary = (
        "discord.gateway.DiscordWebSocket connected to wss://gateway.discord.gg/?v=10 "
        "games/ai/oska_table.bin 2026-05-01T12:00:00.000Z a1-b2 c3xe5xc7 1234567890123456789"
    )
    assert redact(ordinary) == ordinary
    assert redact(f"x{TOKEN}y") == f"x{REDACTED}y"


# An interaction's token (valid 15 minutes: it answers, edits and follows up as the bot).
INTERACTION_TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OlJhbmRvbVN0dWZmSGVyZQ"


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_interaction_tokens_are_never_written(out: io.StringIO, fmt: str) -> None:
    configure_logging("DEBUG", fmt, stream=out)
    http = logging.getLogger("discord.http")
    base = "https://discord.com/api/v10"
    http.debug("POST %s/interactions/1234/%s/callback with {} has returned 204",
               base, INTERACTION_TOKEN)  # fmt: skip
    http.debug("PATCH %s/webhooks/987/%s/messages/@original has returned 200",
               base, INTERACTION_TOKEN)  # fmt: skip
    event = {"t": "INTERACTION_CREATE", "d": {"id": "1234", "token": INTERACTION_TOKEN}}
    logging.getLogger("discord.gateway").debug("WebSocket Event: %s", event)
    logging.getLogger("discord.gateway").debug("raw %s", json.dumps(event))
    text = out.getvalue()
    assert INTERACTION_TOKEN not in text and INTERACTION_TOKEN[:20] not in text
    assert "/interactions/1234/[REDACTED]/callback" in text
    assert "/webhooks/987/[REDACTED]/messages/@original" in text
    assert len(lines(out)) == 4
