"""Game records: the tag-and-movetext form of games/RULES.md ("Records").

A record is written one tag a line, a blank line, then the moves numbered by
full turns and the result. Reading a record back replays every move through
the engine, so a record that loads is a legal game; one that does not says
which move failed and why (a RecordError whose `cause` is the move's error).

Records come from strangers, so reading one is bounded before any work is
done on it: its size, the digits of a move number (Python refuses to read an
integer of more than 4,300 digits, and a long one is slow), the length of a
move and the number of moves. Each limit has its own refusal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date as Date

from games import registry
from games.base import GameError, GameSpec, GameState, MoveError, RecordError, Side, Variant

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
TAG_ORDER = ("Game", "Variant", "Site", "Date", "First", "Second", "Result")
_TAG_LINE = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$')
_MOVE_NUMBER = re.compile(r"^(\d+)\.(.*)$")
_WRAP = 80
MAX_TEXT = 64 * 1024  # characters: far more than the longest game's record
MAX_NUMBER_DIGITS = 6  # a move number; no game here lasts 10**6 turns
MAX_TOKEN = 64  # a move's text (the longest capture chain is far shorter)
MAX_MOVES = 10_000  # plies


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
        try:
            state = self.spec.replay(self.variant, self.moves)
        except MoveError as error:
            ply = error.params["ply"]
            assert isinstance(ply, int)
            # The move's own parameters travel along, so its sentence is said inside ours.
            wrapped = {**error.params, "cause": error.code, "turn": (ply + 1) // 2,
                       "mover": Side((ply - 1) % 2), "game": self.spec.name}  # fmt: skip
            raise RecordError("record.bad-move", **wrapped) from error
        outcome = state.outcome()
        if outcome is not None and self.result not in (outcome.result, "*"):
            raise RecordError(
                "record.result-contradicts",
                said=self.result,
                ended=outcome.result,
                **outcome.as_params(self.spec.name),
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
        raise RecordError("record.bad-result", result=result, results=RESULTS)
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
    if len(text) > MAX_TEXT:
        raise RecordError("record.too-long", limit=MAX_TEXT, given=len(text))
    tags: dict[str, str] = {}
    body: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("[") and not body:
            match = _TAG_LINE.match(line)
            if match is None:
                raise RecordError("record.bad-tag", line=number)
            tags[match.group(1)] = _unescape(match.group(2))
        else:
            body.append(line)
    if "Game" not in tags:
        raise RecordError("record.no-game")
    try:
        spec = registry.get(tags["Game"])
        variant = spec.variant(tags.get("Variant", ""))
    except GameError as error:
        # The same words (an unknown game or option), as a record's refusal.
        raise RecordError(error.code, **error.params) from error
    moves, result = _parse_movetext(" ".join(body))
    tagged = tags.get("Result", result)
    if tagged != result:
        raise RecordError("record.result-tag", tagged=tagged, result=result)
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
                raise RecordError("record.result-not-last", token=token)
            moves.append(_move_text(token))
        else:
            expected = len(moves) // 2 + 1
            number = match.group(1)
            if len(number) > MAX_NUMBER_DIGITS:
                raise RecordError(
                    "record.number-too-long", digits=len(number), limit=MAX_NUMBER_DIGITS
                )
            rest = _move_text(match.group(2))
            if len(moves) % 2 or int(number) != expected:
                raise RecordError("record.move-number", token=token, expected=expected)
            if rest:
                moves.append(rest)
        if len(moves) > MAX_MOVES:
            raise RecordError("record.too-many-moves", limit=MAX_MOVES)
    return tuple(moves), result


def move_number(ply: int) -> tuple[int, Side]:
    """How the record numbers the move of index `ply` (0: the game's first move): its
    full-turn number and its side. `1. a1-b2 a5-b4 2. c1-d2`: ply 2 is (2, FIRST).

    The one numbering Kamen shows anywhere: the board's caption, its footer, the
    reminders, the history and the replays all say "move 2" of ply 2 and ply 3.
    """
    if ply < 0:
        raise ValueError(f"a move's index is 0 or more, not {ply}")
    return ply // 2 + 1, Side.FIRST if ply % 2 == 0 else Side.SECOND


def _move_text(token: str) -> str:
    if len(token) > MAX_TOKEN:
        raise RecordError("record.move-too-long", start=token[:12], limit=MAX_TOKEN)
    return token


def _movetext_lines(moves: tuple[str, ...], result: str) -> list[str]:
    tokens: list[str] = []
    for index, move in enumerate(moves):
        number, side = move_number(index)
        tokens.append(f"{number}. {move}" if side is Side.FIRST else move)
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
