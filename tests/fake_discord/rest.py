"""REST routes for the bot: users, application, gateway, commands, guilds, channels, threads."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import command_limits, limits, perms
from .core import GUILD_MEMBERS, GUILDS
from .errors import MISSING_ACCESS, MISSING_PERMISSIONS, ApiError, unknown
from .model import (
    DM,
    EPHEMERAL,
    JSON,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    TEXT,
    Channel,
    Guild,
    Member,
    Message,
    Role,
    User,
)
from .router import Request, Response, Router

if TYPE_CHECKING:
    from .core import Core
    from .gateway import GatewayHub

CHANNEL_MESSAGE_FLAGS = (1 << 2) | (1 << 12) | (1 << 15)


# How long Discord remembers a message's nonce for `enforce_nonce` ("a few minutes").
NONCE_MINUTES = 5


class Rest:
    def __init__(self, core: Core, hub: GatewayHub, router: Router) -> None:
        self.core = core
        self.hub = hub
        self.world = core.world
        add = router.add
        add("GET", "/users/@me", self.me)
        add("GET", "/users/{user_id}", self.get_user)
        add("POST", "/users/@me/channels", self.open_dm)
        add("GET", "/oauth2/applications/@me", self.application)
        add("GET", "/applications/@me", self.application)
        add("GET", "/gateway", self.gateway, auth=False)
        add("GET", "/gateway/bot", self.gateway_bot)
        add("GET", "/applications/{app_id}/commands", self.get_commands)
        add("PUT", "/applications/{app_id}/commands", self.put_commands)
        add("GET", "/applications/{app_id}/commands/{command_id}", self.get_command)
        add("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self.get_commands)
        add("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self.put_commands)
        add(
            "GET",
            "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}",
            self.get_command,
        )
        add("GET", "/guilds/{guild_id}", self.get_guild)
        add("GET", "/guilds/{guild_id}/channels", self.get_guild_channels)
        add("GET", "/guilds/{guild_id}/roles", self.get_roles)
        add("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member)
        member_role = "/guilds/{guild_id}/members/{user_id}/roles/{role_id}"
        add("PUT", member_role, self.add_member_role)
        add("DELETE", member_role, self.remove_member_role)
        add("GET", "/channels/{channel_id}", self.get_channel)
        add("PATCH", "/channels/{channel_id}", self.edit_channel)
        add("DELETE", "/channels/{channel_id}", self.delete_channel)
        add("POST", "/channels/{channel_id}/typing", self.typing)
        add("GET", "/channels/{channel_id}/messages", self.history)
        add("POST", "/channels/{channel_id}/messages", self.send)
        add("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message)
        add("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit)
        add("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete)
        add("POST", "/channels/{channel_id}/threads", self.start_thread)
        add(
            "POST",
            "/channels/{channel_id}/messages/{message_id}/threads",
            self.start_thread_from_message,
        )
        add("GET", "/channels/{channel_id}/thread-members", self.thread_members)
        add("PUT", "/channels/{channel_id}/thread-members/{user_id}", self.join_thread)
        add("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self.leave_thread)

    # ------------------------------------------------------------ helpers

    def _app(self, req: Request) -> None:
        if req.params.get("app_id") != str(self.world.application_id):
            raise unknown(
                "Application",
                10002,
                violation=f"application id {req.params.get('app_id')} is not the bot's",
            )

    def _guild(self, req: Request) -> Guild:
        guild = self.world.guilds.get(req.int_param("guild_id"))
        if guild is None or self.world.bot.id not in guild.members:
            raise ApiError(
                403,
                MISSING_ACCESS,
                "Missing Access",
                violation=f"guild {req.params['guild_id']} is not one the bot is in",
            )
        return guild

    def _channel(self, req: Request) -> Channel:
        channel_id = req.int_param("channel_id")
        channel = self.world.channels.get(channel_id)
        if channel is None:
            if channel_id in self.world.deleted_channels:
                # Deleted by someone else: the bot learns it from this answer or the gateway.
                raise unknown("Channel", 10003)
            raise unknown("Channel", 10003, violation=f"no channel {req.params['channel_id']}")
        if channel.id in self.core.no_access or channel.parent_id in self.core.no_access:
            # The server took the bot's access away: a normal answer, not a violation.
            raise ApiError(403, MISSING_ACCESS, "Missing Access")
        if channel.type == DM:
            if self.world.bot not in channel.recipients:
                raise ApiError(
                    403, MISSING_ACCESS, "Missing Access", violation="not the bot's DM channel"
                )
            return channel
        self._need(channel, perms.VIEW_CHANNEL, missing_access=True)
        if channel.type == PRIVATE_THREAD and self.world.bot.id not in channel.member_ids:
            self._need(channel, perms.MANAGE_THREADS, missing_access=True)
        return channel

    def _need(self, channel: Channel, bits: int, *, missing_access: bool = False) -> None:
        have = self.world.permissions(channel, self.world.bot.id)
        lacking = bits & ~have
        if lacking:
            names = ", ".join(
                n
                for n, v in vars(perms).items()
                if n.isupper() and isinstance(v, int) and v & lacking and v.bit_count() == 1
            )
            if missing_access:
                raise ApiError(
                    403,
                    MISSING_ACCESS,
                    "Missing Access",
                    violation=f"the bot cannot see #{channel.name} (lacks {names})",
                )
            raise ApiError(
                403,
                MISSING_PERMISSIONS,
                "Missing Permissions",
                violation=f"the bot lacks {names} in #{channel.name}",
            )

    def _message(self, req: Request, channel: Channel) -> Message:
        message = self.world.messages.get(req.int_param("message_id"))
        if (
            message is None
            or message.channel_id != channel.id
            or message.deleted
            or message.ephemeral
        ):
            if message is not None and message.deleted_by_others:
                raise unknown("Message", 10008)  # a moderator deleted it: a normal answer
            raise unknown(
                "Message",
                10008,
                violation=f"no message {req.params['message_id']} in #{channel.name}",
            )
        return message

    def _guild_of(self, channel: Channel) -> Guild | None:
        return self.world.guild_of(channel)

    # ------------------------------------------------------------ users, application, gateway

    async def me(self, req: Request) -> Response:
        return Response(
            body=dict(self.world.bot.payload(), verified=True, mfa_enabled=False, email=None)
        )

    async def get_user(self, req: Request) -> Response:
        user = self.world.users.get(req.int_param("user_id"))
        if user is None:
            raise unknown("User", 10013, violation=f"no user {req.params['user_id']}")
        return Response(body=user.payload())

    async def open_dm(self, req: Request) -> Response:
        body = req.json_body()
        try:
            user = self.world.users[int(body["recipient_id"])]
        except (KeyError, ValueError, TypeError):
            raise unknown(
                "User", 10013, violation=f"DM with unknown user {body.get('recipient_id')!r}"
            ) from None
        for channel in self.world.channels.values():
            if channel.type == DM and user in channel.recipients:
                return Response(body=channel.payload())
        channel = Channel(
            id=self.world.ids.next(),
            type=DM,
            name="",
            guild_id=None,
            created_at=self.world.now(),
            recipients=[user, self.world.bot],
        )
        self.world.channels[channel.id] = channel
        return Response(body=channel.payload())

    async def application(self, req: Request) -> Response:
        world = self.world
        developer = self.core.developer
        return Response(
            body={
                "id": str(world.application_id),
                "name": world.bot.username,
                "description": "",
                "icon": None,
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "bot": world.bot.payload(),
                "owner": developer.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "summary": "",
                "flags": self.hub.application_flags(),
                "tags": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(world.guilds),
                "integration_types_config": {"0": {}},
            }
        )

    async def gateway(self, req: Request) -> Response:
        return Response(body={"url": self.hub.gateway_url})

    async def gateway_bot(self, req: Request) -> Response:
        return Response(
            body={
                "url": self.hub.gateway_url,
                "shards": self.hub.recommended_shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 14_400_000,
                    "max_concurrency": self.hub.max_concurrency,
                },
            }
        )

    # ------------------------------------------------------------ commands

    def _scope(self, req: Request) -> int | None:
        self._app(req)
        if "guild_id" in req.params:
            return self._guild(req).id
        return None

    async def get_commands(self, req: Request) -> Response:
        return Response(body=self.core.commands.get(self._scope(req), []))

    async def get_command(self, req: Request) -> Response:
        for command in self.core.commands.get(self._scope(req), []):
            if command["id"] == req.params["command_id"]:
                return Response(body=command)
        raise unknown(
            "application command", 10063, violation=f"no command {req.params['command_id']}"
        )

    async def put_commands(self, req: Request) -> Response:
        scope = self._scope(req)
        body = req.body
        where = "global commands" if scope is None else f"commands of guild {scope}"
        problems = command_limits.validate_commands(body)
        if problems:
            raise ApiError.invalid_form(problems, f"bulk overwrite of {where}")
        too_many = command_limits.count_problem(body)
        if too_many:
            raise ApiError(400, 30032, too_many, violation=f"bulk overwrite of {where}: {too_many}")
        return Response(body=self.core.store_commands(scope, body))

    # ------------------------------------------------------------ guilds

    async def get_guild(self, req: Request) -> Response:
        guild = self._guild(req)
        data = guild.payload(bot_id=self.world.bot.id, all_members=False, large_threshold=250)
        for key in (
            "members",
            "channels",
            "threads",
            "presences",
            "voice_states",
            "joined_at",
            "large",
            "member_count",
            "lazy",
            "unavailable",
        ):
            data.pop(key, None)
        return Response(body=data)

    async def get_guild_channels(self, req: Request) -> Response:
        guild = self._guild(req)
        return Response(body=[c.payload() for c in guild.channels.values() if not c.is_thread])

    async def get_roles(self, req: Request) -> Response:
        return Response(body=[r.payload() for r in self._guild(req).roles.values()])

    async def get_member(self, req: Request) -> Response:
        guild = self._guild(req)
        member = guild.members.get(req.int_param("user_id"))
        if member is None:
            raise unknown("Member", 10007)  # a normal answer for someone who left: not a violation
        return Response(body=member.payload())

    async def add_member_role(self, req: Request) -> Response:
        """Give a member a role: the bot needs Manage Roles and its top role above the role."""
        guild, member, role = self._role_change(req, "give")
        if role.id not in member.roles:
            member.roles.append(role.id)
            self._member_updated(guild, member)
        return Response(status=204)

    async def remove_member_role(self, req: Request) -> Response:
        """Take a role from a member, under the same rules as giving it."""
        guild, member, role = self._role_change(req, "take")
        if role.id in member.roles:
            member.roles.remove(role.id)
            self._member_updated(guild, member)
        return Response(status=204)

    def _role_change(self, req: Request, verb: str) -> tuple[Guild, Member, Role]:
        guild = self._guild(req)
        role = guild.roles.get(req.int_param("role_id"))
        if role is None:
            raise unknown("Role", 10011, violation=f"no role {req.params['role_id']} to {verb}")
        member = guild.members.get(req.int_param("user_id"))
        if member is None:
            raise unknown("Member", 10007)  # someone who left: a normal answer
        why = perms.role_refusal(guild, self.world.bot.id, role)
        if why is not None:
            raise ApiError(
                403,
                MISSING_PERMISSIONS,
                "Missing Permissions",
                violation=f"the bot may not {verb} @{role.name}: {why}",
            )
        return guild, member, role

    def _member_updated(self, guild: Guild, member: Member) -> None:
        data = dict(member.payload(), guild_id=str(guild.id))
        self.core.dispatch("GUILD_MEMBER_UPDATE", data, guild_id=guild.id, intent=GUILD_MEMBERS)

    # ------------------------------------------------------------ channels

    async def get_channel(self, req: Request) -> Response:
        channel = self._channel(req)
        return Response(body=channel.payload(member_of=self.world.bot.id))

    async def edit_channel(self, req: Request) -> Response:
        channel = self._channel(req)
        body = req.json_body()
        guild = self._guild_of(channel)
        if channel.is_thread:
            if channel.owner_id != self.world.bot.id or set(body) - {
                "name",
                "archived",
                "auto_archive_duration",
            }:
                self._need(channel, perms.MANAGE_THREADS)
            if "name" in body:
                limits_problems: list[limits.Problem] = []
                limits.check_length(limits_problems, ("name",), body["name"], 1, 100)
                if limits_problems:
                    raise ApiError.invalid_form(limits_problems, f"edit of thread #{channel.name}")
                channel.name = str(body["name"])
            for key in ("archived", "locked", "invitable"):
                if key in body:
                    setattr(channel, key, bool(body[key]))
            if "auto_archive_duration" in body:
                channel.auto_archive_duration = int(body["auto_archive_duration"])
            event = "THREAD_UPDATE"
        else:
            self._need(channel, perms.MANAGE_CHANNELS)
            if "name" in body:
                channel.name = str(body["name"])
            if "topic" in body:
                channel.topic = body["topic"]
            event = "CHANNEL_UPDATE"
        data = channel.payload(member_of=self.world.bot.id)
        self.core.dispatch(event, data, guild_id=guild.id if guild else None, intent=GUILDS)
        return Response(body=data)

    async def delete_channel(self, req: Request) -> Response:
        channel = self._channel(req)
        if channel.type == DM:
            return Response(body=channel.payload())
        self._need(channel, perms.MANAGE_THREADS if channel.is_thread else perms.MANAGE_CHANNELS)
        self.core.delete_channel(channel)
        return Response(body=channel.payload())

    async def typing(self, req: Request) -> Response:
        channel = self._channel(req)
        self._need_send(channel, files=False)
        return Response(status=204)

    def _need_send(self, channel: Channel, *, files: bool) -> None:
        if channel.type == DM:
            other = next(u for u in channel.recipients if u is not self.world.bot)
            shares = any(
                other.id in g.members and self.world.bot.id in g.members
                for g in self.world.guilds.values()
            )
            if not other.accepts_dms or not shares:
                # Discord's answer when a user does not accept DMs: the bot must cope with it,
                # so it is not a violation.
                raise ApiError(403, 50007, "Cannot send messages to this user")
            return
        if channel.is_thread and channel.locked:
            self._need(channel, perms.MANAGE_THREADS)
        bits = perms.SEND_MESSAGES_IN_THREADS if channel.is_thread else perms.SEND_MESSAGES
        if files:
            bits |= perms.ATTACH_FILES
        self._need(channel, bits)

    async def history(self, req: Request) -> Response:
        channel = self._channel(req)
        if channel.type != DM:
            self._need(channel, perms.READ_MESSAGE_HISTORY)
        try:
            limit = int(req.query.get("limit", 50))
        except ValueError:
            limit = 0
        if not 1 <= limit <= 100:
            problems = [
                limits.Problem(
                    ("limit",), "NUMBER_TYPE_MAX", "int value should be between 1 and 100."
                )
            ]
            raise ApiError.invalid_form(problems, f"history of #{channel.name}")
        found = [
            m for m in self.world.channel_messages(channel.id) if not m.deleted and not m.ephemeral
        ]
        found.sort(key=lambda m: m.id)
        if "before" in req.query:
            found = [m for m in found if m.id < int(req.query["before"])]
        if "after" in req.query:
            found = [m for m in found if m.id > int(req.query["after"])][:limit]
        if "around" in req.query:
            around = int(req.query["around"])
            older = [m for m in found if m.id <= around][-(limit // 2 + 1) :]
            newer = [m for m in found if m.id > around][: limit - len(older)]
            found = older + newer
        found = found[-limit:]
        guild = self._guild_of(channel)
        return Response(body=[m.payload(guild) for m in reversed(found)])

    async def send(self, req: Request) -> Response:
        channel = self._channel(req)
        body = req.json_body()
        self._need_send(channel, files=bool(req.uploads))
        what = f"message in #{channel.name or 'DM'}"
        check_message(body, req, what, creating=True)
        flags = int(body.get("flags") or 0) & CHANNEL_MESSAGE_FLAGS
        if channel.is_thread and channel.archived and not channel.locked:
            channel.archived = False
        # `enforce_nonce`: a message sent again with the nonce of one created in the last
        # few minutes is not created twice; the first is returned (404 if it was deleted).
        nonce = str(body.get("nonce") or "")
        if nonce and body.get("enforce_nonce"):
            sent = self.core.nonces.get(nonce)
            if sent is not None and self.world.now() - sent.created_at < NONCE_MINUTES * 60:
                if sent.deleted:
                    raise ApiError(404, 10008, "Unknown Message")
                return Response(body=sent.payload(self._guild_of(channel)))
        message = self.core.create_message(channel, self.world.bot, body, req.uploads, flags=flags)
        if nonce:
            self.core.nonces[nonce] = message
        return Response(body=message.payload(self._guild_of(channel)))

    async def get_message(self, req: Request) -> Response:
        channel = self._channel(req)
        if channel.type != DM:
            self._need(channel, perms.READ_MESSAGE_HISTORY)
        message = self._message(req, channel)
        return Response(body=message.payload(self._guild_of(channel)))

    async def edit(self, req: Request) -> Response:
        channel = self._channel(req)
        message = self._message(req, channel)
        body = req.json_body()
        if message.author is not self.world.bot:
            raise ApiError(
                403,
                50005,
                "Cannot edit a message authored by another user",
                violation=f"edit of {message.author.username}'s message {message.id}",
            )
        check_message(body, req, f"edit of message {message.id}", creating=False, current=message)
        self.core.edit_message(message, body, req.uploads)
        return Response(body=message.payload(self._guild_of(channel)))

    async def delete(self, req: Request) -> Response:
        channel = self._channel(req)
        message = self._message(req, channel)
        if message.author is not self.world.bot and channel.type != DM:
            self._need(channel, perms.MANAGE_MESSAGES)
        self.core.delete_message(message)
        return Response(status=204)

    # ------------------------------------------------------------ threads

    async def start_thread(self, req: Request) -> Response:
        channel = self._channel(req)
        body = req.json_body()
        kind = body.get("type", PRIVATE_THREAD)
        if channel.type != TEXT:
            raise ApiError(
                400,
                50024,
                "Cannot execute action on this channel type",
                violation=f"thread started in #{channel.name}, which is not a text channel",
            )
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            problems = [
                limits.Problem(("type",), "BASE_TYPE_CHOICES", "Value must be one of {11, 12}.")
            ]
            raise ApiError.invalid_form(problems, f"thread in #{channel.name}")
        need = (
            perms.CREATE_PUBLIC_THREADS if kind == PUBLIC_THREAD else perms.CREATE_PRIVATE_THREADS
        )
        self._need(channel, need)
        return self._thread(channel, body, kind, None)

    async def start_thread_from_message(self, req: Request) -> Response:
        channel = self._channel(req)
        message = self._message(req, channel)
        body = req.json_body()
        if channel.type != TEXT:
            raise ApiError(
                400,
                50024,
                "Cannot execute action on this channel type",
                violation=f"thread started from a message in #{channel.name}",
            )
        if message.thread_id is not None:
            raise ApiError(
                400,
                160004,
                "A thread has already been created for this message",
                violation=f"second thread on message {message.id}",
            )
        self._need(channel, perms.CREATE_PUBLIC_THREADS | perms.READ_MESSAGE_HISTORY)
        return self._thread(channel, body, PUBLIC_THREAD, message)

    def _thread(self, channel: Channel, body: JSON, kind: int, starter: Message | None) -> Response:
        problems: list[limits.Problem] = []
        limits.check_length(problems, ("name",), body.get("name"), 1, 100)
        duration = body.get("auto_archive_duration", 1440)
        if duration not in (60, 1440, 4320, 10080):
            problems.append(
                limits.Problem(
                    ("auto_archive_duration",),
                    "BASE_TYPE_CHOICES",
                    "Value must be one of {60, 1440, 4320, 10080}.",
                )
            )
        if problems:
            raise ApiError.invalid_form(problems, f"thread in #{channel.name}")
        thread = self.core.create_thread(
            channel,
            str(body["name"]),
            kind,
            self.world.bot,
            starter=starter,
            auto_archive_duration=int(duration),
            invitable=bool(body.get("invitable", True)),
        )
        return Response(status=201, body=thread.payload(member_of=self.world.bot.id))

    def _thread_param(self, req: Request) -> Channel:
        channel = self._channel(req)
        if not channel.is_thread:
            raise ApiError(
                400,
                50024,
                "Cannot execute action on this channel type",
                violation=f"thread-members of #{channel.name}, which is not a thread",
            )
        return channel

    def _member_param(self, req: Request, thread: Channel) -> User:
        raw = req.params["user_id"]
        user = self.world.bot if raw == "@me" else self.world.users.get(req.int_param("user_id"))
        guild = self._guild_of(thread)
        if user is None or guild is None or user.id not in guild.members:
            raise unknown("Member", 10007, violation=f"thread member {raw} is not in the server")
        return user

    async def thread_members(self, req: Request) -> Response:
        thread = self._thread_param(req)
        return Response(
            body=[
                {
                    "id": str(thread.id),
                    "user_id": str(uid),
                    "join_timestamp": thread.payload()["thread_metadata"]["create_timestamp"],
                    "flags": 0,
                }
                for uid in sorted(thread.member_ids)
            ]
        )

    async def join_thread(self, req: Request) -> Response:
        thread = self._thread_param(req)
        user = self._member_param(req, thread)
        if user is not self.world.bot and not (
            thread.type == PRIVATE_THREAD
            and self.world.bot.id in thread.member_ids
            and thread.invitable
        ):
            self._need(thread, perms.SEND_MESSAGES_IN_THREADS)
        if thread.archived:
            raise ApiError(
                400,
                50083,
                "Thread is archived",
                violation=f"member added to archived #{thread.name}",
            )
        thread.member_ids.add(user.id)
        self.core.pulse()
        return Response(status=204)

    async def leave_thread(self, req: Request) -> Response:
        thread = self._thread_param(req)
        user = self._member_param(req, thread)
        if user is not self.world.bot:
            self._need(thread, perms.MANAGE_THREADS)
        thread.member_ids.discard(user.id)
        self.core.pulse()
        return Response(status=204)


def check_message(
    body: JSON,
    req: Request,
    what: str,
    *,
    creating: bool,
    current: Message | None = None,
    path: tuple[str, ...] = (),
) -> None:
    """Raise the 400 Discord would give for a message that breaks its limits."""
    files = [(u.filename, u.data) for u in req.uploads.values()]
    problems = limits.validate_message(body, files=files, path=path)
    problems += limits.flag_problems(int(body.get("flags") or 0) & ~EPHEMERAL & ~(1 << 7), path)
    if problems:
        raise ApiError.invalid_form(problems, what)
    too_big = [u.filename for u in req.uploads.values() if len(u.data) > limits.MAX_FILE_SIZE]
    if too_big:
        raise ApiError(
            413,
            40005,
            "Request entity too large",
            violation=f"{what}: files over {limits.MAX_FILE_SIZE} bytes: {too_big}",
        )
    mention_problems = allowed_mentions_problems(body.get("allowed_mentions"), path)
    if mention_problems:
        raise ApiError.invalid_form(mention_problems, what)
    if creating and limits.is_empty(body, files):
        raise ApiError(400, 50006, "Cannot send an empty message", violation=f"{what}: empty")
    if current is not None and not creating:
        content = body.get("content", current.content)
        embeds = body.get("embeds", current.embeds)
        components = body.get("components", current.components)
        specs = body.get("attachments")
        count = (len(specs) if isinstance(specs, list) else len(current.attachments)) + len(
            req.uploads
        )
        if not (content or embeds or components or count):
            raise ApiError(
                400, 50006, "Cannot send an empty message", violation=f"{what}: leaves it empty"
            )


def allowed_mentions_problems(allowed: object, path: tuple[str, ...]) -> list[limits.Problem]:
    """Discord's checks of `allowed_mentions`: known parse types, users XOR parse "users"."""
    if allowed is None:
        return []
    where = (*path, "allowed_mentions")
    if not isinstance(allowed, dict):
        return [limits.Problem(where, "DICT_TYPE_CONVERT", "Only dictionaries may be used")]
    problems: list[limits.Problem] = []
    parse = allowed.get("parse") or []
    users = allowed.get("users") or []
    roles = allowed.get("roles") or []
    if not isinstance(parse, list) or set(parse) - {"users", "roles", "everyone"}:
        problems.append(
            limits.Problem(
                (*where, "parse"),
                "BASE_TYPE_CHOICES",
                "Value must be one of ('roles', 'users', 'everyone').",
            )
        )
        parse = []
    for kind, ids in (("users", users), ("roles", roles)):
        if not isinstance(ids, list) or len(ids) > 100:
            problems.append(
                limits.Problem(
                    (*where, kind), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length."
                )
            )
        elif ids and kind in parse:
            problems.append(
                limits.Problem(
                    where,
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.',
                )
            )
    return problems
