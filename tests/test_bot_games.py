"""Whole games through the fake Discord, the bot a real `python -m bot` process on SQLite.

Two players challenge, accept by button and play Oska, Lasca and Oware to
the end, moving by `/move` (with autocomplete) and by the board's menu; the
games end in a win, a draw by the rules, a draw by agreement and a
resignation; one is played against Kamen itself. Each test checks what the
players see: the boards, who is pinged, the result, the thread.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests import bot_support
from tests.bot_support import (
    SharedBot,
    Table,
    board_png,
    ephemeral_text,
    last_board,
    mentions,
    move_on_board,
    natural,
    options,
    start_game,
    to_move,
)
from tests.fake_discord import Channel, Message

SAVE = os.environ.get("KAMEN_TEST_IMAGES")  # a folder to keep the boards in, to look at them


async def play_out(
    table: Table,
    game: str,
    channel: Channel,
    board: Message,
    picks: tuple[int, int],
    *,
    by: str = "both",
    stop_after: int | None = None,
) -> tuple[Message, list[str]]:
    """Play until the game ends (or `stop_after` moves): Ann (first) takes choice `picks[0]`,
    Bob `picks[1]`. Even plies by `/move`, odd ones by the menu (or all one way)."""
    fake = table.fake
    played: list[str] = []
    while not board.content.startswith("**Game over.**"):
        if stop_after is not None and len(played) >= stop_after:
            break
        mover = to_move(table, board)
        offered = natural(game, played)
        assert options(board) == offered[:25]
        pick = offered[picks[0] if mover is table.ann else picks[1]]
        use_command = by == "command" or (by == "both" and len(played) % 2 == 0)
        if use_command:
            typed = pick[:1]
            choices = await fake.autocomplete(mover, channel, f"{game} move", "move", typed)
            starting = [m for m in offered if m.lower().startswith(typed.lower())]
            containing = [m for m in offered if typed.lower() in m.lower()]
            expected = starting + [m for m in containing if m not in starting]
            assert [c.value for c in choices] == expected[:25]
            reply = await fake.slash(mover, channel, f"{game} move", move=pick)
            assert reply.message is not None and not reply.ephemeral
            await fake.wait_for(
                lambda old=board: not old.selects,  # type: ignore[misc]
                what="the old board's menu to go",
            )  # replaced: no menu
            board = reply.message
        else:
            reply = await move_on_board(table, mover, board, pick)
            assert reply.type == 7 and reply.message is board  # the board, edited in place
        played.append(pick)
        if SAVE and len(played) in (1, 8):
            Path(SAVE, f"{game}-{len(played)}.png").write_bytes(board_png(board))
        assert f"played {pick}" in board.text
    return board, played


# One bot process for the module, a server of its own for each test (tests/bot_support).
pytestmark = pytest.mark.asyncio(loop_scope="module")


shared = bot_support.module_bot


def wait_for_text(table: Table, channel: Channel, text: str) -> Message:
    found = [m for m in table.fake.messages(channel) if text in m.text]
    assert found, f"no message with {text!r} in #{channel.name}"
    return found[-1]


async def test_oska_to_a_win_by_the_rules_moving_by_command_and_by_menu(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        reply = await fake.slash(ann, table.games, "oska challenge", opponent=bob, first="me")
        challenge = reply.message
        assert challenge is not None and not reply.ephemeral
        assert mentions(challenge.content)[:2] == [bob.id, ann.id]  # Bob is pinged
        assert "challenges you" in challenge.content and "plays Blue and moves first" in reply.text
        assert [b["label"] for b in challenge.buttons] == ["Accept", "Decline", "Cancel challenge"]

        await fake.click(bob, challenge, "Accept")
        assert challenge.buttons == [] and "being played in" in challenge.content
        [thread] = fake.threads(table.games)
        assert thread.id == challenge.id and thread.name == "Oska: ann vs bob"
        await fake.wait_for(lambda: bool(fake.messages(thread)), what="the first board")
        board = last_board(table, thread)
        assert to_move(table, board) is ann and "Blue" in board.content
        assert board.embeds[0]["title"].startswith("Oska · game #")
        png = board_png(board)
        assert len(png) < 40 * 1024 and board.attachments[0].dimensions is not None
        assert max(board.attachments[0].dimensions) <= 640
        if SAVE:
            Path(SAVE, "oska-0.png").write_bytes(png)

        final, played = await play_out(table, "oska", thread, board, (0, 0))
        assert len(played) == 15
        assert "Game over" in final.content and f"<@{ann.id}> wins as Blue (1-0)" in final.content
        assert "every stone home" in final.text and final.selects == []
        assert [b["label"] for b in final.buttons] == ["Rematch", "Replay", "Review", "Record"]
        # the last move was made in the menu: the result is also announced as a new message
        assert fake.messages(thread)[-1].content.startswith("**Game over.**")
        await fake.wait_for(lambda: "wins" in challenge.content, what="the starter's result")
        assert f"<@{ann.id}> wins as Blue" in challenge.content  # seen from #games too
        if SAVE:
            Path(SAVE, "oska-final.png").write_bytes(board_png(final))

        # after the game: the history and record, only for the one who asks
        history = await fake.slash(
            bob, thread, "oska history", game=int(board.embeds[0]["title"].split("#")[1])
        )
        text = ephemeral_text(history)
        assert "1. a1-b2" in text or played[0] in text
        [record] = history.attachments
        assert record.filename.endswith(".txt") and b'[Result "1-0"]' in record.data
        assert b'[First "ann"]' in record.data and b'[Second "bob"]' in record.data


async def test_lasca_to_a_draw_by_repetition_and_oware_to_a_win(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake = table.fake
        thread, board = await start_game(table, "lasca")
        final, played = await play_out(table, "lasca", thread, board, (-1, 0), by="menu")
        assert len(played) == 69
        assert "Drawn (1/2-1/2): threefold repetition." in final.content

        reply = await fake.slash(
            table.ann, table.games, "oware challenge", opponent=table.bob, first="me"
        )
        assert reply.message is not None
        await fake.click(table.bob, reply.message, "Accept")
        oware = next(t for t in fake.threads(table.games) if t.id == reply.message.id)
        await fake.wait_for(lambda: bool(fake.messages(oware)), what="the Oware board")
        final, played = await play_out(
            table, "oware", oware, last_board(table, oware), (0, 0), by="command"
        )
        assert len(played) == 33
        assert f"<@{table.ann.id}> wins as South (1-0): South has captured 26 seeds." in (
            final.content
        )
        assert table.new_violations() == []


async def test_a_resignation_and_a_draw_by_agreement(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        thread, board = await start_game(table, "lasca")
        board, _ = await play_out(table, "lasca", thread, board, (0, 0), stop_after=6)
        asked = await fake.click(bob, board, "Resign")
        assert "Resign game #" in ephemeral_text(asked) and "cannot be undone" in asked.text
        assert asked.message is not None
        done = await fake.click(bob, asked.message, "Yes, resign")
        assert done.type == 7 and done.message is not None
        assert "You resigned" in done.message.content
        await fake.wait_for(lambda: "Game over" in board.content, what="the final board")
        assert f"<@{ann.id}> wins as White (1-0): Black resigned." in board.content
        assert board.selects == []
        wait_for_text(table, thread, "**Game over.**")

        thread, board = await start_game(table, "oware")
        board, _ = await play_out(table, "oware", thread, board, (0, 0), stop_after=4)
        offered = await fake.click(ann, board, "Offer a draw")
        assert offered.type == 7 and "offers a draw" in board.text
        [ping] = await offered.wait_followups(1)
        assert mentions(ping.content)[0] == bob.id and not ping.ephemeral
        labels = [b["label"] for b in board.buttons]
        assert labels == ["Resign", "Accept the draw", "Decline the draw"]
        accepted = await fake.slash(bob, thread, "oware draw")
        assert "accepts the draw" in accepted.content and not accepted.ephemeral
        await fake.wait_for(lambda: "Game over" in board.content, what="the drawn board")
        assert "Drawn (1/2-1/2): drawn by agreement." in board.content


async def test_a_game_against_kamen_played_to_the_end(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake, ann = table.fake, table.ann
        reply = await fake.slash(
            ann, table.games, "oska challenge", opponent=fake.bot, level="1", first="them"
        )
        assert "starts a game of **Oska**" in reply.content
        thread = await _thread_of(table, reply.message)
        board = last_board(table, thread)
        nope = await fake.slash(ann, thread, "oska draw")
        assert ephemeral_text(nope) == "The bot plays on: it does not agree to draws."
        for _ in range(40):
            await fake.wait_for(
                lambda: "your move" in board.content or "Game over" in board.content,
                timeout=20,
                what="Kamen's move",
            )
            if "Game over" in board.content:
                break
            assert to_move(table, board) is ann
            [first, *_] = options(board)
            await move_on_board(table, ann, board, first)
        assert board.content.startswith("**Game over.** ")  # Kamen's moves are random-seeded:
        assert " wins as " in board.content or "Drawn (1/2-1/2)" in board.content  # any result
        assert any(f"<@{fake.bot.id}> is thinking" in v.content for v in board.versions)
        assert f"<@{fake.bot.id}>" in board.embeds[0]["description"]  # Kamen played a side


async def _thread_of(table: Table, message: Message | None) -> Channel:
    fake = table.fake
    assert message is not None
    await fake.wait_for(
        lambda: any(t.id == message.id for t in fake.threads(table.games)), what="the game's thread"
    )
    thread = next(t for t in fake.threads(table.games) if t.id == message.id)
    await fake.wait_for(lambda: bool(fake.messages(thread)), what="the board")
    return thread
