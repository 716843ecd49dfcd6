"""`python -m bot`: read the settings, open the store, start the client, log in.

A missing or malformed token stops the bot at once with one line on stderr
saying how to get one, and exit status 2; so does a token Discord refuses.
The token itself is never printed or logged. The settings are checked
before discord.py is even imported, so a mistake is reported at once.
While it runs it serves `/healthz` and `/metrics` (`runtime.health`) and logs
one line per event (`runtime.logs`). This is the one module of `bot/` that
knows the store: it opens it and hands it to the client.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys

from runtime.logs import configure_logging
from runtime.settings import TOKEN_HELP, Settings, SettingsError

log = logging.getLogger("bot")


async def run(settings: Settings) -> None:
    """Run the bot until it is stopped (SIGTERM, Ctrl-C)."""
    from bot.client import build_client, point_discord_at
    from runtime.health import Health, HealthServer, games_active, gateway_check, store_check
    from runtime.metrics import Metrics
    from runtime.opponent import PooledPicker
    from store import open_store

    point_discord_at(settings)
    store = await open_store(settings.database_url)
    picker = PooledPicker(settings.ai_workers)
    metrics = Metrics()
    client = build_client(settings, store, picker, settings.clock(), metrics=metrics)
    loop = asyncio.get_running_loop()
    for stop in (signal.SIGTERM, signal.SIGINT):  # `docker stop`, Ctrl-C: close cleanly
        loop.add_signal_handler(stop, lambda: asyncio.ensure_future(client.close()))
    health = Health(
        [gateway_check(client), store_check(store)],
        metrics,
        games_active=games_active(client, store),
    )
    try:
        async with contextlib.AsyncExitStack() as stack:
            if settings.health is not None:
                host, port = settings.health
                try:
                    await stack.enter_async_context(HealthServer(health, host, port))
                except OSError as error:  # the games matter more: play on, unhealthy
                    metrics.error("health")
                    log.error(
                        "cannot serve /healthz on %s:%s (%s), so the health checks fail:"
                        " set HEALTH_PORT to a free port, or off",
                        host,
                        port,
                        error.strerror,
                    )
            async with client:
                await client.start(settings.token, reconnect=True)
    finally:
        picker.close()
        await store.close()


def missing_parts() -> str | None:
    """What a registered game lacks to be played here (a painter, a computer player), if any."""
    import render
    from games import registry
    from games.ai import check_games

    try:
        render.check_games(registry.GAMES)
        check_games(registry.GAMES)
    except LookupError as error:
        return str(error)
    return None


def main() -> int:
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(f"kamen: {error}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level, settings.log_format, secrets=[settings.token])
    missing = missing_parts()
    if missing:
        print(f"kamen: {missing}", file=sys.stderr)
        return 2
    import discord

    from matches import StoreError

    try:
        asyncio.run(run(settings))
    except discord.LoginFailure:
        print(
            f"kamen: Discord refused DISCORD_TOKEN (it may have been reset): {TOKEN_HELP}.",
            file=sys.stderr,
        )
        return 2
    except StoreError as error:
        print(f"kamen: the database cannot be used: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        log.info("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
