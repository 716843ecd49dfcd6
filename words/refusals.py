"""What a refusal says: an error's code and parameters as the player reads them.

Two parameters of an error name other texts rather than values, because a
sentence may mention another one without the engine composing it:
- `reason` with `game` (what `Outcome.as_params` gives) is an outcome; the
  template reads its sentence as `{outcome}` (words.games);
- `cause` is the code of an error this one wraps, whose parameters are the
  others; the template reads that error's whole explanation as `{cause}`.
A move error (its parameters hold `legal`) is followed by the legal moves.
A side (`side`, `opponent`, `mover`, `winner`) is passed as its number and
named in the reader's language, for the game the error names (`game`) or whose
code it is (`oska.nothing-to-jump`).
"""

from __future__ import annotations

from typing import Any

from words.catalogue import DEFAULT_LOCALE, Coded, has_text, say
from words.games import with_outcome, with_side_names


def explain(error: Coded, locale: str | None = DEFAULT_LOCALE) -> str:
    """What a refusal says: its own sentence, and for a move the legal moves (or that none is).

    An error whose parameters hold `legal` (a move error) is followed by the
    legal moves, or by "The game is over." when there are none and its own
    code (one ending in `.game-over`) does not already say so. An error that
    wraps another (`cause`) has that one's explanation inside its own.
    """
    return _explain(error.code, dict(error.params), locale)


def _explain(code: str, params: dict[str, Any], locale: str | None) -> str:
    if "cause" in params:
        inner = dict(params)
        cause = str(inner.pop("cause"))
        said = {**params, "cause": _explain(cause, inner, locale)}
        return say(code, locale, **_named(code, said, locale))
    params = _named(code, with_outcome(params, locale), locale)
    text = say(code, locale, **params)
    if "legal" not in params:
        return text
    legal = params["legal"]
    if legal:
        return say("legal-moves", locale, sentence=text, legal=legal)
    if _SAYS_GAME_OVER in code:
        return text
    return say("legal-moves.none", locale, sentence=text)


def _named(code: str, params: dict[str, Any], locale: str | None) -> dict[str, Any]:
    """`params` with their sides named, for the game the error names (`game`) or whose
    code it is (`oska.…`)."""
    game = str(params.get("game", code.split(".")[0]))
    if not has_text(f"{game}.side.first"):
        return params
    return with_side_names(params, game, locale)


# Codes whose own sentence already says the game is over (`move.game-over`, and any
# game's `<game>.game-over`): no second "The game is over." after them.
_SAYS_GAME_OVER = ".game-over"
