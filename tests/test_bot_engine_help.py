"""No engine help in one's own game, in Discord: a player copies the record of their running
rated game (`/oska history`) into `/oska import` against Kamen at `max`, Kamen to move, to
have Kamen's answer for the game. Refused privately, before anything is posted, however
the moves are ordered; so is a review of a finished game that passed through one of its
positions. Another player may do both, and the player too once the game is over."""

from __future__ import annotations

import pytest

from tests import bot_support
from tests.bot_support import SharedBot, ephemeral_text, last_board, play_rated, start_game

pytestmark = pytest.mark.asyncio(loop_scope="module")

shared = bot_support.module_bot

OPENING = ("a1-b2", "a5-b4", "g1-f2", "g5-f4")
TRANSPOSED = '[Game "Oska"] 1. g1-f2 a5-b4 2. a1-b2 *'


def refusal(game_id: int) -> str:
    return (
        f"Kamen will not think about this position: it occurs in game #{game_id}, which you"
        " are still playing. It opens again once that game has ended."
    )


async def test_the_running_games_record_gets_no_help_from_kamen_until_it_ends(
    shared: SharedBot,
) -> None:
    async with shared.table() as table:
        fake, ann, bob, carol = table.fake, table.ann, table.bob, table.carol
        thread, board = await start_game(table, "oska")  # rated, Ann (Blue) against Bob
        for mover, move in zip((ann, bob, ann, bob), OPENING, strict=True):
            played = await fake.slash(mover, thread, "oska move", move=move)
            assert not played.ephemeral, played.text
        game_id = int(board.embeds[0]["title"].split("#")[1])
        history = await fake.slash(ann, thread, "oska history")
        record = history.attachments[0].data.decode()
        posted = len(fake.messages(table.games))

        for text in (record, TRANSPOSED):
            cheat = await fake.slash(
                ann, table.games, "oska import", record=text, opponent=fake.bot, level="8",
                first="them",
            )  # fmt: skip
            assert ephemeral_text(cheat) == refusal(game_id)
            alone = await fake.slash(bob, table.games, "oska import", record=text)
            assert ephemeral_text(alone) == refusal(game_id)
        assert len(fake.messages(table.games)) == posted  # nothing public
        assert [t.id for t in fake.threads(table.games)] == [thread.id]

        # Carol and Bob play a game that passes through the position after 1. a1-b2; Bob
        # resigns. Its review would show Ann the game's position: refused to her.
        other = await play_rated(table, carol, bob, "1-0")
        other_id = int(other.embeds[0]["title"].split("#")[1])
        asked = await fake.slash(ann, table.games, "oska review", game=other_id)
        assert ephemeral_text(asked) == refusal(game_id)

        # Carol plays no game that position is in: Kamen plays on from Ann's record for her.
        hers = await fake.slash(
            carol, table.games, "oska import", record=record, opponent=fake.bot, first="them"
        )
        assert "starts a game of **Oska**" in hers.content and not hers.ephemeral

        asked = await fake.slash(ann, thread, "oska resign")
        assert asked.message is not None
        await fake.click(ann, asked.message, "Yes, resign")
        await fake.wait_for(
            lambda: "Game over" in last_board(table, thread).content, what="the game's end"
        )
        again = await fake.slash(
            ann, table.games, "oska import", record=record, opponent=fake.bot, level="8",
            first="them",
        )  # fmt: skip
        assert "starts a game of **Oska**" in again.content and not again.ephemeral
        review = await fake.slash(ann, table.games, "oska review", game=other_id)
        shown = await review.final(timeout=60)
        assert shown.embeds[0]["title"].startswith("🔎 Review · Oska #")
