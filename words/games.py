"""How a game ended, in words: an engine's `Outcome` (or the service's) as a sentence.

Duck-typed, so that this layer imports nothing of the project: an outcome is
anything with `winner`, `reason` (a code, e.g. a `Termination`), `side`,
`score` and `count`, the sides being 0/1 (`Side` is an int). The sentence is
the first entry found of `outcome.<game>.<reason>.draw` (for a draw),
`outcome.<game>.<reason>` and `outcome.<reason>`, filled with `side` and
`winner` (the names of those sides), `first` and `second` (both names),
`a` and `b` (the score) and `count`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from words.catalogue import DEFAULT_LOCALE, has_text, say


class OutcomeLike(Protocol):
    @property
    def winner(self) -> int | None: ...

    @property
    def reason(self) -> str: ...

    @property
    def side(self) -> int | None: ...

    @property
    def score(self) -> tuple[int, int] | None: ...

    @property
    def count(self) -> int | None: ...


def outcome_text(outcome: OutcomeLike, game: str, locale: str | None = DEFAULT_LOCALE) -> str:
    """The sentence saying why the game ended ("Blue has every stone home")."""
    reason = getattr(outcome.reason, "value", outcome.reason)
    return _sentence(
        game,
        str(reason),
        outcome.winner,
        outcome.side,
        outcome.score,
        outcome.count,
        locale,
    )


def outcome_of_params(params: Mapping[str, Any], locale: str | None = DEFAULT_LOCALE) -> str:
    """The sentence of an outcome passed as an error's plain parameters (`Outcome.as_params`)."""
    return _sentence(
        str(params["game"]),
        str(params["reason"]),
        params.get("winner"),
        params.get("side"),
        params.get("score"),
        params.get("count"),
        locale,
    )


def with_outcome(params: Mapping[str, Any], locale: str | None = DEFAULT_LOCALE) -> dict[str, Any]:
    """`params` with `{outcome}` written out when they carry one (`Outcome.as_params`)."""
    if "reason" in params and "game" in params and "outcome" not in params:
        return {**params, "outcome": outcome_of_params(params, locale)}
    return dict(params)


def outcome_code(game: str, reason: str, draw: bool, locale: str | None = DEFAULT_LOCALE) -> str:
    """The catalogue entry an outcome of `game` for `reason` reads (see the module's doc)."""
    keys = [f"outcome.{game}.{reason}", f"outcome.{reason}"]
    if draw:
        keys.insert(0, f"outcome.{game}.{reason}.draw")
    return next((key for key in keys if has_text(key, locale)), keys[-1])


def _sentence(
    game: str,
    reason: str,
    winner: int | None,
    side: int | None,
    score: tuple[int, int] | None,
    count: int | None,
    locale: str | None,
) -> str:
    names = side_names(game, locale)
    params: dict[str, Any] = {"first": names[0], "second": names[1]}
    if side is not None:
        params["side"] = names[int(side)]
    if winner is not None:
        params["winner"] = names[int(winner)]
    if score is not None:
        params["a"], params["b"] = score
    if count is not None:
        params["count"] = count
    return say(outcome_code(game, reason, winner is None, locale), locale, **params)


def summary(game: str, locale: str | None = DEFAULT_LOCALE) -> str:
    """What the game is about, in two lines (the rules card)."""
    return say(f"{game}.summary", locale)


RULES_PARTS = ("goal", "move", "capture", "end")
"""The parts of a rules card, in order: the aim, a move, a capture, the end."""


def rules_card(game: str, locale: str | None = DEFAULT_LOCALE) -> list[tuple[str, str]]:
    """The rules for a newcomer: (heading, text) per part of RULES_PARTS, each a short paragraph.

    A part's heading is the game's own (`oware.rules.heading.move`: "Sowing") when it has
    one, else the shared `rules.heading.<part>`.
    """
    card = []
    for part in RULES_PARTS:
        heading = f"{game}.rules.heading.{part}"
        if not has_text(heading, locale or DEFAULT_LOCALE):
            heading = f"rules.heading.{part}"
        card.append((say(heading, locale), say(f"{game}.rules.{part}", locale)))
    return card


def value_help(game: str, key: str, value: str, locale: str | None = DEFAULT_LOCALE) -> str | None:
    """What one value of a rule option does, when the catalogue says it value by value."""
    code = f"{game}.variant.{key}.{value}"
    return say(code, locale) if has_text(code, locale) else None


def option_help(
    game: str, key: str, values: Sequence[str], locale: str | None = DEFAULT_LOCALE
) -> str:
    """What a rule option does: `value: what it does; ...`, or the option's one sentence."""
    helps = [value_help(game, key, value, locale) for value in values]
    if all(helps):
        return "; ".join(f"{value}: {text}" for value, text in zip(values, helps, strict=True))
    return say(f"{game}.variant.{key}", locale)


def title(game: str, locale: str | None = DEFAULT_LOCALE) -> str:
    """The game's name as players of the language write it (`Lasca`, in Czech `Laska`)."""
    return say(f"{game}.title", locale)


def side_names(game: str, locale: str | None = DEFAULT_LOCALE) -> tuple[str, str]:
    """The two sides' names in the language, first mover first (`Modrý`, `Červený`)."""
    return say(f"{game}.side.first", locale), say(f"{game}.side.second", locale)


# Parameters that name a side: the engines and the service pass the side's number
# (`Side`, 0 moves first), and the reader's language names it.
SIDE_PARAMS = ("side", "opponent", "mover", "winner")


def with_side_names(params: Mapping[str, Any], game: str, locale: str | None) -> dict[str, Any]:
    """`params` with each side's number (`SIDE_PARAMS`) said as its name in the language."""
    names = side_names(game, locale)
    return {
        key: names[value] if key in SIDE_PARAMS and _is_side(value) else value
        for key, value in params.items()
    }


def _is_side(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value in (0, 1)
