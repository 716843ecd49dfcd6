"""The fake Discord of tests/fake_discord, driven by the real, unmodified discord.py client.

A tiny bot (a `/ping` command group, a DynamicItem button, a select menu, an
autocomplete option, a defer-then-followup command, files, a thread) runs in
the test's event loop against the fake; each test checks one thing the
end-to-end tests of the bot will rely on.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import sys
import zlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import pytest
import pytest_asyncio
from discord import app_commands
from PIL import Image

from tests.fake_discord import (
    Channel,
    FakeDiscord,
    Fault,
    Guild,
    NotAnswered,
    ProtocolError,
    User,
    command_limits,
    limits,
    perms,
    point_discord_py_at,
)

MOVES = ["a1-b2", "a1-c3", "b2-c3", "d4-e5"]
#: zlib-stream, or zstd-stream when the zstandard package is installed.
ASKED_COMPRESSION = discord.utils._ActiveDecompressionContext.COMPRESSION_TYPE


def png_bytes(width: int, height: int, colour: str) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(buffer, format="PNG")
    return buffer.getvalue()


BOARD_PNG = png_bytes(64, 48, "navy")
REPLAY_PNG = png_bytes(32, 32, "maroon")
LOG_TEXT = b"1. a1-b2 b5-c4\n"


# ---------------------------------------------------------------- the tiny bot


@dataclass
class BotState:
    release: asyncio.Event = field(default_factory=asyncio.Event)
    resumed: asyncio.Event = field(default_factory=asyncio.Event)
    interactions: list[discord.Interaction] = field(default_factory=list)
    errors: list[BaseException] = field(default_factory=list)
    results: list[Any] = field(default_factory=list)
    opponent: Any = None


class Counter(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"count:(?P<n>\d+)"
):
    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Count {n}", custom_id=f"count:{n}", style=discord.ButtonStyle.primary
            )
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        await interaction.response.edit_message(content=f"count is {self.n + 1}", view=view)


class AskMove(discord.ui.Modal, title="Your move"):
    move: discord.ui.TextInput[AskMove] = discord.ui.TextInput(label="Move", custom_id="move")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"you typed {self.move.value}", ephemeral=True)


class Menu(discord.ui.View):
    @discord.ui.select(
        custom_id="menu:pick",
        placeholder="Pick a move",
        options=[discord.SelectOption(label=m, value=m) for m in MOVES],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Menu]) -> None:
        await interaction.response.send_message(
            f"{interaction.user.name} picked {select.values[0]}", ephemeral=True
        )


def build_bot(
    state: BotState, intents: discord.Intents | None = None
) -> tuple[discord.Client, app_commands.CommandTree[discord.Client]]:
    client = discord.Client(intents=intents or discord.Intents.default(), guild_ready_timeout=0.05)
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(client)
    ping = app_commands.Group(name="ping", description="Things to check the fake with")
    deep = app_commands.Group(name="deep", description="A sub-command group", parent=ping)

    async def on_error(
        interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        state.errors.append(getattr(error, "original", error))

    tree.on_error = on_error  # type: ignore[method-assign]

    @client.event
    async def on_resumed() -> None:
        state.resumed.set()

    @ping.command(name="pong", description="Answers pong")
    async def pong(interaction: discord.Interaction) -> None:
        state.interactions.append(interaction)
        await interaction.response.send_message(
            "pong", embed=discord.Embed(title="Pong", description="fast")
        )

    @ping.command(name="echo", description="Repeats text")
    async def echo(interaction: discord.Interaction, text: str, times: int = 1) -> None:
        await interaction.response.send_message(text * times)

    @ping.command(name="challenge", description="Challenges someone")
    async def challenge(interaction: discord.Interaction, opponent: discord.Member) -> None:
        state.opponent = opponent
        await interaction.response.send_message(
            f"{interaction.user.mention} challenges {opponent.mention}"
        )

    @deep.command(name="check", description="A command inside a group inside a group")
    async def check(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("deep enough")

    @ping.command(name="whisper", description="Answers only you")
    async def whisper(interaction: discord.Interaction) -> None:
        state.interactions.append(interaction)
        await interaction.response.send_message("only you can see this", ephemeral=True)

    @ping.command(name="slow", description="Defers, then follows up")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.05)
        await interaction.followup.send("done thinking")
        await interaction.followup.send("and one more thing")

    @ping.command(name="file", description="Sends files three ways")
    async def file(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "board", file=discord.File(io.BytesIO(BOARD_PNG), "board.png")
        )
        await interaction.followup.send(
            "replay", file=discord.File(io.BytesIO(REPLAY_PNG), "replay.png")
        )
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send(
            "record", file=discord.File(io.BytesIO(LOG_TEXT), "game.txt")
        )

    async def move_choices(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=m, value=m) for m in MOVES if m.startswith(current)]

    @ping.command(name="move", description="Plays a move")
    @app_commands.autocomplete(move=move_choices)
    async def move(interaction: discord.Interaction, move: str) -> None:
        await interaction.response.send_message(f"played {move}")

    async def too_many(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=f"choice {i}", value=str(i)) for i in range(30)]

    @ping.command(name="many", description="Autocompletes too much")
    @app_commands.autocomplete(pick=too_many)
    async def many(interaction: discord.Interaction, pick: str) -> None:
        await interaction.response.send_message(pick)

    @ping.command(name="buttons", description="A counter button")
    async def buttons(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(0))
        await interaction.response.send_message("count is 0", view=view)

    @ping.command(name="menu", description="A select menu")
    async def menu(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("choose", view=Menu())

    @ping.command(name="twice", description="Answers twice at once")
    async def twice(interaction: discord.Interaction) -> None:
        state.results[:] = await asyncio.gather(
            interaction.response.send_message("one"),
            interaction.response.send_message("two"),
            return_exceptions=True,
        )

    @ping.command(name="late", description="Answers when told to")
    async def late(interaction: discord.Interaction) -> None:
        await state.release.wait()
        await interaction.response.send_message("sorry I am late")

    @ping.command(name="thread", description="Opens threads")
    async def thread(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("game on")
        message = await interaction.original_response()
        game = await message.create_thread(name="game-1")
        await game.send("inside the thread")
        assert isinstance(interaction.channel, discord.TextChannel)
        side = await interaction.channel.create_thread(
            name="side", type=discord.ChannelType.public_thread
        )
        await side.send("a side thread")

    @ping.command(name="edits", description="Edits its reply two ways, reads history, sends a DM")
    async def edits(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "v1", file=discord.File(io.BytesIO(BOARD_PNG), "a.png")
        )
        await interaction.edit_original_response(
            content="v2", attachments=[discord.File(io.BytesIO(REPLAY_PNG), "b.png")]
        )
        original = await interaction.original_response()
        assert isinstance(interaction.channel, discord.TextChannel)
        fetched = await interaction.channel.fetch_message(original.id)
        await fetched.edit(content="v3")
        state.results[:] = [m.content async for m in interaction.channel.history(limit=5)]
        await interaction.user.send("a direct message")

    @ping.command(name="ask", description="Shows a modal")
    async def ask(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(AskMove())

    @ping.command(name="notify", description="Mentions someone in every way there is")
    async def notify(interaction: discord.Interaction, target: discord.Member) -> None:
        only = discord.AllowedMentions(users=[target], everyone=False, roles=False)
        await interaction.response.send_message(
            f"{target.mention} your turn", allowed_mentions=only
        )
        assert isinstance(interaction.channel, discord.TextChannel)
        channel = interaction.channel
        await channel.send(
            f"{target.mention} quiet", allowed_mentions=discord.AllowedMentions.none()
        )
        await channel.send(f"{target.mention} loud")
        board = await channel.send("board")
        await board.edit(content=f"board, {target.mention} to move")
        await interaction.followup.send(f"{target.mention} silent", silent=True)
        await channel.send(embed=discord.Embed(description=f"{target.mention} in an embed"))
        gone = await channel.send(f"{target.mention} soon deleted")
        await gone.delete()
        await target.send("a direct message")
        state.results[:] = ["done"]

    tree.add_command(ping)
    client.add_dynamic_items(Counter)

    async def setup_hook() -> None:
        await tree.sync()

    client.setup_hook = setup_hook  # type: ignore[method-assign]
    return client, tree


@dataclass
class Harness:
    fake: FakeDiscord
    client: discord.Client
    tree: app_commands.CommandTree[discord.Client]
    state: BotState
    guild: Guild
    games: Channel
    ann: User
    bob: User


async def run_bot(fake: FakeDiscord, client: discord.Client) -> asyncio.Task[None]:
    task = asyncio.create_task(client.start(fake.token))
    await fake.wait_ready()
    await asyncio.wait_for(client.wait_until_ready(), 5)
    return task


async def stop_bot(client: discord.Client, task: asyncio.Task[None]) -> None:
    await client.close()
    await asyncio.wait_for(task, 5)


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        restore = point_discord_py_at(server)
        try:
            yield server
        finally:
            restore()


@pytest_asyncio.fixture
async def h(fake: FakeDiscord) -> AsyncIterator[Harness]:
    guild = fake.add_guild("Stone Club", channels=["games", "quiet"])
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    fake.set_overwrite(guild.channel("quiet"), fake.bot, deny=perms.SEND_MESSAGES)
    state = BotState()
    client, tree = build_bot(state)
    task = await run_bot(fake, client)
    try:
        yield Harness(fake, client, tree, state, guild, guild.channel("games"), ann, bob)
    finally:
        await stop_bot(client, task)


# ---------------------------------------------------------------- connecting


@pytest.mark.asyncio
async def test_the_client_connects_compressed_and_learns_guilds_channels_permissions(
    h: Harness,
) -> None:
    fake, client = h.fake, h.client
    [conn] = fake.connections
    assert conn.compression == ASKED_COMPRESSION in ("zlib-stream", "zstd-stream")
    assert conn.heartbeats >= 1  # discord.py beats at once after HELLO; the ACK keeps it connected
    assert [p["t"] for p in conn.sent if p["op"] == 0][:2] == ["READY", "GUILD_CREATE"]
    sequence = [p["s"] for p in conn.sent if p["op"] == 0]
    assert sequence == list(range(1, len(sequence) + 1))
    assert (
        client.user is not None
        and client.user.id == fake.bot.id
        and client.application_id == fake.bot.id
    )

    guild = client.get_guild(h.guild.id)
    assert guild is not None and guild.name == "Stone Club"
    assert guild.owner_id == h.guild.owner.id and guild.member_count == 4
    me = guild.me
    games, quiet = guild.get_channel(h.games.id), guild.get_channel(h.guild.channel("quiet").id)
    assert isinstance(games, discord.TextChannel) and isinstance(quiet, discord.TextChannel)
    in_games, in_quiet = games.permissions_for(me), quiet.permissions_for(me)
    assert in_games.send_messages and in_games.create_public_threads and in_games.attach_files
    assert not in_games.manage_guild
    assert in_quiet.view_channel and not in_quiet.send_messages  # the overwrite made it through

    later = fake.add_guild("Late Club")  # joined while connected: a GUILD_CREATE of its own
    await fake.wait_for(lambda: client.get_guild(later.id) is not None, what="the new guild")
    assert fake.violations == []


@pytest.mark.asyncio
async def test_the_raw_gateway_speaks_zlib_stream_and_plain_json_and_closes_on_misuse(
    fake: FakeDiscord,
) -> None:
    fake.add_guild("Stone Club")
    fake.hub.max_concurrency = 2  # a large bot's limit: shards 0 and 1 log in at once
    inflate = zlib.decompressobj()

    def inflated(message: aiohttp.WSMessage) -> dict[str, Any]:
        assert message.type is aiohttp.WSMsgType.BINARY and message.data.endswith(
            b"\x00\x00\xff\xff"
        )
        decoded: dict[str, Any] = json.loads(inflate.decompress(message.data))
        return decoded

    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(
            fake.gateway_url + "?v=10&encoding=json&compress=zlib-stream"
        ) as ws:
            hello = inflated(await ws.receive())
            assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] == 41250
            await ws.send_json(
                {"op": 2, "d": {"token": fake.token, "intents": 1, "properties": {}}}
            )
            ready, guild = inflated(await ws.receive()), inflated(await ws.receive())
            assert (ready["t"], ready["s"], guild["t"], guild["s"]) == (
                "READY",
                1,
                "GUILD_CREATE",
                2,
            )
            assert (
                ready["d"]["resume_gateway_url"].endswith("/gateway-resume")
                and "shard" not in ready["d"]
            )
            await ws.send_json({"op": 1, "d": 2})
            assert inflated(await ws.receive())["op"] == 11
        async with session.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws:
            assert (await ws.receive_json())["op"] == 10  # plain text frames without compression
            await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1, "shard": [1, 2]}})
            ready = await ws.receive_json()
            assert ready["d"]["shard"] == [1, 2] and len(ready["d"]["guilds"]) == len(
                fake.world.guilds
            ) - sum(1 for g in fake.world.guilds if (g >> 22) % 2 == 0)
        async with session.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws:
            await ws.receive_json()
            await ws.send_json(
                {"op": 6, "d": {"token": fake.token, "session_id": "nope", "seq": 3}}
            )
            assert (await ws.receive_json())["op"] == 9  # INVALID_SESSION, not resumable
        for first, code in (
            ({"op": 8, "d": {"guild_id": "1"}}, 4003),
            ({"op": 2, "d": {"token": "x"}}, 4004),
        ):
            async with session.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws:
                await ws.receive_json()
                await ws.send_json(first)
                closing = await ws.receive()
                assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == code
    assert [v.split(" (")[0] for v in fake.violations] == [
        "gateway: op 8 before IDENTIFY",
        "gateway: IDENTIFY with a wrong token",
    ]


@pytest.mark.asyncio
async def test_a_wrong_token_fails_login_and_is_recorded(fake: FakeDiscord) -> None:
    client = discord.Client(intents=discord.Intents.default())
    with pytest.raises(discord.LoginFailure):
        await client.login("not.the.token")
    await client.close()
    assert len(fake.violations) == 1 and "Authorization" in fake.violations[0]


@pytest.mark.asyncio
async def test_privileged_intents_need_enabling_and_member_chunks_arrive_when_they_are() -> None:
    intents = discord.Intents.default()
    intents.members = True
    async with FakeDiscord() as strict:
        restore = point_discord_py_at(strict)
        try:
            strict.add_guild("Stone Club")
            client, _ = build_bot(BotState(), intents)
            with pytest.raises(discord.PrivilegedIntentsRequired):
                await asyncio.wait_for(client.start(strict.token), 5)
            await client.close()
            assert any("privileged intents" in v for v in strict.violations)
        finally:
            restore()
    async with FakeDiscord(privileged_intents={"members"}) as lenient:
        restore = point_discord_py_at(lenient)
        try:
            guild = lenient.add_guild("Stone Club")
            lenient.add_user("ann")
            client, _ = build_bot(BotState(), intents)
            task = await run_bot(lenient, client)
            seen = client.get_guild(guild.id)
            assert (
                seen is not None
                and seen.chunked
                and {m.name for m in seen.members} == {"stone-club-owner", "kamen", "ann"}
            )
            await stop_bot(client, task)
            assert lenient.violations == []
        finally:
            restore()


# ---------------------------------------------------------------- commands


@pytest.mark.asyncio
async def test_commands_are_synced_stored_with_ids_and_fetchable(h: Harness) -> None:
    [ping] = h.fake.commands()
    assert ping["name"] == "ping" and ping["id"]
    subs = {o["name"]: o for o in ping["options"]}
    assert subs["deep"]["type"] == 2 and subs["deep"]["options"][0]["name"] == "check"
    assert subs["move"]["options"][0]["autocomplete"] is True
    fetched = await h.tree.fetch_commands()
    assert [c.id for c in fetched] == [int(ping["id"])]
    again = await h.tree.sync()  # a second overwrite keeps the id of a command of the same name
    assert [c.id for c in again] == [int(ping["id"])]
    assert h.fake.violations == []


@pytest.mark.asyncio
async def test_an_overlong_description_fails_the_sync_and_is_a_violation(h: Harness) -> None:
    @h.tree.command(name="chatty", description="x" * 101)
    async def chatty(interaction: discord.Interaction) -> None:
        pass

    with pytest.raises(
        app_commands.CommandSyncFailure, match="Must be between 1 and 100 in length"
    ):
        await h.tree.sync()
    assert len(h.fake.violations) == 1
    assert "1.description" in h.fake.violations[0] and "100" in h.fake.violations[0]
    assert [c["name"] for c in h.fake.commands()] == ["ping"]  # a refused overwrite changes nothing


def test_command_definitions_are_checked_against_discords_limits() -> None:
    def problems(command: dict[str, Any]) -> list[str]:
        return [str(p) for p in command_limits.validate_commands([command])]

    def opt(name: str, kind: int = 3, **more: Any) -> dict[str, Any]:
        return {"name": name, "description": "d", "type": kind, **more}

    good = {
        "name": "oska",
        "description": "Play Oska",
        "options": [
            opt("move", 1, options=[opt("move", required=True, autocomplete=True), opt("note")]),
            opt("admin", 2, options=[opt("reset", 1)]),
        ],
    }
    assert problems(good) == []
    assert problems({"name": "Oska", "description": "d"})  # upper case
    assert problems({"name": "a" * 33, "description": "d"})
    assert problems({"name": "oska", "description": ""})
    assert problems({"name": "o", "description": "d", "options": [opt(f"o{i}") for i in range(26)]})
    assert problems(
        {"name": "o", "description": "d", "options": [opt("a"), opt("b", required=True)]}
    )
    assert problems(
        {
            "name": "o",
            "description": "d",
            "options": [opt("c", choices=[{"name": str(i), "value": str(i)} for i in range(26)])],
        }
    )
    assert problems(
        {
            "name": "o",
            "description": "d",
            "options": [opt("c", choices=[{"name": "x" * 101, "value": "x"}])],
        }
    )
    assert problems(
        {"name": "o", "description": "d", "options": [opt("s", 1, options=[opt("t", 1)])]}
    )
    assert problems({"name": "o", "description": "d", "options": [opt("g", 2, options=[opt("v")])]})
    assert problems({"name": "o", "description": "d", "options": [opt("s", 1), opt("v")]})
    assert problems({"name": "o", "description": "d", "options": [opt("v"), opt("v")]})
    assert command_limits.count_problem([{"name": f"c{i}", "description": "d"} for i in range(101)])
    assert (
        command_limits.count_problem([{"name": f"c{i}", "description": "d"} for i in range(100)])
        is None
    )


# ---------------------------------------------------------------- slash commands


@pytest.mark.asyncio
async def test_a_slash_command_round_trip_with_a_resolved_member_and_nested_groups(
    h: Harness,
) -> None:
    fake = h.fake
    reply = await fake.slash(h.ann, h.games, "ping challenge", opponent=h.bob)
    assert reply.type == 4 and not reply.ephemeral
    assert reply.content == f"{h.ann.mention} challenges {h.bob.mention}"
    assert isinstance(h.state.opponent, discord.Member) and h.state.opponent.id == h.bob.id
    challenge = reply.message
    assert challenge is not None and [u.id for u in challenge.mentions] == [h.ann.id, h.bob.id]
    assert fake.messages(h.games)[-1] is challenge

    reply = await fake.slash(h.bob, h.games, "/ping deep check")
    assert reply.content == "deep enough"
    reply = await fake.slash(h.bob, h.games, "ping pong")
    [embed] = reply.embeds
    assert (embed["title"], embed["description"]) == ("Pong", "fast") and "Pong" in reply.text
    assert h.state.interactions[-1].user.id == h.bob.id

    said = fake.say(h.ann, h.games, f"good luck {h.bob.mention}")
    await fake.wait_for(
        lambda: said.id in {m.id for m in h.client.cached_messages}, what="MESSAGE_CREATE"
    )
    seen = {m.id: m for m in h.client.cached_messages}
    assert seen[challenge.id].author.id == fake.bot.id  # the bot's own messages come back too
    assert seen[said.id].content == ""  # no message content intent: Discord blanks others' text

    with pytest.raises(ProtocolError, match="required option 'opponent'"):
        await fake.slash(h.ann, h.games, "ping challenge")
    with pytest.raises(ProtocolError, match="no sub-command"):
        await fake.slash(h.ann, h.games, "ping nothing")
    assert fake.violations == []


@pytest.mark.asyncio
async def test_message_limits_are_enforced_on_responses(h: Harness) -> None:
    reply = await h.fake.slash(h.ann, h.games, "ping echo", text="x", times=2000)
    assert len(reply.content) == 2000
    with pytest.raises(NotAnswered, match="content"):
        await h.fake.slash(h.ann, h.games, "ping echo", text="x", times=2001)
    assert len(h.fake.violations) == 1 and "Must be 2000 or fewer in length" in h.fake.violations[0]
    assert (
        isinstance(h.state.errors[-1], discord.HTTPException) and h.state.errors[-1].status == 400
    )


def test_component_and_embed_limits() -> None:
    def button(custom_id: str, label: str = "ok") -> dict[str, Any]:
        return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}

    def select(custom_id: str, n: int) -> dict[str, Any]:
        return {
            "type": 3,
            "custom_id": custom_id,
            "options": [{"label": str(i), "value": str(i)} for i in range(n)],
        }

    def row(*items: dict[str, Any]) -> dict[str, Any]:
        return {"type": 1, "components": list(items)}

    def problems(body: dict[str, Any]) -> list[str]:
        return [str(p) for p in limits.validate_message(body, files=[])]

    assert problems({"components": [row(button("a"), button("b")), row(select("s", 25))]}) == []
    assert problems({"components": [row(button(f"b{i}")) for i in range(6)]})
    assert problems({"components": [row(*(button(f"b{i}") for i in range(6)))]})
    assert problems({"components": [row(button("a"), select("s", 2))]})
    assert problems({"components": [row(select("s", 26))]})
    assert problems({"components": [row(button("a" * 101))]})
    assert problems({"components": [row(button("a", "l" * 81))]})
    assert problems({"components": [row(button("a"), button("a"))]})
    assert problems({"embeds": [{"title": "t"}] * 11})
    assert problems({"embeds": [{"description": "d" * 4096}, {"description": "d" * 2000}]})
    assert problems({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]})
    assert problems({"content": "c" * 2001})


# ---------------------------------------------------------------- autocomplete


@pytest.mark.asyncio
async def test_autocomplete_offers_the_bots_choices(h: Harness) -> None:
    choices = await h.fake.autocomplete(h.ann, h.games, "ping move", "move", "a1")
    assert [c.value for c in choices] == ["a1-b2", "a1-c3"]
    assert await h.fake.autocomplete(h.ann, h.games, "ping move", "move", "zz") == []
    reply = await h.fake.slash(h.ann, h.games, "ping move", move=choices[0].value)
    assert reply.content == "played a1-b2"
    assert h.fake.violations == []


@pytest.mark.asyncio
async def test_more_than_25_autocomplete_choices_is_a_violation(h: Harness) -> None:
    with pytest.raises(NotAnswered, match="25"):
        await h.fake.autocomplete(h.ann, h.games, "ping many", "pick", "")
    assert len(h.fake.violations) == 1 and "Must be 25 or fewer" in h.fake.violations[0]


# ---------------------------------------------------------------- components


@pytest.mark.asyncio
async def test_a_dynamic_item_button_click_updates_the_message(h: Harness) -> None:
    fake = h.fake
    reply = await fake.slash(h.ann, h.games, "ping buttons")
    message = reply.message
    assert message is not None and [b["custom_id"] for b in message.buttons] == ["count:0"]

    clicked = await fake.click(h.bob, message, "count:0")
    assert clicked.type == 7 and clicked.message is message  # updated in place
    assert message.content == "count is 1" and message.buttons[0]["custom_id"] == "count:1"
    await fake.click(h.ann, message, "Count 1")  # by label
    assert message.content == "count is 2" and [v.content for v in message.versions] == [
        "count is 0",
        "count is 1",
    ]
    assert message.edited
    with pytest.raises(ProtocolError, match="no component"):
        await fake.click(h.ann, message, "count:0")  # not on the message any more
    assert fake.violations == []
    # A lagging client may still click count:0, but the interaction carries the message as it
    # is now, and discord.py drops a DynamicItem click whose custom_id is not on that message:
    # no answer.
    stale = await fake.click(h.bob, message, "count:0", stale=True, wait=False)
    assert stale.record.message is message and stale.record.data["custom_id"] == "count:0"
    fake.advance(3.1)
    with pytest.raises(NotAnswered, match="within 3 s"):
        await stale.wait()
    assert fake.violations == ["click 'count:0' by bob: not answered within 3 s"]


@pytest.mark.asyncio
async def test_a_select_menu_pick_reaches_the_view_bound_to_the_message(h: Harness) -> None:
    fake = h.fake
    reply = await fake.slash(h.ann, h.games, "ping menu")
    assert reply.message is not None and reply.message.selects[0]["custom_id"] == "menu:pick"
    picked = await fake.select(h.bob, reply.message, "Pick a move", ["b2-c3"])
    assert picked.content == "bob picked b2-c3" and picked.ephemeral
    with pytest.raises(ProtocolError, match="offers"):
        await fake.select(h.bob, reply.message, "menu:pick", ["h8-h9"])
    assert fake.violations == []


@pytest.mark.asyncio
async def test_an_ephemeral_reply_is_seen_only_by_its_user(h: Harness) -> None:
    fake = h.fake
    reply = await fake.slash(h.ann, h.games, "ping whisper")
    assert reply.ephemeral and reply.content == "only you can see this"
    assert reply.message not in fake.messages(h.games)
    assert reply.message in fake.messages(h.games, viewer=h.ann)
    assert reply.message not in fake.messages(h.games, viewer=h.bob)
    assert fake.ephemeral_messages(h.ann) == [reply.message]
    # the bot gets nothing back for an ephemeral message in the channel history
    fetched = [m async for m in h.client.get_partial_messageable(h.games.id).history(limit=10)]
    assert reply.message is not None and reply.message.id not in [m.id for m in fetched]
    assert fake.violations == []


@pytest.mark.asyncio
async def test_edits_history_direct_messages_and_modals(h: Harness) -> None:
    fake = h.fake
    reply = await fake.slash(h.ann, h.games, "ping edits")
    await fake.wait_for(lambda: _has_dm(fake, h.ann), what="the DM")
    message = reply.message
    assert message is not None and message.content == "v3"
    assert [v.content for v in message.versions] == ["v1", "v2"]
    assert [a.filename for a in message.attachments] == ["b.png"]
    assert message.attachments[0].data == REPLAY_PNG
    assert h.state.results[0] == "v3"  # the history the bot read, newest first
    assert [m.content for m in fake.messages(fake.dm_channel(h.ann))] == ["a direct message"]

    shown = await fake.slash(h.bob, h.games, "ping ask")
    assert shown.type == 9 and shown.modal is not None and shown.modal["title"] == "Your move"
    submitted = await fake.submit_modal(h.bob, shown, {"move": "a1-b2"})
    assert submitted.content == "you typed a1-b2" and submitted.ephemeral
    assert fake.violations == []


def _has_dm(fake: FakeDiscord, user: User) -> bool:
    try:
        fake.dm_channel(user)
    except LookupError:
        return False
    return bool(fake.messages(fake.dm_channel(user)))


# ---------------------------------------------------------------- deferring, followups, files


@pytest.mark.asyncio
async def test_defer_then_followups(h: Harness) -> None:
    reply = await h.fake.slash(h.ann, h.games, "ping slow")
    assert reply.type == 5 and reply.deferred
    message = await reply.final()
    assert message.content == "done thinking" and not message.loading and not message.edited
    [more] = await reply.wait_followups(1)
    assert more.content == "and one more thing" and more is not message
    assert [m.content for m in h.fake.messages(h.games)] == ["done thinking", "and one more thing"]
    assert h.fake.violations == []


@pytest.mark.asyncio
async def test_followups_are_refused_after_the_token_expires(h: Harness) -> None:
    await h.fake.slash(h.ann, h.games, "ping whisper")
    interaction = h.state.interactions[-1]
    h.fake.advance(14 * 60)
    await interaction.followup.send("still in time", ephemeral=True)
    h.fake.advance(2 * 60)
    with pytest.raises(discord.HTTPException) as refused:
        await interaction.followup.send("too late", ephemeral=True)
    assert refused.value.status == 401 and refused.value.code == 50027
    assert len(h.fake.violations) == 1 and "15 min" in h.fake.violations[0]


@pytest.mark.asyncio
async def test_attachments_arrive_intact_by_response_followup_and_channel_message(
    h: Harness,
) -> None:
    fake = h.fake
    reply = await fake.slash(h.ann, h.games, "ping file")
    [board] = reply.attachments
    assert board.filename == "board.png" and board.data == BOARD_PNG
    assert board.content_type == "image/png" and board.dimensions == (64, 48)
    [followup] = await reply.wait_followups(1)
    assert followup.attachment("replay.png").data == REPLAY_PNG
    await fake.wait_for(
        lambda: fake.last_message(h.games).content == "record", what="the channel message"
    )
    record = fake.last_message(h.games).attachment("game.txt")
    assert (
        record.data == LOG_TEXT
        and record.content_type is not None
        and record.content_type.startswith("text/plain")
    )
    async with (
        aiohttp.ClientSession() as session,
        session.get(board.url) as response,
    ):  # the CDN serves it
        assert await response.read() == BOARD_PNG
    assert fake.violations == []


# ---------------------------------------------------------------- the rules on initial responses


@pytest.mark.asyncio
async def test_a_second_initial_response_is_a_violation(h: Harness) -> None:
    reply = await h.fake.slash(h.ann, h.games, "ping twice")
    await h.fake.wait_for(lambda: len(h.state.results) == 2, what="both answers")
    assert reply.content == "one"
    assert (
        isinstance(h.state.results[1], discord.HTTPException) and h.state.results[1].code == 40060
    )
    assert len(h.fake.violations) == 1 and "second initial response" in h.fake.violations[0]


@pytest.mark.asyncio
async def test_a_response_after_3_s_is_a_violation(h: Harness) -> None:
    pending = await h.fake.slash(h.ann, h.games, "ping late", wait=False)
    h.fake.advance(3.5)  # the fake's clock: no need to sleep
    h.state.release.set()
    with pytest.raises(NotAnswered, match="3 s"):
        await pending.wait()
    await h.fake.wait_for(lambda: bool(h.state.errors), what="the bot to hear it was too late")
    assert isinstance(h.state.errors[-1], discord.NotFound) and h.state.errors[-1].code == 10062
    assert len(h.fake.violations) == 1 and "3 s" in h.fake.violations[0]


@pytest.mark.asyncio
async def test_a_response_within_3_s_is_fine(h: Harness) -> None:
    pending = await h.fake.slash(h.ann, h.games, "ping late", wait=False)
    h.fake.advance(2.5)
    h.state.release.set()
    assert (await pending.wait()).content == "sorry I am late"
    assert h.fake.violations == []


# ---------------------------------------------------------------- threads, routes, permissions


@pytest.mark.asyncio
async def test_threads_are_created_announced_and_used(h: Harness) -> None:
    fake = h.fake
    reply = await fake.slash(h.ann, h.games, "ping thread")
    await fake.wait_for(
        lambda: (
            len(fake.threads(h.games)) == 2 and all(fake.messages(t) for t in fake.threads(h.games))
        ),
        what="two threads with messages",
    )
    game, side = fake.threads(h.games)
    assert reply.message is not None and reply.message.thread_id == game.id
    assert (
        game.id == reply.message.id and game.name == "game-1"
    )  # a thread on a message shares its id
    assert [m.content for m in fake.messages(game)] == ["inside the thread"]
    assert [m.content for m in fake.messages(side)] == ["a side thread"]
    assert fake.messages(h.games)[-1].type == 18  # Discord's "started a thread" notice for `side`
    known = h.client.get_channel(game.id)
    assert (
        isinstance(known, discord.Thread) and known.parent_id == h.games.id and known.me is not None
    )

    in_thread = await fake.slash(h.bob, game, "ping pong")  # commands work inside the thread
    assert in_thread.message in fake.messages(game)
    assert fake.violations == []


@pytest.mark.asyncio
async def test_missing_permissions_and_unknown_routes_are_violations(h: Harness) -> None:
    quiet = h.client.get_channel(h.guild.channel("quiet").id)
    assert isinstance(quiet, discord.TextChannel)
    with pytest.raises(discord.Forbidden):
        await quiet.send("shh")
    with pytest.raises(discord.NotFound):
        await h.client.http.request(discord.http.Route("GET", "/no/such/route"))
    assert len(h.fake.violations) == 2
    assert "SEND_MESSAGES" in h.fake.violations[0] and "/no/such/route" in h.fake.violations[1]


# ---------------------------------------------------------------- gateway resilience


@pytest.mark.asyncio
async def test_after_a_gateway_drop_the_client_resumes_and_gets_the_missed_events(
    h: Harness,
) -> None:
    fake = h.fake
    await fake.drop_gateway()
    reply = await fake.slash(
        h.ann, h.games, "ping pong"
    )  # sent while the bot is away: replayed on RESUME
    assert reply.content == "pong"
    await asyncio.wait_for(h.state.resumed.wait(), 5)
    assert fake.identify_count == 1 and fake.resume_count == 1
    assert (
        fake.connections[-1].path == "/gateway-resume"
        and fake.connections[-1].compression == ASKED_COMPRESSION
    )

    await fake.drop_gateway(abrupt=True)  # the TCP connection cut without a close frame
    await fake.wait_resumed(2)
    assert (await fake.slash(h.bob, h.games, "ping pong")).content == "pong"
    assert fake.identify_count == 1
    assert fake.violations == []


# ---------------------------------------------------------------- a bot in its own process


BOT_PROCESS = """
import os, discord, yarl
from discord import app_commands
discord.http.Route.BASE = os.environ["DISCORD_API_BASE"]
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DISCORD_GATEWAY_URL"])
client = discord.Client(intents=discord.Intents.default())
tree = app_commands.CommandTree(client)

@tree.command(description="Says hello")
async def hello(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("hello from another process")

async def setup_hook() -> None:
    await tree.sync()

client.setup_hook = setup_hook
client.run(os.environ["DISCORD_TOKEN"], log_handler=None)
"""


@pytest.mark.asyncio
async def test_a_bot_process_finds_the_fake_through_environment_variables(
    fake: FakeDiscord,
) -> None:
    guild = fake.add_guild("Stone Club")
    ann = fake.add_user("ann")
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        BOT_PROCESS,
        env={**os.environ, **fake.env()},
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        await fake.wait_ready(timeout=15)
        reply = await fake.slash(ann, guild.channel("games"), "hello")
        assert reply.content == "hello from another process"
    finally:
        process.kill()
        await process.wait()
    await fake.wait_disconnected()
    assert fake.violations == []


# ---------------------------------------------------------------- injected faults


@pytest.mark.asyncio
async def test_a_429_on_the_callback_is_waited_out_and_retried_by_discord_py(h: Harness) -> None:
    fake = h.fake
    fault = fake.fail("POST", r"/interactions/\d+/[^/]+/callback$", 429, retry_after=0.2)
    reply = await fake.slash(h.ann, h.games, "ping pong")
    assert reply.content == "pong" and fault.hits == 1 and fake.faults == []
    assert fake.requests.count("POST /interactions/{interaction_id}/{token}/callback -> 429") == 1
    assert (
        fake.requests[-1] == "POST /interactions/{interaction_id}/{token}/callback -> 200"
    )  # with_response

    # Followups, channel messages, edits and threads: all retried the same way.
    for method, route in [
        ("POST", "/webhooks/{app_id}/{token}"),
        ("POST", "/channels/{channel_id}/messages"),
        ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
        ("POST", "/channels/{channel_id}/messages/{message_id}/threads"),
    ]:
        fake.fail(method, route, 429, retry_after=0.05)
    slow = await fake.slash(h.ann, h.games, "ping slow")
    await slow.wait_followups(1)
    assert slow.content == "done thinking" and slow.followups[0].content == "and one more thing"
    channel = h.client.get_channel(h.games.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("first")
    await sent.edit(content="edited")
    thread = await sent.create_thread(name="game-2")
    assert fake.last_message(h.games).content == "edited" and thread.id == sent.id
    assert fake.faults == [] and sum("-> 429" in r for r in fake.requests) == 5
    assert fake.violations == []


@pytest.mark.asyncio
async def test_500_is_retried_403_refused_503_raised_with_discords_bodies(h: Harness) -> None:
    fake = h.fake
    channel = h.client.get_channel(h.games.id)
    assert isinstance(channel, discord.TextChannel)
    fake.fail("POST", "/channels/{channel_id}/messages$", 500)
    await channel.send("after a 500")  # discord.py sleeps 1 s and tries again
    assert [m.content for m in fake.messages(h.games)] == ["after a 500"]

    fake.fail("POST", "/channels/{channel_id}/threads", 403)
    with pytest.raises(discord.Forbidden) as forbidden:
        await channel.create_thread(name="nope", type=discord.ChannelType.public_thread)
    assert (forbidden.value.code, forbidden.value.text) == (50013, "Missing Permissions")
    fake.fail("*", r"/channels/\d+/messages", 403, code=50001, message="Missing Access")
    with pytest.raises(discord.Forbidden) as forbidden:
        await channel.send("nope")
    assert forbidden.value.code == 50001
    fake.fail("POST", "/channels/{channel_id}/messages", 503)
    with pytest.raises(discord.DiscordServerError):
        await channel.send("nope")
    assert fake.threads(h.games) == [] and len(fake.messages(h.games)) == 1
    assert fake.violations == []  # injected answers are not the bot's fault


@pytest.mark.asyncio
async def test_a_refused_callback_is_not_answered_and_not_a_violation(h: Harness) -> None:
    fake = h.fake
    fake.fail("POST", "/callback$", 403, code=50001, message="Missing Access")
    with pytest.raises(NotAnswered, match="injected 403"):
        await fake.slash(h.ann, h.games, "ping pong")
    await fake.wait_for(lambda: bool(h.state.errors), what="the bot to hear the 403")
    assert isinstance(h.state.errors[-1], discord.Forbidden)
    fake.advance(3.5)
    assert fake.violations == []


@pytest.mark.asyncio
async def test_a_slow_callback_arrives_too_late_without_a_violation(h: Harness) -> None:
    fake = h.fake
    fault = fake.fail("POST", "/callback$", None, delay=0.3)
    pending = await fake.slash(h.ann, h.games, "ping pong", wait=False)
    await fake.wait_for(lambda: fault.hits == 1, what="the callback to arrive")
    fake.advance(3.5)  # the callback is held up past Discord's 3 s
    with pytest.raises(NotAnswered):
        await pending.wait()
    await fake.wait_for(lambda: bool(h.state.errors), what="the bot to hear it was too late")
    assert isinstance(h.state.errors[-1], discord.NotFound) and h.state.errors[-1].code == 10062
    assert fake.violations == []


@pytest.mark.asyncio
async def test_a_callback_carried_out_but_answered_500_makes_the_retry_meet_40060(
    h: Harness,
) -> None:
    fake = h.fake
    fake.fail("POST", "/callback$", 500, carried_out=True)
    reply = await fake.slash(h.ann, h.games, "ping pong")
    assert reply.content == "pong"  # Discord did post it
    await fake.wait_for(lambda: bool(h.state.errors), what="the bot's retry to be refused")
    error = h.state.errors[-1]
    assert isinstance(error, discord.HTTPException) and error.code == 40060
    assert [m.content for m in fake.messages(h.games)] == ["pong"]
    assert fake.violations == []


def test_fault_arguments_are_checked() -> None:
    fake = FakeDiscord()
    with pytest.raises(ValueError):
        fake.fail("GET", "/x", None)
    with pytest.raises(ValueError):
        fake.fail("GET", "/x", 200)
    fault = fake.fail("GET", "/x", 500, times=None)
    assert isinstance(fault, Fault) and fake.faults == [fault]
    fake.clear_faults()
    assert fake.faults == []


# ---------------------------------------------------------------- locale


@pytest.mark.asyncio
async def test_interactions_carry_the_users_and_the_servers_locale(fake: FakeDiscord) -> None:
    guild = fake.add_guild("Kamenný klub", locale="de")
    eva = fake.add_user("eva", locale="cs")
    state = BotState()
    client, _ = build_bot(state)
    task = await run_bot(fake, client)
    try:
        await fake.slash(eva, guild.channel("games"), "ping pong")
        seen = state.interactions[-1]
        assert (seen.locale, seen.guild_locale) == (discord.Locale.czech, discord.Locale.german)
        fake.set_locale(eva, "pl")
        fake.set_guild_locale(guild, "fr")
        await fake.slash(eva, guild.channel("games"), "ping pong")
        seen = state.interactions[-1]
        assert (seen.locale, seen.guild_locale) == (discord.Locale.polish, discord.Locale.french)
        await fake.wait_for(
            lambda: str(client.get_guild(guild.id).preferred_locale) == "fr",  # type: ignore[union-attr]
            what="GUILD_UPDATE",
        )
    finally:
        await stop_bot(client, task)
    assert fake.violations == []


# ---------------------------------------------------------------- channels gone, access lost


@pytest.mark.asyncio
async def test_deleted_threads_and_channels_are_announced_and_answer_404(h: Harness) -> None:
    fake, client = h.fake, h.client
    await fake.slash(h.ann, h.games, "ping thread")
    await fake.wait_for(lambda: len(fake.threads(h.games)) == 2, what="two threads")
    game, side = fake.threads(h.games)
    await fake.wait_for(lambda: client.get_channel(side.id) is not None, what="THREAD_CREATE")
    thread = client.get_channel(game.id)
    assert isinstance(thread, discord.Thread)

    waiting = asyncio.ensure_future(client.wait_for("raw_thread_delete"))
    fake.delete_channel(game)
    deleted = await asyncio.wait_for(waiting, 5)
    assert deleted.thread_id == game.id and deleted.parent_id == h.games.id
    assert client.get_channel(game.id) is None
    with pytest.raises(discord.NotFound) as gone:
        await thread.send("hello?")
    assert gone.value.code == 10003
    assert [m.content for m in fake.messages(game)] == ["inside the thread"]  # still readable

    pending = await fake.slash(h.ann, h.games, "ping late", wait=False)
    channel = client.get_channel(h.games.id)
    assert isinstance(channel, discord.TextChannel)
    channel_gone = asyncio.ensure_future(client.wait_for("guild_channel_delete"))
    fake.delete_channel(h.games)
    assert (await asyncio.wait_for(channel_gone, 5)).id == h.games.id
    assert client.get_channel(h.games.id) is None and client.get_channel(side.id) is None
    with pytest.raises(discord.NotFound):
        await channel.send("hello?")
    h.state.release.set()
    with pytest.raises(NotAnswered, match="deleted"):  # the interaction of a deleted channel
        await pending.wait()
    assert fake.messages(h.games)  # the messages of the deleted channel stay readable
    assert fake.violations == []


@pytest.mark.asyncio
async def test_a_bot_whose_access_is_removed_gets_403_missing_access(h: Harness) -> None:
    fake, client = h.fake, h.client
    await fake.slash(h.ann, h.games, "ping thread")
    await fake.wait_for(lambda: len(fake.threads(h.games)) == 2, what="two threads")
    game, _ = fake.threads(h.games)
    thread = client.get_channel(game.id)
    assert isinstance(thread, discord.Thread)
    waiting = asyncio.ensure_future(client.wait_for("thread_remove"))
    fake.remove_bot_access(game)
    assert (await asyncio.wait_for(waiting, 5)).id == game.id
    with pytest.raises(discord.Forbidden) as refused:
        await thread.send("hello?")
    assert refused.value.code == 50001

    channel = client.get_channel(h.games.id)
    assert isinstance(channel, discord.TextChannel)
    fake.remove_bot_access(h.games)
    await fake.wait_for(
        lambda: not channel.permissions_for(channel.guild.me).view_channel, what="CHANNEL_UPDATE"
    )
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("hello?")
    assert refused.value.code == 50001
    assert fake.violations == []


@pytest.mark.asyncio
async def test_messages_are_deleted_by_the_bot_and_by_moderators(h: Harness) -> None:
    fake, client = h.fake, h.client
    channel = client.get_channel(h.games.id)
    assert isinstance(channel, discord.TextChannel)
    mine = await channel.send("the bot deletes this")
    await mine.delete()
    [deleted] = fake.messages(h.games, include_deleted=True)
    assert deleted.deleted and fake.messages(h.games) == []
    kept = await channel.send("a moderator deletes this")
    waiting = asyncio.ensure_future(client.wait_for("raw_message_delete"))
    fake.delete_message(fake.last_message(h.games))
    assert (await asyncio.wait_for(waiting, 5)).message_id == kept.id
    with pytest.raises(discord.NotFound) as gone:
        await kept.edit(content="too late")
    assert gone.value.code == 10008
    assert fake.messages(h.games) == [] and fake.violations == []


# ---------------------------------------------------------------- notifications


@pytest.mark.asyncio
async def test_notifications_are_what_discord_delivers(h: Harness) -> None:
    fake = h.fake
    await fake.slash(h.ann, h.games, "ping notify", target=h.bob)
    await fake.wait_for(lambda: h.state.results == ["done"], what="every message")
    assert [m.content for m in fake.notifications(h.bob)] == [
        f"{h.bob.mention} your turn",  # allowed_mentions names bob
        f"{h.bob.mention} loud",  # no allowed_mentions: every mention goes through
        f"{h.bob.mention} soon deleted",  # deleted later, but it was delivered
        "a direct message",  # DMs always notify
    ]
    assert len(fake.notifications(h.bob, channel=h.games)) == 3
    # Not: allowed_mentions none, an edit adding the mention, a silent followup, an embed.
    assert fake.notifications(h.ann) == []
    assert fake.violations == []

    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=h.games.id)
    both = {"parse": ["users"], "users": [str(h.bob.id)]}
    with pytest.raises(discord.HTTPException) as refused:
        await h.client.http.request(route, json={"content": "x", "allowed_mentions": both})
    assert refused.value.code == 50035 and "mutually exclusive" in fake.violations[-1]


# ---------------------------------------------------------------- crafted component interactions


@pytest.mark.asyncio
async def test_a_modified_client_sends_custom_ids_that_are_not_on_the_message(h: Harness) -> None:
    fake = h.fake
    counter = await fake.slash(h.ann, h.games, "ping buttons")
    assert counter.message is not None
    with pytest.raises(ProtocolError):  # an honest client cannot click it
        await fake.click(h.bob, counter.message, "count:41")
    # discord.py's own dispatch drops a custom_id that is not on the message; a bot that
    # listens to every interaction (as Kamen does, to refuse them) still gets it.
    heard = asyncio.ensure_future(
        h.client.wait_for("interaction", check=lambda i: i.data.get("custom_id") == "count:41")
    )
    crafted = await fake.click_custom(h.bob, counter.message, "count:41", wait=False)
    interaction = await asyncio.wait_for(heard, 5)
    assert interaction.message is not None and interaction.message.id == counter.message.id
    await interaction.response.send_message("That is not on this message.", ephemeral=True)
    await crafted.wait()
    assert crafted.ephemeral and counter.message.content == "count is 0"
    assert crafted.record.data == {"custom_id": "count:41", "component_type": 2}

    menu = await fake.slash(h.ann, h.games, "ping menu")
    assert menu.message is not None
    picked = await fake.select_custom(h.bob, menu.message, "menu:pick", ["z9-z9"])
    assert picked.content == "bob picked z9-z9"  # a value the menu never offered
    assert fake.violations == []


# ---------------------------------------------------------------- command permissions


@pytest.mark.asyncio
async def test_a_server_can_open_a_manage_server_command_to_everyone(h: Harness) -> None:
    fake, tree = h.fake, h.tree
    seen: list[discord.Interaction] = []

    @tree.command(name="settings", description="Server settings")
    @app_commands.default_permissions(manage_guild=True)
    async def settings(interaction: discord.Interaction) -> None:
        seen.append(interaction)
        await interaction.response.send_message("settings", ephemeral=True)

    await tree.sync()
    with pytest.raises(ProtocolError, match="hidden"):
        await fake.slash(h.bob, h.games, "settings")
    assert (await fake.slash(h.guild.owner, h.games, "settings")).content == "settings"

    waiting = asyncio.ensure_future(h.client.wait_for("raw_app_command_permissions_update"))
    fake.override_command_permissions(h.guild, "settings")
    update = await asyncio.wait_for(waiting, 5)
    assert update.guild.id == h.guild.id and update.permissions[0].permission is True
    assert (await fake.slash(h.bob, h.games, "settings")).content == "settings"
    # Discord lets bob in, but his own permissions say he cannot manage the server.
    assert not seen[-1].permissions.manage_guild

    fake.override_command_permissions(h.guild, "settings", allow_everyone=False)
    with pytest.raises(ProtocolError, match="hidden"):
        await fake.slash(h.bob, h.games, "settings")
    assert fake.violations == []


# ---------------------------------------------------------------- outages


@pytest.mark.asyncio
async def test_an_outage_refuses_connections_until_it_ends_and_the_bot_resumes(
    h: Harness,
) -> None:
    fake, client = h.fake, h.client
    channel = client.get_channel(h.games.id)
    assert isinstance(channel, discord.TextChannel)
    await fake.set_unreachable(True)
    assert fake.unreachable
    await fake.wait_disconnected()
    with pytest.raises(aiohttp.ClientConnectorError):
        await channel.send("anyone there?")
    await fake.set_unreachable(False)
    await fake.wait_resumed(1, timeout=30)  # discord.py's backoff brings it back
    await channel.send("back")
    assert fake.last_message(h.games).content == "back"
    assert fake.identify_count == 1 and fake.violations == []


@pytest.mark.asyncio
async def test_an_outage_can_answer_503_instead(h: Harness) -> None:
    fake, client = h.fake, h.client
    channel = client.get_channel(h.games.id)
    assert isinstance(channel, discord.TextChannel)
    fake.set_unreachable(True, mode="503")
    with pytest.raises(discord.DiscordServerError) as down:
        await channel.send("anyone there?")
    assert down.value.status == 503
    gateway = fake.gateway_url.replace("ws://", "http://")
    async with aiohttp.ClientSession() as session, session.get(gateway) as response:
        assert response.status == 503
    fake.set_unreachable(False)
    await fake.wait_ready(timeout=30)
    await channel.send("back")
    assert fake.last_message(h.games).content == "back" and fake.violations == []
