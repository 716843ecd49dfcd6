"""`/kamen fairplay` in Discord: a manager asks about a player who copied Kamen's perfect
Oska moves and about one who threw a won position (the games of
tests/test_matches_fairplay.py, played move by move through the fake Discord), and reads
each one's figures privately, with the server's baseline and what they cannot show. A
member who may not manage the server is refused."""

from __future__ import annotations

import re

import pytest

from tests import bot_support
from tests.bot_support import SharedBot, Table, ephemeral_text, last_board
from tests.fake_discord import Channel, User
from tests.test_matches_fairplay import COPIED, THROWN

pytestmark = pytest.mark.asyncio(loop_scope="module")

shared = bot_support.module_bot


async def play(table: Table, blue: User, red: User, moves: tuple[str, ...]) -> Channel:
    """`blue` challenges `red` to rated Oska, moving first, and the moves are played."""
    fake = table.fake
    offered = await fake.slash(blue, table.games, "oska challenge", opponent=red, first="me")
    challenge = offered.message
    assert challenge is not None
    await fake.click(red, challenge, "Accept")
    await fake.wait_for(lambda: challenge.thread_id is not None, what="the thread")
    thread = next(t for t in fake.threads(table.games) if t.id == challenge.thread_id)
    await fake.wait_for(lambda: bool(fake.messages(thread)), what="the board")
    for number, move in enumerate(moves):
        played = await fake.slash((blue, red)[number % 2], thread, "oska move", move=move)
        assert not played.ephemeral, played.text
    await fake.wait_for(
        lambda: "Game over" in last_board(table, thread).content, what="the game's end"
    )
    return thread


async def test_a_manager_reads_the_fair_play_figures_of_a_copier_and_of_a_thrower(
    shared: SharedBot,
) -> None:
    async with shared.table() as table:
        fake, ann, bob, carol = table.fake, table.ann, table.bob, table.carol
        dave = fake.add_user("dave-fairplay", global_name="dave")
        await play(table, ann, bob, COPIED)
        await play(table, carol, dave, THROWN)
        manager = table.guild.owner

        refused = await fake.slash(bob, table.games, "kamen fairplay", user=ann)
        assert ephemeral_text(refused) == (
            "Only members who may Manage Server can see a player's fair-play figures."
        )

        asked = await fake.slash(manager, table.games, "kamen fairplay", user=ann)
        copier = await asked.final(timeout=60)
        assert copier.ephemeral
        lines = copier.content.split("\n")
        assert lines[:4] == [
            "**🔍 Fair play · ann**",
            "Their last 1 rated game here (Oska 1).",
            "**Exact values** (Oska): kept the value in 6 of 6 moves where a move could change"
            " the result (100%).",
            "3 other players here, in the same period: 7 of 10 (70%).",
        ]
        # Kamen's `hard` level plays a rule-of-thumb move now and then: its count varies.
        assert re.fullmatch(
            r"\*\*Kamen's `hard` move\*\*: played in [0-7] of 7 positions checked \(\d+%\),"
            r" in their last game\.",
            lines[4],
        ), lines[4]
        assert re.fullmatch(
            r"\*\*Move times\*\*: median \d+\.\d s; \d of 7 moves under 5 s \(\d+%\)\.", lines[5]
        ), lines[5]
        assert lines[6].startswith("*What these figures can show:*")
        assert "a high share is not proof of help" in lines[6]
        assert len(lines) == 7  # nothing about Lasca or Oware: she played neither here

        asked = await fake.slash(manager, table.games, "kamen fairplay", user=carol, game="oska")
        thrower = await asked.final(timeout=60)
        lines = thrower.content.split("\n")
        assert lines[:4] == [
            "**🔍 Fair play · carol**",
            "Their last 1 rated game here (Oska 1).",
            "**Exact values** (Oska): kept the value in 3 of 4 moves where a move could change"
            " the result (75%).",
            # Ann's game ended before Carol's began: Dave's moves are the period's.
            "One other player here, in the same period: 3 of 4 (75%).",
        ]
        assert "Lasca" not in lines[4] and "of 6 positions checked" in lines[4]
