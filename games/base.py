"""The shared vocabulary of the rules engines.

Sides, the outcome of a game, variant options, move descriptions, the errors a
player can cause, and the two protocols every game meets: `GameState` (one
immutable position with its history) and `GameSpec` (what the registry holds).
Nothing here knows a particular game, and nothing here speaks English: an
outcome's reason and an error are codes with parameters, which `words/` turns
into sentences at the edge.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, Self, TypeVar


class Side(enum.IntEnum):
    """Who moves: the first player (Blue, White, South) or the second."""

    FIRST = 0
    SECOND = 1

    @property
    def other(self) -> Side:
        return Side.SECOND if self is Side.FIRST else Side.FIRST


class Termination(enum.StrEnum):
    """Why a game ended, as a code; the words for it are in words/ (`words.games`).

    The comment on each names what `Outcome.side` is for that reason.
    """

    GOAL = "goal"  # side: whose every stone is home (Oska); a draw (side None): both at once
    GOAL_STONELESS = "goal-stoneless"  # side: who lost every stone, so all it has is home
    ELIMINATION = "elimination"  # side: who lost every stone; a draw (side None): both
    BLOCKED = "blocked"  # neither player can move (a draw)
    NO_MOVES = "no-moves"  # side: the player to move, who cannot move and loses (Lasca)
    REPETITION = "repetition"  # Lasca threefold (draw); Oware's first repeat (share-out), score
    MOVE_LIMIT = "move-limit"  # count: the limit of quiet moves (Lasca)
    TWENTY_FIVE = "twenty-five"  # side: who captured 25 or more; count: the seeds (Oware)
    NO_SEEDS = "no-seeds"  # side: the player to move, who has no seeds; score (Oware)
    CANNOT_FEED = "cannot-feed"  # side: the seedless player no move can feed; score (Oware)
    RESIGNATION = "resignation"  # side: who resigned
    TIME = "time"  # side: who ran out of time
    AGREEMENT = "agreement"  # drawn by agreement
    ABANDONED = "abandoned"  # the game's channel is gone (not rated)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winner (None for a draw) and why, as a code with its numbers.

    `side` is the side the reason is about (see `Termination`), `score` the
    two stores after an Oware share-out, `count` a number the reason names.
    `code` and `params` let the words layer read an outcome as it reads an error.
    """

    winner: Side | None
    reason: Termination
    side: Side | None = None
    score: tuple[int, int] | None = None
    count: int | None = None

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

    @property
    def code(self) -> str:
        return self.reason.value

    @property
    def params(self) -> dict[str, object]:
        """The side, score and count that are set."""
        found: dict[str, object] = {}
        if self.side is not None:
            found["side"] = self.side
        if self.score is not None:
            found["score"] = self.score
        if self.count is not None:
            found["count"] = self.count
        return found

    def as_params(self, game: str) -> dict[str, object]:
        """The outcome as plain parameters of an error that mentions it (`words` names it)."""
        winner = None if self.winner is None else int(self.winner)
        plain = {key: int(value) if isinstance(value, Side) else value
                 for key, value in self.params.items()}  # fmt: skip
        return {"game": game, "reason": self.code, "winner": winner, **plain}


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
    """Anything a player did wrong, as a code and its parameters; `words` says it.

    Parameters are plain values (text, numbers, tuples of text), never
    sentences, so any language can be made of them. `str()` is for logs.
    """

    def __init__(self, code: str, /, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params: dict[str, object] = params

    def __str__(self) -> str:
        return f"{self.code} {self.params!r}"

    def __reduce__(self) -> tuple[Callable[..., GameError], tuple[object, ...]]:
        # Errors cross process boundaries (the AI runs in a pool); Exception's own
        # pickling would call __init__ with `args` alone and lose the parameters.
        return (_rebuild, (type(self), self.code, self.params))

    def with_params(self, **extra: object) -> Self:
        """The same error with more parameters (a replay adds the move's number)."""
        return _rebuild(type(self), self.code, {**self.params, **extra})


_E = TypeVar("_E", bound=GameError)


def _rebuild(kind: type[_E], code: str, params: dict[str, object]) -> _E:
    error = kind.__new__(kind)
    GameError.__init__(error, code, **params)
    return error


class MoveError(GameError):
    """A move that cannot be played; its parameters hold the move and the legal moves."""

    def __init__(self, move: str, code: str, legal: Sequence[str], /, **params: object) -> None:
        super().__init__(code, **params, move=move, legal=tuple(legal))

    @property
    def move(self) -> str:
        return str(self.params["move"])

    @property
    def legal(self) -> tuple[str, ...]:
        legal = self.params["legal"]
        assert isinstance(legal, tuple)
        return legal


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
    """One rule option of a game, written `key=value`.

    What each value does is said by words/ (`<game>.variant.<key>.<value>`, or
    `<game>.variant.<key>` for the option as a whole), not here.
    """

    key: str
    values: tuple[str, ...]
    default: str


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
                    code = "variant.unknown-option" if by_key else "variant.no-options"
                    raise VariantError(code, pair=pair, key=key, options=tuple(by_key))
                if not sep or value not in option.values:
                    raise VariantError(
                        "variant.bad-value",
                        pair=pair,
                        key=key,
                        values=option.values,
                        choices=tuple(f"{key}={v}" for v in option.values),
                    )
                chosen[key] = value
        return cls(options, tuple(chosen[option.key] for option in options))


# ------------------------------------------------------------------ protocols


class GameState(Protocol):
    """One position of a game with the moves that led to it. Immutable.

    Moves are strings in the game's canonical notation (games/RULES.md); `play`
    accepts the alternatives the notation allows and checks legality itself.
    """

    @property
    def spec(self) -> GameSpec:
        """The game this is a position of (its module's `SPEC`)."""
        ...

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


def play_on(state: GameState, moves: Iterable[str]) -> GameState:
    """`state` with `moves` played on it, in order (a replay that starts part-way).

    Raises the MoveError of the first move that fails, with its 1-based number
    in the game (counting the moves `state` already has) as the parameter `ply`.
    """
    for ply, move in enumerate(moves, start=len(state.moves) + 1):
        try:
            state = state.play(move)
        except MoveError as error:
            raise error.with_params(ply=ply) from None
    return state


@dataclass(frozen=True)
class GameSpec:
    """What the registry knows of a game: names, options and constructors."""

    name: str
    title: str
    side_names: tuple[str, str]
    options: tuple[VariantOption, ...]
    start: Callable[[Variant], GameState]
    from_text: Callable[[str, Variant], GameState]

    def variant(self, texts: Iterable[str] | str = ()) -> Variant:
        return Variant.parse(self.options, texts)

    def new(self, texts: Iterable[str] | str = ()) -> GameState:
        """The start position under the given `key=value` options."""
        return self.start(self.variant(texts))

    def replay(self, variant: Variant | Iterable[str] | str, moves: Iterable[str]) -> GameState:
        """The start position of `variant` with `moves` played, in order.

        Raises the MoveError of the first move that fails, with its 1-based
        number added as the parameter `ply`.
        """
        chosen = variant if isinstance(variant, Variant) else self.variant(variant)
        return play_on(self.start(chosen), moves)

    def all_variants(self) -> tuple[Variant, ...]:
        """Every combination of option values, defaults first."""
        combos: list[tuple[str, ...]] = [()]
        for option in self.options:
            ordered = (option.default, *(v for v in option.values if v != option.default))
            combos = [(*combo, value) for combo in combos for value in ordered]
        return tuple(Variant(self.options, combo) for combo in combos)

    def side_name(self, side: Side) -> str:
        return self.side_names[side]
