"""Checking what strangers typed before anything is written.

Texts are capped (a game name, variant options, a move, a record, names in an
exported record), ids must be Discord snowflakes, time controls and levels
must be ones we know: a time control is a limit per move (`5m`, `1d`) or a
live clock (`5+3`: minutes of base time, seconds added after each move).
Every refusal is a `BadInput` whose code names the text
(`match.input.too-long.move`, ...) and whose params say what is allowed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from games import registry
from games.base import GameError, GameSpec, Variant
from matches.errors import BadInput, from_game_error
from matches.live_clocks import (
    MAX_BASE_MINUTES,
    MAX_INCREMENT_SECONDS,
    MIN_BASE_MINUTES,
    LiveControl,
)
from matches.picker import ALIASES, LEVELS
from matches.records import DEFAULT_TIME, FirstChoice
from words.catalogue import LANGUAGES

MAX_GAME_NAME = 32
MAX_VARIANT = 200
MAX_MOVE = 64
MAX_RECORD = 64 * 1024
MAX_NAME = 256
MIN_MOVE_TIME = timedelta(minutes=1)
MAX_MOVE_TIME = timedelta(days=14)

# The live controls the bot offers as choices; any `M+S` within the bounds is played.
LIVE_CONTROLS: tuple[str, ...] = ("3+2", "5+3", "10+5")
# The limits per move a refusal gives as examples.
MOVE_LIMITS: tuple[str, ...] = ("5m", "1h", "1d", "3d")

_UNITS = {"s": 1, "m": 60, "min": 60, "h": 3600, "d": 86400}
_TIME = re.compile(r"^(\d{1,6})\s*(s|m|min|h|d)$")
_LIVE = re.compile(r"^(\d{1,6})\s*\+\s*(\d{1,6})$")
_NONE = ("", "none", "off")
_ID_LIMIT = 2**63


def capped(text: str, limit: int, what: str) -> str:
    """The text itself, if it is a string no longer than `limit`.

    `what` names the text in the refusal's code: move, record, game-name,
    variant, site, name, time-control, level, first-player.
    """
    if not isinstance(text, str):
        raise BadInput(f"match.input.not-text.{what}")
    if len(text) > limit:
        raise BadInput(f"match.input.too-long.{what}", limit=limit, given=len(text))
    return text


def snowflake(value: int, what: str) -> int:
    """A Discord id: a positive integer that fits the database (`what`: server, user, ...)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < _ID_LIMIT:
        raise BadInput(f"match.input.bad-id.{what}", value=repr(value))
    return value


def game_spec(name: str) -> GameSpec:
    try:
        return registry.get(capped(name, MAX_GAME_NAME, "game-name"))
    except GameError as error:
        raise from_game_error(error) from error


def variant_of(spec: GameSpec, texts: Iterable[str] | str) -> Variant:
    """The variant `key=value` texts ask for; BadInput names the allowed values."""
    texts = [texts] if isinstance(texts, str) else list(texts)
    capped(" ".join(texts), MAX_VARIANT, "variant")
    try:
        return spec.variant(texts)
    except GameError as error:
        raise from_game_error(error) from error


@dataclass(frozen=True, slots=True)
class TimeControl:
    """What a challenge's `time` asks for: a limit per move, a live clock, or neither."""

    move_seconds: int | None = None
    live: LiveControl | None = None

    @property
    def untimed(self) -> bool:
        """Neither a limit per move nor a live clock: nothing ends the game if no one moves."""
        return self.move_seconds is None and self.live is None


def move_seconds(time: str | timedelta | None) -> int | None:
    """A per-move limit in seconds, or None for no time control.

    Text is `none` or a number and a unit: `90s`, `5m`, `5min`, `1h`, `3d`.
    """
    if time is None:
        return None
    if isinstance(time, str):
        text = capped(time, 32, "time-control").strip().lower()
        if text in _NONE:
            return None
        match = _TIME.match(text)
        if match is None:
            raise BadInput("match.input.bad-time", time=time)
        time = timedelta(seconds=int(match.group(1)) * _UNITS[match.group(2)])
    if not MIN_MOVE_TIME <= time <= MAX_MOVE_TIME:
        raise BadInput("match.input.time-range")
    return int(time.total_seconds())


def time_control(time: str | timedelta | LiveControl | None) -> TimeControl:
    """A challenge's time control: none, a limit per move (as `move_seconds`), or a live clock.

    A live clock is written `M+S`: M minutes of base time (1 to 180), S seconds
    added after each of a player's moves (0 to 60): `3+2`, `5+3`, `10+5`, `1+0`.
    A text that is neither kind is refused with examples of both.
    """
    if isinstance(time, LiveControl):
        return TimeControl(live=_live_in_bounds(time))
    if isinstance(time, str):
        text = capped(time, 32, "time-control").strip().lower()
        live = _LIVE.match(text)
        if live is not None:
            control = LiveControl.of_minutes(int(live.group(1)), int(live.group(2)))
            return TimeControl(live=_live_in_bounds(control))
        if text not in _NONE and _TIME.match(text) is None:
            raise BadInput(
                "match.clock.bad-time", time=time, live=LIVE_CONTROLS, per_move=MOVE_LIMITS
            )
    return TimeControl(move_seconds=move_seconds(time))


def server_time(time: str) -> str:
    """A server's default time control, as `time:` writes it (`3d`, `5+3`): any time
    control a challenge accepts but none, since rated and tournament games take it."""
    control = time_control(time)
    if control.untimed:
        raise BadInput("match.input.server-time-none", live=LIVE_CONTROLS, per_move=MOVE_LIMITS)
    return time.strip().lower().replace(" ", "")


def tournament_seconds(time: str | timedelta | None, default: str) -> int:
    """A tournament's limit per move: the one named, else the server's default `default`
    (when that is a live clock, which a tournament has not, `DEFAULT_TIME`). A tournament's
    games are rated and must end: none is refused."""
    if time is None:
        control = time_control(default)
        if control.move_seconds is None:
            control = time_control(DEFAULT_TIME)
    else:
        control = TimeControl(move_seconds=move_seconds(time))
    if control.move_seconds is None:
        raise BadInput("tournament.needs-time", per_move=MOVE_LIMITS)
    return control.move_seconds


def _live_in_bounds(control: LiveControl) -> LiveControl:
    if not control.in_bounds:
        raise BadInput(
            "match.clock.live-range", time=str(control), least=MIN_BASE_MINUTES,
            most=MAX_BASE_MINUTES, increment=MAX_INCREMENT_SECONDS, live=LIVE_CONTROLS,
        )  # fmt: skip
    return control


def level_of(level: str) -> str:
    """A level of the ladder, "1" to "8"; its old name (`hard`) is understood too."""
    text = capped(level, 16, "level").strip().lower()
    text = ALIASES.get(text, text)
    if text not in LEVELS:
        raise BadInput("match.input.bad-level", level=level, levels=LEVELS)
    return text


def known_language(language: str | None) -> str | None:
    """A language Kamen has a catalogue for (`cs`, `en`), or None for "as Discord says"."""
    if language is None:
        return None
    text = capped(str(language), 16, "language").strip().lower()
    if text not in LANGUAGES:
        known = sorted(LANGUAGES)
        raise BadInput("match.input.bad-language", language=str(language), languages=known)
    return text


def first_choice(first: str | FirstChoice) -> FirstChoice:
    text = capped(str(first), 16, "first-player").strip().lower()
    try:
        return FirstChoice(text)
    except ValueError:
        names = tuple(choice.value for choice in FirstChoice)
        raise BadInput("match.input.bad-first", first=str(first), choices=names) from None
