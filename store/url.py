"""`DATABASE_URL`: which backend, and where.

`sqlite:///data/kamen.db` is a path relative to the working directory,
`sqlite:////var/lib/kamen.db` an absolute one (four slashes, as SQLAlchemy
writes it). SQLite fsyncs its log at every commit (`synchronous=FULL`, about
2 ms a move here), so an acknowledged move survives even a power cut;
`?synchronous=normal` trades that for speed (no commit is lost when the
process dies, only, at worst, the last ones when the machine loses power).
`postgresql://user:password@host:5432/kamen` (or `postgres://…`) opens the
PostgreSQL backend, for several processes sharing one database; the URL is
libpq's, options included (`?sslmode=require`), and goes to asyncpg as it is.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from urllib.parse import parse_qs, urlsplit

from matches.storage import Store, StoreError
from store.kamen import KamenStore
from store.postgres import PostgresStore, shown
from store.sqlite import SqliteStore

DEFAULT_DATABASE_URL = "sqlite:///data/kamen.db"


def database_url(environ: Mapping[str, str] | None = None) -> str:
    """The URL the environment asks for, or the default."""
    environ = os.environ if environ is None else environ
    return environ.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL


def store_for(url: str) -> KamenStore:
    """The store a URL names, not yet opened; StoreError says what is wrong with the URL."""
    scheme, sep, _ = url.partition("://")
    if not sep:
        raise StoreError(
            f"DATABASE_URL `{url}` has no scheme: write sqlite:///path/to/kamen.db"
            " or postgresql://user@host/database"
        )
    scheme = scheme.lower()
    if scheme == "sqlite":
        return _sqlite(url)
    if scheme in ("postgres", "postgresql"):
        return _postgres(url)
    raise StoreError(
        f"DATABASE_URL scheme `{scheme}` is not supported: use sqlite:///path"
        " or postgresql://user@host/database"
    )


async def open_store(url: str = DEFAULT_DATABASE_URL) -> Store:
    """The store a URL names, opened and migrated."""
    store = store_for(url)
    await store.open()
    return store


def _sqlite(url: str) -> SqliteStore:
    parts = urlsplit(url)
    if parts.netloc:
        raise StoreError(f"`{url}`: a SQLite URL has three slashes, sqlite:///path/to/kamen.db")
    path = parts.path[1:] if parts.path.startswith("/") else parts.path
    if not path or path == ":memory:":
        raise StoreError(f"`{url}`: name a database file, e.g. sqlite:///data/kamen.db")
    options = {key.lower(): values[-1] for key, values in parse_qs(parts.query).items()}
    unknown = set(options) - {"synchronous"}
    if unknown:
        names = ", ".join(sorted(unknown))
        raise StoreError(f"`{url}`: unknown option {names} (the one option is synchronous)")
    return SqliteStore(path, synchronous=options.get("synchronous", "FULL"))


def _postgres(url: str) -> PostgresStore:
    parts = urlsplit(url)
    if not parts.path.strip("/") and not parse_qs(parts.query).get("dbname"):
        raise StoreError(
            f"`{shown(url)}`: name the database, e.g. postgresql://kamen@localhost:5432/kamen"
        )
    return PostgresStore(url)
