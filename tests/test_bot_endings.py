"""Games always end (issue 30, item 3), through the fake Discord, the bot a real process.

A manager sets the server's default time control; a rated challenge that asks for no
time is refused privately, an unrated one is not, and one that names no time takes the
server's. An untimed game whose player to move has not moved for 7 days is ended by
the other with **Claim the game** (refused before, privately, saying from when). In a
3-player Swiss whose round-1 player to move never moves, removing him, his leaving, or
his being forgotten resigns his game: the round ends and round 2 is paired.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from tests import bot_support
from tests.bot_support import (
    SharedBot,
    Table,
    both_move_once,
    ephemeral_text,
    last_board,
    mentions,
    settle,
    start_game,
)
from tests.fake_discord import Channel, Message

# One bot process for the module, a server of its own for each test (tests/bot_support).
pytestmark = pytest.mark.asyncio(loop_scope="module")

shared = bot_support.module_bot


async def test_the_servers_default_time_and_a_rated_game_never_untimed(
    shared: SharedBot,
) -> None:
    async with shared.table() as table:
        fake, ann, bob, owner = table.fake, table.ann, table.bob, table.guild.owner
        shown = ephemeral_text(await fake.slash(owner, table.games, "kamen settings"))
        print("SETTINGS:\n" + shown)
        assert "Default time control: 3 days a move (challenges between people and" in shown
        assert "`time:`" in shown

        refused = await fake.slash(ann, table.games, "kamen settings", time="1h")
        assert "Manage Server" in ephemeral_text(refused)
        changed = ephemeral_text(await fake.slash(owner, table.games, "kamen settings", time="1h"))
        print("CHANGED:\n" + changed)
        assert "✅ Changed. Default time control: 1 hour a move" in changed

        untimed = await fake.slash(ann, table.games, "oska challenge", opponent=bob, time="none")
        said = ephemeral_text(untimed)
        print("RATED UNTIMED CHALLENGE:\n" + said)
        assert said == (
            "A rated game needs a time control: choose one with `time:` (a limit per move such"
            " as 5m, 1h, 1d or 3d, or a live clock such as 3+2, 5+3 or 10+5), or play it"
            " unrated with `rated: False`."
        )
        assert [m for m in fake.messages(table.games) if not m.ephemeral] == []

        # Unrated, it may be untimed; naming no time, it takes the server's default.
        _, board = await start_game(table, "oska", time="none", rated=False)
        assert "Claim the game" in labels(board)
        offered = await fake.slash(ann, table.games, "oska challenge", opponent=bob)
        assert offered.message is not None and not offered.ephemeral
        print("CHALLENGE NAMING NO TIME:\n" + offered.message.content)
        assert "1 hour a move" in offered.message.text


def labels(message: Message) -> list[str]:
    return [b["label"] for b in message.buttons]


async def test_an_untimed_game_abandoned_for_seven_days_is_claimed(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        thread, board = await start_game(table, "oska", time="none", rated=False)
        assert "Claim the game" in labels(board)
        moved = await fake.slash(ann, thread, "oska move", move="e1-f2")
        assert not moved.ephemeral, moved.text
        await settle(fake)  # the board shows the move
        board = last_board(table, thread)

        early = ephemeral_text(await fake.click(ann, board, "Claim the game"))
        print("CLAIM TOO EARLY:\n" + early)
        assert re.fullmatch(
            r"You may claim the game once your opponent has not moved for 7 days: from"
            r" <t:(\d+):f> \(<t:\1:R>\)\.",
            early,
        ), early
        mine = ephemeral_text(await fake.click(bob, board, "Claim the game"))
        assert mine == "It is your move: only the player waiting may claim the game."

        table.advance(timedelta(days=7, minutes=1))
        claimed = await fake.click(ann, board, "Claim the game")
        assert claimed.type == 7  # the board, updated in place
        [said] = await claimed.wait_followups(1)
        assert not said.ephemeral
        print("CLAIMED:\n" + said.content)
        game_id = re.search(r"game #(\d+)", said.content)
        assert game_id is not None
        assert said.content == (
            f"<@{ann.id}> claims game #{game_id[1]}: <@{bob.id}> has not moved for 7 days."
            " The game ends as abandoned (not rated)."
        )
        await fake.wait_for(lambda: "Game over" in last_board(table, thread).content, what="end")
        final = last_board(table, thread)
        print("FINAL BOARD:\n" + final.content)
        assert "**Game over.** The game was abandoned: no result, not rated." in final.content
        assert "Claim the game" not in labels(final)
        listed = await fake.slash(bob, table.games, "games")
        assert f"#{game_id[1]}" not in listed.text


# ---------------------------------------------------------------- a stalled tournament round


def starter_of(table: Table, thread: Channel) -> Message:
    return next(m for m in table.fake.messages(table.games) if m.id == thread.id)


def standings_footer(table: Table) -> str:
    found = [
        m
        for m in table.fake.messages(table.games)
        if m.embeds and str(m.embeds[0].get("title", "")).endswith("· standings")
    ]
    return str(found[-1].embeds[0].get("footer", {}).get("text", "")) if found else ""


def round_message(table: Table, number: int) -> Message | None:
    return next(
        (m for m in table.fake.messages(table.games)
         if m.content.startswith(f"**Stall Cup** · round {number} of 2:")),
        None,
    )  # fmt: skip


@pytest.mark.parametrize("how", ["remove", "leave", "forget"])
async def test_a_stalled_swiss_round_goes_on_when_its_staller_goes(
    shared: SharedBot, how: str
) -> None:
    async with shared.table() as table:
        fake, owner = table.fake, table.guild.owner
        people = {user.id: user for user in (table.ann, table.bob, table.carol)}
        made = await fake.slash(
            owner, table.games, "tournament create", game="oska", format="swiss",
            name="Stall Cup", rounds=2,
        )  # fmt: skip
        assert made.message is not None and not made.ephemeral, made.text
        fields = {f["name"]: f["value"] for f in made.message.embeds[0]["fields"]}
        assert fields["Time control"] == "3 days a move"  # the server's default: never none
        for user in people.values():
            await fake.click(user, made.message, "Join")
        await fake.slash(owner, table.games, "tournament start")
        await fake.wait_for(
            lambda: (
                len(fake.threads(table.games)) == 1
                and bool(fake.messages(fake.threads(table.games)[0]))
            ),
            what="round 1's game",
        )
        [thread] = fake.threads(table.games)
        first_id, second_id = mentions(starter_of(table, thread).content)[:2]
        await both_move_once(table, thread, people[first_id], people[second_id])
        staller, waiting = people[first_id], people[second_id]  # the first to move stalls
        board = last_board(table, thread)
        print("BOARD:\n" + board.text)
        game_id = re.search(r"#(\d+)", board.text)
        assert game_id is not None
        await fake.wait_for(lambda: standings_footer(table) != "", what="the standings")
        assert standings_footer(table) == "Round 1 under way"
        listed = await fake.slash(owner, table.games, "games")
        assert f"#{game_id[1]}" in listed.text

        if how == "remove":
            number = re.search(r"tournament #(\d+)", made.message.embeds[0]["title"])
            assert number is not None
            removed = await fake.slash(
                owner, table.games, "tournament remove", tournament=int(number[1]),
                user=staller, reason="never moves",
            )  # fmt: skip
            assert not removed.ephemeral
            print("REMOVAL:\n" + removed.text)
            assert removed.text == (
                f"<@{staller.id}> is out of **Stall Cup**: never moves\n"
                f"<@{staller.id}>'s game #{game_id[1]} is resigned: <@{waiting.id}> wins it,"
                " and the round goes on."
            )
        elif how == "leave":
            left = await fake.slash(staller, table.games, "tournament leave")
            assert ephemeral_text(left) == "You have left **Stall Cup**."
        else:
            asked = await fake.slash(staller, table.games, "kamen me forget")
            question = ephemeral_text(asked)
            print("FORGET QUESTION:\n" + question)
            assert question.startswith("**Forget you in Kamen?**")
            assert question.endswith(
                "You will be withdrawn from your tournaments too, and your tournament game"
                f" being played is resigned: Oska #{game_id[1]} in <#{thread.id}>."
            )
            assert asked.message is not None
            done = await fake.click(staller, asked.message, "Forget me")
            assert asked.message.content.startswith("Done: Kamen has forgotten you."), done

        await fake.wait_for(lambda: round_message(table, 2) is not None, what="round 2")
        await fake.wait_for(lambda: "Game over" in last_board(table, thread).content, what="end")
        final = last_board(table, thread)
        print("FINAL BOARD:\n" + final.content)
        assert f"<@{waiting.id}> wins as" in final.content and "resigned" in final.content
        second = round_message(table, 2)
        assert second is not None
        print("ROUND 2:\n" + second.content)
        assert f"<@{staller.id}>" not in second.content
        await fake.wait_for(
            lambda: standings_footer(table) == "Round 2 under way", what="the standings moved on"
        )
        standings = [
            m
            for m in fake.messages(table.games)
            if m.embeds and str(m.embeds[0].get("title", "")).endswith("· standings")
        ][-1]
        print("STANDINGS:\n" + standings.text)
        listed = await fake.slash(owner, table.games, "games")
        assert f"#{game_id[1]}" not in listed.text
