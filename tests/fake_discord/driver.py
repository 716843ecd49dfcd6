"""The test side: users who type commands, click buttons and pick from menus.

Each action builds the INTERACTION_CREATE payload Discord would send (options
resolved, the message the component is on, permissions), dispatches it to the
bot and, unless told not to, waits for the bot's initial response. What the
bot answered is a `Reply`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from . import limits, perms
from .errors import NotAnswered, ProtocolError
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    COMPONENT,
    MODAL_SUBMIT,
    RESPONSE_DEADLINE,
    InteractionRecord,
    base_payload,
    new_token,
    resolved_for,
)
from .model import DM, JSON, Attachment, Channel, Guild, Message, Role, User, find_component
from .router import Upload

if TYPE_CHECKING:
    from .core import Core
    from .gateway import GatewayHub


class Choice(NamedTuple):
    """An autocomplete choice offered by the bot."""

    name: str
    value: Any


class Reply:
    """What the bot did with one interaction. Live: it follows later edits and followups."""

    def __init__(self, core: Core, record: InteractionRecord) -> None:
        self._core = core
        self.record = record

    def __repr__(self) -> str:
        return f"<Reply to {self.record.label}: type={self.type} message={self.message!r}>"

    @property
    def type(self) -> int | None:
        """The initial response type.

        4 message, 5 deferred message, 6 deferred update, 7 update, 8 choices, 9 modal.
        """
        return self.record.response_type

    @property
    def acknowledged(self) -> bool:
        return self.record.acknowledged

    @property
    def deferred(self) -> bool:
        return self.type in (5, 6)

    @property
    def message(self) -> Message | None:
        """The message the response made (4, 5) or updated (6, 7); None for choices and modals."""
        return self.record.original

    def _message(self) -> Message:
        message = self.record.original
        if message is None:
            raise NotAnswered(
                f"{self.record.label}: the response (type {self.type}) has no message; "
                f"rejections: {self.record.rejections}"
            )
        return message

    @property
    def content(self) -> str:
        return self._message().content

    @property
    def text(self) -> str:
        return self._message().text

    @property
    def embeds(self) -> list[JSON]:
        return self._message().embeds

    @property
    def components(self) -> list[JSON]:
        return self._message().components

    @property
    def attachments(self) -> list[Attachment]:
        return self._message().attachments

    @property
    def ephemeral(self) -> bool:
        return self._message().ephemeral

    @property
    def thinking(self) -> bool:
        message = self.record.original
        return message is not None and message.loading

    @property
    def followups(self) -> list[Message]:
        """Followups; the one that fills in a deferred reply is `message`, not one of these."""
        return list(self.record.followups)

    @property
    def choices(self) -> list[Choice]:
        if self.record.choices is None:
            raise NotAnswered(
                f"{self.record.label}: no autocomplete choices (response type {self.type})"
            )
        return [Choice(str(c.get("name")), c.get("value")) for c in self.record.choices]

    @property
    def modal(self) -> JSON | None:
        return self.record.modal

    async def wait(self, timeout: float = RESPONSE_DEADLINE + 0.5) -> Reply:
        """Until the initial response; raises NotAnswered if it is late or refused."""
        record = self.record
        try:
            await self._core.wait_until(
                lambda: record.acknowledged or bool(record.rejections),
                timeout,
                f"an answer to {record.label}",
            )
        except TimeoutError:
            self._core.check_deadline(record)
        if not record.acknowledged:
            why = "; ".join(record.rejections) or "no answer"
            raise NotAnswered(f"{record.label}: {why}")
        return self

    async def final(self, timeout: float = 5.0) -> Message:
        """The message the user ends up with: for a deferred reply, once it has been filled in."""
        await self.wait()
        record = self.record
        message = self._message()
        if record.response_type == 5:
            await self._core.wait_until(
                lambda: not message.loading,
                timeout,
                f"the deferred reply to {record.label} to be filled in",
            )
        elif record.response_type == 6:
            seen = len(message.versions)
            await self._core.wait_until(
                lambda: len(message.versions) > seen or bool(record.followups),
                timeout,
                f"an edit or followup after the deferred update of {record.label}",
            )
            if record.followups and len(message.versions) == seen:
                return record.followups[-1]
        return message

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[Message]:
        await self._core.wait_until(
            lambda: len(self.record.followups) >= count,
            timeout,
            f"{count} followup(s) to {self.record.label}",
        )
        return self.followups


class Driver:
    """Mixed into FakeDiscord: the actions of users."""

    core: Core
    hub: GatewayHub

    # ------------------------------------------------------------ commands

    def find_command(self, channel: Channel, command: str) -> tuple[JSON, list[JSON], JSON]:
        """The registered top-level command, the chain of sub-command options, and the leaf."""
        words = command.removeprefix("/").split()
        if not words:
            raise ProtocolError("empty command")
        scopes: list[int | None] = (
            [channel.guild_id, None] if channel.guild_id is not None else [None]
        )
        top = None
        for scope in scopes:
            for candidate in self.core.commands.get(scope, []):
                if candidate.get("type", 1) == 1 and candidate["name"] == words[0]:
                    top = candidate
                    break
            if top is not None:
                break
        if top is None:
            names = sorted({c["name"] for s in scopes for c in self.core.commands.get(s, [])})
            raise ProtocolError(
                f"no command /{words[0]} registered for this channel; registered: {names}"
            )
        chain: list[JSON] = []
        node = top
        for word in words[1:]:
            subs = [
                o
                for o in node.get("options") or []
                if o.get("type") in (1, 2) and o["name"] == word
            ]
            if not subs:
                raise ProtocolError(f"/{' '.join(words)}: no sub-command {word!r}")
            node = subs[0]
            chain.append(node)
        if any(o.get("type") in (1, 2) for o in node.get("options") or []):
            raise ProtocolError(f"/{' '.join(words)} is a group; name a sub-command")
        return top, chain, node

    def _check_can_use(self, user: User, channel: Channel, top: JSON) -> Guild | None:
        world = self.core.world
        guild = world.guild_of(channel)
        if channel.type == DM:
            if user not in channel.recipients:
                raise ProtocolError(f"{user.username} is not in this DM")
            if top.get("dm_permission") is False or (
                top.get("contexts") and 1 not in top["contexts"]
            ):
                raise ProtocolError(f"/{top['name']} is not available in DMs")
            return None
        assert guild is not None
        if user.id not in guild.members:
            raise ProtocolError(f"{user.username} is not a member of {guild.name}")
        have = world.permissions(channel, user.id)
        if not have & perms.VIEW_CHANNEL:
            raise ProtocolError(f"{user.username} cannot see #{channel.name}")
        if not have & perms.USE_APPLICATION_COMMANDS:
            raise ProtocolError(f"{user.username} may not use commands in #{channel.name}")
        needed = top.get("default_member_permissions")
        if (guild.id, top["name"]) in self.core.command_overrides:
            needed = None  # the server let @everyone use it, whatever its defaults say
        if needed is not None:
            needed_bits = int(needed)
            guild_bits = perms.guild_permissions(guild, user.id)
            if guild_bits != perms.ALL and (needed_bits == 0 or needed_bits & ~guild_bits):
                raise ProtocolError(
                    f"/{top['name']} is hidden from {user.username} (needs permissions {needed})"
                )
        if top.get("contexts") and 0 not in top["contexts"]:
            raise ProtocolError(f"/{top['name']} is not available in servers")
        return guild

    def _options(
        self,
        leaf: JSON,
        given: Mapping[str, Any],
        guild: Guild | None,
        channel: Channel,
        where: str,
        *,
        focused: str | None = None,
        typed: str | None = None,
    ) -> tuple[list[JSON], list[Any]]:
        definitions = {o["name"]: o for o in leaf.get("options") or []}
        unknown = set(given) - set(definitions)
        if unknown:
            raise ProtocolError(
                f"{where}: no option(s) {sorted(unknown)}; it has {sorted(definitions)}"
            )
        options: list[JSON] = []
        resolved: list[Any] = []
        for name, definition in definitions.items():
            if name == focused:
                options.append(
                    {"name": name, "type": definition["type"], "value": typed, "focused": True}
                )
            elif name in given:
                value, extra = self._convert(definition, given[name], channel, where)
                options.append({"name": name, "type": definition["type"], "value": value})
                resolved.extend(extra)
            elif definition.get("required") and focused is None:
                raise ProtocolError(f"{where}: the required option {name!r} is missing")
        return options, resolved

    def _convert(
        self, definition: JSON, value: Any, channel: Channel, where: str
    ) -> tuple[Any, list[Any]]:
        kind, name = definition["type"], definition["name"]
        bad = ProtocolError(f"{where}: option {name!r} (type {kind}) cannot take {value!r}")
        if kind == limits.STRING:
            if not isinstance(value, str):
                raise bad
            low, high = definition.get("min_length", 0), definition.get("max_length", 6000)
            if not low <= len(value) <= high:
                raise ProtocolError(f"{where}: {name!r} must be {low}..{high} characters long")
        elif kind == limits.INTEGER:
            if not isinstance(value, int) or isinstance(value, bool):
                raise bad
        elif kind == limits.NUMBER:
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise bad
        elif kind == limits.BOOLEAN:
            if not isinstance(value, bool):
                raise bad
        elif kind == limits.USER:
            if not isinstance(value, User):
                raise bad
            return str(value.id), [value]
        elif kind == limits.CHANNEL:
            if not isinstance(value, Channel):
                raise bad
            types = definition.get("channel_types")
            if types and value.type not in types:
                raise ProtocolError(f"{where}: {name!r} takes channels of types {types}")
            return str(value.id), [value]
        elif kind == limits.ROLE:
            if not isinstance(value, Role):
                raise bad
            return str(value.id), [value]
        elif kind == limits.MENTIONABLE:
            if not isinstance(value, User | Role):
                raise bad
            return str(value.id), [value]
        elif kind == limits.ATTACHMENT:
            if isinstance(value, tuple) and len(value) == 2:
                value = Upload(filename=str(value[0]), data=bytes(value[1]))
            if not isinstance(value, Upload):
                raise bad
            att = self.core.store_attachment(value, channel.id, ephemeral=True)
            return str(att.id), [att]
        if kind in (limits.INTEGER, limits.NUMBER):
            low, high = definition.get("min_value"), definition.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise ProtocolError(f"{where}: {name!r} must be within {low}..{high}")
        choices = definition.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ProtocolError(f"{where}: {name!r} must be one of {[c['value'] for c in choices]}")
        return value, []

    def _command_data(
        self,
        top: JSON,
        chain: list[JSON],
        options: list[JSON],
        guild: Guild | None,
        channel: Channel,
        resolved: list[Any],
    ) -> JSON:
        for node in reversed(chain):
            options = [{"name": node["name"], "type": node["type"], "options": options}]
        data: JSON = {"id": top["id"], "name": top["name"], "type": 1}
        if options:
            data["options"] = options
        if "guild_id" in top:
            data["guild_id"] = top["guild_id"]
        found = resolved_for(self.core.world, guild, channel, resolved)
        if found:
            data["resolved"] = found
        return data

    async def slash(
        self,
        user: User,
        channel: Channel,
        command: str,
        /,
        options: Mapping[str, Any] | None = None,
        *,
        wait: bool = True,
        **kwargs: Any,
    ) -> Reply:
        """`user` runs `/command` in `channel`; options by name (`opponent=bob`) or in `options`."""
        top, chain, leaf = self.find_command(channel, command)
        guild = self._check_can_use(user, channel, top)
        where = "/" + " ".join([top["name"], *(c["name"] for c in chain)])
        given = {**(options or {}), **kwargs}
        opts, resolved = self._options(leaf, given, guild, channel, where)
        data = self._command_data(top, chain, opts, guild, channel, resolved)
        record = self._dispatch(
            APPLICATION_COMMAND, user, channel, guild, data, f"{where} by {user.username}"
        )
        reply = Reply(self.core, record)
        return await reply.wait() if wait else reply

    async def autocomplete(
        self,
        user: User,
        channel: Channel,
        command: str,
        option: str,
        typed: str,
        /,
        options: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> list[Choice]:
        """What the bot offers while `user` types `typed` into `option` of `/command`."""
        top, chain, leaf = self.find_command(channel, command)
        guild = self._check_can_use(user, channel, top)
        where = "/" + " ".join([top["name"], *(c["name"] for c in chain)])
        definition = next((o for o in leaf.get("options") or [] if o["name"] == option), None)
        if definition is None or not definition.get("autocomplete"):
            raise ProtocolError(f"{where}: option {option!r} does not autocomplete")
        given = {**(options or {}), **kwargs}
        opts, resolved = self._options(
            leaf, given, guild, channel, where, focused=option, typed=typed
        )
        data = self._command_data(top, chain, opts, guild, channel, resolved)
        record = self._dispatch(
            AUTOCOMPLETE,
            user,
            channel,
            guild,
            data,
            f"autocomplete of {option!r} in {where} by {user.username}",
        )
        record.focused_type = definition["type"]
        reply = await Reply(self.core, record).wait()
        return reply.choices

    # ------------------------------------------------------------ components

    def _component(self, user: User, message: Message, key: str, *, stale: bool = False) -> JSON:
        if message.deleted:
            raise ProtocolError(f"message {message.id} has been deleted")
        if message.ephemeral and message.visible_to != user.id:
            raise ProtocolError(f"{user.username} cannot see ephemeral message {message.id}")
        if message.loading:
            raise ProtocolError(f"message {message.id} is still a 'thinking' placeholder")
        try:
            component = message.component(key)
        except LookupError as error:
            # With `stale`: a user whose client still shows an earlier version of the message.
            older = _in_earlier_versions(message, key) if stale else None
            if older is None:
                raise ProtocolError(str(error)) from None
            component = older
        if component.get("disabled"):
            raise ProtocolError(f"component {key!r} on message {message.id} is disabled")
        return component

    def _message_channel(self, message: Message) -> tuple[Channel, Guild | None]:
        channel = self.core.world.channels.get(message.channel_id)
        if channel is None:
            raise ProtocolError(f"the channel of message {message.id} has been deleted")
        return channel, self.core.world.guild_of(channel)

    def _can_see(self, user: User, message: Message) -> None:
        if message.deleted:
            raise ProtocolError(f"message {message.id} has been deleted")
        if message.ephemeral and message.visible_to != user.id:
            raise ProtocolError(f"{user.username} cannot see ephemeral message {message.id}")

    async def click_custom(
        self, user: User, message: Message, custom_id: str, *, wait: bool = True
    ) -> Reply:
        """A modified client: a button click with any `custom_id`, on the message or not."""
        self._can_see(user, message)
        channel, guild = self._message_channel(message)
        data: JSON = {"custom_id": custom_id, "component_type": 2}
        record = self._dispatch(
            COMPONENT,
            user,
            channel,
            guild,
            data,
            f"crafted click {custom_id!r} by {user.username}",
            message=message,
        )
        reply = Reply(self.core, record)
        return await reply.wait() if wait else reply

    async def select_custom(
        self,
        user: User,
        message: Message,
        custom_id: str,
        values: Sequence[str],
        *,
        wait: bool = True,
    ) -> Reply:
        """A modified client: a string-select pick with any `custom_id` and `values`."""
        self._can_see(user, message)
        channel, guild = self._message_channel(message)
        data: JSON = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        record = self._dispatch(
            COMPONENT,
            user,
            channel,
            guild,
            data,
            f"crafted select {list(values)} in {custom_id!r} by {user.username}",
            message=message,
        )
        reply = Reply(self.core, record)
        return await reply.wait() if wait else reply

    async def click(
        self, user: User, message: Message, key: str, *, stale: bool = False, wait: bool = True
    ) -> Reply:
        """`user` clicks the button whose custom_id (or label) is `key`.

        With `stale`, the button may be one from an earlier version of the message, as when the
        user's client had not yet shown an edit; the interaction still carries the current message.
        """
        component = self._component(user, message, key, stale=stale)
        if component.get("type") != 2:
            raise ProtocolError(f"{key!r} is not a button")
        if component.get("style") in (5, 6):
            raise ProtocolError(
                f"{key!r} is a link or premium button: clicking it sends no interaction"
            )
        channel, guild = self._message_channel(message)
        data: JSON = {"custom_id": component["custom_id"], "component_type": 2}
        if "id" in component:
            data["id"] = component["id"]
        record = self._dispatch(
            COMPONENT,
            user,
            channel,
            guild,
            data,
            f"click {component['custom_id']!r} by {user.username}",
            message=message,
        )
        reply = Reply(self.core, record)
        return await reply.wait() if wait else reply

    async def select(
        self,
        user: User,
        message: Message,
        key: str,
        values: Sequence[Any],
        *,
        stale: bool = False,
        wait: bool = True,
    ) -> Reply:
        """`user` picks `values` in the select menu whose custom_id (or placeholder) is `key`."""
        component = self._component(user, message, key, stale=stale)
        kind = component.get("type")
        if kind not in limits.SELECT_TYPES:
            raise ProtocolError(f"{key!r} is not a select menu")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ProtocolError(f"select {key!r} takes {low}..{high} values, not {len(values)}")
        channel, guild = self._message_channel(message)
        data: JSON = {"custom_id": component["custom_id"], "component_type": kind}
        if kind == 3:
            offered = [o["value"] for o in component.get("options", [])]
            missing = [v for v in values if v not in offered]
            if missing:
                raise ProtocolError(f"select {key!r} offers {offered}, not {missing}")
            data["values"] = list(values)
        else:
            accepted: tuple[type, ...] = {5: (User,), 6: (Role,), 7: (User, Role), 8: (Channel,)}[
                kind
            ]
            if not all(isinstance(v, accepted) for v in values):
                raise ProtocolError(f"select {key!r} takes {[t.__name__ for t in accepted]}")
            data["values"] = [str(v.id) for v in values]
            data["resolved"] = resolved_for(self.core.world, guild, channel, list(values))
        if "id" in component:
            data["id"] = component["id"]
        record = self._dispatch(
            COMPONENT,
            user,
            channel,
            guild,
            data,
            f"select {data['values']} in {component['custom_id']!r} by {user.username}",
            message=message,
        )
        reply = Reply(self.core, record)
        return await reply.wait() if wait else reply

    async def submit_modal(
        self, user: User, shown: Reply, values: Mapping[str, str], *, wait: bool = True
    ) -> Reply:
        """`user` fills in and submits the modal shown in `shown`; `values` by custom_id."""
        modal = shown.modal
        if modal is None or shown.record.user is not user:
            raise ProtocolError(f"no modal shown to {user.username} in {shown.record.label}")
        components: list[JSON] = []
        for comp in modal.get("components") or []:
            kind = comp.get("type")
            inner = comp.get("component") if kind == 18 else (comp.get("components") or [None])[0]
            if not isinstance(inner, dict) or inner.get("type") != 4:
                continue
            custom_id = inner["custom_id"]
            value = values.get(custom_id, inner.get("value") or "")
            if inner.get("required", True) and not value:
                raise ProtocolError(f"modal field {custom_id!r} is required")
            text = {"type": 4, "custom_id": custom_id, "value": value}
            components.append(
                {"type": 18, "component": text} if kind == 18 else {"type": 1, "components": [text]}
            )
        data: JSON = {"custom_id": modal["custom_id"], "components": components}
        first = shown.record
        record = self._dispatch(
            MODAL_SUBMIT,
            user,
            first.channel,
            first.guild,
            data,
            f"modal {modal['custom_id']!r} by {user.username}",
            message=first.message,
        )
        reply = Reply(self.core, record)
        return await reply.wait() if wait else reply

    # ------------------------------------------------------------ plumbing

    def _dispatch(
        self,
        kind: int,
        user: User,
        channel: Channel,
        guild: Guild | None,
        data: JSON,
        label: str,
        *,
        message: Message | None = None,
    ) -> InteractionRecord:
        core = self.core
        if not self.hub.sessions:
            raise ProtocolError("no bot has connected to the gateway yet")
        record = InteractionRecord(
            id=core.world.ids.next(),
            token=new_token(),
            type=kind,
            user=user,
            channel=channel,
            guild=guild,
            data=data,
            created_at=core.world.now(),
            label=label,
            message=message,
        )
        core.interactions[record.id] = record
        core.by_token[record.token] = record
        core.dispatch(
            "INTERACTION_CREATE", base_payload(core.world, record), guild_id=channel.guild_id
        )
        core.later(RESPONSE_DEADLINE + 0.01, lambda: core.check_deadline(record))
        return record


def _in_earlier_versions(message: Message, key: str) -> JSON | None:
    for version in reversed(message.versions):
        with contextlib.suppress(LookupError):
            return find_component(version.components, key)
    return None
