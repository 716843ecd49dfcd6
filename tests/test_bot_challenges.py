"""Challenges from the first message to the game: declined, cancelled, expired, open to
anyone, in a thread or in the channel; and the clocks of a game (a reminder at half time,
a loss on time), announced where the players look."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from tests import bot_support
from tests.bot_support import (
    SharedBot,
    ephemeral_text,
    last_board,
    mentions,
    options,
    perms,
    process_table,
    start_game,
    to_move,
)

# One bot process for the module, a server of its own for each test (tests/bot_support).
pytestmark = pytest.mark.asyncio(loop_scope="module")


shared = bot_support.module_bot


async def test_declined_cancelled_and_expired_challenges(tmp_path: Path) -> None:
    env = {"KAMEN_CHALLENGE_TTL": "1.5"}
    async with process_table(tmp_path, env) as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        games = table.games
        declined = (await fake.slash(ann, games, "oska challenge", opponent=bob)).message
        cancelled = (await fake.slash(ann, games, "lasca challenge", opponent=bob)).message
        expiring = (await fake.slash(bob, games, "oware challenge", opponent=ann)).message
        assert declined and cancelled and expiring
        assert "expires <t:" in declined.text

        reply = await fake.click(bob, declined, "Decline")
        assert reply.type == 7 and declined.content == (
            f"<@{bob.id}> declined <@{ann.id}>'s challenge to Oska."
        )
        assert declined.buttons == [] and declined.embeds == []
        reply = await fake.click(ann, cancelled, "Cancel challenge")
        assert cancelled.content == f"<@{ann.id}> cancelled their challenge to Lasca."

        await fake.wait_for(
            lambda: "expired" in expiring.content,
            timeout=10,
            what="the sweeper to expire the challenge",
        )
        assert expiring.content == (
            f"<@{bob.id}>'s challenge to Oware expired: nobody accepted it in time."
        )
        assert expiring.buttons == [] and fake.threads(games) == []


async def test_an_open_challenge_is_taken_by_whoever_accepts_first(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake, ann, carol = table.fake, table.ann, table.carol
        reply = await fake.slash(ann, table.games, "oware challenge", first="them")
        challenge = reply.message
        assert challenge is not None
        assert challenge.content == f"<@{ann.id}> is looking for an opponent for **Oware**."
        assert [b["label"] for b in challenge.buttons] == ["Accept", "Cancel challenge"]
        await fake.click(carol, challenge, "Accept")
        [thread] = fake.threads(table.games)
        await fake.wait_for(lambda: bool(fake.messages(thread)), what="the board")
        board = last_board(table, thread)
        assert to_move(table, board) is carol and "(South)" in board.content


async def test_without_threads_the_challenge_becomes_the_board(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        # a server whose owner turned threads off
        said = await fake.slash(table.guild.owner, table.games, "kamen settings")
        assert ephemeral_text(said).startswith("Threads per game: on")
        assert ephemeral_text(said).endswith(
            "To change one, give `threads:`, `language:`, `champion-games:` or `time:`."
        )
        turned = await fake.slash(table.guild.owner, table.games, "kamen settings", threads=False)
        lines = ephemeral_text(turned).splitlines()
        assert lines[0] == (
            "✅ Changed. Threads per game: off: games are played in the channel where they were"
            " challenged."
        )
        assert lines[1].startswith("Language of public messages")  # untouched, not marked
        again = await fake.slash(table.guild.owner, table.games, "kamen settings", threads=False)
        assert ephemeral_text(again).splitlines()[0].endswith("(It already was: nothing changed.)")
        where, board = await start_game(table, "oska")
        assert where is table.games and fake.threads(table.games) == []
        assert to_move(table, board) is ann and options(board)

        # a channel where the bot may not open threads: the game runs in the channel too
        await fake.slash(table.guild.owner, table.games, "kamen settings", threads=True)
        chat = table.guild.channel("chat")
        fake.set_overwrite(chat, fake.bot, deny=perms.CREATE_PUBLIC_THREADS)
        where, board = await start_game(table, "lasca", channel=chat)
        assert where is chat and fake.threads(chat) == []
        moved = await fake.select(ann, board, "Pick a move", [options(board)[0]])
        assert moved.message is board and to_move(table, board) is bob


async def test_a_reminder_at_half_time_then_a_loss_on_time(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        thread, board = await start_game(table, "oska", time="1h")
        assert "1 hour a move" in board.text
        table.advance(timedelta(minutes=31))
        await fake.wait_for(
            lambda: any("half of your time" in m.content for m in fake.messages(thread)),
            what="the reminder",
        )
        reminder = fake.messages(thread)[-1]
        assert mentions(reminder.content) == [ann.id] and "move by <t:" in reminder.content
        table.advance(timedelta(minutes=30))
        await fake.wait_for(lambda: "Game over" in board.content, what="the loss on time")
        assert f"<@{bob.id}> wins as Red (0-1): Blue ran out of time." in board.content
        assert board.selects == []
        await fake.wait_for(
            lambda: fake.messages(thread)[-1].content.startswith("**Game over.**"),
            what="the result announced",
        )
