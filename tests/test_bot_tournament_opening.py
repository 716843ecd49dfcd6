"""A tournament's games always open, and what must be posted once is posted once.

Through the fake Discord with the real bot: a thread Discord fails to make (a 503)
is made on a later try, on the same starting message; without the permission to
make threads the organiser is told once which permission Kamen needs, a restart
posts no second starting message, and the games open once the permission is
given; a round's pairings are posted exactly once when Kamen is killed while
posting them, before or after Discord created the message.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.bot_support import Table, process_table
from tests.fake_discord import Message, User, perms

STARTER = re.compile(r"\*\*Cup\*\* · round \d+: <@")  # not "round 1 of 3:", the pairings
NEEDS = "it needs the permission *Create Public Threads* in this channel"


async def cup(table: Table, players: list[User], *, start: bool = True) -> Message:
    """A round robin of `players` in #games, created (and started) by the owner."""
    fake, owner = table.fake, table.guild.owner
    created = await fake.slash(owner, table.games, "tournament create", game="oska",
                               format="round-robin", name="Cup")  # fmt: skip
    assert created.message is not None, created.text
    for user in players:
        await fake.click(user, created.message, "Join")
    if start:
        started = await fake.slash(owner, table.games, "tournament start")
        assert not started.ephemeral, started.text
    return created.message


def starters(table: Table) -> list[Message]:
    """The messages in #games that a game's thread starts on (one per game)."""
    return [m for m in table.fake.messages(table.games) if STARTER.match(m.content)]


def boards_open(table: Table, count: int) -> bool:
    """Whether `count` game threads are open in #games, each with its board."""
    threads = table.fake.threads(table.games)
    with_board = [t for t in threads if any(m.attachments for m in table.fake.messages(t))]
    return len(with_board) == count


@pytest.mark.asyncio
async def test_a_thread_discord_failed_to_make_is_made_on_a_later_try(tmp_path: Path) -> None:
    async with process_table(tmp_path) as table:
        fake = table.fake
        failed = fake.fail("POST", r"/messages/\d+/threads$", 503)
        await cup(table, [table.ann, table.bob])
        await fake.wait_for(lambda: failed.hits == 1, what="the thread refused")
        await fake.wait_for(lambda: boards_open(table, 1), timeout=30, what="the game opened")
        [starter] = starters(table)
        [thread] = fake.threads(table.games)
        assert thread.id == starter.id  # on its one starting message


@pytest.mark.asyncio
async def test_without_the_permission_to_make_threads_the_organiser_is_told_once(
    tmp_path: Path,
) -> None:
    async with process_table(tmp_path) as table:
        fake, owner = table.fake, table.guild.owner
        dave = fake.add_user("dave")
        fake.set_overwrite(table.games, fake.bot, deny=perms.CREATE_PUBLIC_THREADS)
        await cup(table, [table.ann, table.bob, table.carol, dave])

        def told() -> list[Message]:
            return [m for m in fake.messages(table.games) if NEEDS in m.content]

        await fake.wait_for(lambda: bool(told()), what="the organiser told")
        [message] = told()
        assert message.content.startswith(f"<@{owner.id}>: Kamen cannot open the games of")
        assert message in fake.notifications(owner)
        await fake.wait_for(lambda: len(starters(table)) == 2, what="the games' messages")
        assert table.bot is not None
        await table.bot.kill()
        await table.bot.start()  # tries again at its start: refused again, said no more
        fake.set_overwrite(table.games, fake.bot)  # the permission given
        await fake.wait_for(lambda: boards_open(table, 2), timeout=30, what="the games opened")
        assert len(told()) == 1
        assert len(starters(table)) == 2  # no second starting message for a game
        assert {t.id for t in fake.threads(table.games)} == {m.id for m in starters(table)}
        fake.core.violations.clear()  # the refused threads, which the test made so


@pytest.mark.asyncio
@pytest.mark.parametrize("created", [False, True], ids=["before-discord-made-it", "after"])
async def test_killed_while_posting_a_rounds_pairings_posts_them_once(
    tmp_path: Path, created: bool
) -> None:
    async with process_table(tmp_path) as table:
        fake = table.fake
        signup = await cup(table, [table.ann, table.bob, table.carol], start=False)
        assert signup is not None
        # The round's pairings are Kamen's first message in #games after the start.
        held = fake.fail("POST", rf"/channels/{table.games.id}/messages$", None, delay=3.0,
                         carried_out=created)  # fmt: skip
        started = await fake.slash(table.guild.owner, table.games, "tournament start")
        assert not started.ephemeral, started.text
        await fake.wait_for(lambda: held.hits == 1, what="the pairings being posted")
        assert table.bot is not None
        await table.bot.kill()
        await table.bot.start()
        await fake.wait_for(lambda: boards_open(table, 1), timeout=30, what="the game opened")

        def pairings() -> list[Message]:
            return [m for m in fake.messages(table.games) if "· round 1 of" in m.content]

        await fake.wait_for(lambda: bool(pairings()), what="the round's pairings")
        assert len(pairings()) == 1
        assert len(starters(table)) == 1
