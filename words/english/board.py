"""English for the board layer (see words/english/__init__.py)."""

TEXTS: dict[str, str] = {}
