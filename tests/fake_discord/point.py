"""Point the real discord.py at a FakeDiscord.

In-process tests call `point_discord_py_at(fake)`. A bot run as a separate
process (`python -m bot`) cannot import the tests, so it reads two environment
variables instead (see README.md in this folder):

    DISCORD_API_BASE     e.g. http://127.0.0.1:PORT/api/v10  -> discord.http.Route.BASE
    DISCORD_GATEWAY_URL  e.g. ws://127.0.0.1:PORT/gateway    -> DiscordWebSocket.DEFAULT_GATEWAY
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import discord.gateway
import discord.http
import yarl

if TYPE_CHECKING:
    from .fake import FakeDiscord


def point_discord_py_at(fake: FakeDiscord) -> Callable[[], None]:
    """Send every discord.py REST call and gateway connection to `fake`; returns an undo function.

    `Route.BASE` is read each time a route is built (REST and webhooks alike);
    `DEFAULT_GATEWAY` is where a plain Client connects, and where it goes back to
    after an INVALID_SESSION. After READY it resumes at READY's
    `resume_gateway_url`, which the fake points at itself.
    """
    route = discord.http.Route
    socket = discord.gateway.DiscordWebSocket
    old_base, old_gateway = route.BASE, socket.DEFAULT_GATEWAY
    route.BASE = fake.api_base
    socket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)

    def restore() -> None:
        route.BASE = old_base
        socket.DEFAULT_GATEWAY = old_gateway

    return restore
