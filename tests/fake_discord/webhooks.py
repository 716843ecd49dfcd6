"""Interaction responses: the callback, the original response, followups.

Discord's rules enforced here: one initial response per interaction, within
3 s of the interaction; callback types that fit the interaction type; message,
autocomplete and modal limits; followups and edits only with a live token
(15 minutes); the first followup after a deferred reply resolves the "thinking"
message (keeping the defer's ephemerality).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import command_limits, limits
from .errors import ApiError, unknown
from .interactions import ALLOWED_CALLBACKS, InteractionRecord
from .model import EPHEMERAL, JSON, LOADING, Message
from .rest import check_message
from .router import Request, Response, Router

if TYPE_CHECKING:
    from .core import Core

INTERACTION_MESSAGE_FLAGS = (1 << 2) | EPHEMERAL | (1 << 12) | (1 << 15)


class Webhooks:
    def __init__(self, core: Core, router: Router) -> None:
        self.core = core
        self.world = core.world
        add = router.add
        add("POST", "/interactions/{interaction_id}/{token}/callback", self.callback, auth=False)
        add("POST", "/webhooks/{app_id}/{token}", self.followup, auth=False)
        add("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self.get_message, auth=False)
        add(
            "PATCH",
            "/webhooks/{app_id}/{token}/messages/{message_id}",
            self.edit_message,
            auth=False,
        )
        add(
            "DELETE",
            "/webhooks/{app_id}/{token}/messages/{message_id}",
            self.delete_message,
            auth=False,
        )

    # ------------------------------------------------------------ the initial response

    async def callback(self, req: Request) -> Response:
        core = self.core
        record = core.interactions.get(req.int_param("interaction_id"))
        if record is None or record.token != req.params["token"]:
            raise unknown(
                "interaction",
                10062,
                violation=f"callback for unknown interaction {req.params['interaction_id']}",
            )
        now = self.world.now()
        if not record.expired and not record.acknowledged and now > record.deadline:
            record.expired = True
            if req.received_at > record.deadline:
                core.violation(
                    f"{record.label}: answered {now - record.created_at:.2f} s after the "
                    "interaction (Discord allows 3 s)"
                )
            else:  # sent in time, held up by an injected delay: Discord voids it all the same
                record.faults.append("an injected delay made the answer late")
        if record.expired:
            record.rejections.append("answered too late")
            core.pulse()
            raise unknown("interaction", 10062)
        self._channel_alive(record)
        body = req.json_body()
        kind = body.get("type")
        if record.acknowledged:
            retried = any("carried out" in f for f in record.faults)
            raise ApiError(
                400,
                40060,
                "Interaction has already been acknowledged.",
                violation=None
                if retried
                else f"{record.label}: a second initial response (type {kind}) "
                f"after type {record.response_type}",
            )
        try:
            self._respond(record, body, kind, req)
        except ApiError as error:
            record.rejections.append(error.violation or error.message)
            core.pulse()
            raise
        record.response_type = kind
        record.responded_at = now
        core.pulse()
        if req.query.get("with_response") not in ("1", "true", "True"):
            return Response(status=204)
        return Response(body=self._callback_response(record))

    def _respond(self, record: InteractionRecord, body: JSON, kind: object, req: Request) -> None:
        label = record.label
        allowed = ALLOWED_CALLBACKS[record.type]
        if kind not in allowed:
            problems = [
                limits.Problem(
                    ("type",),
                    "INTERACTION_CALLBACK_TYPE_INVALID",
                    f"callback type {kind!r} is not allowed for interaction type "
                    f"{record.type} (allowed: {sorted(allowed)})",
                )
            ]
            raise ApiError.invalid_form(problems, label)
        data = body.get("data")
        if data is not None and not isinstance(data, dict):
            raise ApiError.invalid_form(
                [
                    limits.Problem(
                        ("data",),
                        "DICT_TYPE_CONVERT",
                        "Only dictionaries may be used in a DictType",
                    )
                ],
                label,
            )
        data = data or {}
        if kind == 4:
            check_message(data, req, label, creating=True, path=("data",))
            flags = int(data.get("flags") or 0) & INTERACTION_MESSAGE_FLAGS
            record.original = self.core.create_message(
                record.channel,
                self.world.bot,
                data,
                req.uploads,
                flags=flags,
                visible_to=record.user.id if flags & EPHEMERAL else None,
                interaction=record,
            )
        elif kind == 5:
            flags = (int(data.get("flags") or 0) & EPHEMERAL) | LOADING
            record.original = self.core.create_message(
                record.channel,
                self.world.bot,
                {},
                {},
                flags=flags,
                visible_to=record.user.id if flags & EPHEMERAL else None,
                interaction=record,
            )
        elif kind in (6, 7):
            target = record.message
            if target is None or target.deleted:
                raise unknown(
                    "Message",
                    10008,
                    violation=None
                    if target is not None and target.deleted_by_others
                    else f"{label}: update of a message that is gone",
                )
            if kind == 7:
                check_message(data, req, label, creating=False, current=target, path=("data",))
                self.core.edit_message(target, data, req.uploads)
            record.original = target
        elif kind == 8:
            problems = command_limits.validate_autocomplete(
                data, record.focused_type or limits.STRING
            )
            if problems:
                raise ApiError.invalid_form(problems, label)
            record.choices = list(data["choices"])
        elif kind == 9:
            problems = limits.validate_modal(data)
            if problems:
                raise ApiError.invalid_form(problems, label)
            record.modal = data

    def _callback_response(self, record: InteractionRecord) -> JSON:
        inner: JSON = {"id": str(record.id), "type": record.type}
        result: JSON = {"interaction": inner}
        message = record.original
        if message is not None and record.response_type in (4, 5, 7):
            inner.update(
                response_message_id=str(message.id),
                response_message_loading=message.loading,
                response_message_ephemeral=message.ephemeral,
            )
            result["resource"] = {
                "type": record.response_type,
                "message": message.payload(record.guild),
            }
        elif record.response_type is not None:
            result["resource"] = {"type": record.response_type}
        return result

    # ------------------------------------------------------------ followups and edits

    def _channel_alive(self, record: InteractionRecord) -> None:
        """An interaction whose channel was deleted meanwhile can no longer post there."""
        if record.channel.id in self.world.deleted_channels:
            if not record.acknowledged:
                record.rejections.append("its channel was deleted")
                self.core.pulse()
            raise unknown("Channel", 10003)

    def _record(self, req: Request, what: str) -> InteractionRecord:
        token = req.params["token"]
        record = self.core.by_token.get(token)
        if req.params["app_id"] != str(self.world.application_id) or record is None:
            raise unknown(
                "Webhook", 10015, violation=f"{what} with an unknown application id or token"
            )
        if self.world.now() > record.token_expires:
            raise ApiError(
                401,
                50027,
                "Invalid Webhook Token",
                violation=f"{record.label}: {what} more than 15 min after the interaction",
            )
        return record

    def _target(self, req: Request, record: InteractionRecord, what: str) -> Message:
        raw = req.params["message_id"]
        if raw == "@original":
            if record.original is None or record.response_type in (8, 9) or not record.acknowledged:
                raise unknown(
                    "Message",
                    10008,
                    violation=f"{record.label}: {what} @original before a response that made one",
                )
            message = record.original
        else:
            wanted = req.int_param("message_id")
            mine = [
                m for m in [record.original, *record.followups] if m is not None and m.id == wanted
            ]
            if not mine:
                raise unknown(
                    "Message",
                    10008,
                    violation=f"{record.label}: {what} message {raw}, not this interaction's",
                )
            message = mine[0]
        if message.deleted:
            raise unknown(
                "Message",
                10008,
                violation=None
                if message.deleted_by_others
                else f"{record.label}: {what} a deleted message",
            )
        return message

    async def followup(self, req: Request) -> Response:
        record = self._record(req, "followup")
        self._channel_alive(record)
        label = f"{record.label} followup"
        if not record.acknowledged or record.response_type in (8, 9):
            raise unknown("Webhook", 10015, violation=f"{label} before an initial response")
        body = req.json_body()
        check_message(body, req, label, creating=True)
        original = record.original
        if original is not None and original.loading and record.response_type == 5:
            # The first followup after a defer fills in the thinking message;
            # it stays as ephemeral (or not) as the defer made it.
            body = dict(body)
            body.pop("flags", None)
            self.core.edit_message(original, body, req.uploads)
            return Response(body=original.payload(record.guild))
        flags = int(body.get("flags") or 0) & INTERACTION_MESSAGE_FLAGS
        message = self.core.create_message(
            record.channel,
            self.world.bot,
            body,
            req.uploads,
            flags=flags,
            visible_to=record.user.id if flags & EPHEMERAL else None,
            interaction=record,
        )
        record.followups.append(message)
        self.core.pulse()
        return Response(body=message.payload(record.guild))

    async def get_message(self, req: Request) -> Response:
        record = self._record(req, "fetch of")
        message = self._target(req, record, "fetch of")
        return Response(body=message.payload(record.guild))

    async def edit_message(self, req: Request) -> Response:
        record = self._record(req, "edit of")
        self._channel_alive(record)
        message = self._target(req, record, "edit of")
        body = req.json_body()
        check_message(body, req, f"{record.label} edit", creating=False, current=message)
        self.core.edit_message(message, body, req.uploads)
        return Response(body=message.payload(record.guild))

    async def delete_message(self, req: Request) -> Response:
        record = self._record(req, "delete of")
        message = self._target(req, record, "delete of")
        self.core.delete_message(message)
        return Response(status=204)
