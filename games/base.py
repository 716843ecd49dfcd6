"""The shared vocabulary of the rules engines.

Sides, the outcome of a game, variant options, move descriptions, the errors a
player can cause, and the two protocols every game meets: `GameState` (one
immutable position with its history) and `GameSpec` (what the registry holds).
Nothing here knows a particular game.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol


class Side(enum.IntEnum):
    """Who moves: the first player (Blue, White, South) or the second."""

    FIRST = 0
    SECOND = 1

    @property
    def other(self) -> Side:
        return Side.SECOND if self is Side.FIRST else Side.FIRST


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winner (None for a draw) and why, in words."""

    winner: Side | None
    reason: str

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    @property
    def result(self) -> str:
        """The record's result text: `1-0`, `0-1` or `1/2-1/2`."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner is Side.FIRST else "0-1"

    @property
    def label(self) -> str:
        """`first`, `second` or `draw`, as the command line prints it."""
        if self.winner is None:
            return "draw"
        return "first" if self.winner is Side.FIRST else "second"


@dataclass(frozen=True, slots=True)
class MoveInfo:
    """What a move touches, for highlighting it on a board.

    `path` is the square the piece left followed by every square it landed on
    (Oware: the pit that was emptied). `captured` names the squares or pits
    whose pieces were taken, `forfeited` the stones lost to a huff.
    """

    text: str
    path: tuple[str, ...]
    captured: tuple[str, ...] = ()
    forfeited: tuple[str, ...] = ()


# --------------------------------------------------------------------- errors


class GameError(Exception):
    """Anything a player did wrong; the message is what the player reads."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


def _with_legal(message: str, legal: Sequence[str]) -> str:
    if not legal:
        return message if "over" in message else f"{message}. The game is over."
    return f"{message}. Legal moves: {', '.join(legal)}"


class MoveError(GameError):
    """A move that cannot be played; names the legal moves."""

    def __init__(self, move: str, message: str, legal: Sequence[str]) -> None:
        self.move = move
        self.why = message
        self.legal = tuple(legal)
        super().__init__(_with_legal(message, self.legal))

    def __reduce__(self) -> tuple[type[MoveError], tuple[str, str, tuple[str, ...]]]:
        # Errors cross process boundaries (the AI runs in a pool); rebuild from the parts.
        return (type(self), (self.move, self.why, self.legal))


class MalformedMove(MoveError):
    """The text is not a move at all in this game's notation (`z9`)."""


class IllegalMove(MoveError):
    """A well-formed move the rules forbid here (`c1-d2` when a capture is due)."""


class VariantError(GameError):
    """An unknown variant key or value."""


class PositionError(GameError):
    """A position text that does not describe a position of the game."""


class RecordError(GameError):
    """A record that cannot be read back into a game."""


# ------------------------------------------------------------------- variants


@dataclass(frozen=True, slots=True)
class VariantOption:
    """One rule option of a game, written `key=value`."""

    key: str
    values: tuple[str, ...]
    default: str
    help: str


@dataclass(frozen=True, slots=True)
class Variant:
    """The value of every option of a game, in the order the game lists them."""

    options: tuple[VariantOption, ...]
    values: tuple[str, ...]

    def __getitem__(self, key: str) -> str:
        for option, value in zip(self.options, self.values, strict=True):
            if option.key == key:
                return value
        raise KeyError(key)

    def as_dict(self) -> dict[str, str]:
        """Every option's key with its chosen value."""
        return {option.key: value for option, value in zip(self.options, self.values, strict=True)}

    def changes(self) -> tuple[str, ...]:
        """The `key=value` pairs that differ from the defaults."""
        return tuple(
            f"{option.key}={value}"
            for option, value in zip(self.options, self.values, strict=True)
            if value != option.default
        )

    def __str__(self) -> str:
        return " ".join(self.changes())

    @classmethod
    def default(cls, options: tuple[VariantOption, ...]) -> Variant:
        return cls(options, tuple(option.default for option in options))

    @classmethod
    def parse(cls, options: tuple[VariantOption, ...], texts: Iterable[str] | str = ()) -> Variant:
        """Read `key=value` pairs (any case, space-separated or one per item)."""
        if isinstance(texts, str):
            texts = [texts]
        chosen = {option.key: option.default for option in options}
        by_key = {option.key: option for option in options}
        for text in texts:
            for pair in text.split():
                key, sep, value = pair.lower().partition("=")
                option = by_key.get(key)
                if option is None:
                    known = ", ".join(by_key) or "none"
                    raise VariantError(f"`{pair}`: unknown option `{key}` (options: {known})")
                if not sep or value not in option.values:
                    allowed = ", ".join(f"{key}={v}" for v in option.values)
                    raise VariantError(f"`{pair}`: write one of {allowed}")
                chosen[key] = value
        return cls(options, tuple(chosen[option.key] for option in options))


# ------------------------------------------------------------------ protocols


class GameState(Protocol):
    """One position of a game with the moves that led to it. Immutable.

    Moves are strings in the game's canonical notation (RULES.md); `play`
    accepts the alternatives the notation allows and checks legality itself.
    """

    @property
    def variant(self) -> Variant: ...

    @property
    def to_move(self) -> Side: ...

    @property
    def moves(self) -> tuple[str, ...]:
        """The canonical moves played since the position the game started from."""
        ...

    def legal_moves(self) -> tuple[str, ...]:
        """Every legal move, canonical; empty exactly when the game is over."""
        ...

    def play(self, move: str) -> GameState:
        """The state after `move`; raises MalformedMove or IllegalMove."""
        ...

    def parse_move(self, text: str) -> str:
        """The canonical text of a legal move; raises MalformedMove or IllegalMove."""
        ...

    def outcome(self) -> Outcome | None:
        """None while the game goes on."""
        ...

    def describe(self, move: str) -> MoveInfo:
        """What a legal move of this position touches."""
        ...

    def to_text(self) -> str:
        """The position as text (the game's `from_text` reads it back)."""
        ...


@dataclass(frozen=True)
class GameSpec:
    """What the registry knows of a game: names, options and constructors."""

    name: str
    title: str
    side_names: tuple[str, str]
    options: tuple[VariantOption, ...]
    start: Callable[[Variant], GameState]
    from_text: Callable[[str, Variant], GameState]
    summary: str = ""

    def variant(self, texts: Iterable[str] | str = ()) -> Variant:
        return Variant.parse(self.options, texts)

    def new(self, texts: Iterable[str] | str = ()) -> GameState:
        """The start position under the given `key=value` options."""
        return self.start(self.variant(texts))

    def all_variants(self) -> tuple[Variant, ...]:
        """Every combination of option values, defaults first."""
        combos: list[tuple[str, ...]] = [()]
        for option in self.options:
            ordered = (option.default, *(v for v in option.values if v != option.default))
            combos = [(*combo, value) for combo in combos for value in ordered]
        return tuple(Variant(self.options, combo) for combo in combos)

    def side_name(self, side: Side) -> str:
        return self.side_names[side]
