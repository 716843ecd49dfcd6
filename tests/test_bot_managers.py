"""The manager's kit through the fake Discord, the bot a real process.

A manager voids a rated game: they see both players' ratings before and after,
the players are told in the game's thread, the game's history says it was
voided, and the audit log's channel gets the line. A suspended player's
challenge is refused saying until when. The server's limits on challenges
refuse what they should, saying why. `/kamen audit` pages the log, newest
first. Members who may not manage the server are refused each of these. A
void and a suspension hold across a restart of the bot, and the suspension
ends by itself.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.replies import rating_text
from store import open_store
from tests import bot_support
from tests.bot_support import (
    SharedBot,
    Table,
    ephemeral_text,
    last_board,
    play_rated,
    process_table,
)
from tests.fake_discord import Channel, Message, User

# One bot process for the module, a server of its own for each test (tests/bot_support).
pytestmark = pytest.mark.asyncio(loop_scope="module")

shared = bot_support.module_bot

MANAGERS_ONLY = "Only members who may manage this server (Manage Server) can do this."


def game_number(board: Message) -> int:
    return int(board.embeds[0]["title"].split("#")[1].split()[0].strip("*"))


def thread_of(table: Table, board: Message) -> Channel:
    return next(t for t in table.fake.threads(table.games) if t.id == board.channel_id)


def mention(user: User) -> str:
    return f"<@{user.id}>"


async def ratings(table: Table, *users: User) -> list[str]:
    """The players' Oska ratings here as the bot writes them (`1662?`), from the database."""
    store = await open_store(table.database_url)
    try:
        found = [await store.standing(table.guild.id, "oska", user.id) for user in users]
    finally:
        await store.close()
    return [rating_text(s.rating, s.rd) if s else "no rating" for s in found]


async def test_a_manager_voids_a_rated_game_and_everyone_is_told(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake, ann, bob, owner = table.fake, table.ann, table.bob, table.guild.owner
        quiet = table.guild.channel("quiet")
        said = await fake.slash(
            owner, table.games, "kamen settings", options={"log-channel": quiet}
        )
        assert f"✅ Changed. Audit log posted to: <#{quiet.id}>." in ephemeral_text(said)
        await play_rated(table, ann, bob)
        board = await play_rated(table, bob, ann)
        number = game_number(board)
        before = await ratings(table, bob, ann)

        refused = await fake.slash(ann, table.games, "kamen game void", game=number, reason="x")
        assert ephemeral_text(refused) == MANAGERS_ONLY
        done = await fake.slash(
            owner, table.games, "kamen game void", game=number, reason="*arranged* result"
        )

        after = await ratings(table, bob, ann)
        assert before != after
        assert ephemeral_text(done) == (
            f"Game #{number} is voided: \\*arranged\\* result. Ratings in this game now:\n"
            f"{mention(bob)} {before[0]} → {after[0]}\n{mention(ann)} {before[1]} → {after[1]}"
        )
        thread = thread_of(table, board)
        notice = f"{mention(bob)} {mention(ann)}: game #{number} was voided by a manager"
        await fake.wait_for(
            lambda: any(m.content.startswith(notice) for m in fake.messages(thread)),
            what="the players' notice",
        )
        posted = f"voided game #{number} (1-0): \\*arranged\\* result"
        await fake.wait_for(
            lambda: any(posted in m.content for m in fake.messages(quiet)), what="the log's post"
        )
        history = await fake.slash(bob, thread, "oska history", game=number)
        assert "Voided by a manager: \\*arranged\\* result" in ephemeral_text(history)
        again = await fake.slash(owner, table.games, "kamen game void", game=number, reason="twice")
        assert ephemeral_text(again) == (
            f"Game #{number} is already voided (\\*arranged\\* result)."
        )
        assert last_board(table, thread) is not None


async def test_a_suspended_player_is_told_until_when(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake, ann, bob, owner = table.fake, table.ann, table.bob, table.guild.owner
        refused = await fake.slash(ann, table.games, "kamen suspend", user=bob, days=3, reason="x")
        assert ephemeral_text(refused) == MANAGERS_ONLY
        done = await fake.slash(
            owner, table.games, "kamen suspend", user=bob, days=3, reason="challenge spam"
        )
        text = ephemeral_text(done)
        assert text.startswith(f"{mention(bob)} is suspended on this server until <t:")
        assert text.endswith(
            ":f>: no challenges, rated games nor tournaments until then. Reason: challenge spam"
        )
        until = text.split("<t:")[1].split(":")[0]
        challenge = await fake.slash(bob, table.games, "oska challenge", opponent=ann)
        assert ephemeral_text(challenge) == (
            f"You are suspended on this server until <t:{until}:f> (<t:{until}:R>): no"
            " challenges and no rated games until then. Games against Kamen stay open to you."
        )
        offered = (await fake.slash(ann, table.games, "oska challenge", opponent=bob)).message
        assert offered is not None
        accept = await fake.click(bob, offered, "Accept")
        assert "you cannot accept challenges until then" in ephemeral_text(accept)
        lifted = await fake.slash(owner, table.games, "kamen unsuspend", user=bob)
        assert ephemeral_text(lifted) == f"{mention(bob)}'s suspension on this server is lifted."
        accepted = await fake.click(bob, offered, "Accept")
        assert not accepted.ephemeral


async def test_the_limits_on_challenges_refuse_saying_why(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake, ann, bob, carol, owner = (
            table.fake,
            table.ann,
            table.bob,
            table.carol,
            table.guild.owner,
        )
        quiet = table.guild.channel("quiet")
        refused = await fake.slash(ann, table.games, "kamen settings", channels="here")
        assert "Manage Server" in ephemeral_text(refused)
        said = await fake.slash(
            owner, table.games, "kamen settings",
            options={"open-challenges": 1, "channels": "here"},
        )  # fmt: skip
        text = ephemeral_text(said)
        assert "\nChallenge cooldown: none.\n" in text
        assert "✅ Changed. Open challenges: at most 1 per person at once." in text
        assert f"✅ Changed. Games may be started in: <#{table.games.id}>." in text
        elsewhere = await fake.slash(ann, quiet, "oska challenge", opponent=bob)
        assert ephemeral_text(elsewhere) == (
            f"Games are started only in <#{table.games.id}> on this server."
        )
        first = await fake.slash(ann, table.games, "oska challenge", opponent=bob)
        assert not first.ephemeral
        second = await fake.slash(ann, table.games, "oska challenge", opponent=carol)
        assert ephemeral_text(second) == (
            "You already have 1 open challenge on this server, the most allowed: cancel it or"
            " wait for an answer."
        )
        said = await fake.slash(
            owner, table.games, "kamen settings",
            options={"open-challenges": 0, "challenge-cooldown": 600},
        )  # fmt: skip
        text = ephemeral_text(said)
        assert "✅ Changed. Challenge cooldown: 600 seconds between two challenges" in text
        assert "✅ Changed. Open challenges: no limit per person." in text
        third = await fake.slash(ann, table.games, "oska challenge", opponent=carol)
        assert ephemeral_text(third).startswith(
            "This server asks for a pause between two challenges: your next one can be made <t:"
        )


async def test_kamen_audit_pages_newest_first(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake, ann, owner = table.fake, table.ann, table.guild.owner
        for seconds in range(1, 13):
            await fake.slash(
                owner, table.games, "kamen settings", options={"challenge-cooldown": seconds}
            )
        assert ephemeral_text(await fake.slash(ann, table.games, "kamen audit")) == MANAGERS_ONLY
        shown = await fake.slash(owner, table.games, "kamen audit")
        page = ephemeral_text(shown).splitlines()
        assert page[0] == "Audit log"
        lines = page[1:-1]
        assert len(lines) == 10 and page[-1] == "Page 1 of 2 · newest first"
        changed = f"{mention(owner)} changed the settings: `challenge-cooldown:`"
        assert lines[0].endswith(f"{changed} `12`")
        assert lines[9].endswith(f"{changed} `3`")
        assert shown.message is not None
        turned = await fake.click(owner, shown.message, "Next ▶")
        assert turned.type == 7
        page = shown.message.text.splitlines()
        assert [line.split("settings: ")[-1] for line in page[1:-1]] == [
            "`challenge-cooldown:` `2`", "`challenge-cooldown:` `1`",
        ]  # fmt: skip
        assert page[-1] == "Page 2 of 2 · newest first"


@pytest.mark.asyncio(loop_scope="function")
async def test_a_void_and_a_suspension_hold_across_a_restart(tmp_path: Path) -> None:
    async with process_table(tmp_path) as table:
        fake, ann, bob, owner = table.fake, table.ann, table.bob, table.guild.owner
        board = await play_rated(table, ann, bob)
        number = game_number(board)
        await fake.slash(owner, table.games, "kamen game void", game=number, reason="mistake")
        await fake.slash(owner, table.games, "kamen suspend", user=bob, days=1, reason="spam")
        voided = await ratings(table, ann, bob)
        assert voided == ["no rating", "no rating"]

        bot = table.bot
        assert bot is not None
        await bot.stop()
        await bot.start()

        history = await fake.slash(ann, thread_of(table, board), "oska history", game=number)
        assert "Voided by a manager: mistake" in ephemeral_text(history)
        assert await ratings(table, ann, bob) == voided
        refused = await fake.slash(bob, table.games, "oska challenge", opponent=ann)
        assert "You are suspended on this server until <t:" in ephemeral_text(refused)
        table.advance(timedelta(days=1, minutes=1))  # it ends by itself
        offered = await fake.slash(bob, table.games, "oska challenge", opponent=ann)
        assert not offered.ephemeral, offered.text
