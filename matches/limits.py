"""A person's own limits: whom they block, and who may challenge them directly.

Both are the person's own, across every server (like their language): a
block is of one person (`/kamen me block user:`), kept until undone, at most
`MAX_BLOCKS` of them; `challenges` (`/kamen me settings challenges:`) is
`everyone`, `role` (only members of one role, so only in that role's
server: elsewhere nobody) or `nobody`.

`Limits.may_challenge` is the one check, made wherever a challenge names its
opponent (`matches.challenges`: `/challenge`, Rematch, an import against
someone): a challenge the opponent's limits refuse is refused with one
sentence for every reason (`NotTakingChallenges`), so that a blocked person
cannot tell a block from `nobody` or a role they lack. `may_accept` refuses a
blocked person the challenges of the one who blocks them, open ones too. An
open challenge stays acceptable by anyone not blocked, and a person who takes
no challenges may still accept others'. Kamen's own games (tournament
pairings, a game against Kamen) never pass through these checks: Kamen pairs,
it does not challenge.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection

from matches.errors import BadInput, NotTakingChallenges
from matches.inputs import snowflake
from matches.ledger import Ledger
from matches.records import ChallengesFrom, UserSettings

MAX_BLOCKS = 100  # the most people one person may block at once


class Limits:
    """Blocks and who may challenge whom, on the ledger's store."""

    def __init__(self, ledger: Ledger, *, bot_user_id: int | None = None) -> None:
        self.ledger = ledger
        self.bot_user_id = bot_user_id

    # ---------------------------------------------------------------- blocks

    async def blocks(self, user_id: int) -> list[int]:
        """The people the user blocks, in the order they blocked them."""
        return await self.ledger.store.blocks_of(snowflake(user_id, "user"))

    async def block(self, user_id: int, other_id: int) -> list[int]:
        """The user blocks `other_id`; whom they block now. Themselves and Kamen are refused,
        and a new block past `MAX_BLOCKS`."""
        user, other = snowflake(user_id, "user"), snowflake(other_id, "user")
        if other == user:
            raise BadInput("limits.block.yourself")
        if other == self.bot_user_id:
            raise BadInput("limits.block.kamen")
        store = self.ledger.store
        if not await store.block(user, other, self.ledger.clock(), MAX_BLOCKS):
            raise BadInput("limits.block.full", most=MAX_BLOCKS)
        return await store.blocks_of(user)

    async def unblock(self, user_id: int, other_id: int) -> list[int]:
        """The user no longer blocks `other_id`; whom they block now. Refused (naming no one)
        when they did not block them."""
        user, other = snowflake(user_id, "user"), snowflake(other_id, "user")
        store = self.ledger.store
        if not await store.unblock(user, other):
            raise BadInput("limits.unblock.not-blocked")
        return await store.blocks_of(user)

    # ---------------------------------------------------------------- who may challenge

    async def set_challenges(
        self, user_id: int, challenges: str | None, role_id: int | None
    ) -> UserSettings:
        """Who may challenge the user directly: `everyone`, `nobody`, or `role` with a role
        (a role alone means `role`; `role` alone keeps the role chosen before)."""
        current = await self.ledger.store.user_settings(snowflake(user_id, "user"))
        role = None if role_id is None else snowflake(role_id, "role")
        if challenges is None:
            if role is None:
                return current
            chosen = ChallengesFrom.ROLE
        else:
            try:
                chosen = ChallengesFrom(challenges)
            except ValueError:
                allowed = [str(choice) for choice in ChallengesFrom]
                raise BadInput("limits.challenges.bad", given=challenges, allowed=allowed) from None
        if chosen is ChallengesFrom.ROLE:
            role = role if role is not None else current.challenge_role_id
            if role is None:
                raise BadInput("limits.challenges.no-role")
        elif role is not None:
            raise BadInput("limits.challenges.role-without-role", challenges=str(chosen))
        else:
            role = current.challenge_role_id  # kept for a later `challenges: role`
        settings = dataclasses.replace(current, challenges=chosen, challenge_role_id=role)
        return await self.ledger.store.save_user_settings(settings, self.ledger.clock())

    async def may_challenge(
        self, challenger_id: int, opponent_id: int, challenger_roles: Collection[int]
    ) -> None:
        """Refuse (`NotTakingChallenges`, the same words for every reason) a challenge the
        opponent's limits do not allow; `challenger_roles`: the challenger's roles in the
        server the challenge is made in."""
        if self.bot_user_id in (challenger_id, opponent_id):
            return  # Kamen neither blocks nor is blocked
        store = self.ledger.store
        settings = await store.user_settings(opponent_id)
        if settings.challenges is ChallengesFrom.NOBODY:
            allowed = False
        elif settings.challenges is ChallengesFrom.ROLE:
            allowed = settings.challenge_role_id in set(challenger_roles)
        else:
            allowed = True
        if not allowed or await store.blocks(opponent_id, challenger_id):
            raise NotTakingChallenges()

    async def may_accept(self, challenger_id: int, acceptor_id: int) -> None:
        """Refuse a person blocked by the challenger their challenge, open or not."""
        if await self.ledger.store.blocks(challenger_id, acceptor_id):
            raise NotTakingChallenges("match.cannot-accept")
