"""Every refusal of the match service, as the player sees it: an ephemeral reply that says
what would be right. The bot's clock is moved forward so that deadlines pass without
waiting; its sweeper is slowed down here, so that a player acts after a deadline and before
the sweep."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
import pytest_asyncio

from games.record import load
from tests.bot_support import (
    SharedBot,
    Table,
    ephemeral_text,
    last_board,
    options,
    shared_bot,
    start_game,
)
from tests.fake_discord import Reply

# One bot process for the module, a server of its own for each test (tests/bot_support).
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[SharedBot]:
    async with shared_bot(tmp_path_factory.mktemp("bot"), {"KAMEN_SWEEP_INTERVAL": "3600"}) as bot:
        yield bot


@pytest_asyncio.fixture(loop_scope="module")
async def table(shared: SharedBot) -> AsyncIterator[Table]:
    async with shared.table() as t:
        yield t


def refused(reply: Reply) -> str:
    """The text of an ephemeral refusal (the fake checked it came within 3 s)."""
    return ephemeral_text(reply)


async def test_refusals_around_challenges(table: Table) -> None:
    fake, ann, bob, carol = table.fake, table.ann, table.bob, table.carol
    games = table.games
    text = refused(await fake.slash(ann, games, "oska challenge", opponent=ann))
    assert text == "You cannot challenge yourself."
    text = refused(await fake.slash(ann, games, "oska challenge", opponent=bob, level="7"))
    assert text == "A level is for games against the bot: challenge the bot to use it."

    challenge = (await fake.slash(ann, games, "oska challenge", opponent=bob)).message
    assert challenge is not None
    for user, button, said in (
        (carol, "Accept", "Only the challenged user can accept this challenge."),
        (carol, "Decline", "Only the challenged user can decline this challenge."),
        (ann, "Accept", "You cannot accept your own challenge."),
        (ann, "Decline", "You cannot decline your own challenge: cancel it."),
        (bob, "Cancel challenge", "Only the challenger can cancel this challenge."),
    ):
        assert refused(await fake.click(user, challenge, button)) == said
    assert fake.threads(games) == []  # nobody who was refused opened a thread

    accept = next(b["custom_id"] for b in challenge.buttons if b["label"] == "Accept")
    await fake.click(bob, challenge, "Accept")
    again = await fake.click(bob, challenge, accept, stale=True)
    assert refused(again) == "This challenge was already accepted."

    for closing, said in (("Cancel challenge", "cancelled"), ("Decline", "declined")):
        other = (await fake.slash(ann, games, "lasca challenge", opponent=bob)).message
        assert other is not None
        accept = next(b["custom_id"] for b in other.buttons if b["label"] == "Accept")
        await fake.click(ann if closing.startswith("Cancel") else bob, other, closing)
        late = await fake.click(bob, other, accept, stale=True)
        assert refused(late) == f"This challenge was {said}."

    expiring = (await fake.slash(ann, games, "oware challenge", opponent=bob)).message
    assert expiring is not None
    table.advance(timedelta(hours=24, seconds=1))
    assert refused(await fake.click(bob, expiring, "Accept")) == "This challenge has expired."

    bad = await fake.slash(ann, games, "oska import", record='[Game "Oska"] 1. z9-z8 *')
    assert refused(bad).startswith("Blue's move 1: `z9` is not a square. Legal moves: a1-b2")
    # What a record looks like, in two lines that load as a game of Oska.
    example = refused(bad).split("```\n")[1].split("\n```")[0]
    assert example.startswith('[Game "Oska"]\n1. ') and example.count("\n") == 1
    record, state = load(example)
    assert record.spec.name == "oska" and len(state.moves) == 4
    untagged = await fake.slash(ann, games, "oska import", record="1. a1-b2 *")
    assert refused(untagged).startswith('The record has no [Game "..."] tag')
    assert '[Game "Oska"]\n1. a1-b2' in refused(untagged)
    lasca = await fake.slash(ann, games, "oska import", record='[Game "Lasca"] *')
    assert refused(lasca) == "This is a record of Lasca, not Oska."
    assert [m for m in fake.messages(games) if "starts a game" in m.content] == []


async def test_refusals_in_a_game(table: Table) -> None:
    fake, ann, bob, carol = table.fake, table.ann, table.bob, table.carol
    thread, board = await start_game(table, "oska")

    said = refused(await fake.slash(bob, thread, "oska move", move="a5-b4"))
    assert said == "It is not your turn: wait for your opponent's move."
    said = refused(await fake.select(carol, board, "Pick a move", ["a1-b2"]))
    assert said == "You are not a player in this game."
    said = refused(await fake.slash(ann, thread, "oska move", move="a1-a2"))
    assert "Legal moves: a1-b2, c1-b2, c1-d2, e1-d2, e1-f2, g1-f2" in said
    said = refused(await fake.slash(ann, thread, "lasca move", move="a3-b4"))
    assert said == "The game here is Oska, not Lasca."
    quiet = table.guild.channel("quiet")
    assert refused(await fake.slash(ann, quiet, "oska move", move="a1-b2")).startswith(
        "There is no game in this channel.\nYour game on this server:\n• Oska #"
    )
    hint = await fake.autocomplete(bob, thread, "oska move", "move", "a")
    assert [c.name for c in hint] == ["It is not your turn."]

    await fake.click(ann, board, "Offer a draw")
    assert refused(await fake.click(ann, board, "Accept the draw")) == (
        "You have already offered a draw: wait for the answer."
    )
    assert refused(await fake.click(ann, board, "Decline the draw")) == (
        "You cannot answer your own draw offer."
    )
    decline = next(b["custom_id"] for b in board.buttons if b["label"] == "Decline the draw")
    await fake.click(bob, board, "Decline the draw")
    again = await fake.click(bob, board, decline, stale=True)
    assert refused(again) == "There is no draw offer to answer."

    first = options(board)[0]
    menu = board.selects[0]["custom_id"]
    await fake.select(ann, board, "Pick a move", [first])
    stale = await fake.select(ann, board, menu, [first], stale=True)
    said = refused(stale)
    assert said.startswith("That board is out of date: the game has moved on. Look again.")
    assert "Here is the board as it is now" in said and stale.attachments  # the current board
    assert stale.message is not None and stale.message.selects  # ...with a working menu

    asked = await fake.click(ann, board, "Resign")
    assert asked.message is not None
    await fake.click(ann, asked.message, "Yes, resign")
    await fake.wait_for(lambda: "Game over" in board.content, what="the final board")
    over = await fake.select(bob, board, menu, [first], stale=True)
    assert refused(over) == "This game is over: 0-1 (Blue resigned)."
    gone = await fake.slash(ann, thread, "oska resign")
    assert refused(gone) == "This game is over: there is nothing to resign."


async def test_out_of_time_and_a_busy_channel(table: Table) -> None:
    fake, ann, carol = table.fake, table.ann, table.carol
    _, board = await start_game(table, "oware", time="5m")
    assert "by <t:" in board.text  # the deadline, in the player's own time zone
    table.advance(timedelta(minutes=5, seconds=1))
    late = await fake.select(ann, board, "Pick a move", [options(board)[0]])
    assert refused(late) == "Time has run out for this move: the game is lost on time."

    owner = table.guild.owner
    turned = await fake.slash(owner, table.games, "kamen settings", threads=False)
    assert "Threads per game: off" in refused(turned)
    chat = table.guild.channel("chat")
    here, _ = await start_game(table, "lasca", channel=chat)
    assert here is chat
    busy = await fake.slash(carol, chat, "oska challenge", opponent=ann)
    assert refused(busy) == (
        "A game is already being played here: finish it, or play in another channel."
    )
    assert last_board(table, chat)
