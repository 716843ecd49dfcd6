"""`/kamen me export` and `/kamen me forget` through the fake Discord, the bot a real process.

Ann and Bob play a rated game. Ann's export is one private file whose record
loads back; Carol, who never played, is told so (in Czech too). Forgetting
asks first: only Ann can answer (Carol cannot see the question, and a click
she crafts is refused), Cancel keeps everything, an expired question forgets
nobody, and Confirm takes Ann off the stored leaderboard while the ratings
rebuilt from the games stay exact. Ann cannot be forgotten with a game open.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

import pytest

from games.record import load
from matches.people import records_in
from matches.recompute import differences, rebuild, stored
from matches.storage import Store
from store import open_store
from tests import bot_support
from tests.bot_support import SharedBot, Table, ephemeral_text, options, start_game
from tests.fake_discord import Message, ProtocolError

# One bot process for the module, a server of its own for each test (tests/bot_support).
pytestmark = pytest.mark.asyncio(loop_scope="module")


shared = bot_support.module_bot


async def rated_game(table: Table) -> Message:
    """Ann (first) and Bob move once each, then Bob resigns: a rated game Ann won; its board."""
    fake = table.fake
    _, board = await start_game(table, "oska")
    for mover in (table.ann, table.bob):
        await fake.select(mover, board, "Pick a move", [options(board)[0]])
    asked = await fake.click(table.bob, board, "Resign")
    assert asked.message is not None
    await fake.click(table.bob, asked.message, "Yes, resign")
    await fake.wait_for(lambda: "Game over" in board.content, what="the final board")
    return board


@asynccontextmanager
async def database(table: Table) -> AsyncIterator[Store]:
    """The bot's own database, opened beside it (SQLite in WAL mode: reads never wait)."""
    store = await open_store(table.database_url)
    try:
        yield store
    finally:
        await store.close()


async def listed(store: Store, table: Table) -> list[int]:
    board = await store.leaderboard(table.guild.id, "oska", provisional=True, offset=0, limit=10)
    return sorted(standing.user_id for standing in board)


def tag(record: str, name: str) -> str:
    found = re.search(rf'^\[{name} "(.*)"\]$', record, re.M)
    assert found is not None, f"no {name} tag in {record!r}"
    return found.group(1)


async def test_the_export_is_one_private_file_of_records_that_load(shared: SharedBot) -> None:
    async with shared.table() as table, database(table) as store:
        fake, ann, bob, carol = table.fake, table.ann, table.bob, table.carol
        await rated_game(table)
        [game] = await store.games_of_user(ann.id)

        reply = await fake.slash(ann, table.games, "kamen me export")
        assert ephemeral_text(reply) == (
            "Your game in Kamen, from every server, as a record (only you see this)."
        )
        [file] = reply.attachments
        assert file.filename == "kamen-games.txt"
        text = file.data.decode("utf-8")
        assert text.startswith(f"=== 1/1: Oska #{game.id}, {game.created_at:%Y.%m.%d}, finished")
        [record] = records_in(text)
        parsed, state = load(record)
        assert (parsed.first, parsed.second, parsed.result) == ("ann", "bob", "1-0")
        assert parsed.moves == state.moves == game.moves and len(game.moves) == 2
        assert parsed.site.startswith("Stone Club")
        assert tag(record, "GameId") == str(game.id) and tag(record, "Server") == str(
            table.guild.id
        )
        assert (tag(record, "FirstId"), tag(record, "SecondId")) == (str(ann.id), str(bob.id))

        # A part that does not exist, and a player without games.
        beyond = await fake.slash(ann, table.games, "kamen me export", part=2)
        assert ephemeral_text(beyond) == (
            "Your export has only one part: leave `part` empty, or ask for part 1."
        )
        nothing = await fake.slash(carol, table.games, "kamen me export")
        assert ephemeral_text(nothing) == "You have no games in Kamen: there is nothing to export."
        assert nothing.attachments == []
        fake.set_locale(carol, "cs")
        czech = await fake.slash(carol, table.games, "kamen me export")
        assert ephemeral_text(czech) == "V Kamenovi nemáš žádné partie: není co exportovat."


async def test_forgetting_asks_only_the_asker_and_takes_them_off_the_tables(
    shared: SharedBot,
) -> None:
    async with shared.table() as table, database(table) as store:
        fake, ann, bob, carol = table.fake, table.ann, table.bob, table.carol
        board = await rated_game(table)
        guild = table.guild.id
        assert await listed(store, table) == sorted([ann.id, bob.id])

        asked = await fake.slash(ann, table.games, "kamen me forget")
        said = ephemeral_text(asked)
        assert said.startswith("**Forget you in Kamen?** In every server your games stay")
        assert said.endswith("This cannot be undone. The buttons work for 10 minutes.")
        assert asked.message is not None
        assert [b["label"] for b in asked.message.buttons] == ["Forget me", "Cancel"]

        # Only Ann answers it: Carol cannot see it, and a click she crafts forgets nobody.
        with pytest.raises(ProtocolError):
            await fake.click(carol, asked.message, "Forget me")
        confirm = asked.message.buttons[0]["custom_id"]
        crafted = await fake.click_custom(carol, board, confirm)
        assert ephemeral_text(crafted) == "These buttons answer only the player who asked for them."
        assert await store.standing(guild, "oska", ann.id) is not None

        # Cancel keeps everything.
        kept = await fake.click(ann, asked.message, "Cancel")
        assert kept.type == 7 and asked.message.content == "Cancelled: nothing was forgotten."
        assert asked.message.buttons == []
        assert await listed(store, table) == sorted([ann.id, bob.id])

        # Confirm forgets her, everywhere at once.
        asked = await fake.slash(ann, table.games, "kamen me forget")
        assert asked.message is not None
        done = await fake.click(ann, asked.message, "Forget me")
        assert done.type == 7 and asked.message.buttons == []
        assert asked.message.content.startswith("Done: Kamen has forgotten you.")
        assert await listed(store, table) == [bob.id]
        assert await store.standing(guild, "oska", ann.id) is None
        [game] = await store.games_of_user(bob.id)
        assert game.first_id is not None and game.first_id < 0 and game.second_id == bob.id
        anonymous = await store.standing(guild, "oska", game.first_id)
        assert anonymous is not None and anonymous.wins == 1  # her game still counts for Bob
        assert differences(await stored(store), await rebuild(store)) == []
        again = await fake.slash(ann, table.games, "kamen me export")
        assert ephemeral_text(again) == "You have no games in Kamen: there is nothing to export."
        # Where Bob's games name her, she is "a forgotten player", never a broken mention.
        games = await fake.slash(bob, table.games, "oska history", user=bob)
        listed_games = str(games.embeds[0]["description"])
        assert "against a forgotten player" in listed_games and "<@-" not in listed_games


async def test_nobody_is_forgotten_with_a_game_open_or_after_the_question_expired(
    shared: SharedBot,
) -> None:
    async with shared.table() as table, database(table) as store:
        fake, ann = table.fake, table.ann
        thread, _ = await start_game(table, "oska")
        [game] = await store.games_of_user(ann.id)

        refused = await fake.slash(ann, table.games, "kamen me forget")
        assert ephemeral_text(refused) == (
            f"Kamen cannot forget you while you have a game or a challenge open: Oska #{game.id}"
            f" in <#{thread.id}>. Finish or resign the game (cancel or decline a challenge),"
            " then ask again."
        )
        assert refused.message is not None and refused.message.buttons == []

        asked = await fake.slash(table.bob, thread, "oska resign")
        assert asked.message is not None
        await fake.click(table.bob, asked.message, "Yes, resign")

        # In Czech, and answered too late.
        fake.set_locale(ann, "cs")
        asked = await fake.slash(ann, table.games, "kamen me forget")
        assert ephemeral_text(asked).startswith("**Má na tebe Kamen zapomenout?**")
        assert ephemeral_text(asked).endswith("Tlačítka fungují 10 minut.")
        assert asked.message is not None
        assert [b["label"] for b in asked.message.buttons] == ["Zapomeň na mě", "Zrušit"]
        table.advance(timedelta(minutes=11))
        late = await fake.click(ann, asked.message, "Zapomeň na mě")
        assert late.type == 7 and asked.message.content == (
            "Tohle potvrzení už vypršelo a na nic se nezapomnělo: zeptej se znovu příkazem"
            " `/kamen já zapomeň`."
        )
        assert [g.id for g in await store.games_of_user(ann.id)] == [game.id]
