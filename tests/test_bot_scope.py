"""No server sees another's games, and a click acts only on the game of its own message.

A game found by its number is found only in its own server: anywhere else it is "no such
game here", said privately, with nothing posted. A record names the game's own server
and channel. A modified client may send any custom_id on any message: a menu, a
resignation or an Accept of another game is refused privately, and no message changes.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from tests import bot_support
from tests.bot_support import (
    SharedBot,
    Table,
    ephemeral_text,
    options,
    start_game,
)
from tests.fake_discord import FakeDiscord, Message, Reply, User
from tests.fake_discord.interactions import COMPONENT

FOREIGN = "That button or menu does not belong to this message: use the one on the game's board."


# One bot process for the module, a server of its own for each test (tests/bot_support).
pytestmark = pytest.mark.asyncio(loop_scope="module")


shared = bot_support.module_bot


@pytest_asyncio.fixture(loop_scope="module")
async def table(shared: SharedBot) -> AsyncIterator[Table]:
    async with shared.table() as t:
        yield t


def game_id(message: Message) -> int:
    found = re.search(r"game #(\d+)", " ".join(e.get("title", "") for e in message.embeds))
    assert found, f"no game number on {message.text!r}"
    return int(found.group(1))


async def crafted_click(
    fake: FakeDiscord, user: User, message: Message, custom_id: str, values: list[str] | None = None
) -> Reply:
    """A component interaction for a custom_id that is not on `message` (a modified client)."""
    channel = fake.core.world.channels[message.channel_id]
    guild = fake.core.world.guild_of(channel)
    data: dict[str, object] = {"custom_id": custom_id, "component_type": 2}
    if values is not None:
        data.update(component_type=3, values=values)
    record = fake._dispatch(
        COMPONENT, user, channel, guild, data, f"crafted {custom_id}", message=message
    )
    return await Reply(fake.core, record).wait()


async def test_another_servers_game_is_no_game_here(table: Table) -> None:
    fake, ann = table.fake, table.ann
    thread, board = await start_game(table, "oska")
    await fake.select(ann, board, "Pick a move", [options(board)[0]])
    number = game_id(board)
    other = fake.add_guild("Other Club")
    dave = fake.add_user("dave", guilds=[other])
    elsewhere = other.channel("games")
    for command in ("oska history", "oska replay"):
        reply = await fake.slash(dave, elsewhere, command, game=number)
        assert ephemeral_text(reply) == "There is no such game here.", command
    # Nor do crafted viewer, replay or record buttons reach it from there.
    mine = await fake.slash(dave, elsewhere, "oska challenge")
    assert mine.message is not None
    for custom_id in (f"kamen:rv:{number}:1:n", f"kamen:replay:{number}",
                      f"kamen:record:{number}"):  # fmt: skip
        reply = await crafted_click(fake, dave, mine.message, custom_id, None)
        assert ephemeral_text(reply) == "There is no such game here.", custom_id
    assert [m for m in fake.messages(elsewhere) if not m.ephemeral] == [mine.message]

    # From another channel of the game's own server: the record names where it is played.
    quiet = table.guild.channel("quiet")
    reply = await fake.slash(ann, quiet, "oska history", game=number)
    [record] = [a for a in reply.attachments if a.filename.endswith(".txt")]
    assert f'[Site "Stone Club #{thread.name}"]' in record.data.decode()


async def test_a_crafted_component_of_another_game_is_refused_and_changes_nothing(
    table: Table,
) -> None:
    fake, ann, bob, carol = table.fake, table.ann, table.bob, table.carol
    _, board_a = await start_game(table, "oska")
    _, board_b = await start_game(table, "lasca")
    a, b = game_id(board_a), game_id(board_b)
    open_challenge = (await fake.slash(carol, table.games, "oware challenge")).message
    assert open_challenge is not None
    c = game_id(open_challenge)
    seen = {m.id: len(m.versions) for m in (board_a, board_b, open_challenge)}
    moves_b = options(board_b)

    crafted = [
        (ann, board_a, f"kamen:move:{b}:0", [moves_b[0]]),  # B's move, on A's board
        (ann, board_a, f"kamen:resign-yes:{b}:0", None),  # B's resignation, on A's board
        (ann, board_a, f"kamen:draw:{b}:0", None),
        (bob, board_a, f"kamen:accept:{c}", None),  # C's Accept, on A's board
        (bob, open_challenge, f"kamen:resign-yes:{a}:0", None),  # A's resignation on C
    ]
    for user, message, custom_id, values in crafted:
        reply = await crafted_click(fake, user, message, custom_id, values)
        assert ephemeral_text(reply) == FOREIGN, custom_id

    # An ephemeral reply counts only in its own game's channel: B's confirmation, A's id.
    asked = await fake.click(ann, board_b, "Resign")
    assert asked.message is not None and asked.message.ephemeral
    reply = await crafted_click(fake, ann, asked.message, f"kamen:resign-yes:{a}:0")
    assert ephemeral_text(reply) == FOREIGN

    assert {m.id: len(m.versions) for m in (board_a, board_b, open_challenge)} == seen
    assert options(board_b) == moves_b and "Game over" not in board_a.text + board_b.text
    assert [b["label"] for b in open_challenge.buttons] == ["Accept", "Cancel challenge"]
    assert len(fake.threads(table.games)) == 2  # A's and B's: nobody accepted C

    # The game's own components still work, on its own messages.
    resigned = await fake.click(ann, asked.message, "Yes, resign")
    assert ephemeral_text(resigned) == f"You resigned game #{b}."
