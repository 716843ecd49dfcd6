"""Discord failing any REST call a move makes: the move is shown, the player told.

A move by command answers with a new board, strips the old board's menu,
pings the next player and deletes the previous ping; a move from the menu
edits the board, pings and deletes. Each of those calls is failed once here
with 429 (rate limited), 500 (Discord's fault) and 403 (a permission taken
away for a moment); afterwards the board shows the game, the next player
has been pinged, one ping is left and no old board offers a menu.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from tests.bot_support import SharedBot, options, settle, shared_bot, start_game, to_move
from tests.fake_discord import Channel, FakeDiscord, Message, User

CALLS = {
    "answer": ("POST", r"/callback$"),
    "post": ("POST", r"^/channels/\{channel_id\}/messages$"),
    "edit": ("PATCH", r"^/channels/\{channel_id\}/messages/\{message_id\}$"),
    "delete": ("DELETE", r"^/channels/\{channel_id\}/messages/\{message_id\}$"),
}
QUICK_REPAIR = {"KAMEN_REPAIR_INTERVAL": "1"}

# One bot process for the module, a server of its own for each test (tests/bot_support).
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[SharedBot]:
    async with shared_bot(tmp_path_factory.mktemp("bot"), QUICK_REPAIR) as bot:
        yield bot


def pings(fake: FakeDiscord, user: User, thread: Channel) -> list[Message]:
    """The turn notifications `user` got: pings, and boards posted as new messages."""
    mine = f"<@{user.id}>, your move"
    return [m for m in fake.notifications(user, channel=thread) if m.content.startswith(mine)]


def live_boards(fake: FakeDiscord, thread: Channel) -> list[Message]:
    return [m for m in fake.messages(thread) if options(m)]


@pytest.mark.parametrize("status", [429, 500, 403])
@pytest.mark.parametrize("call", sorted(CALLS))
async def test_a_failed_call_of_a_move_is_caught_up(
    shared: SharedBot, call: str, status: int
) -> None:
    method, route = CALLS[call]
    async with shared.table() as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        thread, board = await start_game(table, "oware")
        await fake.wait_for(lambda: bool(pings(fake, ann, thread)), what="Ann told to begin")

        fake.fail(method, route, status, retry_after=0.2)  # by command: a new board
        await fake.slash(ann, thread, "oware move", move=options(board)[0], wait=False)
        await fake.wait_for(lambda: len(pings(fake, bob, thread)) == 1, timeout=15, what="Bob told")
        await fake.wait_for(
            lambda: len(live_boards(fake, thread)) == 1, timeout=15, what="one live board"
        )
        [board] = live_boards(fake, thread)
        assert to_move(table, board) is bob and "Move 1" in board.text

        fake.fail(method, route, status, retry_after=0.2)  # from the menu: the board edited
        await fake.select(bob, board, "Pick a move", [options(board)[0]], wait=False)
        await fake.wait_for(lambda: len(pings(fake, ann, thread)) == 2, timeout=15, what="Ann told")
        await fake.wait_for(
            lambda: to_move(table, live_boards(fake, thread)[-1]) is ann,
            timeout=15,
            what="the board showing Bob's move",
        )
        await settle(fake)
        [board] = live_boards(fake, thread)
        assert "Move 2" in board.text
        left = [m for m in fake.messages(thread) if "your move in" in m.content]
        assert len(left) <= 2 and left[-1].id == pings(fake, ann, thread)[-1].id
