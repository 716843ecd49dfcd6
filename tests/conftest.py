"""Fixtures shared across test modules (a module's own fixture of the same name wins).

The AI's decoded-table cache goes to a directory of this test run, not the tester's
home (every bot process the tests start inherits it).

The suite starts some hundreds of Python processes (bot processes, their AI workers, the
command line): each compiles Kamen's modules again when the machine forbids writing
bytecode (PYTHONDONTWRITEBYTECODE, set on some CI machines and containers), about a
third of a second of CPU a process. The tests' own processes write and reuse it.
"""

import asyncio
import os
import sys
import tempfile

os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

from tests import store_support  # noqa: E402  (after the switch: its modules are cached)
from tests.store_support import store  # noqa: E402

os.environ.setdefault("KAMEN_CACHE_DIR", tempfile.mkdtemp(prefix="kamen-cache-"))


def pytest_sessionfinish() -> None:
    """Drop the PostgreSQL databases kept for reuse (tests.store_support)."""
    asyncio.run(store_support.drop_kept())


__all__ = ["store"]
