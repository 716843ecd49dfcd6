"""Kamen's database from the command line: `python -m store recompute [--server ID] [--write]`,
`python -m store copy SQLITE_URL POSTGRES_URL [--replace]`.

`recompute` rates every stored game again, in the order they ended, and
compares the result with the stored ratings and season tables: it prints
each difference and exits 1 if there is any, 0 if the stored values are
exactly what the games give. `--write` puts the rebuilt values in their place.
The database is `DATABASE_URL`'s (or `--database`).

`copy` moves a whole database from SQLite to PostgreSQL (`store.copy`): it copies
every table, then prints each table's rows and checksum on both sides and exits
0 only if they all match. It can be run again: rows already there stay as they
are; `--replace` empties the PostgreSQL tables first.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from matches.recompute import differences, rebuild, stored
from matches.storage import StoreError
from store.copy import copy, report
from store.url import database_url, open_store


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m store", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    recompute = commands.add_parser("recompute", help="rebuild ratings and season tables")
    recompute.add_argument("--server", type=int, help="only this server (guild id)")
    recompute.add_argument("--database", help="a database URL (default: DATABASE_URL)")
    recompute.add_argument("--write", action="store_true", help="store the rebuilt values")
    copying = commands.add_parser("copy", help="copy a SQLite database into PostgreSQL")
    copying.add_argument("source", help="the SQLite database, sqlite:///path/to/kamen.db")
    copying.add_argument("target", help="the PostgreSQL database, postgresql://user@host/db")
    copying.add_argument(
        "--replace", action="store_true", help="empty the PostgreSQL tables before copying"
    )
    args = parser.parse_args(argv)
    if args.command == "copy":
        return asyncio.run(_copy(args.source, args.target, args.replace))
    return asyncio.run(_recompute(args.database or database_url(), args.server, args.write))


async def _copy(source: str, target: str, replace: bool) -> int:
    try:
        checks = await copy(source, target, replace=replace)
    except StoreError as error:
        print(f"copy failed: {error}", file=sys.stderr)
        return 2
    for line in report(checks):
        print(line)
    different = [check.table for check in checks if not check.matches]
    if not different:
        copied = sum(check.copied for check in checks)
        print(f"every table matches ({copied} rows copied now)")
        return 0
    print(
        f"{', '.join(different)}: PostgreSQL does not hold what SQLite holds. Rows already"
        " there are never overwritten: copy into an empty database, or run again with"
        " --replace to empty the PostgreSQL tables first.",
        file=sys.stderr,
    )
    return 1


async def _recompute(url: str, guild_id: int | None, write: bool) -> int:
    store = await open_store(url)
    try:
        rebuilt = await rebuild(store, guild_id)
        found = differences(await stored(store, guild_id), rebuilt)
        for line in found:
            print(line)
        counted = len({change.game_id for change in rebuilt.changes})
        if write:
            await store.replace_ratings(
                guild_id, rebuilt.standings, rebuilt.changes, rebuilt.scores
            )
            print(f"{counted} rated games: ratings rebuilt and written ({len(found)} differed)")
            return 0
        verdict = "the stored ratings are exact" if not found else f"{len(found)} differences"
        print(f"{counted} rated games, {len(rebuilt.standings)} ratings: {verdict}")
        return 1 if found else 0
    finally:
        await store.close()


if __name__ == "__main__":
    sys.exit(main())
