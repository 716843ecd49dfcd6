"""Kamen's database from the command line: `python -m store recompute [--server ID] [--write]`.

`recompute` rates every stored game again, in the order they ended, and
compares the result with the stored ratings and season tables: it prints
each difference and exits 1 if there is any, 0 if the stored values are
exactly what the games give. `--write` puts the rebuilt values in their place.
The database is `DATABASE_URL`'s (or `--database`).
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from matches.recompute import differences, rebuild, stored
from store.url import database_url, open_store


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m store", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    recompute = commands.add_parser("recompute", help="rebuild ratings and season tables")
    recompute.add_argument("--server", type=int, help="only this server (guild id)")
    recompute.add_argument("--database", help="a database URL (default: DATABASE_URL)")
    recompute.add_argument("--write", action="store_true", help="store the rebuilt values")
    args = parser.parse_args(argv)
    return asyncio.run(_recompute(args.database or database_url(), args.server, args.write))


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
