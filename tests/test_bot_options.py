"""Every option value is checked by the bot itself, as a modified client may send anything.

Discord's own client sends only the types and choices a command declares; a crafted
request sends an integer `time`, a string `opponent`, a level that does not exist. Each is
refused privately, naming the option and what it takes, and nothing public is posted: no
challenge, no "starts a game" line, no thread.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest
import pytest_asyncio

from tests import bot_support
from tests.bot_support import SharedBot, Table, ephemeral_text
from tests.fake_discord import Channel, FakeDiscord, Reply, User
from tests.fake_discord.interactions import APPLICATION_COMMAND

STRING, INTEGER, BOOLEAN, USER = 3, 4, 5, 6


# One bot process for the module, a server of its own for each test (tests/bot_support).
pytestmark = pytest.mark.asyncio(loop_scope="module")


shared = bot_support.module_bot


@pytest_asyncio.fixture(loop_scope="module")
async def table(shared: SharedBot) -> AsyncIterator[Table]:
    async with shared.table() as t:
        yield t


async def crafted_slash(
    fake: FakeDiscord,
    user: User,
    channel: Channel,
    command: str,
    options: Sequence[tuple[str, int, Any]],
    *,
    resolved: Sequence[Any] = (),
    check_permissions: bool = True,
) -> Reply:
    """`/command` as a modified client sends it: each option as (name, type, raw value),
    unchecked. Without `check_permissions`, as when the server opened the command to all."""
    top, chain, _ = fake.find_command(channel, command)
    guild = fake.core.world.guild_of(channel)
    if check_permissions:
        guild = fake._check_can_use(user, channel, top)
    raw = [{"name": name, "type": kind, "value": value} for name, kind, value in options]
    data = fake._command_data(top, chain, raw, guild, channel, list(resolved))
    record = fake._dispatch(APPLICATION_COMMAND, user, channel, guild, data, f"crafted {command}")
    return await Reply(fake.core, record).wait()


def nothing_public(table: Table) -> None:
    fake = table.fake
    assert [m for m in fake.messages(table.games) if not m.ephemeral] == []
    assert fake.threads(table.games) == []


async def test_challenge_options_of_the_wrong_type_or_value_are_refused_privately(
    table: Table,
) -> None:
    fake, ann, bob, kamen = table.fake, table.ann, table.bob, table.fake.bot
    bob_is = ("opponent", USER, str(bob.id))
    kamen_is = ("opponent", USER, str(kamen.id))
    cases: list[tuple[str, list[tuple[str, int, Any]], list[Any], str]] = [
        ("oska challenge", [bob_is, ("time", INTEGER, 5)], [bob],
         "`time` is one of none, 5m, 1h, 1d, 3d, 3+2, 5+3, 10+5, not `5`."),
        ("oska challenge", [bob_is, ("time", STRING, "7m")], [bob],
         "`time` is one of none, 5m, 1h, 1d, 3d, 3+2, 5+3, 10+5, not `7m`."),
        ("oska challenge", [("opponent", STRING, "bob")], [],
         "`opponent` is a member of this server: pick one from the list."),
        ("oska challenge", [("opponent", USER, str(bob.id))], [],  # not resolved: a bare id
         "`opponent` is a member of this server: pick one from the list."),
        ("oska challenge", [bob_is, ("first", STRING, "sometimes")], [bob],
         "`first` is one of random, me, them, not `sometimes`."),
        ("oska challenge", [kamen_is, ("level", STRING, "godlike")], [kamen],
         "`level` is one of 1, 2, 3, 4, 5, 6, 7, 8, not `godlike`."),
        ("oska challenge", [kamen_is, ("capture", STRING, "never")], [kamen],
         "`capture` is one of forced, huff, optional, huff-opponent, not `never`."),
        ("oware challenge", [kamen_is, ("must-play-12", BOOLEAN, True)], [kamen],
         "`must-play-12` is one of off, on, not `True`."),
        ("oska import", [("record", STRING, '[Game "Oska"] *' + " " * 7000)], [],
         "`record` is a text of 1 to 6000 characters."),
        ("oska import", [("record", INTEGER, 12)], [],
         "`record` is a text of 1 to 6000 characters."),
        ("oska import", [("record", STRING, '[Game "Oska"] *'), ("level", STRING, "x")], [],
         "`level` is one of 1, 2, 3, 4, 5, 6, 7, 8, not `x`."),
        ("oska history", [("game", STRING, "1")], [],
         "`game` is a game's number, as its board shows it (#12), not `1`."),
        ("oska replay", [("game", INTEGER, 0)], [],
         "`game` is a game's number, as its board shows it (#12), not `0`."),
        ("oska replay", [("game", INTEGER, 2**70)], [],
         f"`game` is a game's number, as its board shows it (#12), not `{2**70}`."),
    ]  # fmt: skip
    for command, options, resolved, said in cases:
        reply = await crafted_slash(fake, ann, table.games, command, options, resolved=resolved)
        assert ephemeral_text(reply) == said, command
    nothing_public(table)
    owner = table.guild.owner
    reply = await crafted_slash(fake, owner, table.games, "kamen settings", [("threads", 3, "no")])
    assert ephemeral_text(reply) == "`threads` is on or off (True or False), not `no`."


async def test_an_echoed_value_cannot_break_its_code_span(table: Table) -> None:
    fake, ann = table.fake, table.ann
    sneaky = "x` **bold** <@1> `y"
    reply = await crafted_slash(
        fake, ann, table.games, "oska challenge", [("first", STRING, sneaky)]
    )
    text = ephemeral_text(reply)
    assert text.startswith("`first` is one of random, me, them, not `x")
    echoed = text.split("not ", 1)[1]
    assert echoed.count("`") == 2 and echoed.startswith("`") and echoed.endswith("`.")
    move = await fake.slash(ann, table.games, "oska import", record='[Game "Oska"] 1. a`1-b2 *')
    said = ephemeral_text(move)
    assert "a`1" not in said and said.count("`") % 2 == 0


async def test_a_good_challenge_still_goes_through(table: Table) -> None:
    fake, ann, bob = table.fake, table.ann, table.bob
    terms = {"opponent": bob, "time": "1h", "first": "them", "must-play-12": "on"}
    reply = await fake.slash(ann, table.games, "oware challenge", terms)
    assert reply.message is not None and not reply.ephemeral
    assert "must-play-12=on" in reply.text and "1 hour a move" in reply.text


async def test_server_settings_need_manage_server_whatever_discord_allows(table: Table) -> None:
    fake, carol, owner = table.fake, table.carol, table.guild.owner
    # The server opened /kamen to everyone (Discord lets it override the default permissions).
    changed = await crafted_slash(
        fake, carol, table.games, "kamen settings", [("threads", BOOLEAN, False)],
        check_permissions=False,
    )  # fmt: skip
    assert ephemeral_text(changed) == (
        "Only members who may Manage Server can see or change Kamen's settings here."
    )
    seen = await fake.slash(owner, table.games, "kamen settings")
    assert ephemeral_text(seen).startswith("Threads per game: on")


async def test_a_player_turns_their_own_pings_off_and_on(table: Table) -> None:
    fake, carol = table.fake, table.carol
    off = await fake.slash(carol, table.games, "kamen me settings", pings=False)
    assert ephemeral_text(off).startswith("✅ Changed. Turn notifications: off.")
    seen = await fake.slash(carol, table.games, "kamen me settings")
    assert ephemeral_text(seen).startswith("Turn notifications: off.")
    on = await fake.slash(carol, table.games, "kamen me settings", pings=True)
    assert ephemeral_text(on).startswith("✅ Changed. Turn notifications: on.")
    bad = await crafted_slash(
        fake, carol, table.games, "kamen me settings", [("pings", INTEGER, 1)]
    )
    assert ephemeral_text(bad) == "`pings` is on or off (True or False), not `1`."
    nothing_public(table)
