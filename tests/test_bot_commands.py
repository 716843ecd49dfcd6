"""The commands as Discord shows them, and the ones that look rather than play:
rules, board, history, replay, games, import; the two-step pick; clicks on unknown buttons."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import GifImagePlugin, Image

import render
from games.registry import GAMES
from tests import bot_support
from tests.bot_support import (
    SharedBot,
    ephemeral_text,
    last_board,
    mentions,
    options,
    process_table,
    start_game,
    to_move,
)
from tests.fake_discord.model import JSON

# One bot process for the module, a server of its own for each test (tests/bot_support).
pytestmark = pytest.mark.asyncio(loop_scope="module")


shared = bot_support.module_bot


def sub(command: JSON, name: str) -> JSON:
    found: JSON = next(o for o in command["options"] if o["name"] == name)
    return found


async def test_the_commands_are_generated_from_the_registry_and_teach(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake = table.fake
        commands = {c["name"]: c for c in fake.commands()}
        assert sorted(commands) == sorted(
            [*GAMES, "games", "kamen", "leaderboard", "profile", "puzzle", "tournament"]
        )
        [session] = fake.sessions
        assert session.intents == 1  # GUILDS only: nothing privileged
        for name, spec in GAMES.items():
            group = commands[name]
            assert group["contexts"] == [0] or group["dm_permission"] is False
            subs = [o["name"] for o in group["options"]]
            assert subs == [
                "challenge",
                "move",
                "board",
                "resign",
                "draw",
                "takeback",
                "history",
                "replay",
                "review",
                "rules",
                "import",
            ]
            challenge = sub(group, "challenge")
            names = [o["name"] for o in challenge["options"]]
            keys = [option.key for option in spec.options]
            assert names == ["opponent", *keys, "time", "first", "level", "rated"]
            for option in spec.options:
                offered = sub(challenge, option.key)
                assert [c["value"] for c in offered["choices"]] == list(option.values)
                assert offered["description"].startswith("Rule variant")
            assert [c["value"] for c in sub(challenge, "time")["choices"]] == [
                "none",
                "5m",
                "1h",
                "1d",
                "3d",
                "3+2",
                "5+3",
                "10+5",
            ]
            assert sub(sub(group, "move"), "move")["autocomplete"] is True
            assert challenge["description"] == (
                f"Challenge someone (or nobody: anyone may accept; or Kamen itself) to "
                f"{spec.title}."
            )
            for option in (o for s in group["options"] for o in s.get("options") or []):
                assert option["description"] not in ("…", "")
        oware = sub(commands["oware"], "challenge")
        assert [c["value"] for c in sub(oware, "must-play-12")["choices"]] == ["off", "on"]
        # /kamen holds `me` (for every player) and `settings` (the bot checks Manage Server).
        assert commands["kamen"].get("default_member_permissions") is None


async def test_rules_board_history_replay_and_the_games_of_the_server(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        rules = await fake.slash(bob, table.games, "lasca rules")
        assert rules.ephemeral and rules.embeds[0]["title"] == "Lasca: the rules in short"
        assert "Variant promotion" in rules.text and "a3-b4" in rules.text
        [diagram] = rules.attachments
        assert Image.open(io.BytesIO(diagram.data)).size[0] <= 640

        thread, board = await start_game(table, "oska")
        for _ in range(3):
            await fake.select(to_move(table, board), board, "Pick a move", [options(board)[0]])
        again = await fake.slash(bob, thread, "oska board")
        assert again.message is not None
        assert not again.ephemeral and again.attachments and options(again.message)
        await fake.wait_for(lambda: board.selects == [], what="the old board's menu to go")

        listed = await fake.slash(table.carol, table.games, "games")
        text = ephemeral_text(listed)
        assert "Games being played here (1)" in text and f"<@{ann.id}> vs <@{bob.id}>" in text
        assert f"/{thread.id}/{again.message.id}" in text  # a link to the live board

        history = await fake.slash(ann, thread, "oska history")
        assert "1. " in ephemeral_text(history) and "Red to move" in history.text
        record = history.attachments[0].data.decode()
        assert record.startswith('[Game "Oska"]') and '[Result "*"]' in record

        replay = await fake.slash(bob, thread, "oska replay", gif=True)
        assert replay.type == 5  # deferred: the GIF is built off the event loop
        message = await replay.final()
        [gif] = message.attachments
        assert gif.filename.endswith(".gif") and gif.data.startswith(b"GIF8")
        animation = Image.open(io.BytesIO(gif.data))
        assert isinstance(animation, GifImagePlugin.GifImageFile) and animation.n_frames == 4
        assert "Replay of Oska game #" in message.content and not message.ephemeral

        wrong = await fake.slash(bob, thread, "lasca replay")
        assert ephemeral_text(wrong) == "The game here is Oska, not Lasca."


async def test_a_record_imported_to_study_then_played_on(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake, ann = table.fake, table.ann
        record = '[Game "Oware"] [Variant "must-play-12=on"] 1. C d 2. F *'
        reply = await fake.slash(ann, table.games, "oware import", record=record)
        assert "starts a game of **Oware**" in reply.content
        await fake.wait_for(lambda: bool(fake.threads(table.games)), what="the thread")
        [thread] = fake.threads(table.games)
        await fake.wait_for(lambda: bool(fake.messages(thread)), what="the board")
        board = last_board(table, thread)
        assert "plays both sides (study)" in board.text and "must-play-12=on" in board.text
        assert mentions(board.content)[0] == ann.id and "(North)" in board.content
        await fake.select(ann, board, "Pick a move", [options(board)[0]])
        assert to_move(table, board) is ann and "(South)" in board.content
        alone = await fake.slash(ann, thread, "oware draw")
        assert ephemeral_text(alone) == (
            "You play both sides of this game: there is nobody to agree a draw with."
        )

        with_file = await fake.slash(
            ann,
            table.games,
            "oska import",
            file=("game.txt", b'[Game "Oska"]\n\n1. a1-b2 *\n'),
            opponent=table.bob,
        )
        assert "challenges you to a game of **Oska**" in with_file.content


async def test_the_two_step_pick_when_the_menu_would_be_too_long(tmp_path: Path) -> None:
    # Discord's menus hold 25 options; here the limit is lowered to 4 so that a start
    # position (6 moves) needs the two-step pick.
    async with process_table(tmp_path, {"KAMEN_MOVE_MENU_MAX": "4"}) as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        _, board = await start_game(table, "lasca")
        [pieces] = board.selects
        assert pieces["placeholder"] == "Pick a piece to move"
        assert [o["value"] for o in pieces["options"]] == ["a3", "c3", "e3", "g3"]
        assert pieces["options"][1]["description"] == "2 moves"
        # The public board marks what can move, and says it in words for screen readers.
        start = GAMES["lasca"].new()
        [image] = board.attachments
        assert image.data == render.board(start, hints=True, players=("ann", "bob"))
        assert image.data != render.board(start, players=("ann", "bob"))
        assert image.description == render.describe(start, players=("ann", "bob"))
        assert image.description is not None and "ann (White) to move" in image.description
        step = await fake.select(ann, board, "Pick a piece to move", ["c3"])
        assert "The moves from c3" in ephemeral_text(step)
        assert step.message is not None
        # Privately, the board with the picked piece and its destinations marked.
        [picked] = step.message.attachments
        assert picked.data == render.board(start, selected="c3", players=("ann", "bob"))
        [targets] = step.message.selects
        assert [o["value"] for o in targets["options"]] == ["c3-b4", "c3-d4"]
        done = await fake.select(ann, step.message, "Pick its move", ["c3-d4"])
        assert done.type == 7 and done.message is not None
        assert done.message.content == "You played c3-d4."
        await fake.wait_for(lambda: "played c3-d4" in board.text, what="the public board")
        assert to_move(table, board) is bob
        late = await fake.select(ann, step.message, targets["custom_id"], ["c3-b4"], stale=True)
        assert ephemeral_text(late).startswith("That board is out of date")


async def test_a_click_on_a_button_kamen_no_longer_has(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake = table.fake
        row = {
            "type": 1,
            "components": [
                {"type": 2, "style": 1, "label": "Old", "custom_id": "kamen:teleport:7"},
            ],
        }
        message = fake.core.create_message(
            table.games, fake.bot, {"content": "an old message", "components": [row]}, {}
        )
        reply = await fake.click(table.ann, message, "Old")
        assert ephemeral_text(reply).startswith("This button is from an older Kamen")


async def test_a_forced_pass_is_played_for_the_player_and_said_on_the_board(
    shared: SharedBot,
) -> None:
    # After Red's c3xa1 here, Blue's only legal move is `pass` (DESIGN.md §3).
    moves = "1. e1-f2 e5-d4 2. c1-d2 a5-b4 3. d2-e3 b4-c3 4. e3-f4 g5xe3 5. a1-b2"
    state = GAMES["oska"].new()
    for move in moves.split():
        if not move.endswith("."):
            state = state.play(move)
    assert state.play("c3xa1").legal_moves() == ("pass",)
    async with shared.table() as table:
        fake, ann = table.fake, table.ann
        await fake.slash(ann, table.games, "oska import", record=f'[Game "Oska"] {moves} *')
        await fake.wait_for(lambda: bool(fake.threads(table.games)), what="the thread")
        [thread] = fake.threads(table.games)
        await fake.wait_for(lambda: bool(fake.messages(thread)), what="the board")
        assert "(Red)" in last_board(table, thread).content
        await fake.slash(ann, thread, "oska move", move="c3xa1")
        board = last_board(table, thread)
        assert "Red played c3xa1. Blue has no move and passes. Red to move." in board.text
        assert "(Red)" in board.content
        assert "pass" not in options(board)
