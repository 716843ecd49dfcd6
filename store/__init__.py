"""Persistence: one async interface (`Store`), a SQLite backend, numbered migrations.

`open_store(database_url())` is all the rest of Kamen needs to know.
"""

from store.base import (
    ChannelBusy,
    FirstChoice,
    GuildSettings,
    Status,
    Store,
    StoredGame,
    StoreError,
)
from store.url import DEFAULT_DATABASE_URL, database_url, open_store, store_for

__all__ = [
    "DEFAULT_DATABASE_URL",
    "ChannelBusy",
    "FirstChoice",
    "GuildSettings",
    "Status",
    "Store",
    "StoreError",
    "StoredGame",
    "database_url",
    "open_store",
    "store_for",
]
