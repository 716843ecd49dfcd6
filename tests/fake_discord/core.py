"""The fake's state and the operations that change it and tell the bot (gateway events)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import copy
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING

from . import model, perms
from .clock import iso
from .errors import ApiError
from .faults import Faults
from .interactions import InteractionRecord, interaction_metadata
from .model import JSON, Attachment, Channel, Message, User, World, guess_content_type
from .router import Upload

if TYPE_CHECKING:
    from .gateway import GatewayHub

GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_PRESENCES = 1 << 8
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15
PRIVILEGED = {
    "members": GUILD_MEMBERS,
    "presences": GUILD_PRESENCES,
    "message_content": MESSAGE_CONTENT,
}


def make_token(bot_id: int) -> str:
    """A token shaped like a real one: base64(bot id) . timestamp . signature."""
    head = base64.urlsafe_b64encode(str(bot_id).encode()).decode().rstrip("=")
    return f"{head}.{secrets.token_urlsafe(4)[:6]}.{secrets.token_urlsafe(29)[:38]}"


class Core:
    def __init__(self, *, bot_name: str, privileged_intents: frozenset[str]) -> None:
        unknown = set(privileged_intents) - set(PRIVILEGED)
        if unknown:
            raise ValueError(f"unknown privileged intents {unknown}; known: {sorted(PRIVILEGED)}")
        self.world = World(bot_name=bot_name)
        self.token = make_token(self.world.bot.id)
        #: The application's owner (not a member of any server unless a test adds them).
        self.developer = User(self.world.ids.next(), f"{bot_name.lower()}-developer")
        self.world.users[self.developer.id] = self.developer
        self.allowed_intents = sum(PRIVILEGED[name] for name in privileged_intents)
        self.violations: list[str] = []
        #: The bot's messages by the nonce they were sent with (`enforce_nonce`).
        self.nonces: dict[str, Message] = {}
        self.requests: list[str] = []
        #: The requests Discord counts against the bot's global limit (50 a second for the
        #: whole bot), as "METHOD /route/{pattern}": all made with the bot's token, that
        #: is all but interaction callbacks and `/webhooks/{app_id}/{token}...`.
        self.limited: list[str] = []
        self.commands: dict[int | None, list[JSON]] = {}
        self._command_ids: dict[tuple[int | None, int, str], int] = {}
        self.command_syncs = 0
        self.interactions: dict[int, InteractionRecord] = {}
        self.by_token: dict[str, InteractionRecord] = {}
        self.http_base = ""
        self.hub: GatewayHub | None = None
        self._changed = asyncio.Event()
        self._timers: list[asyncio.TimerHandle] = []
        self.faults = Faults()
        #: None, or how Discord is unreachable: "refuse" (connections refused) or "503".
        self.outage: str | None = None
        #: Channels and threads the bot lost access to (403 Missing Access, not a violation).
        self.no_access: set[int] = set()
        #: (guild id, top-level command name) whose default permissions the server overrode.
        self.command_overrides: set[tuple[int, str]] = set()

    # ------------------------------------------------------------ bookkeeping

    def violation(self, text: str) -> None:
        self.violations.append(text)
        self.pulse()

    def log_request(self, method: str, path: str, status: int) -> None:
        self.requests.append(f"{method} {path} -> {status}")

    def pulse(self) -> None:
        """Wake everything waiting in `wait_until` so it looks again."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], bool], timeout: float, what: str) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not predicate():
            left = end - loop.time()
            if left <= 0:
                extra = f"; violations so far: {self.violations}" if self.violations else ""
                raise TimeoutError(f"timed out after {timeout} s waiting for {what}{extra}")
            event = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout=min(left, 0.05))

    def later(self, delay: float, callback: Callable[[], None]) -> None:
        self._timers.append(asyncio.get_running_loop().call_later(delay, callback))

    def cancel_timers(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()

    def dispatch(
        self,
        event: str,
        data: JSON,
        *,
        guild_id: int | None,
        intent: int | None = None,
        strip_content: bool = False,
    ) -> None:
        if self.hub is not None:
            self.hub.dispatch(
                event, data, guild_id=guild_id, intent=intent, strip_content=strip_content
            )
        self.pulse()

    # ------------------------------------------------------------ interaction deadlines

    def check_deadline(self, record: InteractionRecord) -> None:
        """Discord voids an interaction not acknowledged within 3 s."""
        if record.acknowledged or record.expired or self.world.now() < record.deadline:
            return
        record.expired = True
        # Its answer was refused (that violation is recorded), or an injected fault held it up.
        already = bool(record.rejections) or bool(record.faults)
        record.rejections.append("not answered within 3 s")
        if already:
            self.pulse()
        else:
            self.violation(f"{record.label}: not answered within 3 s")

    def check_all_deadlines(self) -> None:
        for record in list(self.interactions.values()):
            self.check_deadline(record)

    # ------------------------------------------------------------ commands

    def store_commands(self, scope: int | None, definitions: list[JSON]) -> list[JSON]:
        """Bulk overwrite: keep ids of commands that keep their name and type."""
        stored: list[JSON] = []
        for definition in definitions:
            kind = definition.get("type", 1)
            key = (scope, kind, definition["name"])
            command_id = self._command_ids.setdefault(key, self.world.ids.next())
            command = copy.deepcopy(definition)
            command.update(
                id=str(command_id),
                application_id=str(self.world.application_id),
                version=str(self.world.ids.next()),
                type=kind,
                description=definition.get("description", ""),
                default_member_permissions=definition.get("default_member_permissions"),
                nsfw=definition.get("nsfw", False),
            )
            command.setdefault("contexts", None)
            command.setdefault("integration_types", [0])
            command.setdefault("dm_permission", True)
            if scope is not None:
                command["guild_id"] = str(scope)
            stored.append(command)
        self.commands[scope] = stored
        self.command_syncs += 1
        self.pulse()
        return stored

    # ------------------------------------------------------------ messages

    def store_attachment(
        self,
        upload: Upload,
        channel_id: int,
        *,
        filename: str | None = None,
        description: str | None = None,
        ephemeral: bool = False,
    ) -> Attachment:
        att_id = self.world.ids.next()
        name = filename or upload.filename
        content_type = upload.content_type
        if content_type in (None, "application/octet-stream"):
            content_type = guess_content_type(name) or content_type
        att = Attachment(
            id=att_id,
            filename=name,
            data=upload.data,
            url=f"{self.http_base}/attachments/{channel_id}/{att_id}/{name}",
            content_type=content_type,
            description=description,
            ephemeral=ephemeral,
        )
        self.world.attachments[att_id] = att
        return att

    def build_attachments(
        self,
        body: JSON,
        uploads: dict[int, Upload],
        existing: list[Attachment],
        channel_id: int,
        *,
        ephemeral: bool,
        editing: bool,
    ) -> list[Attachment]:
        specs = body.get("attachments")
        if specs is None:
            result = list(existing) if editing else []
            result += [
                self.store_attachment(up, channel_id, ephemeral=ephemeral)
                for _, up in sorted(uploads.items())
            ]
            return result
        if not isinstance(specs, list):
            raise ApiError(400, 50035, "Invalid Form Body", violation="attachments must be a list")
        by_id = {a.id: a for a in existing}
        result = []
        used: set[int] = set()
        for spec in specs:
            if not isinstance(spec, dict) or "id" not in spec:
                raise ApiError(
                    400, 50035, "Invalid Form Body", violation="each attachment needs an id"
                )
            try:
                ref = int(spec["id"])
            except (TypeError, ValueError):
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    violation=f"attachment id {spec['id']!r} is not a number",
                ) from None
            if ref in by_id:
                result.append(by_id[ref])
            elif ref in uploads:
                used.add(ref)
                result.append(
                    self.store_attachment(
                        uploads[ref],
                        channel_id,
                        filename=spec.get("filename"),
                        description=spec.get("description"),
                        ephemeral=ephemeral,
                    )
                )
            else:
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    violation=f"attachment {ref} is neither a file sent nor one of the message's",
                )
        for index, upload in sorted(uploads.items()):
            if index not in used:
                result.append(self.store_attachment(upload, channel_id, ephemeral=ephemeral))
        return result

    def create_message(
        self,
        channel: Channel,
        author: User,
        body: JSON,
        uploads: dict[int, Upload],
        *,
        flags: int = 0,
        visible_to: int | None = None,
        interaction: InteractionRecord | None = None,
        kind: int = 0,
        thread_id: int | None = None,
    ) -> Message:
        world = self.world
        ephemeral = bool(flags & model.EPHEMERAL)
        message = Message(
            id=world.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            created_at=world.now(),
            content=str(body.get("content") or ""),
            embeds=copy.deepcopy(body.get("embeds") or []),
            components=copy.deepcopy(body.get("components") or []),
            flags=flags,
            type=kind,
            tts=bool(body.get("tts", False)),
            visible_to=visible_to,
            thread_id=thread_id,
        )
        message.attachments = self.build_attachments(
            body, uploads, [], channel.id, ephemeral=ephemeral, editing=False
        )
        message.mentions = world.mentions_in(message.content)
        message.allowed_mentions = copy.deepcopy(body.get("allowed_mentions"))
        message.notified = self._notified(channel, message)
        if interaction is not None:
            message.webhook_id = world.application_id
            message.application_id = world.application_id
            message.type = 20 if interaction.type == 2 else 0
            message.interaction = interaction_metadata(interaction)
        world.messages[message.id] = message
        if not ephemeral:
            channel.last_message_id = message.id
            if channel.is_thread:
                channel.message_count += 1
                channel.total_message_sent += 1
            self._dispatch_message("MESSAGE_CREATE", message)
        self.pulse()
        return message

    def _notified(self, channel: Channel, message: Message) -> list[User]:
        """Whom Discord notifies of a new message (edits never notify anyone).

        In a DM, the other person, always. In a server, each member mentioned in the content
        (not in embeds) whom `allowed_mentions` lets through and who can see the channel
        (mentioning someone in a thread adds them to it, as Discord does). Never the author,
        never for an ephemeral message or one sent with SUPPRESS_NOTIFICATIONS.
        """
        if message.ephemeral or message.flags & model.SUPPRESS_NOTIFICATIONS:
            return []
        author = message.author
        if channel.type == model.DM:
            return [u for u in channel.recipients if u is not author]
        guild = self.world.guild_of(channel)
        if guild is None:
            return []
        allowed = message.allowed_mentions
        parse: list[str] = ["users"]  # no allowed_mentions: Discord parses every mention
        listed: set[str] = set()
        if isinstance(allowed, dict):
            parse = list(allowed.get("parse") or [])
            listed = {str(u) for u in allowed.get("users") or []}
        notified: list[User] = []
        added: list[User] = []
        for user in message.mentions:
            if user is author or user.id not in guild.members:
                continue
            if "users" not in parse and str(user.id) not in listed:
                continue
            if not self.world.permissions(channel, user.id) & perms.VIEW_CHANNEL:
                continue
            if channel.is_thread and user.id not in channel.member_ids:
                if channel.type == model.PRIVATE_THREAD and author.id not in channel.member_ids:
                    continue  # only a member of a private thread brings others in
                channel.member_ids.add(user.id)
                added.append(user)
            notified.append(user)
        if added:
            self.dispatch(
                "THREAD_MEMBERS_UPDATE",
                {
                    "id": str(channel.id),
                    "guild_id": str(guild.id),
                    "member_count": len(channel.member_ids),
                    "added_members": [
                        {
                            "id": str(channel.id),
                            "user_id": str(u.id),
                            "join_timestamp": iso(self.world.now()),
                            "flags": 0,
                        }
                        for u in added
                    ],
                },
                guild_id=guild.id,
                intent=GUILD_MEMBERS,
            )
        return notified

    def edit_message(self, message: Message, body: JSON, uploads: dict[int, Upload]) -> None:
        """Apply an edit; the first edit of a deferred ("thinking") message is its real content."""
        resolving = message.loading
        if not resolving:
            message.snapshot(message.edited_at or message.created_at)
        if "content" in body:
            message.content = str(body["content"] or "")
            message.mentions = self.world.mentions_in(message.content)
        if "embeds" in body:
            message.embeds = copy.deepcopy(body["embeds"] or [])
        if "components" in body:
            message.components = copy.deepcopy(body["components"] or [])
        if "attachments" in body or uploads:
            message.attachments = self.build_attachments(
                body,
                uploads,
                message.attachments,
                message.channel_id,
                ephemeral=message.ephemeral,
                editing=True,
            )
        if body.get("flags") is not None:
            keep = model.EPHEMERAL | model.COMPONENTS_V2 | model.HAS_THREAD
            message.flags = (message.flags & keep) | (int(body["flags"]) & ~keep & ~model.LOADING)
        message.flags &= ~model.LOADING
        if not resolving:
            message.edited_at = self.world.now()
        if not message.ephemeral and not message.deleted:
            self._dispatch_message("MESSAGE_UPDATE", message)
        self.pulse()

    def delete_message(self, message: Message) -> None:
        message.deleted = True
        if not message.ephemeral:
            data: JSON = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
            self.dispatch(
                "MESSAGE_DELETE",
                data,
                guild_id=message.guild_id,
                intent=self._message_intent(message),
            )
        self.pulse()

    def _message_intent(self, message: Message) -> int:
        return GUILD_MESSAGES if message.guild_id is not None else DIRECT_MESSAGES

    def _dispatch_message(self, event: str, message: Message) -> None:
        guild = self.world.guilds.get(message.guild_id) if message.guild_id is not None else None
        strip = (
            message.author.id != self.world.bot.id
            and guild is not None
            and self.world.bot not in message.mentions
        )
        self.dispatch(
            event,
            message.payload(guild),
            guild_id=message.guild_id,
            intent=self._message_intent(message),
            strip_content=strip,
        )

    # ------------------------------------------------------------ channels and threads

    def delete_channel(self, channel: Channel) -> None:
        """Delete a channel (its threads go with it) or a thread, and tell the bot.

        Discord sends CHANNEL_DELETE for a channel (and nothing for its threads: discord.py
        drops them from its cache itself) and THREAD_DELETE for a thread. Later REST calls
        to any of them are answered 404 Unknown Channel, which is not a violation.
        """
        world = self.world
        guild = world.guild_of(channel)
        assert guild is not None, "DM channels are not deleted"
        gone = [channel] + [c for c in world.channels.values() if c.parent_id == channel.id]
        for each in gone:
            guild.channels.pop(each.id, None)
            world.channels.pop(each.id, None)
            world.deleted_channels[each.id] = each
        if channel.is_thread:
            data: JSON = {
                "id": str(channel.id),
                "guild_id": str(guild.id),
                "parent_id": str(channel.parent_id),
                "type": channel.type,
            }
            self.dispatch("THREAD_DELETE", data, guild_id=guild.id, intent=GUILDS)
        else:
            self.dispatch("CHANNEL_DELETE", channel.payload(), guild_id=guild.id, intent=GUILDS)

    # ------------------------------------------------------------ threads

    def create_thread(
        self,
        parent: Channel,
        name: str,
        kind: int,
        owner: User,
        *,
        starter: Message | None = None,
        auto_archive_duration: int = 1440,
        invitable: bool = True,
    ) -> Channel:
        world = self.world
        guild = world.guild_of(parent)
        assert guild is not None
        thread = Channel(
            id=starter.id if starter is not None else world.ids.next(),
            type=kind,
            name=name,
            guild_id=guild.id,
            created_at=world.now(),
            parent_id=parent.id,
            owner_id=owner.id,
            auto_archive_duration=auto_archive_duration,
            invitable=invitable,
            member_ids={owner.id},
        )
        guild.channels[thread.id] = thread
        world.channels[thread.id] = thread
        data = thread.payload(member_of=world.bot.id)
        data["newly_created"] = True
        self.dispatch("THREAD_CREATE", data, guild_id=guild.id, intent=GUILDS)
        if starter is not None:
            starter.thread_id = thread.id
            starter.flags |= model.HAS_THREAD
            update = starter.payload(guild)
            self.dispatch("MESSAGE_UPDATE", update, guild_id=guild.id, intent=GUILD_MESSAGES)
        elif kind == model.PUBLIC_THREAD:  # "<owner> started a thread: <name>" in the parent
            self.create_message(parent, owner, {"content": name}, {}, kind=18, thread_id=thread.id)
        self.pulse()
        return thread
