"""The README's backup and restore commands, run as the README writes them.

Each block of commands is read from README.md by the name of the comment before it
(`<!-- commands: sqlite-backup -->`), so the README stays the one place they are
written. Here the ones without Docker: a backup taken while Kamen's store is open
(its last writes still in SQLite's WAL), a game added after it, then the restore,
which must bring back the games of the backup and only those. The SQLite backup is
restored from a folder the restoring user cannot write, as Docker's `:ro` mount
is. The Docker blocks, SQLite's and PostgreSQL's, are run by CI's Docker part
(`.ci/docker/backups.py`, which needs a Docker engine); the last test here checks that every
Docker block exists beside its plain counterpart.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from store import open_store
from tests.store_support import a_game, fresh_postgres

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_DATE = "2026-12-01"  # the date the README's restore commands name
NOBODY = 65534


def readme_commands(name: str, readme: Path = ROOT / "README.md") -> str:
    """The shell commands of the README's block named `name`, as written there."""
    found = re.search(
        rf"<!-- commands: {re.escape(name)} -->\n```sh\n(.*?)```\n<!-- /commands -->",
        readme.read_text(),
        re.S,
    )
    assert found is not None, f"README.md has no block <!-- commands: {name} -->"
    return found.group(1)


def run(
    commands: str, cwd: Path, env: Mapping[str, str] | None = None, *, user: int | None = None
) -> None:
    """`commands` in bash (as `user`), stopping at the first that fails; fails the test
    with its output."""
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", commands],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        user=user,
        group=user,
    )
    assert done.returncode == 0, f"{commands}\n exited {done.returncode}:\n{done.stderr}"


def today() -> str:
    """The date the README's `$(date +%F)` gives now."""
    return subprocess.run(
        ["date", "+%F"], capture_output=True, text=True, check=True
    ).stdout.strip()


@pytest.fixture
def folder() -> Iterator[Path]:
    """Kamen's folder, readable by everyone (pytest's tmp_path is its user's alone): the
    restore runs as another user when the tests run as root."""
    with tempfile.TemporaryDirectory(prefix="kamen-backups-") as made:
        Path(made).chmod(0o755)
        yield Path(made)


async def test_the_sqlite_backup_taken_while_kamen_runs_restores_from_a_read_only_folder(
    folder: Path,
) -> None:
    tmp_path = folder
    data = tmp_path / "data"
    data.mkdir()
    url = f"sqlite:///{data / 'kamen.db'}"
    store = await open_store(url)
    try:
        kept = await store.create_game(a_game(channel_id=10))
        run(readme_commands("sqlite-backup"), tmp_path)  # the store is open: WAL in use
        later = await store.create_game(a_game(channel_id=11))
    finally:
        await store.close()
    backup = tmp_path / f"kamen-{today()}.db"
    assert backup.exists() and not Path(f"{backup}-wal").exists()

    # The backup's folder read-only for whoever restores (root writes anywhere: nobody).
    restore = readme_commands("sqlite-restore").replace(EXAMPLE_DATE, today())
    if os.geteuid() == 0:
        for path in (data, *data.iterdir()):
            os.chown(path, NOBODY, NOBODY)
        run(restore, tmp_path, user=NOBODY)
    else:
        tmp_path.chmod(0o555)
        try:
            run(restore, tmp_path)
        finally:
            tmp_path.chmod(0o755)

    store = await open_store(url)
    try:
        assert await store.get_game(kept.id) == kept
        assert await store.get_game(later.id) is None
        await store.create_game(a_game(channel_id=12))  # and Kamen plays on
        assert {game.channel_id for game in await store.active_games(1)} == {10, 12}
    finally:
        await store.close()


async def test_the_postgres_backup_taken_while_kamen_runs_restores(tmp_path: Path) -> None:
    async with fresh_postgres() as url:
        env = {"DATABASE_URL": url}
        store = await open_store(url)
        try:
            kept = await store.create_game(a_game(channel_id=10))
            run(readme_commands("postgres-backup"), tmp_path, env)
            later = await store.create_game(a_game(channel_id=11))
        finally:
            await store.close()
        assert (tmp_path / f"kamen-{today()}.dump").stat().st_size > 0

        restore = readme_commands("postgres-restore").replace(EXAMPLE_DATE, today())
        run(restore, tmp_path, env)
        store = await open_store(url)
        try:
            assert await store.get_game(kept.id) == kept
            assert await store.get_game(later.id) is None
        finally:
            await store.close()


def test_each_plain_command_has_its_docker_counterpart_in_the_readme() -> None:
    for database in ("sqlite", "postgres"):
        for step in ("backup", "restore"):
            plain = readme_commands(f"{database}-{step}")
            docker = readme_commands(f"docker-{database}-{step}")
            assert "docker compose" in docker and "docker" not in plain
    # A SQLite backup is one self-contained file, and it is read without writing beside it.
    for name in ("sqlite-backup", "docker-sqlite-backup"):
        assert "PRAGMA journal_mode=DELETE" in readme_commands(name)
    for name in ("sqlite-restore", "docker-sqlite-restore"):
        assert "immutable=1" in readme_commands(name)
