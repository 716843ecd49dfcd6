"""`/puzzle`: a private position, the move menu, right or wrong, Next, and the score on /profile.

The puzzle shown is read back from its footer's id in the shipped puzzles
(`games.puzzles`), so the test picks the solution, or a move that is not it,
as a player who knows (or misses) the answer would.
"""

from __future__ import annotations

import re

import pytest

from bot import images
from bot.puzzles import puzzle_message, verdict_message
from games import puzzles
from games.base import Side
from games.puzzles import Puzzle
from matches.puzzles import Verdict
from tests import bot_support
from tests.bot_support import SharedBot, ephemeral_text
from tests.fake_discord import Message

# One bot process for the module, a server of its own for each test (tests/bot_support).
SHARED = pytest.mark.asyncio(loop_scope="module")


shared = bot_support.module_bot


MENU = "Your move…"


def shown(message: Message) -> Puzzle:
    """The puzzle a message shows, by the id in its footer."""
    footer = str(message.embeds[0]["footer"]["text"])
    found = re.search(r"Puzzle ((oska|lasca|oware)-[0-9a-f]{10})", footer)
    assert found, footer
    return puzzles.pick(found.group(2), found.group(1))


def offered(message: Message) -> list[str]:
    [menu] = [s for s in message.selects if s["custom_id"].startswith("kamen:pz:")]
    return [o["value"] for o in menu["options"]]


@SHARED
async def test_a_puzzle_is_answered_by_its_menu_and_counts_on_the_profile(
    shared: SharedBot,
) -> None:
    async with shared.table() as table:
        fake, ann = table.fake, table.ann
        reply = await fake.slash(ann, table.games, "puzzle", game="oska")
        text = ephemeral_text(reply)
        assert reply.message is not None
        puzzle = shown(reply.message)
        state = puzzles.position(puzzle)
        assert "One move wins" in text or "Only one move saves" in text
        assert sorted(offered(reply.message)) == sorted(state.legal_moves())
        assert any(a.filename == "puzzle.png" for a in reply.attachments)

        right = await fake.select(ann, reply.message, MENU, [puzzle.solution])
        assert right.type == 7
        assert f"✅ **{puzzle.solution}** is the move" in right.text
        profile = await fake.slash(table.bob, table.games, "profile", user=ann)
        assert "1 solved of 1 answered here" in profile.text

        # Next: another puzzle in the same message; a wrong move shows the solution.
        after = await fake.click(ann, reply.message, "Next puzzle")
        assert after.type == 7
        second = shown(reply.message)
        assert second.id != puzzle.id
        wrong = next(m for m in offered(reply.message) if not puzzles.check(second, m))
        missed = await fake.select(ann, reply.message, MENU, [wrong])
        assert f"❌ **{wrong}** is not it. The move was **{second.solution}**" in missed.text
        profile = await fake.slash(ann, table.games, "profile")
        assert "1 solved of 2 answered here" in profile.text


@SHARED
async def test_only_the_first_answer_counts_and_a_forged_puzzle_is_refused(
    shared: SharedBot,
) -> None:
    async with shared.table() as table:
        fake, ann = table.fake, table.ann
        reply = await fake.slash(ann, table.games, "puzzle", game="lasca")
        assert reply.message is not None
        puzzle = shown(reply.message)
        wrong = next(m for m in offered(reply.message) if not puzzles.check(puzzle, m))
        await fake.select(ann, reply.message, MENU, [wrong])
        # The same puzzle again, by its menu's id on a message of hers: right, but not counted.
        again = await fake.select_custom(ann, reply.message, f"kamen:pz:{puzzle.id}",
                                         [puzzle.solution])  # fmt: skip
        assert "✅" in again.text and "only your first answer counts" in again.text
        profile = await fake.slash(ann, table.games, "profile")
        assert "0 solved of 1 answered here" in profile.text

        forged = await fake.select_custom(ann, reply.message, "kamen:pz:oska-0000000000", ["a1"])
        assert ephemeral_text(forged) == (
            "Puzzle oska-0000000000 is not one Kamen knows any more:"
            " ask for a new one with /puzzle."
        )


@SHARED
async def test_puzzle_scores_are_a_servers_own(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake = table.fake
        other = fake.add_guild("Other Club")
        dave = fake.add_user("dave")  # a member of both servers
        reply = await fake.slash(dave, table.games, "puzzle", game="oware")
        assert reply.message is not None
        puzzle = shown(reply.message)
        await fake.select(dave, reply.message, MENU, [puzzle.solution])
        elsewhere = await fake.slash(dave, other.channel("games"), "profile")
        assert "answered here" not in elsewhere.text
        here = await fake.slash(dave, table.games, "profile")
        assert "1 solved of 1 answered here" in here.text


@pytest.mark.parametrize("game", ["oska", "lasca", "oware"])
def test_a_puzzle_is_drawn_from_the_side_of_the_player_to_find_the_move(game: str) -> None:
    """With the second player to move, their pieces are at the bottom of the puzzle and of
    its solution, as on the board they would play it from."""
    puzzle = next(p for p in puzzles.load(game) if puzzles.position(p).to_move is Side.SECOND)
    state = puzzles.position(puzzle)
    last = state.spec.replay(puzzle.variant, puzzle.moves[:-1]).describe(puzzle.moves[-1])
    shown_png = puzzle_message(puzzle, "en").image

    def drawn(side: Side) -> bytes:
        return images.board_png(state, last_move=last, hints=True, locale="en", perspective=side)

    assert shown_png == drawn(Side.SECOND) != drawn(Side.FIRST)
    after = state.play(puzzle.solution)
    answer = verdict_message(Verdict(puzzle, puzzle.solution, True, True), "en").image
    solved = state.describe(puzzle.solution)
    assert answer == images.board_png(after, last_move=solved, locale="en", perspective=Side.SECOND)
