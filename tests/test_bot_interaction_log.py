"""One log line per interaction at INFO: what was asked, the server, the game, the outcome
and the time, as JSON fields with `LOG_FORMAT=json`; never the interaction's token."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from games.registry import GAMES
from tests.bot_support import process_table, settle, start_game


def interactions(log: str) -> list[dict[str, Any]]:
    events = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
    return [event for event in events if event["message"] == "interaction"]


async def test_each_interaction_is_one_json_line_at_info_without_its_token(
    tmp_path: Path,
) -> None:
    env = {"LOG_LEVEL": "INFO", "LOG_FORMAT": "json"}
    async with process_table(tmp_path, env) as table:
        fake = table.fake
        thread, _ = await start_game(table, "oska")
        first = str(GAMES["oska"].new().legal_moves()[0])
        moved = await fake.slash(table.ann, thread, "oska move", move=first)
        assert moved.message is not None and not moved.ephemeral
        again = await fake.slash(table.ann, thread, "oska move", move=first)  # Bob's turn
        assert again.ephemeral
        await settle(fake)
        assert table.bot is not None
        log = table.bot.log()
        tokens = [record.token for record in fake.core.interactions.values()]

    lines = interactions(log)
    # A line is written when its handler is done: the refused move, answered at once, may
    # come before the move it followed, whose handler goes on after its reply.
    assert sorted((line["kind"], line["command"], line["outcome"]) for line in lines) == [
        ("command", "oska challenge", "ok"),
        ("command", "oska move", "ok"),
        ("command", "oska move", "refused:match.not-your-turn"),
        ("component", "kamen:accept:#", "ok"),
    ]
    [accepted] = [line for line in lines if line["kind"] == "component"]
    [moved_line] = [
        line for line in lines if line["outcome"] == "ok" and line["command"] == "oska move"
    ]
    game_id = accepted["game"]
    assert isinstance(game_id, int) and moved_line["game"] == game_id
    for line in lines:
        assert line["level"] == "INFO" and line["server"] == table.guild.id
        assert isinstance(line["ms"], int) and 0 <= line["ms"] < 3000
    assert len(tokens) == 4 and [token for token in tokens if token in log] == []
