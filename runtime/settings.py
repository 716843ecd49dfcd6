"""The bot's configuration: environment variables (and a `.env` file), read once, frozen.

Everything the bot can be told lives here, with its default, so that the
rest of the bot receives one `Settings` value and never reads the
environment itself. A missing or malformed `DISCORD_TOKEN` is a
`SettingsError` whose message says how to get one; the token never appears
in a message, a log line or the settings' repr.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from matches import Clock, system_clock
from matches.runner import WOKEN_AFTER
from runtime.environment import health_address, read_dotenv
from runtime.logs import FORMATS
from store import database_url
from words.catalogue import LANGUAGES

TOKEN_HELP = (
    "create an application at https://discord.com/developers/applications, open its Bot page, "
    "press Reset Token, and put the token in DISCORD_TOKEN (in the environment or in a .env file)"
)
# Three base64url parts: the bot's id, a timestamp, an HMAC. Checked for shape only.
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{17,}\.[A-Za-z0-9_-]{4,10}\.[A-Za-z0-9_-]{20,}$")
_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")
_LOCALES = tuple(sorted(LANGUAGES))  # every language with a catalogue (words/locales)


class SettingsError(Exception):
    """A setting that cannot be used; the message says what to write instead."""


@dataclass(frozen=True, slots=True)
class Settings:
    """What the bot was told to do. Build it with `Settings.from_env()`."""

    token: str = field(repr=False)
    database_url: str
    dev_guild_id: int | None = None
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    log_level: str = "INFO"
    locale: str = "en"
    api_base: str | None = None
    gateway_url: str | None = None
    challenge_ttl: float = 24 * 3600.0
    sweep_interval: float = 5.0
    heartbeat_interval: float = 10.0  # how often Kamen writes that it is alive (clock credit)
    repair_interval: float = 30.0  # how often boards that lag behind their game are repaired
    repair_soon: float = WOKEN_AFTER  # the pause before a repair Discord's failure asked for
    retry_first: float = 1.0  # seconds before a ping's or a strip's second try (3 times it: third)
    identify_interval: float = 5.0  # Discord's: one gateway login per bucket per 5 s
    ai_workers: int = 1
    ai_ponder: float | None = None  # seconds Kamen may ponder after its move; None: its level's
    move_menu_max: int = 25
    clock_offset_file: Path | None = None
    log_format: str = "text"
    health: tuple[str, int] | None = None  # where /healthz and /metrics are served; None: off

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, *, dotenv: Path | None = Path(".env")
    ) -> Settings:
        """Settings from `environ` (the process's by default), over those of a `.env` file."""
        env = dict(read_dotenv(dotenv)) if dotenv is not None else {}
        env.update(os.environ if environ is None else environ)
        return cls(
            token=_token(env.get("DISCORD_TOKEN", "")),
            database_url=database_url(env),
            dev_guild_id=_integer(env, "DEV_GUILD_ID", low=1),
            shard_count=_integer(env, "SHARD_COUNT", low=1),
            shard_ids=_shard_ids(env),
            log_level=_choice(env, "LOG_LEVEL", _LEVELS, "INFO", upper=True),
            locale=_choice(env, "KAMEN_LOCALE", _LOCALES, "en"),
            api_base=_text(env, "DISCORD_API_BASE"),
            gateway_url=_text(env, "DISCORD_GATEWAY_URL"),
            challenge_ttl=_seconds(env, "KAMEN_CHALLENGE_TTL", 24 * 3600.0),
            sweep_interval=_seconds(env, "KAMEN_SWEEP_INTERVAL", 5.0),
            heartbeat_interval=_seconds(env, "KAMEN_HEARTBEAT_INTERVAL", 10.0),
            repair_interval=_seconds(env, "KAMEN_REPAIR_INTERVAL", 30.0),
            repair_soon=_seconds(env, "KAMEN_REPAIR_SOON", WOKEN_AFTER),
            retry_first=_seconds(env, "KAMEN_RETRY_FIRST", 1.0),
            identify_interval=_seconds(env, "KAMEN_IDENTIFY_INTERVAL", 5.0),
            ai_workers=_integer(env, "KAMEN_AI_WORKERS", low=1) or 1,
            ai_ponder=_ponder(env),
            move_menu_max=min(_integer(env, "KAMEN_MOVE_MENU_MAX", low=2) or 25, 25),
            clock_offset_file=_path(env, "KAMEN_CLOCK_OFFSET_FILE"),
            log_format=_choice(env, "LOG_FORMAT", FORMATS, "text"),
            health=_health(env),
        )

    def clock(self) -> Clock:
        """The service's clock: the system's, shifted by the offset file's seconds if there is
        one (end-to-end tests move the bot's time forward with it, without waiting)."""
        path = self.clock_offset_file
        if path is None:
            return system_clock

        def shifted() -> datetime:
            try:
                offset = float(path.read_text() or 0)
            except (OSError, ValueError):
                offset = 0.0
            return system_clock() + timedelta(seconds=offset)

        return shifted


def _token(raw: str) -> str:
    token = raw.strip().removeprefix("Bot ").strip()
    if not token:
        raise SettingsError(f"DISCORD_TOKEN is not set: {TOKEN_HELP}.")
    if not _TOKEN.match(token):
        raise SettingsError(
            f"DISCORD_TOKEN is not a bot token (three parts separated by dots, {len(token)}"
            f" characters given): {TOKEN_HELP}."
        )
    return token


def _text(env: Mapping[str, str], name: str) -> str | None:
    return env.get(name, "").strip() or None


def _path(env: Mapping[str, str], name: str) -> Path | None:
    raw = env.get(name, "").strip()
    return Path(raw) if raw else None


def _health(env: Mapping[str, str]) -> tuple[str, int] | None:
    try:
        return health_address(env)
    except ValueError as error:
        raise SettingsError(str(error)) from None


def _integer(env: Mapping[str, str], name: str, *, low: int) -> int | None:
    raw = env.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or int(raw) < low:
        raise SettingsError(f"{name}={raw!r}: write a whole number, at least {low}.")
    return int(raw)


def _seconds(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise SettingsError(f"{name}={raw!r}: write a number of seconds greater than 0.")
    return value


def _ponder(env: Mapping[str, str]) -> float | None:
    """`KAMEN_AI_PONDER`: seconds at most of pondering on the player's time, 0 for none;
    unset, each level's own (five times its budget)."""
    raw = env.get("KAMEN_AI_PONDER", "").strip()
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise SettingsError(f"KAMEN_AI_PONDER={raw!r}: write a number of seconds, 0 for none.")
    return value


def _choice(
    env: Mapping[str, str],
    name: str,
    allowed: tuple[str, ...],
    default: str,
    *,
    upper: bool = False,
) -> str:
    raw = env.get(name, "").strip()
    value = raw.upper() if upper else raw.lower()
    if not value:
        return default
    if value not in allowed:
        raise SettingsError(f"{name}={raw!r}: write one of {', '.join(allowed)}.")
    return value


def _shard_ids(env: Mapping[str, str]) -> tuple[int, ...] | None:
    raw = env.get("SHARD_IDS", "").strip()
    if not raw:
        return None
    parts = [part.strip() for part in raw.split(",")]
    if not all(part.isdigit() for part in parts):
        raise SettingsError(
            f"SHARD_IDS={raw!r}: write shard numbers separated by commas, e.g. 0,1."
        )
    ids = tuple(int(part) for part in parts)
    count = _integer(env, "SHARD_COUNT", low=1)
    if count is None:
        raise SettingsError("SHARD_IDS needs SHARD_COUNT, the number of shards in all.")
    if any(shard >= count for shard in ids):
        raise SettingsError(f"SHARD_IDS={raw!r}: each shard number is below SHARD_COUNT={count}.")
    return ids
