"""Moves off Discord's global limit: 50 requests a second for the whole bot, which counts
every request made with the bot's token but not an interaction's response nor what its
token does for 15 minutes (followups, their edits and deletes, edits of its message).

An ordinary move, from the board's menu or typed, is answered through its interaction
alone: the board is its response, the next player's ping its followup, the previous
ping deleted through the token that posted it. Kamen's move edits the board and pings
through the player's last interaction. The fake Discord lists the requests on the
global limit (`fake.global_requests`).
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests import bot_support
from tests.bot_support import (
    SharedBot,
    last_board,
    move_on_board,
    options,
    settle,
    start_against_kamen,
    start_game,
    to_move,
)
from tests.fake_discord import Channel, FakeDiscord, Message, User

# One bot process for the module, a server of its own for each test (tests/bot_support).
pytestmark = pytest.mark.asyncio(loop_scope="module")

shared = bot_support.module_bot

DELETE = "DELETE /channels/{channel_id}/messages/{message_id}"


def pings_in(fake: FakeDiscord, thread: Channel) -> list[Message]:
    """The turn pings left in the thread."""
    return [m for m in fake.messages(thread) if "your move in" in m.content]


def told(fake: FakeDiscord, user: User, thread: Channel) -> int:
    """How many messages of the thread notified `user`."""
    return len(fake.notifications(user, channel=thread))


async def told_again(fake: FakeDiscord, user: User, thread: Channel, before: int) -> None:
    """Until one more message of the thread has notified `user`."""
    await fake.wait_for(lambda: told(fake, user, thread) == before + 1, what="a notification")


async def test_ordinary_moves_make_no_request_on_the_global_limit(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake, ann = table.fake, table.ann
        thread, board = await start_game(table, "oware")
        await fake.wait_for(lambda: bool(pings_in(fake, thread)), what="Ann told to begin")
        # The first move deletes the ping posted when the game began (in the thread, which
        # the Accept's token cannot reach): the game's one request on the global limit.
        await move_on_board(table, ann, board, options(board)[0])
        await fake.wait_for(lambda: told(fake, table.bob, thread) == 1, what="Bob's ping")
        await settle(fake)
        before = len(fake.global_requests)

        for turn in range(8):  # menu and typed moves in turn
            mover = to_move(table, board)
            waiting = table.bob if mover is table.ann else table.ann
            notified = told(fake, waiting, thread)
            if turn % 2 == 0:
                reply = await move_on_board(table, mover, board, options(board)[0])
                assert reply.type == 7  # the board itself, updated
            else:
                reply = await fake.slash(mover, thread, "oware move", move=options(board)[0])
                assert reply.message is not None and not reply.ephemeral
                board = reply.message  # the new board, the response itself
            await told_again(fake, waiting, thread, notified)
            await settle(fake)
            # One ping at a time: the previous one went, whoever posted it.
            assert len(pings_in(fake, thread)) <= 1
            assert to_move(table, last_board(table, thread)) is waiting

        assert fake.global_requests[before:] == []
        # The old boards offer no move: only the latest has a menu.
        menus = [m for m in fake.messages(thread) if options(m)]
        assert menus == [board]
        fake.assert_no_violations()


async def test_kamens_moves_edit_and_ping_through_the_players_interaction(
    shared: SharedBot,
) -> None:
    async with shared.table() as table:
        fake, ann = table.fake, table.ann
        thread, board = await start_against_kamen(table, "oware", "1")
        await settle(fake)
        before = len(fake.global_requests)
        for _ in range(4):
            assert to_move(table, board) is ann
            notified = told(fake, ann, thread)
            await move_on_board(table, ann, board, options(board)[0])
            # Kamen answers on the same board, and Ann is told it is her move again.
            await told_again(fake, ann, thread, notified)
            await settle(fake)
            assert to_move(table, board) is ann
            assert len(pings_in(fake, thread)) == 1
        assert fake.global_requests[before:] == []
        fake.assert_no_violations()


async def test_a_ping_older_than_its_token_is_deleted_through_the_channel(
    shared: SharedBot,
) -> None:
    async with shared.table() as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        thread, board = await start_game(table, "oware")
        await fake.wait_for(lambda: told(fake, ann, thread) == 1, what="Ann told to begin")
        await move_on_board(table, ann, board, options(board)[0])
        await fake.wait_for(lambda: told(fake, bob, thread) == 1, what="Bob's ping")
        await settle(fake)
        [old] = pings_in(fake, thread)
        # Bob takes 16 minutes: the token that posted his ping (Ann's move's) is spent.
        fake.advance(16 * 60)
        table.advance(timedelta(minutes=16))
        before = len(fake.global_requests)
        await move_on_board(table, bob, board, options(board)[0])
        await fake.wait_for(lambda: told(fake, ann, thread) == 2, what="Ann's ping")
        await settle(fake)
        # One request on the global limit, the old ping's deletion; the new ping is Bob's
        # move's followup.
        assert fake.global_requests[before:] == [DELETE]
        assert old.deleted and [p.id for p in pings_in(fake, thread)] != [old.id]
        assert len(pings_in(fake, thread)) == 1
        fake.assert_no_violations()
