"""`python -m bot` and its settings: environment variables and `.env`, checked at once.

A missing or malformed token stops the program before anything else, with one line
saying how to get one, and exit status 2; every other setting that cannot be used says
what to write. A usable `.env` starts the bot, and the token never reaches its log.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from tests.bot_support import ROOT, BotProcess, settle
from tests.fake_discord import FakeDiscord

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789AB"


async def run_bot(
    cwd: Path, variables: dict[str, str], timeout: float = 30
) -> tuple[int, str, str]:
    """Run `python -m bot` in `cwd` with only these Kamen/Discord variables; its exit and output."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE", "KAMEN"))
    }
    env.update(PYTHONPATH=str(ROOT), **variables)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=cwd, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), timeout)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


@pytest.mark.asyncio
@pytest.mark.parametrize("token", [None, "", "not-a-token-at-all", "abc.def.ghi", "Bot x.y.z"])
async def test_without_a_usable_token_it_says_how_to_get_one_and_exits_2(
    tmp_path: Path, token: str | None
) -> None:
    code, out, err = await run_bot(tmp_path, {} if token is None else {"DISCORD_TOKEN": token})
    assert code == 2 and out == ""
    [line] = err.strip().splitlines()
    said = "not set" if not token else "not a bot token (three parts separated by dots"
    assert line.startswith(f"kamen: DISCORD_TOKEN is {said}")
    assert "https://discord.com/developers/applications" in line and "Reset Token" in line
    if token:
        assert token.removeprefix("Bot ") not in err
    assert not (tmp_path / "data").exists()  # it stopped before opening any database


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("variables", "said"),
    [
        ({"DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID='abc': write a whole number, at least 1."),
        ({"SHARD_IDS": "0,1"}, "SHARD_IDS needs SHARD_COUNT, the number of shards in all."),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,2"}, "each shard number is below SHARD_COUNT=2."),
        ({"LOG_LEVEL": "loud"}, "LOG_LEVEL='loud': write one of CRITICAL, ERROR, WARNING"),
        ({"KAMEN_LOCALE": "fr"}, "KAMEN_LOCALE='fr': write one of cs, en."),
        ({"KAMEN_CHALLENGE_TTL": "-1"}, "a number of seconds greater than 0."),
        ({"DATABASE_URL": "mysql://x"}, "the database cannot be used: DATABASE_URL scheme"),
    ],
)
async def test_a_setting_that_cannot_be_used_says_what_to_write(
    tmp_path: Path, variables: dict[str, str], said: str
) -> None:
    code, _, err = await run_bot(tmp_path, {"DISCORD_TOKEN": TOKEN, **variables})
    assert code == 2 and said in err and TOKEN not in err
    assert err.startswith("kamen: ") or "kamen: the database" in err


@pytest.mark.asyncio
async def test_the_environment_wins_over_the_dotenv_file(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(
        f'# Kamen\nexport DISCORD_TOKEN="{TOKEN}"\nDEV_GUILD_ID=oops\nLOG_LEVEL=info\n'
    )
    code, _, err = await run_bot(tmp_path, {})
    assert code == 2 and "DEV_GUILD_ID='oops'" in err  # the file was read...
    code, _, err = await run_bot(tmp_path, {"DEV_GUILD_ID": "x1"})
    assert code == 2 and "DEV_GUILD_ID='x1'" in err  # ...and the environment comes first


@pytest.mark.asyncio
async def test_a_dotenv_file_is_enough_to_start_and_the_token_is_never_logged(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Stone Club")
        lines = [f"{key}={value}" for key, value in fake.env().items()]
        lines += [f"DEV_GUILD_ID={guild.id}", "LOG_LEVEL=DEBUG",
                  f"DATABASE_URL=sqlite:///{tmp_path / 'k.db'}"]  # fmt: skip
        (tmp_path / ".env").write_text("\n".join(lines) + "\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "KAMEN"))}
        log = tmp_path / "bot.log"
        with log.open("wb") as out:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=tmp_path, env={**env, "PYTHONPATH": str(ROOT)},
                stdout=out, stderr=asyncio.subprocess.STDOUT,
            )  # fmt: skip
        try:
            await fake.wait_ready(timeout=30)
            # DEV_GUILD_ID: the commands go to that server only, where they show at once
            assert fake.commands() == [] and len(fake.commands(guild)) == 9
            reply = await fake.slash(fake.add_user("ann"), guild.channel("games"), "games")
            assert reply.ephemeral and "No games are being played" in reply.content
            await settle(fake)
        finally:
            process.terminate()
            await process.wait()
        assert process.returncode == 0  # SIGTERM: a clean stop
        text = log.read_text()
        assert f"commands synced (server {guild.id})" in text and fake.token not in text
        assert fake.violations == []


@pytest.mark.asyncio
async def test_start_up_is_quick_and_asks_for_no_privileged_intent(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        fake.add_guild("Stone Club")
        bot = BotProcess(fake, f"sqlite:///{tmp_path / 'k.db'}", tmp_path / "bot.log")
        try:
            took = await bot.start()
            [session] = fake.sessions
            assert session.intents == 1  # GUILDS, nothing else
            assert took < 10  # budget: 2 s after the gateway answers (see bench.bot)
        finally:
            await bot.stop()
        assert fake.violations == []
