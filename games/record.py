"""Game records: the tag-and-movetext form of RULES.md ("Records").

A record is written one tag a line, a blank line, then the moves numbered by
full turns and the result. Reading a record back replays every move through
the engine, so a record that loads is a legal game; one that does not says
which move failed and why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date as Date

from games import registry
from games.base import GameError, GameSpec, GameState, RecordError, Variant

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
TAG_ORDER = ("Game", "Variant", "Site", "Date", "First", "Second", "Result")
_TAG_LINE = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$')
_MOVE_NUMBER = re.compile(r"^(\d+)\.(.*)$")
_WRAP = 80


@dataclass(frozen=True)
class Record:
    """A game as a record: which game, under which options, its moves and tags."""

    spec: GameSpec
    variant: Variant
    moves: tuple[str, ...]
    result: str = "*"
    site: str = ""
    date: str = ""
    first: str = ""
    second: str = ""

    def to_text(self) -> str:
        values = {
            "Game": self.spec.title,
            "Variant": str(self.variant),
            "Site": self.site,
            "Date": self.date,
            "First": self.first,
            "Second": self.second,
            "Result": self.result,
        }
        tags = [f'[{key} "{_escape(values[key])}"]' for key in TAG_ORDER]
        return "\n".join([*tags, "", *_movetext_lines(self.moves, self.result)]) + "\n"

    def replay(self) -> GameState:
        """The game the record describes; RecordError names a move that fails."""
        state = self.spec.start(self.variant)
        for index, move in enumerate(self.moves):
            try:
                state = state.play(move)
            except GameError as error:
                side = self.spec.side_names[index % 2]
                raise RecordError(f"{side}'s move {index // 2 + 1}: {error}") from error
        outcome = state.outcome()
        if outcome is not None and self.result not in (outcome.result, "*"):
            raise RecordError(
                f"the result says {self.result}, but the moves end the game {outcome.result}"
                f" ({outcome.reason})"
            )
        return state


def record_of(
    spec: GameSpec,
    state: GameState,
    *,
    result: str | None = None,
    site: str = "",
    day: Date | None = None,
    first: str = "",
    second: str = "",
) -> Record:
    """The record of a game; the result defaults to what the engine decided."""
    if result is None:
        outcome = state.outcome()
        result = outcome.result if outcome else "*"
    if result not in RESULTS:
        raise RecordError(f"`{result}` is not a result (write one of {', '.join(RESULTS)})")
    return Record(
        spec=spec,
        variant=state.variant,
        moves=state.moves,
        result=result,
        site=site,
        date=day.strftime("%Y.%m.%d") if day else "",
        first=first,
        second=second,
    )


def parse_record(text: str) -> Record:
    """Read a record's text; checks its form, not yet its moves (see `load`)."""
    tags: dict[str, str] = {}
    body: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("[") and not body:
            match = _TAG_LINE.match(line)
            if match is None:
                raise RecordError(f'line {number}: a tag is written [Name "value"]')
            tags[match.group(1)] = _unescape(match.group(2))
        else:
            body.append(line)
    if "Game" not in tags:
        raise RecordError('the record has no [Game "..."] tag')
    try:
        spec = registry.get(tags["Game"])
        variant = spec.variant(tags.get("Variant", ""))
    except GameError as error:
        raise RecordError(str(error)) from error
    moves, result = _parse_movetext(" ".join(body))
    tagged = tags.get("Result", result)
    if tagged != result:
        raise RecordError(f"the Result tag says {tagged} but the moves end with {result}")
    return Record(
        spec=spec,
        variant=variant,
        moves=moves,
        result=result,
        site=tags.get("Site", ""),
        date=tags.get("Date", ""),
        first=tags.get("First", ""),
        second=tags.get("Second", ""),
    )


def load(text: str) -> tuple[Record, GameState]:
    """Read a record and replay it: the record and the game it leads to."""
    record = parse_record(text)
    return record, record.replay()


def _parse_movetext(text: str) -> tuple[tuple[str, ...], str]:
    tokens = text.split()
    result = "*"
    if tokens and tokens[-1] in RESULTS:
        result = tokens.pop()
    moves: list[str] = []
    for token in tokens:
        match = _MOVE_NUMBER.match(token)
        if match is None:
            if token in RESULTS:
                raise RecordError(f"the result `{token}` must come last")
            moves.append(token)
            continue
        expected = len(moves) // 2 + 1
        if len(moves) % 2 or int(match.group(1)) != expected:
            raise RecordError(f"`{token}`: expected move number {expected}.")
        if match.group(2):
            moves.append(match.group(2))
    return tuple(moves), result


def _movetext_lines(moves: tuple[str, ...], result: str) -> list[str]:
    tokens: list[str] = []
    for index, move in enumerate(moves):
        tokens.append(f"{index // 2 + 1}. {move}" if index % 2 == 0 else move)
    tokens.append(result)
    lines: list[str] = []
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > _WRAP:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return lines


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)
