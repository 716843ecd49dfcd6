"""Playing feels first-party (issue 15), through the fake Discord with a real bot process:
taps per move counted where that is the point."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot_support import (
    ephemeral_text,
    last_board,
    options,
    play_button,
    process_table,
    settle,
    start_game,
    to_move,
)
from tests.fake_discord import Message

# Short openings that leave the player to move exactly one legal move (a capture).
FORCED = {"oska": ["a1-b2", "a5-b4", "b2-c3"], "lasca": ["a3-b4"]}


@pytest.mark.asyncio
@pytest.mark.parametrize("game", sorted(FORCED))
async def test_a_forced_move_is_one_tap_on_a_play_button(tmp_path: Path, game: str) -> None:
    async with process_table(tmp_path) as table:
        fake = table.fake
        thread, board = await start_game(table, game)
        for move in FORCED[game]:
            mover = to_move(table, board)
            reply = await fake.slash(mover, thread, f"{game} move", move=move)
            assert not reply.ephemeral, reply.text
            board = last_board(table, thread)
        [forced] = options(board)
        button = play_button(board)
        assert button is not None and button["label"] == f"Play {forced}"
        assert not [s for s in board.selects if s["custom_id"].startswith("kamen:move:")]
        mover = to_move(table, board)
        # The other player's tap is refused privately, the board untouched.
        waiting = table.ann if mover is table.bob else table.bob
        refused = await fake.click(waiting, board, button["custom_id"])
        assert refused.ephemeral and "not your turn" in refused.text.lower(), refused.text
        assert play_button(board) == button
        taps = 0
        reply = await fake.click(mover, board, button["custom_id"])
        taps += 1
        assert reply.type == 7 and reply.message is board  # the board, edited in place
        assert f"played {forced}" in board.text
        assert taps == 1  # was 2: open a menu of one, pick its only move


def footer(message: Message) -> str:
    return str(message.embeds[0]["footer"]["text"])


@pytest.mark.asyncio
async def test_a_finished_game_offers_rematch_replay_and_record(tmp_path: Path) -> None:
    async with process_table(tmp_path) as table:
        fake, ann, bob, carol = table.fake, table.ann, table.bob, table.carol
        thread, board = await start_game(table, "oska", time="1h")  # Ann plays Blue, first
        for mover, move in ((ann, "a1-b2"), (bob, "a5-b4")):
            reply = await fake.slash(mover, thread, "oska move", move=move)
            assert not reply.ephemeral, reply.text
        # A rematch crafted on a game still being played is refused, privately.
        live = last_board(table, thread)
        number = str(live.embeds[0]["title"]).rsplit("#", 1)[1]
        early = await fake.click_custom(ann, live, f"kamen:rematch:{number}")
        assert early.ephemeral and "once it is over" in early.text
        asked = await fake.slash(bob, thread, "oska resign")
        assert asked.message is not None
        await fake.click(bob, asked.message, "Yes, resign")
        await fake.wait_for(lambda: "Game over" in last_board(table, thread).content,
                            what="the end")  # fmt: skip
        board = last_board(table, thread)
        assert [b["label"] for b in board.buttons] == ["Rematch", "Replay", "Record"]

        # Replay: anyone may step through the game, privately, one tap a move.
        opened = await fake.click(carol, board, "Replay")
        viewer = opened.message
        assert opened.ephemeral and viewer is not None
        assert viewer.embeds[0]["title"].startswith("Replay · Oska game #")
        assert footer(viewer) == "The start · 2 moves in all"
        start_png = viewer.attachments[0].data
        assert [b["label"] for b in viewer.buttons] == ["⏮", "◀", "▶", "⏭"]
        assert [bool(b.get("disabled")) for b in viewer.buttons] == [True, True, False, False]
        step = await fake.click(carol, viewer, "▶")
        assert step.type == 7  # the viewer, edited in place
        assert footer(viewer) == "Move 1: Blue played a1-b2 · 1 of 2"
        assert "**a1-b2**" in str(viewer.embeds[0]["description"])
        assert viewer.attachments[0].data != start_png  # the board moved on
        await fake.click(carol, viewer, "⏭")
        assert footer(viewer) == "Move 1: Red played a5-b4 · 2 of 2"
        assert [bool(b.get("disabled")) for b in viewer.buttons] == [False, False, True, True]
        # The viewer outlives a restart: its buttons carry the game and the position.
        assert table.bot is not None
        await table.bot.kill()
        await table.bot.start()
        await fake.click(carol, viewer, "⏮")
        assert footer(viewer) == "The start · 2 moves in all"

        # Record: the game's record, privately.
        recorded = await fake.click(carol, board, "Record")
        assert recorded.ephemeral
        [record] = recorded.attachments
        text = record.data.decode()
        assert '[Result "1-0"]' in text and "1. a1-b2 a5-b4 1-0" in text

        # Rematch: only a player; the sides swapped, the same time.
        refused = await fake.click(carol, board, "Rematch")
        assert refused.ephemeral and "Only a player of game #" in refused.text
        offered = await fake.click(bob, board, "Rematch")
        challenge = offered.message
        assert not offered.ephemeral and challenge is not None
        assert f"<@{bob.id}> plays Blue and moves first" in challenge.text
        assert "1 hour" in challenge.text
        await fake.click(ann, challenge, "Accept")
        await fake.wait_for(
            lambda: last_board(table, thread).id != board.id, what="the rematch's board"
        )
        again = last_board(table, thread)
        assert to_move(table, again) is bob  # in the same thread, Bob now moves first


@pytest.mark.asyncio
async def test_a_move_typed_where_there_is_no_game_links_to_the_players_games(
    tmp_path: Path,
) -> None:
    async with process_table(tmp_path) as table:
        fake = table.fake
        thread, board = await start_game(table, "oska")
        await settle(fake)  # the board recorded as the game's
        lost = await fake.slash(table.ann, table.games, "oska move", move="a1-b2")
        assert lost.ephemeral
        link = f"https://discord.com/channels/{table.guild.id}/{thread.id}/{board.id}"
        assert ephemeral_text(lost).splitlines() == [
            "There is no game in this channel.",
            "Your game on this server:",
            f"• Oska #{board.embeds[0]['title'].rsplit('#', 1)[1]}: {link}",
        ]
        # Someone with no game hears only the refusal.
        alone = await fake.slash(table.carol, table.games, "oska move", move="a1-b2")
        assert ephemeral_text(alone) == "There is no game in this channel."


@pytest.mark.asyncio
async def test_kamen_help_explains_the_games_in_the_players_language(tmp_path: Path) -> None:
    async with process_table(tmp_path) as table:
        fake = table.fake
        shown = await fake.slash(table.carol, table.games, "kamen help")
        assert shown.ephemeral
        [embed] = shown.embeds
        assert embed["title"] == "Kamen · how to play"
        fields = {f["name"]: f["value"] for f in embed["fields"]}
        assert list(fields)[2:5] == ["Oska", "Lasca", "Oware"]
        assert "`/oska challenge`" in fields["Start a game"]
        assert "`/oska move`" in fields["Move"] and "one tap" in fields["Move"]
        assert fields["Lasca"].endswith("Rules, variants and notation: `/lasca rules`.")
        # One game first, when asked.
        lasca = await fake.slash(table.carol, table.games, "kamen help", game="lasca")
        names = [f["name"] for f in lasca.embeds[0]["fields"]]
        assert names[2] == "Lasca" and "`/lasca challenge`" in lasca.embeds[0]["fields"][0]["value"]
        # A Czech player reads it in Czech, with the commands as a Czech client names them.
        czech = fake.add_user("jana", locale="cs")
        cs = await fake.slash(czech, table.games, "kamen help")
        [embed] = cs.embeds
        assert embed["title"] == "Kamen · jak hrát"
        start = next(f["value"] for f in embed["fields"] if f["name"] == "Jak začít partii")
        assert "`/oska výzva`" in start
