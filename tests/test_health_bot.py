"""The health endpoint and the logs as the bot's settings and start-up use them."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from runtime.settings import Settings, SettingsError
from tests.bot_support import BotProcess
from tests.fake_discord import FakeDiscord

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789AB"


def settings(**variables: str) -> Settings:
    return Settings.from_env({"DISCORD_TOKEN": TOKEN, **variables}, dotenv=None)


def test_the_defaults_serve_health_on_the_loopback_and_log_text() -> None:
    default = settings()
    assert default.health == ("127.0.0.1", 8080)
    assert default.log_format == "text"
    chosen = settings(HEALTH_HOST="0.0.0.0", HEALTH_PORT="9100", LOG_FORMAT="JSON")
    assert chosen.health == ("0.0.0.0", 9100) and chosen.log_format == "json"
    assert settings(HEALTH_PORT="off").health is None


@pytest.mark.parametrize(
    ("variables", "said"),
    [
        ({"HEALTH_PORT": "eighty"}, "HEALTH_PORT='eighty': write a port number (1-65535), or off."),
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT='xml': write one of text, json."),
    ],
)
def test_a_health_or_log_setting_that_cannot_be_used_says_what_to_write(
    variables: dict[str, str], said: str
) -> None:
    with pytest.raises(SettingsError) as raised:
        settings(**variables)
    assert str(raised.value) == said


async def test_a_busy_health_port_is_logged_and_the_bot_plays_on(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        async with FakeDiscord() as fake:
            guild = fake.add_guild("Stone Club")
            bot = BotProcess(
                fake,
                f"sqlite:///{tmp_path / 'kamen.db'}",
                tmp_path / "bot.log",
                {"HEALTH_PORT": str(port)},
            )
            try:
                await bot.start()
                reply = await fake.slash(fake.add_user("ann"), guild.channel("games"), "games")
                assert reply.ephemeral
            finally:
                await bot.stop()
    log = bot.log()
    assert f"cannot serve /healthz on 127.0.0.1:{port}" in log
    assert "set HEALTH_PORT to a free port, or off" in log
