"""English for live clocks: base time plus increment, remaining times, low-time warnings
(see words/english/__init__.py)."""

from words.grammar.plurals import Plural

TEXTS: dict[str, str | Plural] = {}
