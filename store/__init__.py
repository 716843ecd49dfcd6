"""Persistence: the service's `Store`, each query written once for SQLite and PostgreSQL.

`open_store(database_url())` is all the rest of Kamen needs to know. The
values a store returns and the protocol it meets are the service's own
(`matches.records`, `matches.storage`): import them from there. Inside:
`kamen.KamenStore` is the tables' groups (`games`, `ratings`, `tournaments`,
`people`, `learning`) over one `database.Database`, `sqlite` or `postgres`;
`rows` turns rows into records; `schema` applies the one migration history.
"""

from store.url import DEFAULT_DATABASE_URL, database_url, open_store, store_for

__all__ = ["DEFAULT_DATABASE_URL", "database_url", "open_store", "store_for"]
