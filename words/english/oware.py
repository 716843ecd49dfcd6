"""English for Oware (games/oware.py): its refusals, positions and outcomes."""

TEXTS: dict[str, str] = {}
