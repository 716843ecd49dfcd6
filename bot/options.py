"""The option values of a slash command, checked before anything is done with them.

Discord's own client offers only the types and choices a command declares,
but an interaction is a request anyone can craft: a modified client sends an
integer for `time`, a string for `opponent`, a level that does not exist.
discord.py hands such values through unchanged (it converts by the type the
request itself names, and checks neither ranges nor choices), so each value
is checked here, and a wrong one is refused with a `BadInput` that names the
option and says what it takes, before anything public is posted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import discord

from games import registry
from games.base import GameSpec
from matches import LEVELS, BadInput
from matches.inputs import LIVE_CONTROLS

TIMES = ("none", "5m", "1h", "1d", "3d")  # each labelled `bot.choice.time.<value>`
# A challenge may also choose a live clock (minutes + seconds added per move).
CHALLENGE_TIMES = (*TIMES, *LIVE_CONTROLS)
# A tournament's games, and a server's default, always have a time (`matches.inputs`):
# neither offers none (a tournament has limits per move only).
TOURNAMENT_TIMES = tuple(time for time in TIMES if time != "none")
SERVER_TIMES = tuple(time for time in CHALLENGE_TIMES if time != "none")
FIRSTS = ("random", "me", "them")  # each labelled `bot.choice.first.<value>`
MAX_RECORD_OPTION = 6000  # the `record` option's declared length (Discord's most)
MAX_GAME_ID = 2**63 - 1  # what the database holds


def choice(option: str, value: object, allowed: Sequence[str]) -> str | None:
    """One of `allowed`, or None when the option was left empty."""
    if value is None:
        return None
    if not isinstance(value, str) or value not in allowed:
        raise BadInput(
            "bot.refuse.option.choice", option=option, allowed=list(allowed), given=given(value)
        )
    return value


def user(option: str, value: object) -> discord.User | discord.Member | None:
    """A user Discord resolved (a member of the server), or None when left empty."""
    if value is None:
        return None
    if not isinstance(value, discord.User | discord.Member):  # a string, a bare id...
        raise BadInput("bot.refuse.option.user", option=option)
    return value


def role(option: str, value: object) -> discord.Role | None:
    """A role Discord resolved (one of the server's), or None when left empty."""
    if value is None:
        return None
    if not isinstance(value, discord.Role):
        raise BadInput("bot.refuse.option.role", option=option, given=given(value))
    return value


def game_id(option: str, value: object) -> int | None:
    """A game's number, or None when left empty."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_GAME_ID:
        raise BadInput("bot.refuse.option.game-id", option=option, given=given(value))
    return value


def text(option: str, value: object, *, low: int, high: int) -> str | None:
    """A text of `low` to `high` characters, or None when left empty."""
    if value is None:
        return None
    if not isinstance(value, str) or not low <= len(value) <= high:
        raise BadInput("bot.refuse.option.text", option=option, low=low, high=high)
    return value


def flag(option: str, value: object) -> bool | None:
    """On or off, or None when left empty."""
    if value is None:
        return None
    if not isinstance(value, bool):
        raise BadInput("bot.refuse.option.flag", option=option, given=given(value))
    return value


def attachment(option: str, value: object) -> discord.Attachment | None:
    """An attached file, or None when left empty."""
    if value is None:
        return None
    if not isinstance(value, discord.Attachment):
        raise BadInput("bot.refuse.option.file", option=option)
    return value


def given(value: object) -> str:
    """What was sent, as text (the refusal quotes it; `replies.explain` makes it harmless)."""
    return value if isinstance(value, str) else repr(value)


@dataclass(frozen=True, slots=True)
class Terms:
    """What a game is offered on: the checked options of `challenge` (and of `import`)."""

    opponent: discord.User | discord.Member | None
    variant: tuple[str, ...]
    time: str | None
    first: str
    level: str | None
    rated: bool = True


def terms(spec: GameSpec, values: Mapping[str, object], names: Mapping[str, str]) -> Terms:
    """The checked terms from the raw `values`, by option name as Discord shows it.

    `names` maps a variant key to the name its value has in `values` (a Python
    name: `must-play-12` → `must_play_12`); a variant value must be one the
    game's rules allow.
    """
    variant = []
    for option in spec.options:
        value = choice(option.key, values.get(names.get(option.key, option.key)), option.values)
        if value is not None:
            variant.append(f"{option.key}={value}")
    return Terms(
        opponent=user("opponent", values.get("opponent")),
        variant=tuple(variant),
        time=choice("time", values.get("time"), CHALLENGE_TIMES),
        first=choice("first", values.get("first"), FIRSTS) or "random",
        level=choice("level", values.get("level"), LEVELS),
        rated=flag("rated", values.get("rated")) is not False,
    )


def game_name(option: str, value: object) -> GameSpec:
    """A game named by an option (`oska`): its rules."""
    allowed = tuple(registry.GAMES)
    name = choice(option, value, allowed)
    if name is None:
        raise BadInput("bot.refuse.option.choice", option=option, allowed=list(allowed),
                       given=given(value))  # fmt: skip
    return registry.GAMES[name]


def page(option: str, value: object) -> int:
    """A page number as players count them (from 1), as the 0-based index lists use."""
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise BadInput("community.bad-page-option", option=option, value=given(value))
    return value - 1
