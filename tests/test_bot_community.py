"""Four players play a dozen rated games through the fake Discord; the numbers they see add up.

The results, the leaderboard and the profiles are checked against ratings
computed here, game by game, with the Glicko-2 maths alone (`matches.glicko2`).
"""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime, timedelta

import pytest
from PIL import Image

from matches.glicko2 import Glicko, Result, idle, rate
from matches.ratings import Standing
from store import open_store
from tests import bot_support
from tests.bot_support import SharedBot, ephemeral_text, play_rated
from tests.fake_discord import User

# One bot process for the module, a server of its own for each test (tests/bot_support).
pytestmark = pytest.mark.asyncio(loop_scope="module")


shared = bot_support.module_bot


# (first player, second player, how it ends): "1-0" the second resigns, "0-1" the first
# resigns, "draw" agreed after both moved.
DASH = "\u2013"  # between wins, draws and losses
SCHEDULE = [
    ("ann", "bob", "1-0"), ("carol", "dan", "0-1"), ("ann", "carol", "1-0"),
    ("bob", "dan", "draw"), ("dan", "ann", "0-1"), ("bob", "carol", "1-0"),
    ("ann", "bob", "draw"), ("carol", "dan", "1-0"), ("ann", "dan", "1-0"),
    ("bob", "carol", "0-1"), ("dan", "bob", "1-0"), ("carol", "ann", "0-1"),
]  # fmt: skip


def expected(players: dict[str, User], ends: list[datetime]) -> dict[str, Standing]:
    """The ratings the schedule gives, computed from the maths alone."""
    rating = {name: Glicko() for name in players}
    last: dict[str, datetime] = {}
    record = {name: [0, 0, 0] for name in players}
    for (one, two, how), at in zip(SCHEDULE, ends, strict=True):
        score = {"1-0": 1.0, "0-1": 0.0, "draw": 0.5}[how]
        entering = {
            name: idle(rating[name], at - last[name]) if name in last else rating[name]
            for name in (one, two)
        }
        rating[one] = rate(entering[one], [Result(entering[two], score)])
        rating[two] = rate(entering[two], [Result(entering[one], 1 - score)])
        last[one] = last[two] = at
        for name, mine in ((one, score), (two, 1 - score)):
            record[name][{1.0: 0, 0.5: 1, 0.0: 2}[mine]] += 1
    return {
        name: Standing(
            0,
            "oska",
            players[name].id,
            rating[name],
            sum(record[name]),
            wins=record[name][0],
            draws=record[name][1],
            losses=record[name][2],
        )
        for name in players
    }


async def test_a_dozen_rated_games_then_the_leaderboard_and_the_profiles(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake = table.fake
        dan = fake.add_user("dan")
        players = {"ann": table.ann, "bob": table.bob, "carol": table.carol, "dan": dan}
        finals = []
        for one, two, how in SCHEDULE:
            finals.append(await play_rated(table, players[one], players[two], how))
        # The times the games ended, as stored: the rating maths take the time between games.
        store = await open_store(table.database_url)
        try:
            changes = [
                await store.changes_of_game(int(re.findall(r"#(\d+)", str(b.embeds))[0]))
                for b in finals
            ]
        finally:
            await store.close()
        ends = [pair[0].at for pair in changes]
        want = expected(players, ends)

        # The first result says what it did: `@ann 1500 → 1662 (+162)`.
        said = str(finals[0].embeds[0]["description"])
        assert f"<@{table.ann.id}> 1500? → 1662? (+162)" in said
        assert f"<@{table.bob.id}> 1500? → 1338? (\u2212162)" in said

        reply = await fake.slash(table.ann, table.games, "leaderboard", game="oska")
        assert not reply.ephemeral and reply.message is not None
        text = str(reply.embeds[0]["description"])
        lines = [line for line in text.splitlines() if "<@" in line]
        ordered = sorted(want.values(), key=lambda s: -s.rating)
        assert len(lines) == 4
        for rank, (line, standing) in enumerate(zip(lines, ordered, strict=True), start=1):
            mark = "?" if standing.provisional else ""
            assert line.startswith(f"`{rank}.` <@{standing.user_id}>")
            assert f"**{round(standing.rating)}{mark}** ±{round(standing.rd)}" in line
            assert (
                DASH.join(str(n) for n in (standing.wins, standing.draws, standing.losses)) in line
            )
            assert f" {standing.games} " in line
        # Everyone has played six games: still provisional (RD above 110), and ranked all the same.
        assert all(standing.provisional for standing in ordered)
        assert "Provisional" not in text and f"`{DASH}`" not in text

        pictured = await fake.slash(table.ann, table.games, "leaderboard", game="oska", image=True)
        [png] = pictured.attachments
        assert Image.open(__import__("io").BytesIO(png.data)).size[0] >= 600

        shown = await fake.slash(table.bob, table.games, "profile", user=table.ann)
        embed = shown.embeds[0]
        [field] = embed["fields"]
        ann = want["ann"]
        assert f"{round(ann.rating)}?" in field["name"] and f"±{round(ann.rd)}" in field["name"]
        # Her profile gives her place on the leaderboard, provisional or not.
        ann_rank = [s.user_id for s in ordered].index(table.ann.id) + 1
        assert field["name"].endswith(f"#{ann_rank} here")
        said = DASH.join(str(n) for n in (ann.wins, ann.draws, ann.losses))
        assert f"{ann.games} rated games · {said}" in field["value"]
        assert "Last games:" in field["value"] and field["value"].count("discord.com") == 5
        assert "Best win: against <@" in field["value"]
        [chart] = shown.attachments
        assert chart.filename == "ratings.png" and chart.data.startswith(b"\x89PNG")

        mine = await fake.slash(table.carol, table.games, "oska history", user=dan)
        assert mine.ephemeral
        # Dan played six games: each listed, with its link and opponent.
        listed = str(mine.embeds[0]["description"])
        assert listed.count(" against <@") == 6 and listed.count("discord.com/channels") == 6


async def test_leaderboard_pages_turn_with_buttons_and_bad_pages_are_refused(
    shared: SharedBot,
) -> None:
    # 23 players already rated (written as a rebuild would), then the bot starts.
    async with shared.table() as table:
        fake = table.fake
        users = [fake.add_user(f"player{n}") for n in range(23)]
        store = await open_store(table.database_url)
        try:
            moment = datetime(2026, 1, 1, tzinfo=UTC)
            standings = [
                Standing(
                    table.guild.id,
                    "oska",
                    user.id,
                    Glicko(1400 + 10 * n, 60 + 5 * n),
                    5,
                    3,
                    0,
                    2,
                    last_at=moment - timedelta(days=n),
                )
                for n, user in enumerate(users)
            ]
            await store.replace_ratings(table.guild.id, standings, [], [])
        finally:
            await store.close()
        reply = await fake.slash(table.ann, table.games, "leaderboard", game="oska")
        assert reply.message is not None
        first = str(reply.embeds[0]["description"])
        assert "`1.`" in first and "`10.`" in first and "`11.`" not in first
        assert "Page 1 of 3" in str(reply.embeds[0]["footer"])
        turned = await fake.click(table.bob, reply.message, "Next ▶")
        assert turned.type == 7
        await asyncio.sleep(0)
        second = str(reply.message.embeds[0]["description"])
        assert "`11.`" in second and "Page 2 of 3" in str(reply.message.embeds[0]["footer"])
        # 60 + 5n > 110 from n = 11: provisional ratings are ranked among the others, by rating.
        assert f"`12.` <@{users[11].id}> **1510?** ±115" in second
        assert f"`13.` <@{users[10].id}> **1500** ±110" in second
        pictured = await fake.click(table.bob, reply.message, "Next ▶")
        last = str(reply.message.embeds[0]["description"])
        assert pictured.type == 7 and f"`23.` <@{users[0].id}> **1400** ±60" in last
        assert f"`{DASH}`" not in first + second + last
        refused = await fake.slash(table.ann, table.games, "leaderboard", game="oska", page=9)
        assert ephemeral_text(refused) == "There is no page 9: this list has 3."
