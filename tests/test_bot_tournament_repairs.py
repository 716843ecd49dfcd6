"""Tournaments that meet trouble through the fake Discord: a game's thread deleted (while
Kamen runs, and while it is away), Kamen killed between a game's message and its thread,
and the organisers' role that lets members other than managers run tournaments."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot_support import (
    Table,
    both_move_once,
    ephemeral_text,
    last_board,
    mentions,
    natural,
    process_table,
)
from tests.fake_discord import Channel, Message, User
from tests.test_bot_races import board_ply


async def two_player_cup(table: Table) -> Message:
    """A round robin of ann and bob (one game), created and started by the owner."""
    fake, owner = table.fake, table.guild.owner
    created = await fake.slash(owner, table.games, "tournament create", game="oska",
                               format="round-robin", name="Duel Cup")  # fmt: skip
    assert created.message is not None, created.text
    for user in (table.ann, table.bob):
        await fake.click(user, created.message, "Join")
    started = await fake.slash(owner, table.games, "tournament start")
    assert not started.ephemeral, started.text
    return created.message


async def board_in_new_thread(table: Table, old: set[int]) -> Channel:
    """The game thread opened in #games that is not one of `old`, once its board is there."""
    fake = table.fake

    def new() -> list[Channel]:
        return [
            t
            for t in fake.threads(table.games)
            if t.id not in old and any(m.attachments for m in fake.messages(t))
        ]

    await fake.wait_for(lambda: bool(new()), what="a new game thread with its board")
    [thread] = new()
    return thread


def players_of(table: Table, thread: Channel) -> tuple[User, User]:
    """The thread's game's first and second player, from the message it was started on."""
    starter = next(m for m in table.fake.messages(table.games) if m.id == thread.id)
    first, second = mentions(starter.content)[:2]
    people = {u.id: u for u in (table.ann, table.bob)}
    return people[first], people[second]


@pytest.mark.asyncio
async def test_a_deleted_game_thread_is_opened_again_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    async with process_table(tmp_path) as table:
        fake = table.fake
        await two_player_cup(table)
        thread = await board_in_new_thread(table, set())
        first, second = players_of(table, thread)
        await both_move_once(table, thread, first, second)

        # Someone deletes the game's thread: the game goes on in a new one, not abandoned.
        fake.delete_channel(thread)
        again = await board_in_new_thread(table, {thread.id})
        board = last_board(table, again)
        assert board.content.startswith(f"<@{first.id}> <@{second.id}>: the thread of your game")
        assert "goes on here, from where it was" in board.content
        assert board in fake.notifications(first) and board in fake.notifications(second)
        said = [m.content for m in fake.messages(table.games)]
        assert not any("the game has ended" in text for text in said)  # not abandoned
        # The position is the one reached: the third move of the game is played there.
        one = natural("oska", [])[0]
        two = natural("oska", [one])[0]
        moved = await fake.slash(first, again, "oska move", move=natural("oska", [one, two])[0])
        assert not moved.ephemeral, moved.text

        # Deleted while Kamen is away: no event tells of it; the start finds it. (Killed once
        # the board of that move is written down: a board not yet written is repaired at the
        # start, which tests/test_bot_boards.py shows.)
        await fake.wait_for(lambda: board_ply(table) == 3, what="the board's move written")
        assert table.bot is not None
        await table.bot.kill()
        fake.delete_channel(again)
        await table.bot.start()
        third_thread = await board_in_new_thread(table, {thread.id, again.id})
        assert "goes on here" in last_board(table, third_thread).content

        # The game ends there, and the tournament with it.
        asked = await fake.slash(second, third_thread, "oska resign")
        assert asked.message is not None
        await fake.click(second, asked.message, "Yes, resign")

        def ended() -> list[Message]:
            return [m for m in fake.messages(table.games) if "is over! The winner" in m.content]

        await fake.wait_for(lambda: bool(ended()), what="the winner announced")
        [winner] = ended()
        assert winner.content.startswith("🏆 **Duel Cup** is over!")
        assert mentions(winner.content) == [first.id]


@pytest.mark.asyncio
async def test_killed_between_a_games_message_and_its_thread_opens_one_thread(
    tmp_path: Path,
) -> None:
    async with process_table(tmp_path) as table:
        fake = table.fake
        # Discord makes the thread, but Kamen is killed before it hears so.
        fault = fake.fail("POST", r"/messages/\d+/threads$", None, delay=5.0, carried_out=True)
        await two_player_cup(table)
        await fake.wait_for(lambda: fault.hits >= 1 and bool(fake.threads(table.games)),
                            what="the thread made")  # fmt: skip
        assert table.bot is not None
        await table.bot.kill()
        fake.clear_faults()
        await table.bot.start()
        thread = await board_in_new_thread(table, set())
        assert last_board(table, thread).content.split(":")[0].count("<@") == 2
        starters = [m for m in fake.messages(table.games) if "Duel Cup" in m.content
                    and m.content.count("<@") == 2 and "round 1" in m.content.lower()
                    and ":\n" not in m.content]  # fmt: skip
        assert len(fake.threads(table.games)) == 1, "a second thread for the same game"
        assert len(starters) == 1, [m.content for m in starters]


@pytest.mark.asyncio
async def test_the_organisers_role_lets_its_members_run_tournaments(tmp_path: Path) -> None:
    async with process_table(tmp_path) as table:
        fake, owner = table.fake, table.guild.owner
        helpers = fake.add_role(table.guild, "Tournament helpers")
        helper = fake.add_user("helper", roles=[helpers])
        outsider = table.carol

        refused = await fake.slash(helper, table.games, "tournament create", game="oska",
                                   format="arena", name="Blitz", minutes=30)  # fmt: skip
        assert refused.ephemeral
        assert ephemeral_text(refused) == (
            "Only members who may Manage Server create and run tournaments here."
        )
        shown = await fake.slash(owner, table.games, "tournament organisers")
        assert "Name a role with `role:`" in ephemeral_text(shown)
        # Only a manager names the role.
        denied = await fake.slash(helper, table.games, "tournament organisers", role=helpers)
        assert denied.ephemeral and "Manage Server" in ephemeral_text(denied)
        named = await fake.slash(owner, table.games, "tournament organisers", role=helpers)
        assert ephemeral_text(named) == (
            f"Members with <@&{helpers.id}> may now create and run tournaments here, "
            "as managers can."
        )

        created = await fake.slash(helper, table.games, "tournament create", game="oska",
                                   format="arena", name="Blitz", minutes=30)  # fmt: skip
        assert not created.ephemeral and created.message is not None, created.text
        stranger = await fake.slash(outsider, table.games, "tournament start")
        assert ephemeral_text(stranger) == (
            f"Only members with <@&{helpers.id}> or who may Manage Server create and run "
            "tournaments here."
        )
        number = _number(created.message)
        cancelled = await fake.slash(helper, table.games, "tournament cancel",
                                     tournament=number, reason="rain")  # fmt: skip
        assert not cancelled.ephemeral and "rain" in cancelled.text

        cleared = await fake.slash(owner, table.games, "tournament organisers", clear=True)
        assert "Only members who may Manage Server" in ephemeral_text(cleared)
        again = await fake.slash(helper, table.games, "tournament create", game="oska",
                                 format="arena", name="Blitz 2", minutes=30)  # fmt: skip
        assert again.ephemeral


def _number(signup: Message) -> int:
    """The tournament's number, from its sign-up message's title (`... · tournament #N`)."""
    title = str(signup.embeds[0]["title"])
    return int(title.rsplit("#", 1)[1])


@pytest.mark.asyncio
async def test_everyone_and_a_bots_own_role_are_refused_for_organisers_and_champions(
    tmp_path: Path,
) -> None:
    async with process_table(tmp_path) as table:
        fake, owner = table.fake, table.guild.owner
        kamens = next(r for r in table.guild.roles.values() if r.bot_id == fake.bot.id)
        for role in (table.guild.everyone, kamens):
            refused = await fake.slash(owner, table.games, "tournament organisers", role=role)
            assert refused.ephemeral
            assert ephemeral_text(refused) == (
                f"<@&{role.id}> cannot be the organisers' role (it is @everyone, which every "
                "member has, or a bot's own role): choose a role the server gives to its "
                "organisers."
            )
            champions = await fake.slash(owner, table.games, "kamen season role", role=role)
            assert ephemeral_text(champions).startswith(f"<@&{role.id}> cannot be given to anyone")
        # Nothing was set: only managers run tournaments, and champions get no role.
        shown = await fake.slash(owner, table.games, "tournament organisers")
        assert "Name a role with `role:`" in ephemeral_text(shown)
        assert "Season champions get no role" in ephemeral_text(
            await fake.slash(owner, table.games, "kamen season role")
        )
        # In Czech too, for a manager whose Discord speaks Czech.
        fake.set_locale(owner, "cs")
        czech = await fake.slash(owner, table.games, "tournament organisers", role=kamens)
        assert ephemeral_text(czech) == (
            f"Role <@&{kamens.id}> nemůže být rolí pořadatelů (je to @everyone, kterou má každý "
            "člen, nebo vlastní role nějakého bota): vyber roli, kterou server dává svým "
            "pořadatelům."
        )
