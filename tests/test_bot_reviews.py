"""Reviews in Discord: the Review button of a finished game and `/<game> review`.

The review is made by Kamen's AI workers the first time it is asked for and
kept: a second ask reads it back at once. It is private, its chart and the
costliest move's board come as images, and a game not over is refused. An Oware
review says how deep it searched; the deep one, made after, takes its place.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from games.ai.review import review_game
from games.registry import get
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


async def test_an_oware_review_says_its_depth_and_the_deep_one_follows(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        thread, _ = await start_game(table, "oware")
        state = get("oware").new("")
        for ply, move in enumerate(("C", "e", "D", "b")):  # Ann moves first
            state = state.play(move)
            await fake.slash(bob if ply % 2 else ann, thread, "oware move", move=move)
        asked = await fake.slash(bob, thread, "oware resign")
        assert asked.message is not None
        await fake.click(bob, asked.message, "Yes, resign")

        quick = await fake.slash(ann, thread, "oware review")
        await fake.wait_for(lambda: bool(quick.followups) or bool(quick.embeds), what="review")
        shown = quick.followups[0] if quick.followups else quick
        footer = shown.embeds[0]["footer"]["text"]
        assert footer == (
            "Each move checked by a search, depth 8. "
            "Quick review: a deeper one is being made, ask again in a few minutes."
        )
        # The deep one, made in the background (a few seconds of the workers, behind the
        # other tests' moves), is what a later ask shows.
        deadline = time.monotonic() + 180
        while "Deep review." not in footer and time.monotonic() < deadline:
            await asyncio.sleep(0.25)
            again = await fake.slash(ann, thread, "oware review")
            footer = again.embeds[0]["footer"]["text"]
        assert footer.startswith("Each move checked by a search, depth ")
        assert footer.endswith(" Deep review.")
        depths = footer.split("depth ")[1].split(".")[0].split("-")
        assert all(int(depth) > 8 for depth in depths)
