"""Playing feels first-party (issue 15), through the fake Discord with a real bot process:
taps per move counted where that is the point."""

from __future__ import annotations

from datetime import timedelta

import pytest

import render
from games.ai.levels import LEVELS, level_rating
from games.registry import GAMES
from tests import bot_support
from tests.bot_support import (
    SharedBot,
    ephemeral_text,
    last_board,
    mentions,
    options,
    play_button,
    settle,
    start_game,
    to_move,
)
from tests.fake_discord import Message

# One bot process for the module, a server of its own for each test (tests/bot_support).
pytestmark = pytest.mark.asyncio(loop_scope="module")


shared = bot_support.module_bot


# Short openings that leave the player to move exactly one legal move (a capture).
FORCED = {"oska": ["a1-b2", "a5-b4", "b2-c3"], "lasca": ["a3-b4"]}


@pytest.mark.parametrize("game", sorted(FORCED))
async def test_a_forced_move_is_one_tap_on_a_play_button(shared: SharedBot, game: str) -> None:
    async with shared.table() as table:
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
        # One tap plays it (it took two: open a menu of one, pick its only move).
        reply = await fake.click(mover, board, button["custom_id"])
        assert reply.type == 7 and reply.message is board  # the board, edited in place
        assert f"played {forced}" in board.text and to_move(table, board) is waiting


def footer(message: Message) -> str:
    return str(message.embeds[0]["footer"]["text"])


async def test_a_finished_game_offers_rematch_replay_and_record(shared: SharedBot) -> None:
    async with shared.table() as table:
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
        assert [b["label"] for b in board.buttons] == ["Rematch", "Replay", "Review", "Record"]

        # The thread keeps its finished game: history, replay and board still mean it.
        history = await fake.slash(carol, thread, "oska history")
        assert "1. a1-b2 a5-b4" in ephemeral_text(history)
        looked = await fake.slash(carol, thread, "oska board")
        assert looked.ephemeral and "Game over" in looked.text
        stepped = await fake.slash(carol, thread, "oska replay")
        assert stepped.ephemeral and footer(stepped.message) == "The start · 2 moves in all"  # type: ignore[arg-type]
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


async def test_a_move_typed_where_there_is_no_game_links_to_the_players_games(
    shared: SharedBot,
) -> None:
    async with shared.table() as table:
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


async def test_kamen_help_explains_the_games_in_the_players_language(shared: SharedBot) -> None:
    async with shared.table() as table:
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
        # Every level of every game with its rating, and what the ratings are measured against.
        strength = fields["Kamen's strength"]
        assert "Kamen's engine scale" in strength and "counts material 4 plies ahead" in strength
        assert "is 1000" in strength
        oware_line = next(line for line in strength.splitlines() if line.startswith("Oware: "))
        names = ["1 · easy", "2", "3 · medium", "4", "5 · medium-hard", "6", "7 · hard", "8 · max"]
        assert oware_line == "Oware: " + ", ".join(
            f"{name} ≈ {level_rating('oware', level)}"
            for name, level in zip(names, LEVELS, strict=True)
        )
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
        strength = next(f["value"] for f in embed["fields"] if f["name"] == "Jak silně Kamen hraje")
        assert "Kamenově stupnici programů" in strength and "do hloubky 4 půltahů" in strength
        assert f"5 · středně těžká ≈ {level_rating('lasca', '5')}" in strength


async def test_the_same_challenge_twice_is_refused_with_a_link_to_the_first(
    shared: SharedBot,
) -> None:
    async with shared.table() as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        first = await fake.slash(ann, table.games, "oska challenge", opponent=bob, time="5m")
        assert first.message is not None and not first.ephemeral
        await settle(fake)  # its message recorded
        again = await fake.slash(ann, table.games, "oska challenge", opponent=bob, time="5m")
        assert again.ephemeral
        number = str(first.message.embeds[0]["title"]).rsplit("#", 1)[1]
        link = f"https://discord.com/channels/{table.guild.id}/{table.games.id}/{first.message.id}"
        assert ephemeral_text(again).splitlines() == [
            f"You already made this same challenge (game #{number}): it is still open.",
            f"It is here: {link}",
        ]
        other = await fake.slash(ann, table.games, "oska challenge", opponent=bob, time="1h")
        assert not other.ephemeral  # another time control: another challenge


async def test_a_move_is_taken_back_when_the_opponent_agrees(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        thread, board = await start_game(table, "oska", rated=False)  # Ann moves first
        await fake.slash(ann, thread, "oska move", move="a1-b2")
        asked = await fake.slash(ann, thread, "oska takeback")
        request = asked.message
        assert not asked.ephemeral and request is not None
        assert request.content.startswith(f"<@{bob.id}>: <@{ann.id}> asks to take back their move")
        assert bob.id in mentions(request.content)
        # Only the opponent answers; Ann's own click is refused privately.
        own = await fake.click(ann, request, "Take it back")
        assert own.ephemeral and "your own request" in own.text
        await fake.click(bob, request, "Take it back")
        assert request.content == f"<@{ann.id}> took back a1-b2." and request.buttons == []
        await settle(fake)
        board = last_board(table, thread)
        assert to_move(table, board) is ann and "a1-b2" in options(board)
        # A rated game refuses it, privately, saying why.
        rated_thread, _ = await start_game(table, "lasca")
        await fake.slash(ann, rated_thread, "lasca move", move="a3-b4")
        refused = await fake.slash(ann, rated_thread, "lasca takeback")
        assert refused.ephemeral and "only in unrated games" in refused.text


async def test_a_live_clock_shows_both_times_and_warns_when_time_runs_low(
    shared: SharedBot,
) -> None:
    async with shared.table() as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        thread, board = await start_game(table, "oska", time="3+2")  # Ann (Blue) first
        assert str(board.embeds[0]["footer"]["text"]).endswith("· 3+2 live clock")
        assert clocks_of(board) == ("Blue", True, "Red", False)
        assert 175 <= clock_seconds(board, 0) <= 180 and clock_seconds(board, 1) == 180
        table.advance(timedelta(seconds=20))
        moved = await fake.slash(ann, thread, "oska move", move="a1-b2")
        assert not moved.ephemeral
        board = last_board(table, thread)
        # Blue spent about 20 s and gained 2; now Red's time runs.
        assert clocks_of(board) == ("Blue", False, "Red", True)
        assert 157 <= clock_seconds(board, 0) <= 162 and 175 <= clock_seconds(board, 1) <= 180
        # The image shows the same two times on its note line.
        times = tuple(part.split(" ")[1].strip("*") for part in _clock_line(board))
        state = GAMES["oska"].new().play("a1-b2")
        [image] = board.attachments
        assert image.data == render.board(
            state, hints=True, players=("ann", "bob"), clocks=(times[0], times[1])
        )
        # Red lets time run low: a warning at 30 s left, pinging Red only.
        table.advance(timedelta(seconds=152))
        await fake.wait_for(
            lambda: any("left on your clock" in m.content for m in fake.messages(thread)),
            what="the low-time warning", timeout=15,
        )  # fmt: skip
        [warning] = [m for m in fake.messages(thread) if "left on your clock" in m.content]
        assert warning.content.startswith(f"<@{bob.id}>, only 0:")
        assert warning in fake.notifications(bob)


def _clock_line(board: Message) -> list[str]:
    [line] = [line for line in board.text.splitlines() if line.startswith("⏱ ")]
    return [part.strip() for part in line.removeprefix("⏱ ").split(" · ")]


def clocks_of(board: Message) -> tuple[str, bool, str, bool]:
    """The clock line's sides and which one runs (in bold)."""
    (first, first_time), (second, second_time) = (p.split(" ") for p in _clock_line(board))
    return first, first_time.startswith("**"), second, second_time.startswith("**")


def clock_seconds(board: Message, index: int) -> int:
    """A side's time on the clock line, in whole seconds (`2:41` or `**2:41**`)."""
    shown = _clock_line(board)[index].split(" ")[1].strip("*")
    minutes, seconds = shown.split(":")
    return int(minutes) * 60 + int(float(seconds))
