"""The schema migrations: reading the numbered files and splitting them into statements.

Migrations are `NNNN_name.sql` files in a package under `store/migrations/`,
one package per backend, numbered from 1 without gaps. They only go forward;
the number of the last one applied is the schema version.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources

from matches.storage import StoreError

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    number: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        """The statements of the file, one by one (a trigger body stays whole)."""
        found: list[str] = []
        pending = ""
        for line in self.sql.splitlines(keepends=True):
            if not pending and (not line.strip() or line.lstrip().startswith("--")):
                continue
            pending += line
            if sqlite3.complete_statement(pending):
                found.append(pending.strip())
                pending = ""
        if pending.strip():
            raise StoreError(f"migration {self.number} ends in an unfinished statement")
        return found


def migrations(package: str) -> tuple[Migration, ...]:
    """Every migration of a backend's package, in order; checks the numbering."""
    found = []
    for entry in resources.files(package).iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), match.group(2), entry.read_text("utf-8")))
    found.sort(key=lambda migration: migration.number)
    numbers = [migration.number for migration in found]
    if numbers != list(range(1, len(found) + 1)):
        raise StoreError(f"the migrations of {package} are not numbered 1, 2, 3, ...: {numbers}")
    return tuple(found)
