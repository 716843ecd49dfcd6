"""English for position descriptions for screen readers (board alt text) and board legends (render/)
(see words/english/__init__.py)."""

from words.grammar.plurals import Plural

TEXTS: dict[str, str | Plural] = {}
