"""Tournaments through the fake Discord, with a real bot process.

A manager creates a tournament; players sign up with the Join button on its
public message; the manager starts it; every round's games open by
themselves, each in a thread whose board pings both players; after each
result the standings message is edited in place, and at the end the final
standings name the winner. The bot is killed in the middle and the
tournament goes on. Refusals are private.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tests.bot_support import (
    Table,
    both_move_once,
    ephemeral_text,
    last_board,
    mentions,
    process_table,
    settle,
)
from tests.fake_discord import Channel, Message, User

TROPHY = "🏆"


def signup_players(message: Message) -> tuple[str, list[int]]:
    """The sign-up embed's players field: its title and the players it mentions."""
    [field] = [f for f in message.embeds[0]["fields"] if f["name"].startswith("Player")]
    return field["name"], mentions(field["value"])


def starter_of(table: Table, thread: Channel) -> Message:
    """The message in the tournament's channel a game's thread was started on."""
    return next(m for m in table.fake.messages(table.games) if m.id == thread.id)


def round_messages(table: Table) -> list[Message]:
    return [
        m
        for m in table.fake.messages(table.games)
        if " · round " in m.content and ":\n" in m.content
    ]


def standings_messages(table: Table) -> list[Message]:
    return [
        m
        for m in table.fake.messages(table.games)
        if m.embeds and str(m.embeds[0].get("title", "")).endswith("· standings")
    ]


async def wait_threads(table: Table, count: int) -> list[Channel]:
    """Until `count` game threads are open in #games, each with its board; the threads."""
    fake = table.fake

    def ready() -> bool:
        threads = fake.threads(table.games)
        return len(threads) >= count and all(
            any(m.attachments for m in fake.messages(t)) for t in threads[:count]
        )

    await fake.wait_for(ready, what=f"{count} game threads with their boards")
    return fake.threads(table.games)[:count]


async def play_game(table: Table, players: dict[int, User], thread: Channel) -> tuple[int, int]:
    """Both players of the thread's game move once, then the second resigns: (winner, loser)."""
    fake = table.fake
    first_id, second_id = mentions(starter_of(table, thread).content)[:2]
    first, second = players[first_id], players[second_id]
    await both_move_once(table, thread, first, second)
    asked = await fake.slash(second, thread, "oska resign")
    assert asked.message is not None
    await fake.click(second, asked.message, "Yes, resign")
    await fake.wait_for(lambda: "Game over" in last_board(table, thread).content, what="the end")
    return first_id, second_id


async def create(table: Table, by: User, **options: Any) -> Message:
    reply = await table.fake.slash(by, table.games, "tournament create", **options)
    assert not reply.ephemeral and reply.message is not None, reply.text
    return reply.message


@pytest.mark.asyncio
async def test_a_round_robin_of_four_is_played_to_the_end_through_a_restart(
    tmp_path: Path,
) -> None:
    async with process_table(tmp_path) as table:
        fake, owner = table.fake, table.guild.owner
        dan = fake.add_user("dan")
        people = [table.ann, table.bob, table.carol, dan]
        players = {user.id: user for user in people}

        signup = await create(table, owner, game="oska", format="round-robin", name="Spring Cup")
        embed = signup.embeds[0]
        assert embed["title"].startswith("🏆 Spring Cup · tournament #")
        fields = {f["name"]: f["value"] for f in embed["fields"]}
        assert fields["Game"] == "Oska" and fields["Format"] == "round robin"
        assert fields["Start"] == "when a manager starts it"
        assert signup_players(signup) == ("Players (0)", [])
        for user in people:
            joined = await fake.click(user, signup, "Join")
            assert joined.type == 7
        again = await fake.click(table.ann, signup, "Join")  # twice: harmless
        assert again.type == 7
        assert signup_players(signup) == ("Players (4)", [u.id for u in people])
        print("SIGN-UP MESSAGE:\n" + signup.text)

        started = await fake.slash(owner, table.games, "tournament start")
        assert started.text == "🏁 **Spring Cup** has begun! The games of the first round follow."
        threads = await wait_threads(table, 2)
        await fake.wait_for(lambda: not signup.buttons, what="the sign-up closed")
        assert "sign-up is closed" in signup.text
        [first_round] = round_messages(table)
        assert first_round.content.startswith("**Spring Cup** · round 1 of 3:")
        print("ROUND MESSAGE:\n" + first_round.content)
        for thread in threads:
            pair = mentions(starter_of(table, thread).content)[:2]
            board = last_board(table, thread)
            assert board.content.startswith(f"<@{pair[0]}> <@{pair[1]}>: your game of")
            for user_id in pair:  # both players are notified by the board
                assert board in fake.notifications(players[user_id])

        # Kamen is killed with round 1 under way, and started again: the tournament goes on.
        assert table.bot is not None
        await table.bot.kill()
        await table.bot.start()

        points = {user.id: 0 for user in people}
        seen = 0
        for number in (1, 2, 3):
            threads = await wait_threads(table, 2 * number)
            for thread in threads[seen:]:
                winner, _ = await play_game(table, players, thread)
                points[winner] += 1
            seen = len(threads)
            if number < 3:
                await wait_threads(table, 2 * number + 2)
        await fake.wait_for(
            lambda: any(m.content.startswith(TROPHY) for m in fake.messages(table.games)),
            what="the final standings",
        )
        await settle(fake)
        assert len(fake.threads(table.games)) == 6  # each pairing's game once
        assert [m.content.split(":")[0] for m in round_messages(table)] == [
            f"**Spring Cup** · round {n} of 3" for n in (1, 2, 3)
        ]
        # Every pair met once.
        pairs = {
            frozenset(mentions(starter_of(table, t).content)[:2]) for t in fake.threads(table.games)
        }
        assert len(pairs) == 6

        [final] = [m for m in fake.messages(table.games) if m.content.startswith(TROPHY)]
        best = max(points.values())
        leaders = [user for user, p in points.items() if p == best]
        named = mentions(final.content)
        assert final.content.startswith("🏆 **Spring Cup** is over!")
        assert len(named) >= 1 and set(named) <= set(leaders)
        description = str(final.embeds[0]["description"])
        for user_id, score in points.items():
            assert f"<@{user_id}> **{score}** · 3 · " in description
        assert final.embeds[0]["title"] == "Spring Cup · standings"
        [png] = final.attachments
        assert png.filename == "standings.png"
        assert Image.open(io.BytesIO(png.data)).size[0] >= 400
        (tmp_path / "standings.png").write_bytes(png.data)
        print("FINAL STANDINGS:\n" + final.text)
        for user_id in named:
            assert final in fake.notifications(players[user_id])

        # One standings message, edited in place as results come, final at the end.
        [standing] = standings_messages(table)[:1]
        assert len(standing.versions) >= 5
        assert standing.embeds[0]["footer"]["text"] == "finished"
        assert f"<@{named[0]}> **{best}**" in str(standing.embeds[0]["description"])

        shown = await fake.slash(table.bob, table.games, "tournament standings")
        assert "Spring Cup · standings" in ephemeral_text(shown)
        listed = await fake.slash(table.bob, table.games, "tournament list")
        listing = ephemeral_text(listed).splitlines()
        assert listing[0] == "**Past**"
        link = f"https://discord.com/channels/{table.guild.id}/{table.games.id}/{signup.id}"
        assert listing[1].endswith(
            f"**Spring Cup** · Oska · round robin · finished · [sign-up]({link})"
        )


@pytest.mark.asyncio
async def test_refusals_are_private_and_the_buttons_live_through_a_restart(tmp_path: Path) -> None:
    async with process_table(tmp_path) as table:
        fake, owner = table.fake, table.guild.owner
        refused = await fake.slash(
            table.ann, table.games, "tournament create", game="oska", format="swiss", name="X"
        )
        assert "Only members who may Manage Server" in ephemeral_text(refused)
        swiss = await fake.slash(
            owner, table.games, "tournament create", game="oska", format="swiss", name="X"
        )
        assert "needs `rounds`" in ephemeral_text(swiss)
        late = await fake.slash(
            owner, table.games, "tournament create", game="oska", format="arena",
            name="X", minutes=30, starts="soon",
        )  # fmt: skip
        assert ephemeral_text(late).startswith("`soon` is not a start time")

        signup = await create(
            table, owner, game="lasca", format="swiss", name="Autumn", rounds=3, starts="2h",
            time="1h",
        )  # fmt: skip
        fields = {f["name"]: f["value"] for f in signup.embeds[0]["fields"]}
        assert fields["Format"] == "Swiss, 3 rounds" and fields["Time control"] == "1 hour a move"
        assert fields["Start"].startswith("<t:")
        await fake.click(table.ann, signup, "Join")
        await fake.click(table.bob, signup, "Join")
        await fake.click(table.bob, signup, "Leave")
        assert signup_players(signup) == ("Player (1)", [table.ann.id])
        not_in = await fake.click(table.carol, signup, "Leave")
        assert ephemeral_text(not_in) == "You are not playing in **Autumn**."

        few = await fake.slash(owner, table.games, "tournament start")
        assert ephemeral_text(few) == (
            "A tournament of this format needs at least 3 players; 1 has joined."
        )
        assert "Manage Server" in ephemeral_text(
            await fake.slash(table.ann, table.games, "tournament start")
        )

        assert table.bot is not None
        await table.bot.kill()
        await table.bot.start()
        await fake.click(table.bob, signup, "Join")  # the button after a restart
        await fake.click(table.carol, signup, "Join")
        assert signup_players(signup) == (
            "Players (3)",
            [table.ann.id, table.bob.id, table.carol.id],
        )

        cancelled = await fake.slash(
            owner, table.games, "tournament cancel", tournament=1, reason="rain"
        )
        assert cancelled.text == "**Autumn** is cancelled: rain"
        await fake.wait_for(lambda: not signup.buttons, what="the sign-up closed")
        assert "was cancelled" in signup.text
        unknown = await fake.slash(table.ann, table.games, "tournament show", tournament=9)
        assert ephemeral_text(unknown) == "There is no tournament #9 on this server."


@pytest.mark.asyncio
async def test_a_swiss_of_five_gives_a_bye_each_round_and_ends_after_three(
    tmp_path: Path,
) -> None:
    async with process_table(tmp_path) as table:
        fake, owner = table.fake, table.guild.owner
        people = [table.ann, table.bob, table.carol, fake.add_user("dan"), fake.add_user("eve")]
        players = {user.id: user for user in people}
        signup = await create(
            table, owner, game="oska", format="swiss", name="Swiss Open", rounds=3
        )
        for user in people:
            await fake.click(user, signup, "Join")
        assert signup_players(signup)[0] == "Players (5)"
        await fake.slash(owner, table.games, "tournament start")
        seen = 0
        byes: list[int] = []
        for number in (1, 2, 3):
            threads = await wait_threads(table, 2 * number)
            told = round_messages(table)[number - 1].content
            assert told.startswith(f"**Swiss Open** · round {number} of 3:")
            [bye] = [line for line in told.splitlines() if "a bye (one point)" in line]
            byes.extend(mentions(bye))
            for thread in threads[seen:]:
                await play_game(table, players, thread)
            seen = len(threads)
        await fake.wait_for(
            lambda: any(m.content.startswith(TROPHY) for m in fake.messages(table.games)),
            what="the final standings",
        )
        await settle(fake)
        assert len(fake.threads(table.games)) == 6
        assert len(set(byes)) == 3  # no one has two byes
        [final] = [m for m in fake.messages(table.games) if m.content.startswith(TROPHY)]
        assert final.content.startswith("🏆 **Swiss Open** is over!")
        assert "Buchholz" in str(final.embeds[0]["description"])


@pytest.mark.asyncio
async def test_names_a_user_typed_are_escaped_in_embed_titles_too(tmp_path: Path) -> None:
    """A tournament's and a season's name are shown as typed, never as markdown: in the
    sign-up's and the standings' embed titles, and in a season table's."""
    async with process_table(tmp_path) as table:
        fake, owner = table.fake, table.guild.owner
        typed, shown = "*Cup*_x_", r"\*Cup\*\_x\_"
        signup = await create(table, owner, game="oska", format="round-robin", name=typed)
        assert signup.embeds[0]["title"].startswith(f"🏆 {shown} · tournament #")
        standings = await fake.slash(table.ann, table.games, "tournament standings")
        assert standings.message is not None
        assert standings.message.embeds[0]["title"] == f"{shown} · standings"
        listed = await fake.slash(table.ann, table.games, "tournament list")
        assert shown in ephemeral_text(listed) or shown in listed.text

        begun = await fake.slash(owner, table.games, "kamen season start", name=typed)
        assert shown in (begun.text or ephemeral_text(begun))
        board = await fake.slash(table.ann, table.games, "leaderboard", game="oska", season=typed)
        assert board.message is not None
        assert shown in board.message.embeds[0]["title"]
        assert typed not in board.message.embeds[0]["title"]


@pytest.mark.asyncio
async def test_a_player_who_pressed_leave_before_the_start_is_in_no_standings(
    tmp_path: Path,
) -> None:
    async with process_table(tmp_path) as table:
        fake, owner = table.fake, table.guild.owner
        eve = fake.add_user("eve")
        people = [table.ann, table.bob, table.carol]
        players = {user.id: user for user in people}
        signup = await create(table, owner, game="oska", format="round-robin", name="Small Cup")
        for user in [*people, eve]:
            await fake.click(user, signup, "Join")
        left = await fake.click(eve, signup, "Leave")  # before the start
        assert left.type == 7
        assert signup_players(signup) == ("Players (3)", [u.id for u in people])
        await fake.slash(owner, table.games, "tournament start")
        seen = 0
        for number in (1, 2, 3):  # three players: one game and a bye each round
            threads = await wait_threads(table, number)
            for thread in threads[seen:]:
                await play_game(table, players, thread)
            seen = len(threads)
        await fake.wait_for(
            lambda: any(m.content.startswith(TROPHY) for m in fake.messages(table.games)),
            what="the final standings",
        )
        await settle(fake)
        [final] = [m for m in fake.messages(table.games) if m.content.startswith(TROPHY)]
        description = str(final.embeds[0]["description"])
        assert f"<@{eve.id}>" not in description and eve.username not in description
        assert sorted(mentions(description)) == sorted(players)
        # Nor in any version of the standings message, from the first result to the last.
        [standing] = standings_messages(table)[:1]
        for embeds in [standing.embeds, *(version.embeds for version in standing.versions)]:
            if embeds:
                assert f"<@{eve.id}>" not in str(embeds[0].get("description", ""))
        shown = ephemeral_text(await fake.slash(table.bob, table.games, "tournament standings"))
        assert f"<@{eve.id}>" not in shown and "Small Cup · standings" in shown
