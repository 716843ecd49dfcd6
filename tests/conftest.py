"""Fixtures shared across test modules (a module's own fixture of the same name wins)."""

from tests.store_support import store

__all__ = ["store"]
