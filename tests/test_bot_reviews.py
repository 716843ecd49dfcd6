"""Reviews in Discord: the Review button of a finished game and `/<game> review`.

The review is made by Kamen's AI workers the first time it is asked for and
kept: a second ask reads it back at once. It is private, its chart and the
costliest move's board come as images, and a game not over is refused.
"""

from __future__ import annotations

import pytest

from games.ai.review import review_game
from tests import bot_support
from tests.bot_support import (
    SharedBot,
    ephemeral_text,
    play_rated,
    start_game,
)

# One bot process for the module, a server of its own for each test (tests/bot_support).
pytestmark = pytest.mark.asyncio(loop_scope="module")


shared = bot_support.module_bot


async def test_a_finished_game_is_reviewed_privately_once_and_kept(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake, ann, carol = table.fake, table.ann, table.carol
        board = await play_rated(table, ann, table.bob, "1-0")
        assert "Review" in [b["label"] for b in board.buttons]
        clicked = await fake.click(carol, board, "Review")  # anyone may look
        assert "Kamen is reviewing game #" in ephemeral_text(clicked)
        await fake.wait_for(lambda: bool(clicked.followups), what="the review", timeout=60)
        [review] = clicked.followups
        assert review.ephemeral
        assert review.embeds[0]["title"].startswith("🔎 Review · Oska #")
        assert {a.filename for a in review.attachments} >= {"review.png"}
        assert "?? blunder · ? mistake · ?! inaccuracy" in review.text
        # What the bot says each side did is the review of the game's own moves.
        number = int(review.embeds[0]["title"].split("#")[1])
        record = await fake.slash(carol, table.games, "oska history", game=number)
        [text] = [a.data.decode() for a in record.attachments if a.filename.endswith(".txt")]
        moves = [w for w in text.split("\n\n", 1)[1].split() if "-" in w and w[0].isalpha()]
        expected = review_game("oska", "", moves)
        for side, name in enumerate(("Blue", "Red")):
            counts = expected.counts(side)  # type: ignore[arg-type]
            line = f"{counts['blunder']} ?? · {counts['mistake']} ? · {counts['inaccuracy']} ?!"
            assert f"**{name}**" in review.text and line in review.text

        # Asked again, by command: kept, so answered at once and the same.
        again = await fake.slash(ann, table.games, "oska review", game=number)
        assert not again.deferred
        assert again.embeds[0]["description"] == review.embeds[0]["description"]


async def test_a_game_not_over_is_not_reviewed(shared: SharedBot) -> None:
    async with shared.table() as table:
        thread, _ = await start_game(table, "lasca")
        asked = await table.fake.slash(table.ann, thread, "lasca review")
        text = ephemeral_text(asked)
        assert text.startswith("Game #")
        assert text.endswith(" is not over yet: it can be reviewed once it has ended.")
