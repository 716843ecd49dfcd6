"""A game whose channel or thread is deleted ends as abandoned, and its players are told.

Without this, the game stayed in `/games` for ever and could not even be
resigned (its channel, where the commands are typed, is gone).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot_support import ephemeral_text, options, process_table, start_game
from tests.fake_discord import Channel, FakeDiscord, User


async def games_text(fake: FakeDiscord, user: User, channel: Channel) -> str:
    return ephemeral_text(await fake.slash(user, channel, "games"))


@pytest.mark.asyncio
async def test_a_deleted_thread_ends_its_game_and_the_players_hear_it_in_the_channel(
    tmp_path: Path,
) -> None:
    async with process_table(tmp_path) as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        thread, board = await start_game(table, "lasca")
        await fake.select(ann, board, "Pick a move", [options(board)[0]])
        assert "Lasca" in await games_text(fake, ann, table.games)

        fake.delete_channel(thread)
        await fake.wait_for(
            lambda: any("is gone" in m.content for m in fake.messages(table.games)),
            timeout=10,
            what="the players told in the parent channel",
        )
        [told] = [m for m in fake.messages(table.games) if "is gone" in m.content]
        assert "abandoned, not rated" in told.content
        assert told in fake.notifications(ann) and told in fake.notifications(bob)
        assert "Lasca" not in await games_text(fake, ann, table.games)
        # A new game may start in the channel: the old one holds nothing any more.
        _, board = await start_game(table, "lasca")
        assert options(board)
        fake.assert_no_violations()


@pytest.mark.asyncio
async def test_a_deleted_channel_ends_its_game_and_the_players_hear_it_by_dm(
    tmp_path: Path,
) -> None:
    async with process_table(tmp_path) as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        await fake.slash(table.guild.owner, table.games, "kamen settings", threads=False)
        chat = fake.add_channel(table.guild, "chat")
        where, _ = await start_game(table, "oska", channel=chat)
        assert where is chat

        fake.delete_channel(chat)
        await fake.wait_for(
            lambda: any("is gone" in m.content for m in fake.notifications(bob)),
            timeout=10,
            what="the players told by DM",
        )
        for player in (ann, bob):
            [told] = [m for m in fake.notifications(player) if "is gone" in m.content]
            assert told.channel_id == fake.dm_channel(player).id
        assert "Oska" not in await games_text(fake, ann, table.games)
