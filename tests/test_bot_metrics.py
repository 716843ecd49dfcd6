"""/metrics of the running bot: what an operator watches, labelled with the process and shard.

The real discord.py against the fake Discord: a 429 and a 500 on the route that edits a
message (the old board's menu taken off after a move) are waited out and retried by
discord.py itself (no caller sees them), and still show in `/metrics` by route; the
gateway's latency, the lease held and the store's calls are there with them, each sample
naming the process that served it.
"""

from __future__ import annotations

import asyncio
import socket
import urllib.request
from datetime import timedelta
from pathlib import Path

from games.registry import GAMES
from tests.bot_support import process_table, settle, start_game
from tests.test_health import samples_of

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def fetch(url: str) -> str:
    with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(url, timeout=5) as r:
        return str(r.read().decode())


async def test_rest_429s_and_errors_by_route_latency_leases_and_store_times(
    tmp_path: Path,
) -> None:
    port = free_port()
    async with process_table(tmp_path, {"HEALTH_PORT": str(port)}) as table:
        fake = table.fake
        thread, _ = await start_game(table, "oska")
        limited = fake.fail("PATCH", r"^/channels/[0-9]+/messages/[0-9]+$", 429, retry_after=0.2)
        failed = fake.fail("PATCH", r"^/channels/[0-9]+/messages/[0-9]+$", 500)
        first = str(GAMES["oska"].new().legal_moves()[0])
        moved = await fake.slash(table.ann, thread, "oska move", move=first)
        assert moved.message is not None
        await fake.wait_for(lambda: failed.hits == 1, what="the edit's 429 and 500")
        await settle(fake)
        assert limited.hits == 1
        assert table.bot is not None and table.bot.process is not None
        process = f"{socket.gethostname()}:{table.bot.process.pid}"
        on_limit = len(fake.global_requests)
        text = await asyncio.to_thread(fetch, f"http://127.0.0.1:{port}/metrics")
        on_limit_after = len(fake.global_requests)

    samples = samples_of(text, process)
    # Every request on Discord's global limit is counted, by the work that made it: the
    # start-up's, and the game's begun and first move answered (the edit's 429 and 500
    # count too: Discord counts them).
    counted = {k: v for k, v in samples.items() if k.startswith("kamen_global_requests_total")}
    assert on_limit <= sum(counted.values()) <= on_limit_after, counted
    assert counted['kamen_global_requests_total{kind="interaction"}'] >= 3
    assert samples[f'kamen_rest_rate_limited_total{{route="{EDIT}"}}'] == 1
    assert samples[f'kamen_rest_errors_total{{route="{EDIT}",status="500"}}'] == 1
    assert 0 <= samples['kamen_gateway_latency_seconds{shard="0"}'] < 5
    assert samples['kamen_leases_held{shard="0"}'] == 1
    assert samples['kamen_store_seconds_count{operation="create_game"}'] >= 1
    assert samples['kamen_interaction_seconds_count{kind="command"}'] == 2


async def test_the_sweepers_lag_is_how_late_it_acted_on_each_deadline(tmp_path: Path) -> None:
    """A reminder due at half time and a loss on time due at the limit, each acted on a
    minute late (the clock jumps a minute past them): both lags are a minute, on shard 0."""
    port = free_port()
    async with process_table(tmp_path, {"HEALTH_PORT": str(port)}) as table:
        fake = table.fake
        thread, board = await start_game(table, "oska", time="1h")
        table.advance(timedelta(minutes=31))  # the reminder was due at 30
        await fake.wait_for(
            lambda: any("half of your time" in m.content for m in fake.messages(thread)),
            what="the reminder",
        )
        table.advance(timedelta(minutes=30))  # the limit was at 60
        await fake.wait_for(lambda: "Game over" in board.content, what="the loss on time")
        assert table.bot is not None and table.bot.process is not None
        process = f"{socket.gethostname()}:{table.bot.process.pid}"
        text = await asyncio.to_thread(fetch, f"http://127.0.0.1:{port}/metrics")

    samples = samples_of(text, process)
    # The reminder and the loss on time, said in the channel: the sweeper's requests.
    assert samples['kamen_global_requests_total{kind="sweeper"}'] >= 2
    for kind in ("reminder", "timeout"):
        assert samples[f'kamen_sweeper_lag_seconds_count{{kind="{kind}",shard="0"}}'] == 1
        assert 60 <= samples[f'kamen_sweeper_lag_seconds_sum{{kind="{kind}",shard="0"}}'] < 90
        within = {
            le: samples[f'kamen_sweeper_lag_seconds_bucket{{kind="{kind}",le="{le}",shard="0"}}']
            for le in ("30.0", "120.0")
        }
        assert within == {"30.0": 0, "120.0": 1}
