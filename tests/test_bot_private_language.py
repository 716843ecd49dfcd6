"""A private answer is in the language of the player who acted (their Discord client's).

Ann's Discord speaks Czech, Bob's English: each is refused in their own
language, in the same game, and a locale Kamen has no catalogue for is
answered in English.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot_support import ephemeral_text, options, process_table, start_game


@pytest.mark.asyncio
async def test_each_player_is_refused_in_their_own_language(tmp_path: Path) -> None:
    async with process_table(tmp_path) as table:
        fake, ann, bob, carol = table.fake, table.ann, table.bob, table.carol
        fake.set_locale(ann, "cs")
        fake.set_locale(bob, "en-US")
        fake.set_locale(carol, "de")
        thread, board = await start_game(table, "oware")
        legal = ", ".join(options(board))

        czech = ephemeral_text(await fake.slash(ann, thread, "oware move", move="zz"))
        assert czech == f"`zz` není jamka: Jih hraje A-F, Sever a-f. Možné tahy: {legal}"
        english = ephemeral_text(await fake.slash(bob, thread, "oware move", move="a"))
        assert english.startswith("It is not your turn")
        german = ephemeral_text(await fake.slash(carol, thread, "oware move", move="a"))
        assert "not" in german and "Nejsi" not in german  # no German catalogue: English

        # Confirmations too, buttons included; the public board stays in English.
        mine = await fake.slash(ann, thread, "kamen me settings")
        assert ephemeral_text(mine).startswith("Upozornění na tah: zapnuto.")
        asked = await fake.click(ann, board, "Resign")
        said = ephemeral_text(asked)
        assert said.startswith("Vzdát hru #") and said.endswith("Tohle už nejde vzít zpět.")
        assert asked.message is not None
        assert [b["label"] for b in asked.message.buttons] == ["Ano, vzdávám se"]
        assert "your move" in board.content
        # The autocomplete's hint too.
        hint = await fake.autocomplete(bob, thread, "oware move", "move", "")
        assert [choice.name for choice in hint] == ["It is not your turn."]
        fake.set_locale(bob, "cs")
        hint = await fake.autocomplete(bob, thread, "oware move", "move", "")
        assert [choice.name for choice in hint] == ["Teď nejsi na tahu."]
