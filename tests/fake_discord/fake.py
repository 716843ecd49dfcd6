"""FakeDiscord: the server, and the test-facing API to build a world and read it back."""

from __future__ import annotations

import asyncio
import re
import socket
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import Any

from aiohttp import web

from . import perms
from .core import GUILD_MEMBERS, GUILDS, Core
from .driver import Driver
from .errors import ProtocolError
from .faults import Fault
from .gateway import Connection, GatewayHub, Session
from .interactions import InteractionRecord
from .model import DM, JSON, TEXT, Channel, Guild, Member, Message, Overwrite, Role, User
from .rest import Rest
from .router import Router
from .webhooks import Webhooks


class FakeDiscord(Driver):
    """A Discord for one bot application, on 127.0.0.1, that the real discord.py talks to.

    ::

        async with FakeDiscord() as fake:
            guild = fake.add_guild("Stone Club")          # #games, an owner, the bot as a member
            ann, bob = fake.add_user("ann"), fake.add_user("bob")
            start_the_bot(fake.env())                     # or point_discord_py_at(fake) in-process
            await fake.wait_ready()
            reply = await fake.slash(ann, guild.channel("games"), "oska challenge", opponent=bob)
            reply = await fake.click(bob, reply.message, "Accept")
            assert fake.violations == []

    Logins (IDENTIFY) are limited as Discord limits them, one per bucket of
    `max_concurrency` at a time, but a quarter of a second apart rather than
    Discord's 5 s (`identify_every`), so that a test's bot restarts at once;
    `env()` tells a bot process the fake's spacing.
    """

    def __init__(
        self,
        *,
        bot_name: str = "Kamen",
        privileged_intents: Iterable[str] = (),
        heartbeat_interval: float = 41.25,
        recommended_shards: int = 1,
        max_concurrency: int = 1,
        identify_every: float = 0.25,
    ) -> None:
        self.core = Core(bot_name=bot_name, privileged_intents=frozenset(privileged_intents))
        self.world = self.core.world
        self.hub = GatewayHub(
            self.core,
            heartbeat_interval_ms=int(heartbeat_interval * 1000),
            recommended_shards=recommended_shards,
            max_concurrency=max_concurrency,
            identify_every=identify_every,
        )
        self.core.hub = self.hub
        self.router = Router(self.core)
        Rest(self.core, self.hub, self.router)
        Webhooks(self.core, self.router)
        self._runner: web.AppRunner | None = None
        self._server: asyncio.Server | None = None
        self.port = 0

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/api/v10/{tail:.*}", self.router.handle)
        app.router.add_get("/gateway", self.hub.handle)
        app.router.add_get("/gateway-resume", self.hub.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn)
        self._runner = web.AppRunner(app, shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        # Our own listening socket (not a TCPSite), so that an outage can close it and
        # reopen it on the same port without awaiting anything.
        sock = _listen(0)
        self.port = int(sock.getsockname()[1])
        await self._serve(sock)
        self.core.http_base = f"http://127.0.0.1:{self.port}"
        self.hub.gateway_url = f"ws://127.0.0.1:{self.port}/gateway"
        self.hub.resume_url = f"ws://127.0.0.1:{self.port}/gateway-resume"
        return self

    async def _serve(self, sock: socket.socket) -> None:
        assert self._runner is not None and self._runner.server is not None
        self._server = await asyncio.get_running_loop().create_server(
            self._runner.server, sock=sock
        )

    async def stop(self) -> None:
        self.core.cancel_timers()
        await self.hub.close_all()
        if self._server is not None:
            self._server.close()
            self._server = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    async def _cdn(self, request: web.Request) -> web.StreamResponse:
        att = self.world.attachments.get(int(request.match_info["attachment_id"]))
        if att is None or att.filename != request.match_info["filename"]:
            return web.Response(status=404, text="Not Found")
        return web.Response(
            body=att.data,
            content_type=(att.content_type or "application/octet-stream").split(";")[0],
        )

    # ------------------------------------------------------------ where the bot connects

    @property
    def token(self) -> str:
        return self.core.token

    @property
    def api_base(self) -> str:
        """The value for `discord.http.Route.BASE` (env `DISCORD_API_BASE`)."""
        return f"{self.core.http_base}/api/v10"

    @property
    def gateway_url(self) -> str:
        """The value for `DiscordWebSocket.DEFAULT_GATEWAY` (env `DISCORD_GATEWAY_URL`)."""
        return self.hub.gateway_url

    def env(self) -> dict[str, str]:
        """Environment variables for a bot process run against this fake."""
        return {
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "DISCORD_TOKEN": self.token,
            # The spacing of logins this fake allows (Discord's 5 s would slow each restart).
            "KAMEN_IDENTIFY_INTERVAL": str(self.hub.identify_every),
        }

    # ------------------------------------------------------------ what happened

    @property
    def bot(self) -> User:
        return self.world.bot

    @property
    def application_id(self) -> int:
        return self.world.application_id

    @property
    def violations(self) -> list[str]:
        """Every rule of Discord the bot broke (each was also answered with Discord's error)."""
        return self.core.violations

    @property
    def requests(self) -> list[str]:
        """Every REST request, as "METHOD /route/{pattern} -> status"."""
        return self.core.requests

    @property
    def global_requests(self) -> list[str]:
        """The REST requests on Discord's global limit (every one made with the bot's
        token; not the interaction callbacks nor the interaction webhook's followups,
        edits and deletes), as "METHOD /route/{pattern}", oldest first."""
        return self.core.limited

    @property
    def connections(self) -> list[Connection]:
        return self.hub.connections

    @property
    def sessions(self) -> list[Session]:
        return list(self.hub.sessions.values())

    @property
    def identify_count(self) -> int:
        return self.hub.identifies

    @property
    def resume_count(self) -> int:
        return self.hub.resumes

    @property
    def interactions(self) -> list[InteractionRecord]:
        return list(self.core.interactions.values())

    def commands(self, guild: Guild | None = None) -> list[JSON]:
        """The commands the bot registered, globally or for `guild`, as Discord stores them."""
        return self.core.commands.get(guild.id if guild is not None else None, [])

    def messages(
        self, channel: Channel, *, viewer: User | None = None, include_deleted: bool = False
    ) -> list[Message]:
        """Messages of a channel or thread, oldest first, as they are now (edits applied).

        Ephemeral messages are left out, except those shown to `viewer`.
        """
        found = [
            m
            for m in self.world.channel_messages(channel.id)
            if (include_deleted or not m.deleted)
            and (not m.ephemeral or (viewer is not None and m.visible_to == viewer.id))
        ]
        return sorted(found, key=lambda m: m.id)

    def last_message(self, channel: Channel, *, viewer: User | None = None) -> Message:
        found = self.messages(channel, viewer=viewer)
        if not found:
            raise LookupError(f"no messages in #{channel.name}")
        return found[-1]

    def ephemeral_messages(self, user: User) -> list[Message]:
        """Every ephemeral message shown to `user`, oldest first."""
        return sorted(
            (m for m in self.world.messages.values() if m.ephemeral and m.visible_to == user.id),
            key=lambda m: m.id,
        )

    def dm_channel(self, user: User) -> Channel:
        """The direct-message channel the bot opened with `user`."""
        for channel in self.world.channels.values():
            if channel.type == DM and user in channel.recipients:
                return channel
        raise LookupError(f"the bot has opened no DM with {user.username}")

    def threads(self, channel: Channel) -> list[Channel]:
        """Threads started in `channel`, oldest first."""
        return sorted(
            (c for c in self.world.channels.values() if c.parent_id == channel.id),
            key=lambda c: c.id,
        )

    def assert_no_violations(self) -> None:
        assert self.violations == [], "Discord's rules broken:\n" + "\n".join(self.violations)

    # ------------------------------------------------------------ time and the gateway, for tests

    def advance(self, seconds: float) -> None:
        """Move the fake's clock forward (interaction deadlines, token lifetimes, timestamps)."""
        self.world.clock.advance(seconds)
        self.core.check_all_deadlines()

    async def wait_for(
        self, predicate: Callable[[], bool], *, timeout: float = 5.0, what: str = "a condition"
    ) -> None:
        """Until `predicate()` holds; it is checked whenever the fake's state changes."""
        await self.core.wait_until(predicate, timeout, what)

    async def wait_ready(
        self,
        *,
        commands: bool = True,
        timeout: float = 10.0,
        shards: Iterable[tuple[int, int]] | None = None,
    ) -> None:
        """Until a bot session is identified and live (and, with `commands`, has synced).

        `shards`: until each `(shard_id, shard_count)` has a live session (an unsharded
        session is `(0, 1)`); a process with several shards identifies them 5 s apart.
        """
        wanted = set(shards or ())
        await self.core.wait_until(
            lambda: (
                bool(self.hub.live_sessions())
                and wanted <= self.live_shards()
                and (not commands or self.core.command_syncs > 0)
            ),
            timeout,
            "the bot to identify"
            + (f" shards {sorted(wanted)}" if wanted else "")
            + (" and sync its commands" if commands else ""),
        )

    async def wait_disconnected(
        self, timeout: float = 10.0, *, shards: Iterable[tuple[int, int]] | None = None
    ) -> None:
        """Until no bot session is connected (e.g. after its process was killed); with
        `shards`, until none of those shards is (another process's stay connected)."""
        gone = set(shards) if shards is not None else None
        await self.core.wait_until(
            lambda: not self.hub.live_sessions() if gone is None else not gone & self.live_shards(),
            timeout,
            "the bot to disconnect" + (f" shards {sorted(gone)}" if gone else ""),
        )

    def live_shards(self) -> set[tuple[int, int]]:
        """The `(shard_id, shard_count)` of every live session (`(0, 1)`: unsharded)."""
        return {s.shard or (0, 1) for s in self.hub.live_sessions()}

    @staticmethod
    def shard_of(guild: Guild | int, shard_count: int) -> int:
        """The shard Discord puts a server on: `(guild_id >> 22) % shard_count`."""
        guild_id = guild if isinstance(guild, int) else guild.id
        return (guild_id >> 22) % shard_count

    async def wait_resumed(self, count: int = 1, timeout: float = 10.0) -> None:
        """Until `count` RESUMEs have succeeded since the fake started."""
        await self.core.wait_until(
            lambda: self.hub.resumes >= count and bool(self.hub.live_sessions()),
            timeout,
            f"{count} RESUME(s)",
        )

    async def drop_gateway(self, *, code: int = 1001, abrupt: bool = False) -> None:
        """Close the bot's gateway connections (a network blip); its session stays resumable.

        `abrupt` cuts the TCP connection without a close frame.
        """
        if not await self.hub.drop(code=code, abrupt=abrupt):
            raise RuntimeError("no gateway connection to drop")

    def request_reconnect(self) -> None:
        """Send op 7 RECONNECT; discord.py closes and resumes."""
        self.hub.reconnect()

    def invalidate_session(self, *, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION (discord.py waits about 5 s before identifying again)."""
        self.hub.invalidate(resumable=resumable)

    # ------------------------------------------------------------ faults and outages, for tests

    def fail(
        self,
        method: str,
        path_regex: str,
        status: int | None,
        *,
        times: int | None = 1,
        retry_after: float | None = None,
        delay: float | None = None,
        code: int | None = None,
        message: str | None = None,
        global_limit: bool = False,
        carried_out: bool = False,
    ) -> Fault:
        """The next `times` REST requests that match answer `status` (None: their real answer).

        `method` is "GET", "POST", ... or "*"; `path_regex` is searched in the request's path
        under /api/v10 (`/channels/123/messages/456`) and in the route's pattern
        (`/channels/{channel_id}/messages/{message_id}`). 429 comes with Retry-After, the
        X-RateLimit headers and `{"retry_after", "global"}` (`retry_after` seconds, 0.5 by
        default; `global_limit` for a global limit), so discord.py waits and retries; 500,
        502, 504 discord.py retries after 1 s, 3 s...; others carry Discord's error body
        (403: 50013 Missing Permissions unless `code`/`message` say otherwise). `delay`
        seconds (real time) pass before the request is carried out, or, with `carried_out`,
        after it was carried out and before the answer: then Discord did the work (a
        message posted, an interaction answered) and the bot still hears `status`.
        `times=None`: until `clear_faults()`. The returned `Fault` counts its `hits`.
        """
        return self.core.faults.add(
            Fault(
                method=method.upper(),
                path_regex=path_regex,
                status=status,
                times=times,
                retry_after=retry_after,
                delay=delay,
                code=code,
                message=message,
                global_limit=global_limit,
                carried_out=carried_out,
            )
        )

    def clear_faults(self) -> None:
        """No more injected faults (those already answering still finish)."""
        self.core.faults.clear()

    @property
    def faults(self) -> list[Fault]:
        """The injected faults still in force."""
        return list(self.core.faults.active)

    def set_unreachable(
        self, unreachable: bool = True, *, mode: str = "refuse"
    ) -> asyncio.Task[None]:
        """A Discord outage, until called again with False.

        "refuse": the port stops listening (connections refused, as with the network
        down) and every open connection, REST and gateway, is cut. "503": REST answers
        503 Service Unavailable and the gateway refuses the websocket with 503 (open
        gateway connections are cut). Sessions stay resumable. Takes effect at once;
        the returned task (awaiting it is optional) ends when the fake listens again.
        """
        if mode not in ("refuse", "503"):
            raise ValueError(f"mode {mode!r}: 'refuse' or '503'")
        loop = asyncio.get_running_loop()
        if unreachable:
            self.core.outage = mode
            for conn in self.hub.open_connections():
                conn.dropped = True
                if conn.transport is not None:
                    conn.transport.abort()
            if mode == "refuse":
                if self._server is not None:
                    self._server.close()
                    self._server = None
                server = self._runner.server if self._runner is not None else None
                for handler in server.connections if server is not None else []:
                    if handler.transport is not None:
                        handler.transport.abort()
            self.core.pulse()
            return loop.create_task(asyncio.sleep(0))
        self.core.outage = None
        self.core.pulse()
        if self._server is None and self._runner is not None:
            return loop.create_task(self._serve(_listen(self.port)))
        return loop.create_task(asyncio.sleep(0))

    @property
    def unreachable(self) -> bool:
        return self.core.outage is not None

    # ------------------------------------------------------------ what the users were told

    def notifications(self, user: User, *, channel: Channel | None = None) -> list[Message]:
        """Messages Discord notified `user` of, oldest first (optionally of one channel).

        A new message notifies: in a DM, always; in a server, when its content mentions
        the user, its `allowed_mentions` let that mention through (absent: they all do)
        and the user can see the channel. Edits never notify, not even the edit that fills
        in a deferred ("thinking") reply (a conservative choice: send a new message to
        ping someone); ephemeral and SUPPRESS_NOTIFICATIONS messages never do; a message
        deleted later still counts (it was delivered).
        """
        return sorted(
            (
                m
                for m in self.world.messages.values()
                if user in m.notified and (channel is None or m.channel_id == channel.id)
            ),
            key=lambda m: m.id,
        )

    # ------------------------------------------------------------ servers changing things

    def delete_channel(self, channel: Channel) -> None:
        """Someone deletes a channel (with its threads) or a thread.

        The bot gets CHANNEL_DELETE (its threads are dropped by discord.py itself, as
        Discord sends nothing for them) or THREAD_DELETE; later REST calls to them answer
        404 Unknown Channel (10003), as do the followups of interactions made there.
        Their messages stay readable with `messages(channel)`.
        """
        if channel.guild_id is None or channel.id not in self.world.channels:
            raise ProtocolError(f"{channel!r} is a DM or already deleted")
        self.core.delete_channel(channel)

    def remove_bot_access(self, channel: Channel) -> None:
        """The server takes the bot's access to a channel (and its threads) or to a thread.

        For a channel, an overwrite denies the bot VIEW_CHANNEL (CHANNEL_UPDATE); for a
        thread, the bot is removed from it (THREAD_MEMBERS_UPDATE). From then on REST calls
        to it answer 403 Missing Access (50001), which is not counted as a violation.
        """
        guild = self.world.guild_of(channel)
        if guild is None:
            raise ProtocolError("the bot's access to a DM cannot be removed")
        self.core.no_access.add(channel.id)
        if channel.is_thread:
            channel.member_ids.discard(self.bot.id)
            self.core.dispatch(
                "THREAD_MEMBERS_UPDATE",
                {
                    "id": str(channel.id),
                    "guild_id": str(guild.id),
                    "member_count": len(channel.member_ids),
                    "removed_member_ids": [str(self.bot.id)],
                },
                guild_id=guild.id,
            )
        else:
            self.set_overwrite(channel, self.bot, deny=perms.VIEW_CHANNEL)

    def delete_message(self, message: Message) -> None:
        """A moderator deletes a message (the bot gets MESSAGE_DELETE).

        The bot's later calls to it (edits, fetches, interaction updates) answer 404 Unknown
        Message (10008) without counting as violations.
        """
        if message.deleted:
            raise ProtocolError(f"message {message.id} is already deleted")
        message.deleted_by_others = True
        self.core.delete_message(message)

    def override_command_permissions(
        self, guild: Guild, command_name: str, allow_everyone: bool = True
    ) -> None:
        """The server lets @everyone use a command whatever its default_member_permissions.

        `command_name` is the top-level command ("kamen" or "kamen settings"). The bot gets
        APPLICATION_COMMAND_PERMISSIONS_UPDATE; interactions still carry the member's own
        permissions, so the bot must check them itself. `allow_everyone=False` undoes it.
        """
        name = command_name.removeprefix("/").split()[0]
        key = (guild.id, name)
        if allow_everyone:
            self.core.command_overrides.add(key)
        else:
            self.core.command_overrides.discard(key)
        command = next(
            (
                c
                for scope in (guild.id, None)
                for c in self.core.commands.get(scope, [])
                if c["name"] == name and c.get("type", 1) == 1
            ),
            None,
        )
        if command is None:
            return
        permissions = (
            [{"id": str(guild.id), "type": 1, "permission": True}] if allow_everyone else []
        )
        self.core.dispatch(
            "APPLICATION_COMMAND_PERMISSIONS_UPDATE",
            {
                "id": command["id"],
                "application_id": str(self.application_id),
                "guild_id": str(guild.id),
                "permissions": permissions,
            },
            guild_id=guild.id,
        )

    def set_locale(self, user: User, locale: str) -> None:
        """The language of `user`'s Discord client (the `locale` of their interactions)."""
        user.locale = locale

    def set_guild_locale(self, guild: Guild, locale: str) -> None:
        """The server's preferred locale (the `guild_locale` of interactions); GUILD_UPDATE."""
        guild.preferred_locale = locale
        data = guild.payload(bot_id=self.bot.id, all_members=False, large_threshold=250)
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            data.pop(key, None)  # GUILD_UPDATE carries the guild, not its contents
        self.core.dispatch("GUILD_UPDATE", data, guild_id=guild.id, intent=GUILDS)

    # ------------------------------------------------------------ building the world

    def add_guild(
        self,
        name: str,
        *,
        channels: Iterable[str] = ("games",),
        bot_permissions: Any = perms.BOT_DEFAULT,
        everyone_permissions: Any = perms.EVERYONE_DEFAULT,
        locale: str = "en-US",
        with_bot: bool = True,
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """A server with text channels, an owner (`guild.owner`), and the bot as a member.

        `shard=(shard_id, shard_count)`: its id is one Discord would put on that shard
        (`(id >> 22) % shard_count == shard_id`)."""
        world = self.world
        now = world.now()
        if shard is not None:
            shard_id, count = shard
            if not 0 <= shard_id < count:
                raise ProtocolError(f"shard {shard!r}: the id must be below the count")
            guild_id = world.ids.next_on_shard(shard_id, count)
        else:
            guild_id = world.ids.next()
        owner = self._new_user(_slug(name) + "-owner")
        guild = Guild(
            id=guild_id, name=name, owner_id=owner.id, created_at=now, preferred_locale=locale
        )
        guild.roles[guild_id] = Role(
            guild_id, "@everyone", perms.as_int(everyone_permissions), position=0
        )
        guild.members[owner.id] = Member(owner, joined_at=now)
        world.guilds[guild_id] = guild
        for channel_name in channels:
            self._new_channel(guild, channel_name)
        if with_bot:
            role = Role(
                world.ids.next(),
                self.bot.username.capitalize(),
                perms.as_int(bot_permissions),
                position=1,
                bot_id=self.bot.id,
            )
            guild.roles[role.id] = role
            guild.members[self.bot.id] = Member(self.bot, joined_at=now, roles=[role.id])
            for session in list(self.hub.sessions.values()):
                if not session.invalid and session.owns(guild_id) and session.intents & GUILDS:
                    session.send_dispatch("GUILD_CREATE", self.hub.guild_create(session, guild_id))
        self.core.pulse()
        return guild

    def add_channel(
        self, guild: Guild, name: str, *, overwrites: Iterable[Overwrite] = ()
    ) -> Channel:
        channel = self._new_channel(guild, name, overwrites=list(overwrites))
        self.core.dispatch("CHANNEL_CREATE", channel.payload(), guild_id=guild.id, intent=GUILDS)
        return channel

    def add_user(
        self,
        name: str,
        *,
        guilds: Iterable[Guild] | None = None,
        locale: str = "en-US",
        global_name: str | None = None,
        roles: Iterable[Role] = (),
    ) -> User:
        """A person, a member of `guilds` (by default every server so far)."""
        user = self._new_user(name, locale=locale, global_name=global_name)
        role_ids = [r.id for r in roles]
        for guild in list(guilds) if guilds is not None else list(self.world.guilds.values()):
            member = Member(
                user, joined_at=self.world.now(), roles=[r for r in role_ids if r in guild.roles]
            )
            guild.members[user.id] = member
            data = dict(member.payload(), guild_id=str(guild.id))
            self.core.dispatch("GUILD_MEMBER_ADD", data, guild_id=guild.id, intent=GUILD_MEMBERS)
        return user

    def add_role(self, guild: Guild, name: str, permissions: Any = 0) -> Role:
        role = Role(
            self.world.ids.next(), name, perms.as_int(permissions), position=len(guild.roles)
        )
        guild.roles[role.id] = role
        self.core.dispatch(
            "GUILD_ROLE_CREATE",
            {"guild_id": str(guild.id), "role": role.payload()},
            guild_id=guild.id,
            intent=GUILDS,
        )
        return role

    def move_role(self, guild: Guild, role: Role, position: int) -> None:
        """Put `role` at `position` (1: just above @everyone), the others shifting as when a
        manager drags it in the server's list; GUILD_ROLE_UPDATE for each role that moved."""
        others = sorted(
            (r for r in guild.roles.values() if r.id != guild.id and r is not role),
            key=lambda r: r.position,
        )
        others.insert(max(0, min(position - 1, len(others))), role)
        for index, moved in enumerate(others, start=1):
            if moved.position != index:
                moved.position = index
                self.core.dispatch(
                    "GUILD_ROLE_UPDATE",
                    {"guild_id": str(guild.id), "role": moved.payload()},
                    guild_id=guild.id,
                    intent=GUILDS,
                )

    def give_role(self, guild: Guild, user: User, role: Role) -> None:
        member = guild.members[user.id]
        if role.id not in member.roles:
            member.roles.append(role.id)
        data = dict(member.payload(), guild_id=str(guild.id))
        self.core.dispatch("GUILD_MEMBER_UPDATE", data, guild_id=guild.id, intent=GUILD_MEMBERS)

    def set_role_permissions(self, guild: Guild, role: Role, permissions: Any) -> None:
        role.permissions = perms.as_int(permissions)
        self.core.dispatch(
            "GUILD_ROLE_UPDATE",
            {"guild_id": str(guild.id), "role": role.payload()},
            guild_id=guild.id,
            intent=GUILDS,
        )

    def set_bot_permissions(self, guild: Guild, permissions: Any) -> None:
        """Change what the bot's own role may do in `guild`."""
        role = next(r for r in guild.roles.values() if r.bot_id == self.bot.id)
        self.set_role_permissions(guild, role, permissions)

    def set_overwrite(
        self, channel: Channel, target: Role | User | Guild, *, allow: Any = 0, deny: Any = 0
    ) -> None:
        """A permission overwrite on a channel for a role, a member or @everyone (the guild)."""
        target_id = target.id
        kind = 1 if isinstance(target, User) else 0
        channel.overwrites = [ow for ow in channel.overwrites if ow.id != target_id]
        channel.overwrites.append(
            Overwrite(target_id, kind, perms.as_int(allow), perms.as_int(deny))
        )
        self.core.dispatch(
            "CHANNEL_UPDATE", channel.payload(), guild_id=channel.guild_id, intent=GUILDS
        )

    def say(self, user: User, channel: Channel, content: str) -> Message:
        """`user` writes a message (the bot gets its text only with the message content intent)."""
        if channel.guild_id is not None:
            bits = perms.SEND_MESSAGES_IN_THREADS if channel.is_thread else perms.SEND_MESSAGES
            if not self.world.permissions(channel, user.id) & bits:
                raise PermissionError(f"{user.username} may not write in #{channel.name}")
        return self.core.create_message(channel, user, {"content": content}, {})

    def user(self, name: str) -> User:
        return self.world.user_named(name)

    def _new_user(
        self, name: str, *, locale: str = "en-US", global_name: str | None = None
    ) -> User:
        username = _slug(name)
        if any(u.username == username for u in self.world.users.values()):
            raise ValueError(f"there is already a user named {username!r}")
        user = User(self.world.ids.next(), username, global_name=global_name or name, locale=locale)
        self.world.users[user.id] = user
        return user

    def _new_channel(
        self, guild: Guild, name: str, *, overwrites: list[Overwrite] | None = None
    ) -> Channel:
        channel = Channel(
            id=self.world.ids.next(),
            type=TEXT,
            name=_slug(name.removeprefix("#")),
            guild_id=guild.id,
            created_at=self.world.now(),
            position=len(guild.text_channels),
            overwrites=overwrites or [],
        )
        guild.channels[channel.id] = channel
        self.world.channels[channel.id] = channel
        return channel


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9_.-]+", "-", name.lower()).strip("-") or "x"


def _listen(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1 (`port` 0: any free one); the kernel queues callers."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(128)
    sock.setblocking(False)
    return sock
