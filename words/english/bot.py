"""English for the Discord adapter (see words/english/__init__.py)."""

TEXTS: dict[str, str] = {}
