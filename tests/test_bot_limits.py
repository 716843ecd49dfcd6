"""A person's own limits through the fake Discord, with the real bot: blocks, and who may
challenge them (`/kamen me block`, `unblock`, `settings challenges:`).

Ann blocks Bob: his challenge to her is refused privately, in words that do not
say it was a block (the words `challenges: nobody` gives anyone), nothing is
posted, and he cannot accept her open challenge; once she unblocks him his
challenge is posted. `nobody` refuses everyone; `role` lets members of the role
through and refuses the others. A tournament pairs Ann and Bob all the same.
Forgetting Ann takes her block with it.
"""

from __future__ import annotations

import pytest

from tests import bot_support
from tests.bot_support import SharedBot, Table, ephemeral_text, mentions
from tests.fake_discord import Message, User

pytestmark = pytest.mark.asyncio(loop_scope="module")

shared = bot_support.module_bot

REFUSED = (
    "That player isn't taking challenges right now. Challenge someone else, or make an open"
    " challenge (leave `opponent` empty) that anyone may accept."
)


def challenges_posted(table: Table) -> list[Message]:
    return [m for m in table.fake.messages(table.games) if "Accept" in str(m.components)]


async def refused_challenge(table: Table, challenger: User, opponent: User) -> str:
    """`challenger` challenges `opponent`: the private refusal; nothing public is posted."""
    before = len(table.fake.messages(table.games))
    reply = await table.fake.slash(challenger, table.games, "oska challenge", opponent=opponent)
    assert len(table.fake.messages(table.games)) == before
    return ephemeral_text(reply)


async def posted_challenge(table: Table, challenger: User, opponent: User | None) -> Message:
    chosen = {} if opponent is None else {"opponent": opponent}
    reply = await table.fake.slash(challenger, table.games, "oska challenge", chosen)
    assert reply.message is not None and not reply.ephemeral, reply.text
    return reply.message


async def test_a_block_refuses_without_saying_so_and_unblock_undoes_it(
    shared: SharedBot,
) -> None:
    async with shared.table() as table:
        fake, ann, bob, carol = table.fake, table.ann, table.bob, table.carol
        blocked = await fake.slash(ann, table.games, "kamen me block", user=bob)
        said = ephemeral_text(blocked)
        print("BLOCK:\n" + said)
        assert said == (
            f"Blocked <@{bob.id}>: their challenges to you are refused, without saying why, and"
            " they cannot accept yours. `/kamen me unblock user:` undoes it.\n"
            f"You block 1 person: <@{bob.id}>. `/kamen me unblock user:` undoes a block."
        )
        refusal = await refused_challenge(table, bob, ann)
        print("BLOCKED CHALLENGE:\n" + refusal)
        assert refusal == REFUSED
        # Her open challenge: Bob cannot accept it, Carol can.
        open_one = await posted_challenge(table, ann, None)
        accept = await fake.click(bob, open_one, "Accept")
        print("BLOCKED ACCEPT:\n" + ephemeral_text(accept))
        assert ephemeral_text(accept) == (
            "You can't accept this challenge. Challenge someone else, or make an open challenge"
            " of your own."
        )
        assert "Accept" in str(open_one.components)
        # Her settings list whom she blocks.
        settings = ephemeral_text(await fake.slash(ann, table.games, "kamen me settings"))
        print("SETTINGS:\n" + settings)
        assert "Anyone may challenge you." in settings
        assert f"You block 1 person: <@{bob.id}>." in settings
        unblocked = await fake.slash(ann, table.games, "kamen me unblock", user=bob)
        print("UNBLOCK:\n" + ephemeral_text(unblocked))
        assert ephemeral_text(unblocked) == (
            f"<@{bob.id}> is no longer blocked: their challenges reach you again.\n"
            "You block nobody."
        )
        offered = await posted_challenge(table, bob, ann)
        assert ann.id in mentions(offered.content)
        accepted = await fake.click(ann, offered, "Accept")
        assert accepted.type == 7
        # Yourself and Kamen cannot be blocked.
        themselves = await fake.slash(carol, table.games, "kamen me block", user=carol)
        assert ephemeral_text(themselves) == "You cannot block yourself."
        kamen = await fake.slash(carol, table.games, "kamen me block", user=fake.bot)
        assert ephemeral_text(kamen).startswith("Kamen cannot be blocked")


async def test_challenges_nobody_and_role(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake, ann, bob, carol = table.fake, table.ann, table.bob, table.carol
        nobody = await fake.slash(ann, table.games, "kamen me settings", challenges="nobody")
        print("NOBODY:\n" + ephemeral_text(nobody))
        assert "✅ Changed. Nobody may challenge you directly." in ephemeral_text(nobody)
        for challenger in (bob, carol):
            assert await refused_challenge(table, challenger, ann) == REFUSED
        # She still accepts open challenges.
        open_one = await posted_challenge(table, bob, None)
        assert (await fake.click(ann, open_one, "Accept")).type == 7

        league = fake.add_role(table.guild, "League")
        fake.give_role(table.guild, carol, league)
        by_role = await fake.slash(
            ann, table.games, "kamen me settings", challenges="role", role=league
        )
        print("ROLE:\n" + ephemeral_text(by_role))
        assert f"Only members of <@&{league.id}> may challenge you directly" in ephemeral_text(
            by_role
        )
        assert await refused_challenge(table, bob, ann) == REFUSED
        offered = await posted_challenge(table, carol, ann)
        assert (await fake.click(ann, offered, "Accept")).type == 7

        everyone = await fake.slash(ann, table.games, "kamen me settings", challenges="everyone")
        assert "✅ Changed. Anyone may challenge you." in ephemeral_text(everyone)
        await posted_challenge(table, bob, ann)


async def test_a_tournament_pairs_players_whatever_their_limits(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake, ann, bob, owner = table.fake, table.ann, table.bob, table.guild.owner
        await fake.slash(ann, table.games, "kamen me block", user=bob)
        await fake.slash(bob, table.games, "kamen me block", user=ann)
        for user in (ann, bob):
            await fake.slash(user, table.games, "kamen me settings", challenges="nobody")
        made = await fake.slash(
            owner, table.games, "tournament create", game="oska", format="round-robin",
            name="Cup",
        )  # fmt: skip
        assert made.message is not None and not made.ephemeral, made.text
        for user in (ann, bob):
            assert (await fake.click(user, made.message, "Join")).type == 7
        started = await fake.slash(owner, table.games, "tournament start")
        assert not started.ephemeral, started.text

        def board_thread() -> bool:
            return any(
                any(m.attachments for m in fake.messages(thread))
                for thread in fake.threads(table.games)
            )

        await fake.wait_for(board_thread, what="the tournament game's board")
        [thread] = fake.threads(table.games)
        starter = next(m for m in fake.messages(table.games) if m.id == thread.id)
        assert set(mentions(starter.content)[:2]) == {ann.id, bob.id}


async def test_forgetting_takes_the_block_with_it(shared: SharedBot) -> None:
    async with shared.table() as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        await fake.slash(ann, table.games, "kamen me block", user=bob)
        assert await refused_challenge(table, bob, ann) == REFUSED
        asked = await fake.slash(ann, table.games, "kamen me forget")
        assert asked.message is not None
        done = await fake.click(ann, asked.message, "Forget me")
        assert done.type == 7
        # Nothing of Ann's is kept: not her block either.
        await posted_challenge(table, bob, ann)
