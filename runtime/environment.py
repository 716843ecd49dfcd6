"""Reading the environment: a `.env` file's lines, and where `/healthz` is served.

Shared by the settings (`runtime.settings`, which the bot reads once) and by the
health probe (`python -m runtime.health`, which Docker runs every 30 s and which
should start fast): a leaf that imports nothing of the project.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8080


def read_dotenv(path: Path) -> dict[str, str]:
    """`KEY=value` lines of a `.env` file (comments, `export` and quotes allowed); {} if absent."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    found: dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        found[key.strip()] = value
    return found


def health_address(env: Mapping[str, str]) -> tuple[str, int] | None:
    """`(HEALTH_HOST, HEALTH_PORT)` from the environment, None when turned off.

    Raises ValueError with a message saying what to write instead.
    """
    host = env.get("HEALTH_HOST", "").strip() or DEFAULT_HOST
    raw = env.get("HEALTH_PORT", "").strip()
    if raw.lower() in ("0", "off"):
        return None
    if not raw:
        return host, DEFAULT_PORT
    if not raw.isdigit() or not 1 <= int(raw) <= 65535:
        raise ValueError(f"HEALTH_PORT={raw!r}: write a port number (1-65535), or off.")
    return host, int(raw)
