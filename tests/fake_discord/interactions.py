"""Interactions: what the fake remembers of each, and the INTERACTION_CREATE payloads."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from .model import DM, JSON, Attachment, Channel, Guild, Message, Role, User, World

PING, APPLICATION_COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5

#: Callback types allowed for each interaction type.
ALLOWED_CALLBACKS: dict[int, frozenset[int]] = {
    PING: frozenset({1}),
    APPLICATION_COMMAND: frozenset({4, 5, 9}),
    COMPONENT: frozenset({4, 5, 6, 7, 9}),
    AUTOCOMPLETE: frozenset({8}),
    MODAL_SUBMIT: frozenset({4, 5, 6, 7}),
}

RESPONSE_DEADLINE = 3.0
TOKEN_LIFETIME = 15 * 60.0
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


@dataclass(eq=False)
class InteractionRecord:
    """One interaction, from the user's action to the bot's last followup."""

    id: int
    token: str
    type: int
    user: User
    channel: Channel
    guild: Guild | None
    data: JSON
    created_at: float
    #: What the user did, for messages: "/oska move", "click 'accept:42'".
    label: str
    #: For a component interaction, the message the component is on.
    message: Message | None = None
    #: For autocomplete, the type of the focused option.
    focused_type: int | None = None
    response_type: int | None = None
    responded_at: float | None = None
    #: The message the initial response made (4, 5) or, for 6 and 7, the component's message.
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    choices: list[JSON] | None = None
    modal: JSON | None = None
    #: Why Discord refused the bot's answers to this interaction, if it did.
    rejections: list[str] = field(default_factory=list)
    #: Injected faults discord.py retries after (429, 5xx) that hit the callback.
    faults: list[str] = field(default_factory=list)
    expired: bool = False

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None

    @property
    def deadline(self) -> float:
        return self.created_at + RESPONSE_DEADLINE

    @property
    def token_expires(self) -> float:
        return self.created_at + TOKEN_LIFETIME


def new_token() -> str:
    return "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(96)


def channel_payload(world: World, channel: Channel, user: User) -> JSON:
    data = channel.payload()
    data["permissions"] = str(world.permissions(channel, user.id))
    return data


def base_payload(world: World, record: InteractionRecord) -> JSON:
    channel = record.channel
    data: JSON = {
        "id": str(record.id),
        "application_id": str(world.application_id),
        "type": record.type,
        "token": record.token,
        "version": 1,
        "channel_id": str(channel.id),
        "channel": channel_payload(world, channel, record.user),
        "app_permissions": str(world.permissions(channel, world.bot.id)),
        "locale": record.user.locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    guild = record.guild
    if guild is not None and channel.type != DM:
        member = guild.members[record.user.id]
        member_data = member.payload()
        member_data["permissions"] = str(world.permissions(channel, record.user.id))
        data.update(
            guild_id=str(guild.id),
            guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
            guild_locale=guild.preferred_locale,
            member=member_data,
            authorizing_integration_owners={"0": str(guild.id)},
            context=0,
        )
    else:
        data.update(
            user=record.user.payload(),
            authorizing_integration_owners={"1": str(record.user.id)},
            context=1,
        )
    if record.data:
        data["data"] = record.data
    if record.message is not None:
        data["message"] = record.message.payload(guild)
    return data


def resolved_for(world: World, guild: Guild | None, channel: Channel, values: list[Any]) -> JSON:
    """The `resolved` object for users, roles, channels and attachments used as option values."""
    resolved: dict[str, dict[str, Any]] = {}
    for value in values:
        if isinstance(value, User):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            member = guild.members.get(value.id) if guild is not None else None
            if member is not None:
                member_data = member.payload(with_user=False)
                member_data["permissions"] = str(world.permissions(channel, value.id))
                resolved.setdefault("members", {})[str(value.id)] = member_data
        elif isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        elif isinstance(value, Channel):
            data = value.payload()
            data["permissions"] = str(world.permissions(value, world.bot.id))
            resolved.setdefault("channels", {})[str(value.id)] = data
        elif isinstance(value, Attachment):
            resolved.setdefault("attachments", {})[str(value.id)] = value.payload()
    return resolved


def interaction_metadata(record: InteractionRecord) -> JSON:
    """`interaction_metadata` of the messages that answer this interaction."""
    meta: JSON = {
        "id": str(record.id),
        "type": record.type,
        "user": record.user.payload(),
        "authorizing_integration_owners": (
            {"0": str(record.guild.id)} if record.guild is not None else {"1": str(record.user.id)}
        ),
    }
    if record.type == 3 and record.message is not None:
        meta["interacted_message_id"] = str(record.message.id)
    if record.original is not None and record.type != 3:
        meta["original_response_message_id"] = str(record.original.id)
    return meta
