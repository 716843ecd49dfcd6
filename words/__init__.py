"""The words players read: codes and their parameters turned into sentences.

Nothing below this layer composes prose for a player. Engines, the service and
the painters raise or return *codes* with parameters (`Outcome.reason`,
`GameError.code`, `MatchError.code`); the edges (the Discord adapter, the
board captions, the command line) turn them into text here, in the reader's
language: `say` for a code, `explain` for an error, `outcome_text` for how a
game ended. English is the only language yet; every entry lives in one of the
catalogues of `words/english/`, one per layer that speaks.

This package imports nothing of the project, so every layer may use it.
"""

from words.catalogue import CATALOGUES, MissingText, has_text, say
from words.games import outcome_text
from words.refusals import explain

__all__ = ["CATALOGUES", "MissingText", "explain", "has_text", "outcome_text", "say"]
