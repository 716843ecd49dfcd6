"""`python -m bot`: read the settings, open the store, start the client, log in.

A missing or malformed token stops the bot at once with one line on stderr
saying how to get one, and exit status 2; so does a token Discord refuses.
The token itself is never printed or logged. The settings are checked
before discord.py is even imported, so a mistake is reported at once. A
database it cannot write (the data directory's owner) is one line with the
fix, and exit status 2; Discord out of reach is one line per attempt, and
the attempts go on, further and further apart.
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
from typing import TYPE_CHECKING

from runtime.logs import configure_logging
from runtime.settings import TOKEN_HELP, Settings, SettingsError

if TYPE_CHECKING:
    from matches import Store
    from runtime.metrics import Metrics
    from runtime.opponent import PooledPicker

log = logging.getLogger("bot")


RETRY_FIRST = 1.0  # seconds before the first new attempt to reach Discord; doubled each time
RETRY_MOST = 60.0
DATA_HELP = (
    "the bot runs as user 10001 in its image: give it the directory, e.g."
    " chown 10001:10001 /data (or set DATABASE_URL to a path it may write)"
)


class DataUnwritable(Exception):
    """The database's directory or file cannot be written: the message says which."""


class StoreBusy(Exception):
    """Another process holds the SQLite file's write lock for longer than Kamen waits."""


async def run(settings: Settings) -> None:
    """Run the bot until it is stopped (SIGTERM, Ctrl-C).

    While Discord cannot be reached (no network yet, an outage), each attempt is one
    line in the log and the next follows after a pause that doubles, up to a minute.
    """
    import sqlite3

    from bot.client import point_discord_at
    from runtime.metrics import Metrics
    from runtime.opponent import PooledPicker
    from store import store_for

    point_discord_at(settings)
    store = store_for(settings.database_url)
    try:
        await store.open()
    except (OSError, sqlite3.Error) as error:
        where = getattr(store, "path", settings.database_url)
        if "locked" in str(error):  # another process holds SQLite's one write lock
            raise StoreBusy(
                f"the database {where} is locked by another process ({error})"
            ) from None
        raise DataUnwritable(f"cannot write the database {where} ({error})") from None
    picker = PooledPicker(settings.ai_workers, ponder_seconds=settings.ai_ponder)
    metrics = Metrics()
    metrics.time_store(store)  # every store call's time (database latency)
    picker.queue.on_start = metrics.ai_waited  # how long each job waited for a worker

    def queue_depth() -> None:
        for lane, waiting in picker.queue.depth().items():
            metrics.set_ai_depth(lane, waiting)

    metrics.on_scrape(queue_depth)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for stop in (signal.SIGTERM, signal.SIGINT):  # `docker stop`, Ctrl-C: close cleanly
        loop.add_signal_handler(stop, stopping.set)
    try:
        attempt = 0
        while not stopping.is_set():
            try:
                await serve(settings, store, picker, metrics, stopping)
                return
            except unreachable() as error:
                attempt += 1
                delay = min(RETRY_FIRST * 2 ** (attempt - 1), RETRY_MOST)
                log.warning(
                    "cannot reach Discord (%s): attempt %d failed, trying again in %.0f s",
                    _reason(error),
                    attempt,
                    delay,
                )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stopping.wait(), delay)
    finally:
        picker.close()
        await store.close()


def unreachable() -> tuple[type[BaseException], ...]:
    """What Discord not answering at all looks like (not a refusal: those stop the bot)."""
    import aiohttp
    import discord

    return (aiohttp.ClientConnectionError, discord.GatewayNotFound, discord.DiscordServerError,
            TimeoutError)  # fmt: skip


def _reason(error: BaseException) -> str:
    cause = getattr(error, "os_error", None) or error  # aiohttp's connector errors carry one
    text = getattr(cause, "strerror", None) or str(cause) or type(cause).__name__
    return " ".join(str(text).split())


async def serve(
    settings: Settings,
    store: Store,
    picker: PooledPicker,
    metrics: Metrics,
    stopping: asyncio.Event,
) -> None:
    """One connection of a client to Discord, with the health endpoints, until it is closed."""
    from bot.client import build_client
    from runtime.health import (
        Health,
        HealthServer,
        games_active,
        gateway_check,
        store_check,
        work_check,
    )  # fmt: skip

    clock = settings.clock()
    client = build_client(settings, store, picker, clock, metrics=metrics)

    async def beat() -> None:
        assert client.runner is not None  # made before the clocks are credited
        await client.runner.leases.renew()

    health = Health(
        [
            gateway_check(client),
            store_check(beat, started=lambda: client.clocks_credited),
            work_check(lambda: client.runner),
        ],
        metrics,
        games_active=games_active(client, store),
    )

    async def close_when_stopped() -> None:
        await stopping.wait()
        await client.close()

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
        closer = asyncio.create_task(close_when_stopped())
        try:
            async with client:
                await client.start(settings.token, reconnect=True)
        finally:
            closer.cancel()
        if client.runner is not None and client.runner.lost_by is not None:
            raise client.runner.lost_by  # another process serves its shards now


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
    from matches.leases import LeaseLost, ShardCountDiffers

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
    except ShardCountDiffers as error:
        print(f"kamen: {error}.", file=sys.stderr)
        return 2
    except LeaseLost as error:
        print(f"kamen: {error}.", file=sys.stderr)
        return 1
    except DataUnwritable as error:
        print(f"kamen: {error}: {DATA_HELP}.", file=sys.stderr)
        return 2
    except StoreBusy as error:
        print(f"kamen: {error}: stop it, or give each process a database of its own.",
              file=sys.stderr)  # fmt: skip
        return 2
    except KeyboardInterrupt:
        log.info("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
