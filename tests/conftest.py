"""Fixtures shared across test modules (a module's own fixture of the same name wins).

The AI's decoded-table cache goes to a directory of this test run, not the tester's
home (every bot process the tests start inherits it).
"""

import os
import tempfile

from tests.store_support import store

os.environ.setdefault("KAMEN_CACHE_DIR", tempfile.mkdtemp(prefix="kamen-cache-"))

__all__ = ["store"]
