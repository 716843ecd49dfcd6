"""Permission bits and Discord's permission arithmetic (roles, then overwrites)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .model import Channel, Guild, Role

CREATE_INSTANT_INVITE = 1 << 0
KICK_MEMBERS = 1 << 1
BAN_MEMBERS = 1 << 2
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
CHANGE_NICKNAME = 1 << 26
MANAGE_ROLES = 1 << 28
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38

ALL = (1 << 51) - 1

#: What a fresh server's @everyone role may do (the parts that matter here).
EVERYONE_DEFAULT = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)

#: What the bot's own (managed) role gets by default: what Kamen asks for when invited.
BOT_DEFAULT = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
    | MANAGE_THREADS
)


def as_int(value: object) -> int:
    """Accept an int or anything with an int `.value` (e.g. `discord.Permissions`)."""
    if isinstance(value, int):
        return value
    inner = getattr(value, "value", None)
    if isinstance(inner, int):
        return inner
    raise TypeError(f"not a permission value: {value!r}")


def guild_permissions(guild: Guild, user_id: int) -> int:
    if user_id == guild.owner_id:
        return ALL
    member = guild.members.get(user_id)
    if member is None:
        return 0
    value = guild.everyone.permissions
    for role_id in member.roles:
        role = guild.roles.get(role_id)
        if role is not None:
            value |= role.permissions
    if value & ADMINISTRATOR:
        return ALL
    return value


def channel_permissions(guild: Guild, channel: Channel, user_id: int) -> int:
    """Permissions of a member in a channel; threads take their parent's."""
    base = guild_permissions(guild, user_id)
    if base == ALL:
        return ALL
    target = channel
    if channel.is_thread and channel.parent_id is not None:
        target = guild.channels[channel.parent_id]
    member = guild.members.get(user_id)
    if member is None:
        return 0
    value = base
    overwrites = {ow.id: ow for ow in target.overwrites}
    everyone = overwrites.get(guild.id)
    if everyone is not None:
        value = (value & ~everyone.deny) | everyone.allow
    allow = deny = 0
    for role_id in member.roles:
        ow = overwrites.get(role_id)
        if ow is not None and ow.type == 0:
            allow |= ow.allow
            deny |= ow.deny
    value = (value & ~deny) | allow
    own = overwrites.get(user_id)
    if own is not None and own.type == 1:
        value = (value & ~own.deny) | own.allow
    if not value & VIEW_CHANNEL:
        return 0
    if not value & SEND_MESSAGES:
        value &= ~(MENTION_EVERYONE | EMBED_LINKS | ATTACH_FILES)
    return value


def top_position(guild: Guild, user_id: int) -> int:
    """The position of a member's highest role (@everyone's 0 when they have none)."""
    member = guild.members.get(user_id)
    if member is None:
        return -1
    return max((guild.roles[r].position for r in member.roles if r in guild.roles), default=0)


def role_refusal(guild: Guild, user_id: int, role: Role) -> str | None:
    """Why a member may not give or take `role` (Discord's 50013), or None when they may.

    They need Manage Roles (or Administrator), and the role must be below their
    highest role, unless they own the server; @everyone and a managed role (a
    bot's own) are no member's to give.
    """
    if role.id == guild.id:
        return "@everyone is not given"
    if role.bot_id is not None:
        return "a managed role is not given"
    if user_id == guild.owner_id:
        return None
    if not guild_permissions(guild, user_id) & MANAGE_ROLES:
        return "it lacks Manage Roles"
    if role.position >= top_position(guild, user_id):
        return "the role is not below its highest role"
    return None
