"""English for the service layer (see words/english/__init__.py)."""

TEXTS: dict[str, str] = {}
