"""A person's own limits, on SQLite and PostgreSQL: blocks, and who may challenge them.

Alice blocks Bob: his challenges to her are refused with the same words as
`challenges: nobody` (he cannot tell a block), in every server and by every
path that names her (a challenge, a rematch, an import against her); he cannot
accept her challenges, open ones included; her unblock undoes it. `role` lets
only members of the role challenge her directly; `nobody` nobody, while she
still accepts open challenges. Kamen's own pairings (a tournament) are never
refused. Blocking oneself or Kamen, or past the limit, is refused.
"""

from __future__ import annotations

import random

import pytest

import words
from matches import (
    BadInput,
    ChallengesFrom,
    FirstLegalMove,
    GameView,
    ManualClock,
    MatchService,
    NotTakingChallenges,
    Status,
)
from matches.limits import MAX_BLOCKS
from matches.storage import Store
from tests import store_support
from tests.matches_support import refused

GUILD, OTHER_GUILD, CHANNEL = 1, 2, 10
ALICE, BOB, CAROL, DAVE, KAMEN = 100, 200, 300, 400, 999
LEAGUE_ROLE, OTHER_ROLE = 5000, 5001
STUDY = '[Game "Oska"]\n\n1. e1-f2 e5-d4 *\n'
REFUSED = "That player isn't taking challenges right now"

store_url, store = store_support.store_url, store_support.any_store


@pytest.fixture
def service(store: Store) -> MatchService:
    return MatchService(
        store, bot_user_id=KAMEN, picker=FirstLegalMove(), clock=ManualClock(),
        rng=random.Random(3),
    )  # fmt: skip


_channels = iter(range(CHANNEL, CHANNEL + 10_000))


async def challenge(
    service: MatchService,
    challenger: int,
    opponent: int | None,
    *,
    guild: int = GUILD,
    roles: tuple[int, ...] = (),
    rematch_of: int | None = None,
) -> GameView:
    return await service.challenge(
        guild_id=guild, channel_id=next(_channels), challenger_id=challenger, game="oska",
        opponent_id=opponent, first="challenger", challenger_roles=roles, rematch_of=rematch_of,
    )  # fmt: skip


async def test_a_blocked_persons_challenges_are_refused_in_words_that_do_not_say_so(
    service: MatchService,
) -> None:
    assert await service.limits.block(ALICE, BOB) == [BOB]
    with refused(NotTakingChallenges, REFUSED, code="match.not-taking-challenges") as caught:
        await challenge(service, BOB, ALICE)
    said = words.explain(caught.value)
    assert "block" not in said.lower()
    # Exactly what `challenges: nobody` says to anyone.
    await service.limits.set_challenges(CAROL, "nobody", None)
    with refused(NotTakingChallenges) as nobody:
        await challenge(service, DAVE, CAROL)
    assert words.explain(nobody.value) == said
    # In another server too, and by an import against her; a study alone is his own.
    with refused(NotTakingChallenges, REFUSED):
        await challenge(service, BOB, ALICE, guild=OTHER_GUILD)
    with refused(NotTakingChallenges, REFUSED):
        await service.import_record(
            guild_id=GUILD, channel_id=next(_channels), user_id=BOB, text=STUDY, opponent_id=ALICE
        )
    study = await service.import_record(
        guild_id=GUILD, channel_id=next(_channels), user_id=BOB, text=STUDY
    )
    assert study.status is Status.ACTIVE
    # Others still challenge her; she may still challenge him (he cannot accept: below).
    assert (await challenge(service, CAROL, ALICE)).status is Status.CHALLENGE
    assert (await challenge(service, ALICE, BOB)).status is Status.CHALLENGE


async def test_a_blocked_person_cannot_accept_the_blockers_challenges(
    service: MatchService,
) -> None:
    direct = await challenge(service, ALICE, BOB)
    anyone = await challenge(service, ALICE, None)
    await service.limits.block(ALICE, BOB)
    for offered in (direct, anyone):
        with refused(
            NotTakingChallenges, "You can't accept this challenge", code="match.cannot-accept"
        ):
            await service.may_accept(offered.id, BOB)
        with refused(NotTakingChallenges, code="match.cannot-accept"):
            await service.accept(offered.id, BOB)
        assert (await service.view(game_id=offered.id)).status is Status.CHALLENGE
    assert (await service.accept(anyone.id, CAROL)).status is Status.ACTIVE
    # Alice may accept Bob's open challenge: the block is hers, to use as she likes.
    his = await challenge(service, BOB, None)
    assert (await service.accept(his.id, ALICE)).status is Status.ACTIVE


async def test_unblocking_lets_the_challenges_through_again(service: MatchService) -> None:
    await service.limits.block(ALICE, BOB)
    await service.limits.block(ALICE, CAROL)
    assert await service.limits.blocks(ALICE) == [BOB, CAROL]
    assert await service.limits.unblock(ALICE, BOB) == [CAROL]
    offered = await challenge(service, BOB, ALICE)
    assert (await service.accept(offered.id, ALICE)).status is Status.ACTIVE
    with refused(BadInput, "You don't block them", code="limits.unblock.not-blocked"):
        await service.limits.unblock(ALICE, BOB)
    # Blocking twice is one block.
    assert await service.limits.block(ALICE, CAROL) == [CAROL]


async def test_a_rematch_is_refused_like_any_challenge(service: MatchService) -> None:
    offered = await challenge(service, ALICE, BOB)
    game = await service.accept(offered.id, BOB)
    over = await service.resign(ALICE, game_id=game.id)
    await service.limits.block(ALICE, BOB)
    with refused(NotTakingChallenges, REFUSED):
        await challenge(service, BOB, ALICE, rematch_of=over.id)


async def test_role_lets_only_members_of_the_role_challenge_directly(
    service: MatchService,
) -> None:
    mine = await service.limits.set_challenges(ALICE, "role", LEAGUE_ROLE)
    assert (mine.challenges, mine.challenge_role_id) == (ChallengesFrom.ROLE, LEAGUE_ROLE)
    assert (await challenge(service, BOB, ALICE, roles=(OTHER_ROLE, LEAGUE_ROLE))).id
    with refused(NotTakingChallenges, REFUSED):
        await challenge(service, CAROL, ALICE, roles=(OTHER_ROLE,))
    with refused(NotTakingChallenges, REFUSED):
        await challenge(service, CAROL, ALICE)
    # A member of the role she blocks is refused all the same.
    await service.limits.block(ALICE, DAVE)
    with refused(NotTakingChallenges, REFUSED):
        await challenge(service, DAVE, ALICE, roles=(LEAGUE_ROLE,))
    # `everyone` again keeps the role for later; `role` alone takes it back.
    assert (await service.limits.set_challenges(ALICE, "everyone", None)).challenge_role_id == (
        LEAGUE_ROLE
    )
    assert (await challenge(service, CAROL, ALICE)).id
    again = await service.limits.set_challenges(ALICE, "role", None)
    assert (again.challenges, again.challenge_role_id) == (ChallengesFrom.ROLE, LEAGUE_ROLE)


async def test_nobody_refuses_every_direct_challenge_but_open_ones_stay(
    service: MatchService,
) -> None:
    await service.limits.set_challenges(ALICE, "nobody", None)
    for who, roles in ((BOB, ()), (CAROL, (LEAGUE_ROLE,))):
        with refused(NotTakingChallenges, REFUSED):
            await challenge(service, who, ALICE, roles=roles)
    # She accepts an open challenge, makes her own, and plays Kamen.
    anyone = await challenge(service, BOB, None)
    assert (await service.accept(anyone.id, ALICE)).status is Status.ACTIVE
    mine = await challenge(service, ALICE, None)
    assert (await service.accept(mine.id, CAROL)).status is Status.ACTIVE
    kamen = await service.challenge(
        guild_id=GUILD, channel_id=next(_channels), challenger_id=ALICE, game="oska",
        opponent_id=KAMEN, level="easy",
    )  # fmt: skip
    assert kamen.status is Status.ACTIVE


async def test_kamens_pairings_are_never_refused(service: MatchService) -> None:
    """A tournament pairs Alice with Bob, whom she blocks, though she takes no challenges."""
    await service.limits.block(ALICE, BOB)
    await service.limits.block(BOB, ALICE)
    await service.limits.set_challenges(ALICE, "nobody", None)
    await service.limits.set_challenges(BOB, "nobody", None)
    made = await service.tournaments.create(
        guild_id=GUILD, channel_id=CHANNEL, by=CAROL, game="oska", format="round-robin",
        name="Cup",
    )  # fmt: skip
    for user in (ALICE, BOB):
        await service.tournaments.join(GUILD, made.id, user)
    await service.tournaments.start(GUILD, made.id)
    [pairing] = await service.tournaments.pairings(made.id)
    game = await service.tournaments.start_game(pairing.id, made.id, CHANNEL + 1)
    assert game is not None and game.status is Status.ACTIVE
    assert set(game.players or ()) == {ALICE, BOB}


async def test_blocking_oneself_or_kamen_or_too_many_is_refused(service: MatchService) -> None:
    with refused(BadInput, "You cannot block yourself", code="limits.block.yourself"):
        await service.limits.block(ALICE, ALICE)
    with refused(BadInput, "Kamen cannot be blocked", code="limits.block.kamen"):
        await service.limits.block(ALICE, KAMEN)
    for number in range(MAX_BLOCKS):
        await service.limits.block(ALICE, 10_000 + number)
    with refused(BadInput, f"You already block {MAX_BLOCKS} people", code="limits.block.full"):
        await service.limits.block(ALICE, BOB)
    assert len(await service.limits.blocks(ALICE)) == MAX_BLOCKS
    assert await service.limits.block(ALICE, 10_000) == await service.limits.blocks(ALICE)
    assert await service.limits.blocks(BOB) == []


async def test_a_role_needs_challenges_role(service: MatchService) -> None:
    with refused(BadInput, "needs the role too", code="limits.challenges.no-role"):
        await service.limits.set_challenges(ALICE, "role", None)
    with refused(BadInput, "goes only with `challenges: role`"):
        await service.limits.set_challenges(ALICE, "nobody", LEAGUE_ROLE)
    with refused(BadInput, code="limits.challenges.bad"):
        await service.limits.set_challenges(ALICE, "friends", None)
    assert (await service.limits.set_challenges(ALICE, None, LEAGUE_ROLE)).challenges is (
        ChallengesFrom.ROLE
    )
    assert (await service.user_settings(ALICE)).challenge_role_id == LEAGUE_ROLE
