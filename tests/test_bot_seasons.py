"""Seasons through the fake Discord: what managers and players see, with a real bot process.

A manager starts a season, players play rated games, the season ends (by
the command, or by its date while Kamen is stopped) and its final tables are
posted once, in the channel chosen, in the server's language, with a table
image per game played. The champions' role goes to the new champions and
leaves the last ones, when Kamen may give it; when it may not, the
announcement says so and nothing breaks.
"""

# The tables' typography: en dashes in won-drawn-lost.
# ruff: noqa: RUF001

from __future__ import annotations

import asyncio
import io
from datetime import timedelta
from pathlib import Path

import pytest
from PIL import Image

from store import open_store
from tests.bot_support import BotProcess, Table, ephemeral_text, play_rated, process_table
from tests.bot_support import settle as settled
from tests.fake_discord import Channel, Message, Role, User, perms

TROPHY = "🏆"


async def play_one(table: Table, winner: User, loser: User, *, czech: bool = False) -> None:
    """`winner` challenges `loser`, each moves once, `loser` resigns: a rated game."""
    await play_rated(table, winner, loser, "1-0", czech=czech)


def announcements(table: Table, channel: Channel) -> list[Message]:
    return [m for m in table.fake.messages(channel) if m.content.startswith(TROPHY)]


async def announced(table: Table, channel: Channel, count: int = 1) -> Message:
    """The `count`th season announcement in `channel`, once it is there (and no more)."""
    await table.fake.wait_for(
        lambda: len(announcements(table, channel)) >= count, what="the season's announcement"
    )
    found = announcements(table, channel)
    assert len(found) == count
    return found[-1]


def mention(user: User) -> str:
    return f"<@{user.id}>"


def champion_role(table: Table, *, below_bot: bool = True) -> Role:
    role = table.fake.add_role(table.guild, "Champion")
    if below_bot:
        table.fake.move_role(table.guild, role, 1)
    return role


async def champion_after(table: Table, games: int) -> None:
    """The server's managers ask `games` rated games of a season's champion."""
    said = await table.fake.slash(
        table.guild.owner, table.games, "kamen settings", options={"champion-games": games}
    )
    assert "Season champions:" in ephemeral_text(said)


def holds(table: Table, user: User, role: Role) -> bool:
    return role.id in table.guild.members[user.id].roles


# ---------------------------------------------------------------- start, end, list


@pytest.mark.asyncio
async def test_a_manager_starts_and_ends_a_season_and_its_tables_are_posted(
    tmp_path: Path,
) -> None:
    async with process_table(tmp_path) as table:
        fake, ann, bob, carol = table.fake, table.ann, table.bob, table.carol
        owner = table.guild.owner
        refused = await fake.slash(ann, table.games, "kamen season start", name="Spring")
        assert "Only members who may Manage Server" in ephemeral_text(refused)
        bad = await fake.slash(owner, table.games, "kamen season start", name="S", ends="soon")
        assert ephemeral_text(bad).startswith("`soon` is not a date or a duration")
        past = await fake.slash(
            owner, table.games, "kamen season start", name="S", ends="2001-01-01"
        )
        assert "has already passed" in ephemeral_text(past)

        await champion_after(table, 2)
        begun = await fake.slash(owner, table.games, "kamen season start", name=" Spring  2027 ")
        assert not begun.ephemeral
        assert begun.text.startswith("🏁 Season **Spring 2027** has begun!")
        assert f"posted in <#{table.games.id}>" in begun.text
        again = await fake.slash(owner, table.games, "kamen season start", name="Summer")
        assert "Season **Spring 2027** is running here" in ephemeral_text(again)

        await play_one(table, ann, bob)
        await play_one(table, carol, bob)
        await play_one(table, ann, carol)

        assert "Manage Server" in ephemeral_text(
            await fake.slash(ann, table.games, "kamen season end")
        )
        ended = await fake.slash(owner, table.games, "kamen season end")
        assert ephemeral_text(ended) == (
            f"Season **Spring 2027** is over. Its final tables are posted in <#{table.games.id}>."
        )
        message = await announced(table, table.games)
        text = message.content
        assert text.startswith("🏆 **Season Spring 2027 is over!**")
        assert f"**Oska**: champion {mention(ann)} 🥇 (3 rated games)" in text
        assert f"1. {mention(ann)}: **2** · 2 · 2–0–0 · " in text
        assert f"2. {mention(carol)}: **1** · 2 · 1–0–1 · " in text
        assert f"3. {mention(bob)}: **0** · 2 · 0–0–2 · " in text
        assert "Lasca" not in text and "Oware" not in text  # nobody played them
        [image] = message.attachments
        assert image.filename == "season-oska.png" and image.content_type == "image/png"
        width, height = Image.open(io.BytesIO(image.data)).size
        assert 800 <= width <= 1000 and height > 200
        (tmp_path / "season-oska.png").write_bytes(image.data)  # to look at
        # The champion is notified; the others are named without a ping.
        assert message in fake.notifications(ann)
        assert message not in fake.notifications(bob)

        nothing = await fake.slash(owner, table.games, "kamen season end")
        assert "No season is running here" in ephemeral_text(nothing)
        listed = ephemeral_text(await fake.slash(carol, table.games, "kamen season list"))
        assert listed.startswith("**Seasons on this server**, latest first:")
        assert "**Spring 2027**: <t:" in listed and f"Champions: Oska {mention(ann)}" in listed
        await settled(fake)
        assert len(announcements(table, table.games)) == 1


# ---------------------------------------------------------------- by date, across restarts


@pytest.mark.asyncio
async def test_a_season_whose_date_passes_while_kamen_is_stopped_is_announced_once(
    tmp_path: Path,
) -> None:
    async with process_table(tmp_path) as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        owner = table.guild.owner
        quiet = table.guild.channel("quiet")
        await champion_after(table, 1)
        begun = await fake.slash(
            owner, table.games, "kamen season start", name="Blitz", ends="2d", channel=quiet
        )
        assert "counts in its tables" in begun.text and f"posted in <#{quiet.id}>" in begun.text
        assert "ends before <t:" in begun.text
        listed = ephemeral_text(await fake.slash(ann, table.games, "kamen season list"))
        assert "**Blitz**: running since <t:" in listed and ", ends <t:" in listed
        assert "No rated games." in listed
        await play_one(table, bob, ann)

        bot = table.bot
        assert isinstance(bot, BotProcess)
        await bot.kill()
        table.advance(timedelta(days=3))
        await bot.start()
        message = await announced(table, quiet)
        assert "**Season Blitz is over!**" in message.content
        assert f"champion {mention(bob)} 🥇 (1 rated game)" in message.content
        assert announcements(table, table.games) == []

        await bot.stop()  # a second restart announces nothing again
        await bot.start()
        await settled(fake)
        assert len(announcements(table, quiet)) == 1
        # A game played after the season's date is in no season: a new one starts clean.
        await play_one(table, ann, bob)
        again = await fake.slash(owner, table.games, "kamen season start", name="Next")
        assert not again.ephemeral
        listed = ephemeral_text(await fake.slash(ann, table.games, "kamen season list"))
        assert listed.index("**Next**") < listed.index("**Blitz**")
        assert f"Champions: Oska {mention(bob)}" in listed

        # Kamen stopped between ending a season and posting its tables: posted at the restart.
        await bot.kill()
        store = await open_store(table.database_url)
        try:
            running = await store.running_season(table.guild.id)
            assert running is not None and running.name == "Next"
            assert await store.end_season(running.id, running.started_at) is not None
        finally:
            await store.close()
        await bot.start()
        crashed = await announced(table, table.games)
        assert "**Season Next is over!**" in crashed.content
        assert "No rated game was played in this season" in crashed.content
        assert crashed.attachments == []
        await bot.stop()
        await bot.start()
        await settled(fake)
        assert len(announcements(table, table.games)) == 1


@pytest.mark.asyncio
async def test_killed_after_posting_the_tables_before_recording_them_posts_them_once(
    tmp_path: Path,
) -> None:
    async with process_table(tmp_path) as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        owner = table.guild.owner
        await fake.slash(owner, table.games, "kamen season start", name="Once")
        await play_one(table, ann, bob)
        # Discord posts the tables; Kamen is killed before it hears so, and records nothing.
        held = fake.fail("POST", rf"/channels/{table.games.id}/messages$", None, delay=5.0,
                         carried_out=True)  # fmt: skip
        await fake.slash(owner, table.games, "kamen season end")
        await fake.wait_for(lambda: held.hits == 1 and bool(announcements(table, table.games)),
                            what="the tables posted")  # fmt: skip
        bot = table.bot
        assert isinstance(bot, BotProcess)
        await bot.kill()
        fake.clear_faults()
        await bot.start()
        # Its claim on announcing lapses (the clock moved on a minute at a time), and the
        # season is announced by a pass: recorded so, with the one message.
        store = await open_store(table.database_url)
        try:
            for _ in range(200):
                [season] = await store.seasons(table.guild.id)
                if season.announced:
                    break
                table.advance(timedelta(minutes=1))
                await asyncio.sleep(0.1)
        finally:
            await store.close()
        assert season.announced
        await settled(fake)
        assert len(announcements(table, table.games)) == 1


@pytest.mark.asyncio
async def test_a_leader_of_one_game_is_no_champion_and_the_table_says_why(tmp_path: Path) -> None:
    async with process_table(tmp_path) as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        owner = table.guild.owner
        fake.set_bot_permissions(table.guild, perms.BOT_DEFAULT | perms.MANAGE_ROLES)
        role = champion_role(table)
        await fake.slash(owner, table.games, "kamen season role", role=role)
        shown = ephemeral_text(await fake.slash(owner, table.games, "kamen settings"))
        assert "at least 5 rated games of it in the season" in shown  # the default
        assert "`champion-games:`" in shown

        await fake.slash(owner, table.games, "kamen season start", name="Lucky")
        await play_one(table, ann, bob)  # one game: Ann leads with a performance of 2300
        await fake.slash(owner, table.games, "kamen season end")
        message = await announced(table, table.games)
        text = message.content
        assert (
            "**Oska**: no champion: a champion needs at least 5 rated games of it in the season,"
            " and the leader played 1." in text
        )
        assert "🥇" not in text and "now holds" not in text
        assert f"1. {mention(ann)}: **1** · 1 · 1–0–0 · 2300" in text  # the table is posted
        assert [image.filename for image in message.attachments] == ["season-oska.png"]
        assert message not in fake.notifications(ann)  # nobody crowned, nobody pinged
        assert not holds(table, ann, role)
        listed = ephemeral_text(await fake.slash(ann, table.games, "kamen season list"))
        assert "**Lucky**" in listed and "Champions:" not in listed

        # Managers may ask fewer games of a champion (and only a manager may).
        refused = await fake.slash(
            ann, table.games, "kamen settings", options={"champion-games": 1}
        )
        assert "Manage Server" in ephemeral_text(refused)
        changed = await fake.slash(
            owner, table.games, "kamen settings", options={"champion-games": 1}
        )
        assert "✅ Changed. Season champions: the leader of a game's table, after at least 1" in (
            ephemeral_text(changed)
        )
        await fake.slash(owner, table.games, "kamen season start", name="Next")
        await play_one(table, ann, bob)
        await fake.slash(owner, table.games, "kamen season end")
        second = await announced(table, table.games, 2)
        assert f"**Oska**: champion {mention(ann)} 🥇 (1 rated game)" in second.content
        assert holds(table, ann, role)


# ---------------------------------------------------------------- the champions' role


@pytest.mark.asyncio
async def test_the_champions_role_goes_to_the_new_champion_and_leaves_the_last(
    tmp_path: Path,
) -> None:
    async with process_table(tmp_path) as table:
        fake, ann, bob, carol = table.fake, table.ann, table.bob, table.carol
        owner = table.guild.owner
        fake.set_bot_permissions(table.guild, perms.BOT_DEFAULT | perms.MANAGE_ROLES)
        role = champion_role(table)
        mods = fake.add_role(table.guild, "Mods", perms.MANAGE_GUILD | perms.MANAGE_ROLES)
        fake.move_role(table.guild, mods, 1)  # below the champions' role
        mod = fake.add_user("mod", roles=[mods])

        shown = await fake.slash(owner, table.games, "kamen season role")
        assert "Season champions get no role" in ephemeral_text(shown)
        assert "Manage Server" in ephemeral_text(
            await fake.slash(ann, table.games, "kamen season role", role=role)
        )
        # A manager cannot hand out, through Kamen, a role they could not give by hand.
        theirs = await fake.slash(mod, table.games, "kamen season role", role=role)
        assert "You can only choose a role you could give yourself" in ephemeral_text(theirs)
        fake.move_role(table.guild, mods, len(table.guild.roles))  # now above it
        theirs = await fake.slash(mod, table.games, "kamen season role", role=role)
        assert ephemeral_text(theirs) == f"Each season's champions get <@&{role.id}>."
        everyone = await fake.slash(
            owner, table.games, "kamen season role", role=table.guild.everyone
        )
        assert "cannot be given to anyone" in ephemeral_text(everyone)
        chosen = await fake.slash(owner, table.games, "kamen season role", role=role)
        assert ephemeral_text(chosen) == f"Each season's champions get <@&{role.id}>."
        await champion_after(table, 1)

        for count, (name, winner, loser) in enumerate((("One", ann, bob), ("Two", bob, carol))):
            await fake.slash(owner, table.games, "kamen season start", name=name)
            await play_one(table, winner, loser)
            await fake.slash(owner, table.games, "kamen season end")
            message = await announced(table, table.games, count + 1)
            assert f"{mention(winner)} now holds <@&{role.id}>." in message.content
            assert holds(table, winner, role)  # given before the announcement says so
        assert holds(table, bob, role) and not holds(table, ann, role)  # the last champion's gone
        assert not holds(table, carol, role)

        cleared = await fake.slash(owner, table.games, "kamen season role", clear=True)
        assert ephemeral_text(cleared) == "Season champions get no role any more."


@pytest.mark.asyncio
async def test_without_manage_roles_the_announcement_says_so_and_nothing_breaks(
    tmp_path: Path,
) -> None:
    async with process_table(tmp_path) as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        owner = table.guild.owner
        role = champion_role(table)
        chosen = ephemeral_text(
            await fake.slash(owner, table.games, "kamen season role", role=role)
        )
        assert f"<@&{role.id}> cannot be given by Kamen yet" in chosen
        await fake.slash(owner, table.games, "kamen season start", name="Plain")
        await play_one(table, ann, bob)
        await fake.slash(owner, table.games, "kamen season end")
        message = await announced(table, table.games)
        assert f"Kamen could not give <@&{role.id}> to the champions" in message.content
        assert not holds(table, ann, role)
        # The server grants it, but the role sits above Kamen's own: still said, never tried.
        fake.set_bot_permissions(table.guild, perms.BOT_DEFAULT | perms.MANAGE_ROLES)
        fake.move_role(table.guild, role, len(table.guild.roles))
        await fake.slash(owner, table.games, "kamen season start", name="High")
        await play_one(table, ann, bob)
        await fake.slash(owner, table.games, "kamen season end")
        second = await announced(table, table.games, 2)
        assert "Kamen could not give" in second.content
        assert not holds(table, ann, role)
        # (process_table checks that Kamen broke no rule of Discord and logged no error.)


@pytest.mark.asyncio
async def test_a_role_grant_discord_fails_is_tried_again_at_once_and_the_last_champion_keeps_it(
    tmp_path: Path,
) -> None:
    async with process_table(tmp_path) as table:
        fake, ann, bob, carol = table.fake, table.ann, table.bob, table.carol
        owner = table.guild.owner
        fake.set_bot_permissions(table.guild, perms.BOT_DEFAULT | perms.MANAGE_ROLES)
        role = champion_role(table)
        await fake.slash(owner, table.games, "kamen season role", role=role)
        await champion_after(table, 1)
        await fake.slash(owner, table.games, "kamen season start", name="One")
        await play_one(table, ann, bob)
        await fake.slash(owner, table.games, "kamen season end")
        await announced(table, table.games)
        assert holds(table, ann, role)

        # The new champion's role: Discord fails once (a 503, which discord.py does not retry).
        failed = fake.fail("PUT", rf"/members/{bob.id}/roles/{role.id}$", 503)
        await fake.slash(owner, table.games, "kamen season start", name="Two")
        await play_one(table, bob, carol)
        await fake.slash(owner, table.games, "kamen season end")
        await fake.wait_for(lambda: failed.hits == 1, what="the grant refused")
        assert holds(table, ann, role)  # the last champion keeps it until bob has it
        message = await announced(table, table.games, 2)  # within seconds, not minutes
        assert f"{mention(bob)} now holds <@&{role.id}>." in message.content
        assert holds(table, bob, role) and not holds(table, ann, role)
        await settled(fake)
        assert len(announcements(table, table.games)) == 2  # each season's tables once


# ---------------------------------------------------------------- Czech


@pytest.mark.asyncio
async def test_the_announcement_is_in_the_servers_language(tmp_path: Path) -> None:
    async with process_table(tmp_path) as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        owner = table.guild.owner
        await fake.slash(owner, table.games, "kamen settings", language="cs")
        await champion_after(table, 1)
        begun = await fake.slash(owner, table.games, "kamen season start", name="Jaro")
        assert begun.text.startswith("🏁 Sezóna **Jaro** začala!")
        await play_one(table, ann, bob, czech=True)
        await fake.slash(owner, table.games, "kamen season end")
        message = await announced(table, table.games)
        assert message.content.startswith("🏆 **Sezóna Jaro skončila!**")
        assert f"**Oska**: šampion {mention(ann)} 🥇 (1 hodnocená partie)" in message.content
        assert "-# body · partie · výhry–remízy–prohry · výkon" in message.content
        (tmp_path / "season-oska-cs.png").write_bytes(message.attachments[0].data)
