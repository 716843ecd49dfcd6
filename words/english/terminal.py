"""English for the terminal game (python -m games play): coordinates, legends, colour, playing Kamen
(see words/english/__init__.py)."""

from words.grammar.plurals import Plural

TEXTS: dict[str, str | Plural] = {}
