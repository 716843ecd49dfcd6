"""The fake's world: users, servers, channels, threads, messages, attachments.

Every object can write itself as the JSON payload Discord would send for it.
Test code reads these objects directly (`Message.content`, `Attachment.data`, ...).
"""

from __future__ import annotations

import copy
import mimetypes
import re
import struct
from dataclasses import dataclass, field
from typing import Any

from . import perms
from .clock import Clock, Snowflakes, iso

JSON = dict[str, Any]

TEXT = 0
DM = 1
CATEGORY = 4
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (PUBLIC_THREAD, PRIVATE_THREAD)

EPHEMERAL = 1 << 6
LOADING = 1 << 7
HAS_THREAD = 1 << 5
COMPONENTS_V2 = 1 << 15
SUPPRESS_NOTIFICATIONS = 1 << 12

MENTION = re.compile(r"<@!?(\d+)>")


@dataclass(eq=False)
class User:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    #: The Discord client language of this user (sent as the interaction's `locale`).
    locale: str = "en-US"
    #: False: the user blocks direct messages from server members (the bot gets 403, code 50007).
    accepts_dms: bool = True

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def display_name(self) -> str:
        return self.global_name or self.username

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "avatar_decoration_data": None,
            "banner": None,
            "accent_color": None,
            "public_flags": 0,
            "flags": 0,
        }
        if self.bot:
            data["bot"] = True
        return data

    def __repr__(self) -> str:
        return f"<User {self.username} {self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    color: int = 0
    bot_id: int | None = None

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "name": self.name,
            "color": self.color,
            "colors": {
                "primary_color": self.color,
                "secondary_color": None,
                "tertiary_color": None,
            },
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.bot_id is not None,
            "mentionable": False,
            "flags": 0,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data


@dataclass(eq=False)
class Member:
    user: User
    joined_at: float
    roles: list[int] = field(default_factory=list)
    nick: str | None = None

    def payload(self, *, with_user: bool = True) -> JSON:
        data: JSON = {
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "roles": [str(r) for r in self.roles],
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        return data


@dataclass
class Overwrite:
    id: int
    type: int  # 0 role, 1 member
    allow: int = 0
    deny: int = 0

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass(eq=False)
class Channel:
    id: int
    type: int
    name: str
    guild_id: int | None
    created_at: float
    parent_id: int | None = None
    position: int = 0
    topic: str | None = None
    overwrites: list[Overwrite] = field(default_factory=list)
    last_message_id: int | None = None
    # threads
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    invitable: bool = True
    member_ids: set[int] = field(default_factory=set)
    message_count: int = 0
    total_message_sent: int = 0
    # DMs
    recipients: list[User] = field(default_factory=list)

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self, *, member_of: int | None = None, joined_at: float | None = None) -> JSON:
        """The channel object; for a thread, `member_of` adds that user's thread member."""
        if self.type == DM:
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": _opt(self.last_message_id),
                "recipients": [u.payload() for u in self.recipients],
                "flags": 0,
            }
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "parent_id": _opt(self.parent_id),
            "last_message_id": _opt(self.last_message_id),
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id),
                message_count=self.message_count,
                member_count=min(len(self.member_ids), 50),
                total_message_sent=self.total_message_sent,
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": iso(self.created_at),
                    "locked": self.locked,
                    "create_timestamp": iso(self.created_at),
                    **({"invitable": self.invitable} if self.type == PRIVATE_THREAD else {}),
                },
            )
            if member_of is not None and member_of in self.member_ids:
                data["member"] = {
                    "id": str(self.id),
                    "user_id": str(member_of),
                    "join_timestamp": iso(joined_at if joined_at is not None else self.created_at),
                    "flags": 1,
                }
        else:
            data.update(
                position=self.position,
                permission_overwrites=[ow.payload() for ow in self.overwrites],
                nsfw=False,
                topic=self.topic,
            )
        return data

    def __repr__(self) -> str:
        return f"<Channel #{self.name} {self.id} type={self.type}>"


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    created_at: float
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    preferred_locale: str = "en-US"

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    @property
    def owner(self) -> User:
        return self.members[self.owner_id].user

    @property
    def text_channels(self) -> list[Channel]:
        return [c for c in self.channels.values() if c.type == TEXT]

    @property
    def threads(self) -> list[Channel]:
        return [c for c in self.channels.values() if c.is_thread]

    def channel(self, name: str) -> Channel:
        """A channel or thread of this server by name (`"games"` or `"#games"`)."""
        name = name.removeprefix("#")
        for channel in self.channels.values():
            if channel.name == name:
                return channel
        raise LookupError(f"no channel named {name!r} in {self.name!r}")

    def role(self, name: str) -> Role:
        for role in self.roles.values():
            if role.name == name:
                return role
        raise LookupError(f"no role named {name!r} in {self.name!r}")

    def payload(self, *, bot_id: int, all_members: bool, large_threshold: int) -> JSON:
        """The GUILD_CREATE payload as the bot receives it."""
        members = list(self.members.values())
        sent = members if all_members else [m for m in members if m.user.id == bot_id]
        threads = [
            c.payload(member_of=bot_id)
            for c in self.channels.values()
            if c.is_thread
            and not c.archived
            and perms.channel_permissions(self, c, bot_id)
            and (c.type == PUBLIC_THREAD or bot_id in c.member_ids)
        ]
        bot_member = self.members.get(bot_id)
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "icon_hash": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "application_id": None,
            "region": "deprecated",
            "afk_channel_id": None,
            "afk_timeout": 300,
            "system_channel_id": _opt(next((c.id for c in self.text_channels), None)),
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "widget_enabled": False,
            "widget_channel_id": None,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "nsfw": False,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": self.preferred_locale,
            "vanity_url_code": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50,
            "features": [],
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "soundboard_sounds": [],
            "joined_at": iso(bot_member.joined_at if bot_member else self.created_at),
            "large": len(members) > large_threshold,
            "unavailable": False,
            "lazy": True,
            "member_count": len(members),
            "members": [m.payload() for m in sent],
            "channels": [c.payload() for c in self.channels.values() if not c.is_thread],
            "threads": threads,
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "incidents_data": None,
            "hub_type": None,
        }

    def __repr__(self) -> str:
        return f"<Guild {self.name!r} {self.id}>"


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None
    ephemeral: bool = False

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def dimensions(self) -> tuple[int, int] | None:
        return image_size(self.data)

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            data["description"] = self.description
        if self.ephemeral:
            data["ephemeral"] = True
        dims = self.dimensions
        if dims is not None:
            data["width"], data["height"] = dims
        return data

    def __repr__(self) -> str:
        return f"<Attachment {self.filename} {self.size} bytes>"


@dataclass
class Version:
    """What a message looked like before an edit."""

    content: str
    embeds: list[JSON]
    components: list[JSON]
    attachments: list[Attachment]
    flags: int
    at: float


@dataclass(eq=False)
class Message:
    id: int
    channel_id: int
    guild_id: int | None
    author: User
    created_at: float
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    tts: bool = False
    edited_at: float | None = None
    #: For an ephemeral message, the only user who sees it.
    visible_to: int | None = None
    deleted: bool = False
    #: Deleted by someone other than the bot (a moderator): the bot's later calls to it are
    #: answered 404 without counting as a violation.
    deleted_by_others: bool = False
    webhook_id: int | None = None
    application_id: int | None = None
    #: `interaction_metadata` of a message that answers an interaction.
    interaction: JSON | None = None
    thread_id: int | None = None
    mentions: list[User] = field(default_factory=list)
    #: The `allowed_mentions` the message was created with (None: not given).
    allowed_mentions: JSON | None = None
    #: Whom Discord notified when the message was created (see `FakeDiscord.notifications`).
    notified: list[User] = field(default_factory=list)
    #: Earlier versions, oldest first; the current state is the message itself.
    versions: list[Version] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred response still showing "<bot> is thinking..."."""
        return bool(self.flags & LOADING)

    @property
    def edited(self) -> bool:
        return self.edited_at is not None

    @property
    def text(self) -> str:
        """Everything a reader sees as text: content, embeds, text displays."""
        parts = [self.content] if self.content else []
        for embed in self.embeds:
            for key in ("title", "description"):
                if embed.get(key):
                    parts.append(str(embed[key]))
            for fld in embed.get("fields", []):
                parts.append(f"{fld.get('name', '')}: {fld.get('value', '')}")
            if embed.get("footer", {}).get("text"):
                parts.append(str(embed["footer"]["text"]))
        for comp in walk_components(self.components):
            if comp.get("type") == 10 and comp.get("content"):
                parts.append(str(comp["content"]))
        return "\n".join(parts)

    def all_components(self) -> list[JSON]:
        return list(walk_components(self.components))

    @property
    def buttons(self) -> list[JSON]:
        return [c for c in walk_components(self.components) if c.get("type") == 2]

    @property
    def selects(self) -> list[JSON]:
        return [c for c in walk_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    def component(self, key: str) -> JSON:
        """The interactive component whose custom_id, or else label (placeholder), is `key`."""
        return find_component(self.components, key, where=f"message {self.id}")

    def attachment(self, filename: str) -> Attachment:
        for att in self.attachments:
            if att.filename == filename:
                return att
        raise LookupError(
            f"no attachment {filename!r}; have {[a.filename for a in self.attachments]}"
        )

    def snapshot(self, at: float) -> None:
        self.versions.append(
            Version(
                content=self.content,
                embeds=copy.deepcopy(self.embeds),
                components=copy.deepcopy(self.components),
                attachments=list(self.attachments),
                flags=self.flags,
                at=at,
            )
        )

    def payload(self, guild: Guild | None = None) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at) if self.edited_at is not None else None,
            "tts": self.tts,
            "mention_everyone": False,
            "mentions": [u.payload() for u in self.mentions],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "pinned": False,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
            member = guild.members.get(self.author.id) if guild is not None else None
            if member is not None and self.webhook_id is None:
                data["member"] = member.payload(with_user=False)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction is not None:
            data["interaction_metadata"] = copy.deepcopy(self.interaction)
        if self.thread_id is not None and guild is not None and self.type != 18:
            thread = guild.channels.get(self.thread_id)
            if thread is not None:
                data["thread"] = thread.payload()
        if self.type == 18 and self.thread_id is not None:
            data["message_reference"] = {
                "type": 0,
                "channel_id": str(self.thread_id),
                "guild_id": str(self.guild_id),
            }
        return data

    def __repr__(self) -> str:
        flags = " ephemeral" if self.ephemeral else ""
        return f"<Message {self.id} in {self.channel_id}{flags} {self.content[:40]!r}>"


def walk_components(components: list[JSON]) -> Any:
    """Every component, depth first (rows, sections, containers, labels included)."""
    for comp in components:
        if not isinstance(comp, dict):
            continue
        yield comp
        children = comp.get("components")
        if isinstance(children, list):
            yield from walk_components(children)
        for key in ("accessory", "component"):
            inner = comp.get(key)
            if isinstance(inner, dict):
                yield from walk_components([inner])


def find_component(components: list[JSON], key: str, *, where: str = "the message") -> JSON:
    interactive: list[JSON] = [
        c for c in walk_components(components) if c.get("type") in (2, 3, 5, 6, 7, 8)
    ]
    for comp in interactive:
        if comp.get("custom_id") == key:
            return comp
    by_label = [c for c in interactive if c.get("label") == key or c.get("placeholder") == key]
    if len(by_label) == 1:
        return by_label[0]
    known = [(c.get("custom_id"), c.get("label") or c.get("placeholder")) for c in interactive]
    if by_label:
        raise LookupError(f"several components labelled {key!r} on {where}: {known}")
    raise LookupError(f"no component {key!r} on {where}; it has {known}")


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG or GIF, read from its header."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return width, height
    return None


def guess_content_type(filename: str) -> str | None:
    guessed, _ = mimetypes.guess_type(filename)
    if guessed is not None and guessed.startswith("text/"):
        return f"{guessed}; charset=utf-8"
    return guessed


def _opt(value: int | None) -> str | None:
    return None if value is None else str(value)


class World:
    """Everything the fake Discord knows."""

    def __init__(self, *, bot_name: str) -> None:
        self.clock = Clock()
        self.ids = Snowflakes(self.clock)
        self.application_id = self.ids.next()
        self.bot = User(self.application_id, bot_name.lower(), global_name=None, bot=True)
        self.users: dict[int, User] = {self.bot.id: self.bot}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        #: Channels and threads deleted, by id (their messages stay readable by tests).
        self.deleted_channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.attachments: dict[int, Attachment] = {}

    def now(self) -> float:
        return self.clock.now()

    def guild_of(self, channel: Channel) -> Guild | None:
        return self.guilds.get(channel.guild_id) if channel.guild_id is not None else None

    def channel_messages(self, channel_id: int) -> list[Message]:
        return [m for m in self.messages.values() if m.channel_id == channel_id]

    def user_named(self, name: str) -> User:
        for user in self.users.values():
            if user.username == name:
                return user
        raise LookupError(f"no user named {name!r}")

    def permissions(self, channel: Channel, user_id: int) -> int:
        guild = self.guild_of(channel)
        if guild is None:
            return (
                perms.VIEW_CHANNEL
                | perms.SEND_MESSAGES
                | perms.EMBED_LINKS
                | perms.ATTACH_FILES
                | (perms.READ_MESSAGE_HISTORY | perms.USE_APPLICATION_COMMANDS)
            )
        return perms.channel_permissions(guild, channel, user_id)

    def mentions_in(self, content: str) -> list[User]:
        found: list[User] = []
        for match in MENTION.finditer(content or ""):
            user = self.users.get(int(match.group(1)))
            if user is not None and user not in found:
                found.append(user)
        return found
