"""Numbered SQL migrations, one folder per backend (read with importlib.resources)."""
