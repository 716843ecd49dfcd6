"""English for Lasca (games/lasca.py): its refusals, positions and outcomes."""

TEXTS: dict[str, str] = {}
