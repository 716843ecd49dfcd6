"""Starting up in a bad place: one line saying what is wrong, never a traceback.

Discord out of reach: one line per attempt, and the attempts go on (further apart) until
it answers or the bot is stopped. A database it cannot write: one line with the fix, exit
status 2. At LOG_LEVEL=DEBUG no interaction token reaches the log.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from pathlib import Path

import pytest

from tests.bot_support import ROOT, process_table, settle

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789AB"


def bot_env(variables: dict[str, str]) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE", "KAMEN"))
    }
    return {**env, "PYTHONPATH": str(ROOT), "HEALTH_PORT": "off", **variables}


def free_port() -> int:
    """A port on which nothing listens (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.asyncio
async def test_discord_out_of_reach_is_one_line_per_attempt_and_it_keeps_trying(
    tmp_path: Path,
) -> None:
    port = free_port()
    log = tmp_path / "bot.log"
    env = bot_env({
        "DISCORD_TOKEN": TOKEN,
        "DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
        "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{port}/gateway",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'k.db'}",
    })  # fmt: skip
    with log.open("wb") as out:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=tmp_path, env=env, stdout=out, stderr=out
        )
    try:
        for _ in range(200):  # attempts after 0, 1 and 2 s: the third line within ~4 s
            if log.read_text().count("cannot reach Discord") >= 2:
                break
            await asyncio.sleep(0.05)
        assert process.returncode is None  # still trying
    finally:
        process.terminate()
        await asyncio.wait_for(process.wait(), 10)
    assert process.returncode == 0  # SIGTERM while waiting: a clean stop
    text = log.read_text()
    tries = [line for line in text.splitlines() if "cannot reach Discord" in line]
    assert len(tries) >= 2
    assert "attempt 1 failed, trying again in 1 s" in tries[0]
    assert "attempt 2 failed, trying again in 2 s" in tries[1]
    assert "Traceback" not in text and "ERROR" not in text and TOKEN not in text


@pytest.mark.asyncio
@pytest.mark.parametrize("where", ["sys", "file"])
async def test_a_database_it_cannot_write_is_one_line_with_the_fix(
    tmp_path: Path, where: str
) -> None:
    if where == "sys":  # not even root may create a file there
        path = Path("/sys/kamen-test/kamen.db")
    else:  # the data folder is a file: nobody, root included, can make the database in it
        data = tmp_path / "data"
        data.write_text("not a folder")
        path = data / "kamen.db"
    env = bot_env({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": f"sqlite:///{path}"})
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 2 and out == b""
    [line] = err.decode().strip().splitlines()
    assert line.startswith("kamen: cannot write the database")
    assert str(path.parent) in line and "chown 10001:10001 /data" in line


@pytest.mark.asyncio
async def test_no_interaction_token_is_logged_at_debug(tmp_path: Path) -> None:
    async with process_table(tmp_path, {"LOG_LEVEL": "DEBUG"}) as table:
        fake = table.fake
        reply = await fake.slash(table.ann, table.games, "oska challenge", opponent=table.bob)
        assert reply.message is not None
        await fake.click(table.bob, reply.message, "Accept")
        await fake.slash(table.ann, table.games, "games")
        await settle(fake)
        assert table.bot is not None
        text = table.bot.log()
        tokens = [record.token for record in fake.core.interactions.values()]
        assert len(tokens) >= 3 and "/interactions/" in text  # the routes are logged...
        assert [token for token in tokens if token in text] == []  # ...without their tokens
