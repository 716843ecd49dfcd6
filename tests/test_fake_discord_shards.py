"""The fake Discord's sharded gateway: guilds split by Discord's formula, `GET /gateway/bot`.

Raw websockets check the protocol (what each shard's READY, GUILD_CREATE and
events carry, which connection an interaction reaches); the real discord.py
`AutoShardedClient` checks that a process with some of the shards sees only
their servers.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from tests.fake_discord import FakeDiscord, Guild, point_discord_py_at

JSON = dict[str, Any]


def shard_of(guild_id: int, count: int) -> int:
    return (guild_id >> 22) % count  # Discord's formula, written out here on purpose


def two_shard_world(fake: FakeDiscord) -> tuple[list[Guild], list[Guild]]:
    """Two servers on shard 0 of 2 and two on shard 1, added in mixed order."""
    made = [fake.add_guild(f"club {n}", shard=(n % 2, 2)) for n in range(4)]
    return [g for g in made if shard_of(g.id, 2) == 0], [g for g in made if shard_of(g.id, 2) == 1]


class Shard:
    """One raw gateway connection (json, no compression) identified as `shard`."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.received: list[JSON] = []

    async def next_event(self, timeout: float = 2.0) -> JSON:
        while True:
            payload: JSON = await asyncio.wait_for(self.ws.receive_json(), timeout)
            if payload["op"] == 0:
                self.received.append(payload)
                return payload

    async def events_until_quiet(self, quiet: float = 0.3) -> list[JSON]:
        found: list[JSON] = []
        with contextlib.suppress(TimeoutError):
            while True:
                found.append(await self.next_event(quiet))
        return found


@contextlib.asynccontextmanager
async def shard(
    session: aiohttp.ClientSession, fake: FakeDiscord, shard: list[int] | None
) -> AsyncIterator[Shard]:
    async with session.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws:
        hello = await ws.receive_json()
        assert hello["op"] == 10
        identify: JSON = {"token": fake.token, "intents": 1, "properties": {}}
        if shard is not None:
            identify["shard"] = shard
        await ws.send_json({"op": 2, "d": identify})
        yield Shard(ws)


@pytest.mark.asyncio
async def test_gateway_bot_gives_the_url_and_the_recommended_shard_count() -> None:
    async with FakeDiscord(recommended_shards=2) as fake, aiohttp.ClientSession() as http:
        headers = {"Authorization": f"Bot {fake.token}"}
        async with http.get(fake.api_base + "/gateway/bot", headers=headers) as response:
            body = await response.json()
        assert response.status == 200
        assert body["url"] == fake.gateway_url and body["shards"] == 2
        assert body["session_start_limit"]["max_concurrency"] >= 1
        async with http.get(fake.api_base + "/gateway/bot") as refused:
            assert refused.status == 401  # a bot's own route: the token is needed


def test_a_server_asked_for_a_shard_gets_an_id_on_it() -> None:
    fake = FakeDiscord()
    ids = [fake.add_guild(f"g{n}", shard=(n % 3, 3)).id for n in range(9)]
    assert [shard_of(i, 3) for i in ids] == [n % 3 for n in range(9)]
    assert ids == sorted(set(ids))  # still unique and increasing, as snowflakes are
    assert [FakeDiscord.shard_of(i, 3) for i in ids] == [shard_of(i, 3) for i in ids]


@pytest.mark.asyncio
async def test_each_shard_gets_only_its_servers_in_ready_and_guild_create() -> None:
    async with FakeDiscord() as fake, aiohttp.ClientSession() as http:
        zero, one = two_shard_world(fake)
        async with shard(http, fake, [0, 2]) as first, shard(http, fake, [1, 2]) as second:
            for conn, mine in ((first, zero), (second, one)):
                ready = await conn.next_event()
                assert ready["t"] == "READY"
                assert ready["d"]["shard"] == [shard_of(mine[0].id, 2), 2]
                assert {int(g["id"]) for g in ready["d"]["guilds"]} == {g.id for g in mine}
                creates = await conn.events_until_quiet()
                assert [e["t"] for e in creates] == ["GUILD_CREATE"] * len(mine)
                assert {int(e["d"]["id"]) for e in creates} == {g.id for g in mine}
        async with shard(http, fake, None) as whole:  # unsharded: every server
            ready = await whole.next_event()
            assert len(ready["d"]["guilds"]) == 4 and "shard" not in ready["d"]


@pytest.mark.asyncio
async def test_events_of_a_server_reach_only_its_shard() -> None:
    async with FakeDiscord() as fake, aiohttp.ClientSession() as http:
        zero, one = two_shard_world(fake)
        async with shard(http, fake, [0, 2]) as first, shard(http, fake, [1, 2]) as second:
            await first.events_until_quiet()
            await second.events_until_quiet()
            fake.add_channel(one[0], "news")
            fake.add_channel(zero[1], "lobby")
            late = fake.add_guild("late club", shard=(1, 2))  # joins while connected
            got_first = await first.events_until_quiet()
            got_second = await second.events_until_quiet()
        assert [(e["t"], e["d"]["name"]) for e in got_first] == [("CHANNEL_CREATE", "lobby")]
        assert [(e["t"], e["d"]["name"]) for e in got_second] == [
            ("CHANNEL_CREATE", "news"),
            ("GUILD_CREATE", late.name),
        ]


@pytest.mark.asyncio
async def test_an_interaction_goes_to_the_connection_of_its_servers_shard() -> None:
    # Both shards log in at once: a bot whose `max_concurrency` lets them.
    async with FakeDiscord(max_concurrency=2) as fake, aiohttp.ClientSession() as http:
        zero, one = two_shard_world(fake)
        ann = fake.add_user("ann")
        headers = {"Authorization": f"Bot {fake.token}"}
        command = [{"name": "ping", "description": "Ping", "type": 1}]
        url = f"{fake.api_base}/applications/{fake.application_id}/commands"
        async with http.put(url, json=command, headers=headers) as response:
            assert response.status == 200
        async with shard(http, fake, [0, 2]) as first, shard(http, fake, [1, 2]) as second:
            await first.events_until_quiet()
            await second.events_until_quiet()
            for guild, mine, theirs in ((one[1], second, first), (zero[0], first, second)):
                pending = await fake.slash(ann, guild.channel("games"), "ping", wait=False)
                event = await mine.next_event()
                assert event["t"] == "INTERACTION_CREATE"
                assert int(event["d"]["guild_id"]) == guild.id
                assert await theirs.events_until_quiet() == []
                callback = f"{fake.api_base}/interactions/{event['d']['id']}/{event['d']['token']}"
                answer = {"type": 4, "data": {"content": "pong"}}
                async with http.post(callback + "/callback", json=answer) as response:
                    assert response.status == 204
                answered = await pending.wait()
                assert answered.content == "pong"
        assert fake.violations == []


@pytest.mark.asyncio
async def test_a_restarted_shard_gets_the_interactions_not_its_dead_session() -> None:
    async with FakeDiscord() as fake, aiohttp.ClientSession() as http:
        _, one = two_shard_world(fake)
        ann = fake.add_user("ann")
        headers = {"Authorization": f"Bot {fake.token}"}
        command = [{"name": "ping", "description": "Ping", "type": 1}]
        url = f"{fake.api_base}/applications/{fake.application_id}/commands"
        async with http.put(url, json=command, headers=headers):
            pass
        async with shard(http, fake, [1, 2]) as old:
            await old.events_until_quiet()
            assert fake.live_shards() == {(1, 2)}
            await old.ws.close(code=4000)  # not a clean goodbye: its session stays resumable
        await fake.wait_disconnected(shards=[(1, 2)])
        async with shard(http, fake, [1, 2]) as new:
            await new.events_until_quiet()
            pending = await fake.slash(ann, one[0].channel("games"), "ping", wait=False)
            event = await new.next_event()
            assert event["t"] == "INTERACTION_CREATE"
            callback = f"{fake.api_base}/interactions/{event['d']['id']}/{event['d']['token']}"
            answer = {"type": 4, "data": {"content": "x"}}
            async with http.post(callback + "/callback", json=answer):
                pass
            await pending.wait()


async def sharded_client(
    fake: FakeDiscord, shard_ids: list[int], seen: list[str]
) -> tuple[discord.AutoShardedClient, asyncio.Task[None]]:
    intents = discord.Intents.none()
    intents.guilds = True
    client = discord.AutoShardedClient(
        intents=intents, shard_count=2, shard_ids=shard_ids, chunk_guilds_at_startup=False
    )

    @client.event
    async def on_guild_channel_create(channel: discord.abc.GuildChannel) -> None:
        seen.append(channel.name)

    return client, asyncio.create_task(client.start(fake.token))


@pytest.mark.asyncio
async def test_discord_py_with_both_shards_in_one_client_sees_each_server_on_its_shard() -> None:
    async with FakeDiscord(recommended_shards=2) as fake:
        zero, one = two_shard_world(fake)
        restore = point_discord_py_at(fake)
        seen: list[str] = []
        client, task = await sharded_client(fake, [0, 1], seen)
        try:
            await fake.wait_ready(commands=False, shards=[(0, 2), (1, 2)], timeout=20)
            await asyncio.wait_for(client.wait_until_ready(), 20)
            assert {g.id: g.shard_id for g in client.guilds} == {
                g.id: shard_of(g.id, 2) for g in zero + one
            }
            assert sorted(client.shards) == [0, 1]
        finally:
            await client.close()
            await task
            restore()
        assert fake.violations == []


@pytest.mark.asyncio
async def test_two_discord_py_clients_one_shard_each_split_the_servers() -> None:
    async with FakeDiscord(recommended_shards=2, max_concurrency=2) as fake:
        zero, one = two_shard_world(fake)
        restore = point_discord_py_at(fake)
        seen: dict[int, list[str]] = {0: [], 1: []}
        first, first_task = await sharded_client(fake, [0], seen[0])
        second, second_task = await sharded_client(fake, [1], seen[1])
        try:
            await fake.wait_ready(commands=False, shards=[(0, 2), (1, 2)], timeout=20)
            await asyncio.wait_for(first.wait_until_ready(), 20)
            await asyncio.wait_for(second.wait_until_ready(), 20)
            assert {g.id for g in first.guilds} == {g.id for g in zero}
            assert {g.id for g in second.guilds} == {g.id for g in one}
            fake.add_channel(zero[0], "zero-news")
            fake.add_channel(one[0], "one-news")
            await fake.wait_for(lambda: bool(seen[0] and seen[1]), what="the channels")
            await asyncio.sleep(0.2)
            assert seen == {0: ["zero-news"], 1: ["one-news"]}
        finally:
            for client, task in ((first, first_task), (second, second_task)):
                await client.close()
                await task
            restore()
        assert fake.violations == []


@pytest.mark.asyncio
async def test_logins_closer_than_discord_allows_in_one_bucket_are_a_violation() -> None:
    async with FakeDiscord(max_concurrency=2, identify_every=5.0) as fake:
        async with aiohttp.ClientSession() as http:

            async def identify(shard: int) -> None:
                async with http.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws:
                    await ws.receive_json()  # HELLO
                    await ws.send_json(
                        {"op": 2, "d": {"token": fake.token, "intents": 1, "shard": [shard, 4]}}
                    )
                    assert (await ws.receive_json())["t"] == "READY"

            await identify(0)
            await identify(1)  # another bucket: allowed at once
            assert fake.violations == []
            await identify(2)  # bucket 0 again, within 5 s
        [violation] = fake.violations
        assert re.fullmatch(
            r"IDENTIFY of shard \(2, 4\) 0\.\d\d s after another in bucket 0: one per 5 s"
            r" \(max_concurrency 2\)",
            violation,
        ), violation
        fake.core.violations.clear()
