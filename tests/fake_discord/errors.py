"""Errors: those the fake answers the bot with, and those it raises in tests."""

from __future__ import annotations

from typing import Any

from .limits import Problem, errors_object


class ApiError(Exception):
    """An error response, in Discord's shape: `{"message", "code", "errors"?}`.

    `violation` says what rule the bot broke; when set, the fake records it in
    `FakeDiscord.violations` as well as answering with the error.
    """

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: dict[str, Any] | None = None,
        violation: str | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.violation = violation

    def body(self) -> dict[str, Any]:
        data: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            data["errors"] = self.errors
        return data

    @classmethod
    def invalid_form(cls, problems: list[Problem], what: str) -> ApiError:
        listed = "; ".join(str(p) for p in problems)
        return cls(
            400,
            50035,
            "Invalid Form Body",
            errors=errors_object(problems),
            violation=f"{what}: {listed}",
        )


def unknown(what: str, code: int, *, violation: str | None = None) -> ApiError:
    return ApiError(404, code, f"Unknown {what}", violation=violation)


MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013


class NotAnswered(AssertionError):
    """The bot did not answer an interaction in time, or Discord refused its answer."""


class ProtocolError(AssertionError):
    """A test asked the fake for something a real Discord user could not do."""
