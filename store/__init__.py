"""Persistence: backends of the service's `Store` protocol, and numbered migrations.

`open_store(database_url())` is all the rest of Kamen needs to know. The
values a store returns and the protocol it meets are the service's own
(`matches.records`, `matches.storage`): import them from there.
"""

from store.url import DEFAULT_DATABASE_URL, database_url, open_store, store_for

__all__ = ["DEFAULT_DATABASE_URL", "database_url", "open_store", "store_for"]
