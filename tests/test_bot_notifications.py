"""Turn notifications that Discord really delivers, one per turn, and none for onlookers.

An edited board notifies nobody, so a move made from the board's menu used
to leave the next player unaware of their turn. The fake Discord counts the
notifications as Discord delivers them (`fake.notifications`).
"""

from __future__ import annotations

import pytest

from tests import bot_support
from tests.bot_support import (
    SharedBot,
    options,
    settle,
    start_game,
    to_move,
)
from tests.fake_discord import Channel, FakeDiscord, Message, User

# One bot process for the module, a server of its own for each test (tests/bot_support).
pytestmark = pytest.mark.asyncio(loop_scope="module")


shared = bot_support.module_bot


def pings(fake: FakeDiscord, user: User, thread: Channel) -> list[Message]:
    return [m for m in fake.notifications(user, channel=thread) if "your move in" in m.content]


async def test_a_menu_move_notifies_the_next_player_once_and_old_pings_go(
    shared: SharedBot,
) -> None:
    async with shared.table() as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        thread, board = await start_game(table, "oware")
        await fake.wait_for(lambda: bool(pings(fake, ann, thread)), what="Ann told to begin")
        moved = await fake.select(ann, board, "Pick a move", [options(board)[0]])
        assert moved.type == 7 and to_move(table, board) is bob  # the board was edited
        await fake.wait_for(lambda: bool(pings(fake, bob, thread)), what="Bob's ping")
        [ping] = pings(fake, bob, thread)
        assert ping.content.startswith(f"<@{bob.id}>, your move in Oware game #")
        assert ping not in fake.notifications(ann)  # Bob alone

        await fake.select(bob, board, "Pick a move", [options(board)[0]])
        await fake.wait_for(lambda: len(pings(fake, ann, thread)) == 2, what="Ann's ping")
        await fake.select(ann, board, "Pick a move", [options(board)[0]])
        await fake.wait_for(lambda: len(pings(fake, bob, thread)) == 2, what="Bob's next ping")
        await settle(fake)
        # One notification per turn (Ann's first when Bob accepted); in the thread only the
        # latest ping is left.
        assert len(pings(fake, bob, thread)) == 2 and len(pings(fake, ann, thread)) == 2
        left = [m for m in fake.messages(thread) if "your move in" in m.content]
        assert [m.id for m in left] == [pings(fake, bob, thread)[-1].id]
        fake.assert_no_violations()


async def test_a_player_who_turned_pings_off_is_not_pinged(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        off = await fake.slash(bob, table.games, "kamen me settings", pings=False)
        assert off.ephemeral
        thread, board = await start_game(table, "oware")
        await fake.select(ann, board, "Pick a move", [options(board)[0]])
        await settle(fake)
        assert to_move(table, board) is bob and pings(fake, bob, thread) == []
        # Nor by a board posted as a new message (a move typed as a command): the board
        # names him and notifies nobody.
        await fake.select(bob, board, "Pick a move", [options(board)[0]])
        before = len(fake.notifications(bob, channel=thread))
        reply = await fake.slash(ann, thread, "oware move", move=options(board)[0])
        assert reply.message is not None and not reply.ephemeral
        assert to_move(table, reply.message) is bob  # a new board, naming Bob
        await settle(fake)
        assert len(fake.notifications(bob, channel=thread)) == before


async def test_an_onlooker_sees_the_board_privately_without_pinging_or_taking_the_menu(
    shared: SharedBot,
) -> None:
    async with shared.table() as table:
        fake, ann, bob, carol = table.fake, table.ann, table.bob, table.carol
        thread, board = await start_game(table, "oska")
        await settle(fake)  # Ann's ping for the first move is out
        before = {user.id: len(fake.notifications(user)) for user in (ann, bob)}
        looked = await fake.slash(carol, thread, "oska board")
        assert looked.ephemeral and looked.attachments
        assert "to move" in looked.text
        await settle(fake)
        assert {user.id: len(fake.notifications(user)) for user in (ann, bob)} == before
        assert options(board)  # the live board keeps its menu
        # Bob, not to move either, gets the same private look.
        assert (await fake.slash(bob, thread, "oska board")).ephemeral
        assert options(board)
