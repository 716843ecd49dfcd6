"""An arena tournament through the fake Discord, with a real bot process.

A manager creates a five-minute arena; four players join; the manager starts
it. Two games open, each in a thread whose board pings both players. A player
whose game ends is paired again with a free player of the nearest score whom
they did not just play: the first two to finish wait for the other game, then
all four meet someone new. No new game starts in the
window's last two minutes; once the window has closed and every game has
ended, the upkeep pass finishes the arena and names the winner. Points follow
the arena's scoring: a win 2, a draw 1, a loss 0.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from store import open_store
from tests.bot_support import (
    Table,
    both_move_once,
    last_board,
    mentions,
    process_table,
    settle,
)
from tests.fake_discord import Channel, Message, User
from tests.test_bot_tournaments import create, signup_players, starter_of, wait_threads

NAME = "Blitz Arena"
TROPHY = "🏆"


def pairing_messages(table: Table) -> list[Message]:
    """The arena's "new pairings" messages in #games, oldest first."""
    head = f"**{NAME}** · new pairings:\n"
    return [m for m in table.fake.messages(table.games) if m.content.startswith(head)]


def pairs_told(message: Message) -> list[tuple[int, int]]:
    """The pairs a "new pairings" message lists, one bullet line each."""
    found = []
    for line in message.content.splitlines()[1:]:
        assert line.startswith("• ") and " \u2013 " in line, line
        first, second = mentions(line)
        found.append((first, second))
    return found


def pair_of(table: Table, thread: Channel) -> tuple[int, int]:
    """Who plays a thread's game: the first side, then the second."""
    first, second = mentions(starter_of(table, thread).content)[:2]
    return first, second


async def finish(
    table: Table, players: dict[int, User], thread: Channel, loser: int | None
) -> None:
    """Both players of the thread's game move once; then `loser` resigns (None: a draw)."""
    fake = table.fake
    first, second = (players[user_id] for user_id in pair_of(table, thread))
    await both_move_once(table, thread, first, second)
    if loser is None:
        await fake.slash(first, thread, "oska draw")
        await fake.slash(second, thread, "oska draw")
    else:
        asked = await fake.slash(players[loser], thread, "oska resign")
        assert asked.message is not None
        await fake.click(players[loser], asked.message, "Yes, resign")
    await fake.wait_for(lambda: "Game over" in last_board(table, thread).content, what="the end")


def standing_lines(message: Message) -> dict[int, str]:
    """Each player's line of a standings embed, by player."""
    lines = str(message.embeds[0]["description"]).splitlines()[1:]
    return {mentions(line)[0]: line for line in lines}


def check_pings(table: Table, players: dict[int, User], thread: Channel) -> None:
    """The thread's board pings both of its players, who are notified of it."""
    first, second = pair_of(table, thread)
    board = last_board(table, thread)
    assert board.content.startswith(f"<@{first}> <@{second}>: your game of **{NAME}**")
    for user_id in (first, second):
        assert board in table.fake.notifications(players[user_id])


@pytest.mark.asyncio
async def test_a_five_minute_arena_of_four_pairs_again_and_ends_after_its_window(
    tmp_path: Path,
) -> None:
    async with process_table(tmp_path) as table:
        fake, owner = table.fake, table.guild.owner
        people = [table.ann, table.bob, table.carol, fake.add_user("dan")]
        players = {user.id: user for user in people}

        signup = await create(table, owner, game="oska", format="arena", name=NAME, minutes=5)
        fields = {f["name"]: f["value"] for f in signup.embeds[0]["fields"]}
        assert fields["Game"] == "Oska" and fields["Format"] == "arena, 5 minutes"
        for user in people:
            joined = await fake.click(user, signup, "Join")
            assert joined.type == 7
        assert signup_players(signup) == ("Players (4)", [u.id for u in people])

        started = await fake.slash(owner, table.games, "tournament start")
        assert started.text.startswith(f"🏁 **{NAME}** has begun!")
        threads = await wait_threads(table, 2)
        await fake.wait_for(lambda: not signup.buttons, what="the sign-up closed")
        [told] = pairing_messages(table)
        first_pairs = pairs_told(told)
        assert sorted(first_pairs) == sorted(pair_of(table, t) for t in threads)
        assert sorted(u for pair in first_pairs for u in pair) == sorted(players)
        for thread in threads:
            check_pings(table, players, thread)

        # Game 1 ends: its players are free, the other two still play. A player is paired
        # with a free player of nearest score *whom they did not just play*: the two wait.
        one, two = threads
        a, b = pair_of(table, one)
        await finish(table, players, one, loser=b)
        assert table.bot is not None
        await table.bot.logged("is counted; 0 new pairings", 1)
        await settle(fake)
        assert len(fake.threads(table.games)) == 2 and len(pairing_messages(table)) == 1
        assert last_board(table, two).content.count("Game over") == 0  # still being played

        # Game 2 ends in a draw: all four are free, and each meets someone new, the
        # nearest score first: a (2 points) plays c or d (1 point), b (0) the other.
        c, d = pair_of(table, two)
        await finish(table, players, two, loser=None)
        threads = await wait_threads(table, 4)
        await fake.wait_for(lambda: len(pairing_messages(table)) == 2, what="new pairings")
        pairs_now = [frozenset(p) for p in pairs_told(pairing_messages(table)[1])]
        assert len(pairs_now) == 2
        assert frozenset((a, b)) not in pairs_now and frozenset((c, d)) not in pairs_now
        assert {frozenset(pair_of(table, t)) for t in threads[2:]} == set(pairs_now)
        [with_a] = [p for p in pairs_now if a in p]
        [rival] = with_a - {a}
        [other] = {c, d} - {rival}
        for thread in threads[2:]:
            check_pings(table, players, thread)
            assert not any(
                m.content.startswith(f"**{NAME}** · round") for m in fake.messages(table.games)
            )  # an arena's games are not numbered by rounds
        await settle(fake)
        standing = next(
            m
            for m in fake.messages(table.games)
            if m.embeds and m.embeds[0].get("title") == f"{NAME} · standings"
        )
        lines = standing_lines(standing)
        for user_id, points in {a: 2, b: 0, c: 1, d: 1}.items():
            assert f"<@{user_id}> **{points}** · 1 · " in lines[user_id], lines[user_id]
        assert standing.embeds[0]["footer"]["text"] == "under way"

        # 3½ minutes in: the window's last two minutes, so a game that ends now is not
        # followed by a new one, and the arena is not over either (one game still runs).
        table.advance(timedelta(minutes=3, seconds=30))
        game_of = {frozenset(pair_of(table, t)): t for t in threads[2:]}
        await finish(table, players, game_of[with_a], loser=rival)  # a wins again
        await table.bot.logged("is counted; 0 new pairings", 2)
        await settle(fake)
        assert len(fake.threads(table.games)) == 4
        assert len(pairing_messages(table)) == 2
        assert not any(m.content.startswith(TROPHY) for m in fake.messages(table.games))

        # Past the window (6 minutes in all): the last game ends and the arena with it.
        table.advance(timedelta(minutes=2, seconds=30))
        # A wait, not a signal: the upkeep's passes (every second here) leave no trace of
        # their own when there is nothing to do, and nothing is what this step checks.
        await settle(fake, quiet=1.5)
        assert not any(m.content.startswith(TROPHY) for m in fake.messages(table.games))
        await finish(table, players, game_of[frozenset((b, other))], loser=b)
        await fake.wait_for(
            lambda: any(m.content.startswith(TROPHY) for m in fake.messages(table.games)),
            what="the final standings",
        )
        await settle(fake)
        assert len(fake.threads(table.games)) == 4
        [final] = [m for m in fake.messages(table.games) if m.content.startswith(TROPHY)]
        assert final.content == f"🏆 **{NAME}** is over! The winner: <@{a}>."
        assert final in fake.notifications(players[a])
        lines = standing_lines(final)
        # Arena points: a win 2, a draw 1 (two wins in a row are not yet doubled).
        for user_id, points in {a: 4, other: 3, rival: 1, b: 0}.items():
            assert f"<@{user_id}> **{points}** · 2 · " in lines[user_id], lines[user_id]
        ranks = [mentions(line)[0] for line in lines.values()]
        assert ranks == [a, other, rival, b]
        await fake.wait_for(
            lambda: standing.embeds[0]["footer"]["text"] == "finished", what="standings final"
        )
        assert "The tournament is over." in signup.text

        # The stored pairings agree with what the players were shown.
        store = await open_store(table.database_url)
        try:
            [tournament] = await store.tournaments(table.guild.id)
            stored = await store.pairings(tournament.id)
        finally:
            await store.close()
        assert [frozenset((p.first_id, p.second_id)) for p in stored] == [
            frozenset(pair_of(table, t)) for t in fake.threads(table.games)
        ]
        # Who won each game (0: a draw), by its two players.
        winners = {
            frozenset((a, b)): a,
            frozenset((c, d)): 0,
            with_a: a,
            frozenset((b, other)): other,
        }
        for p in stored:
            assert p.second_id is not None
            winner = winners[frozenset((p.first_id, p.second_id))]
            assert p.score == (0.5 if not winner else 1.0 if winner == p.first_id else 0.0)
