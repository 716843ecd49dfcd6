"""Rematch: a finished game has one live rematch at a time, on both backends.

The race is made certain: the second press is written whole just before the first
one's write (both having checked, and found no rematch yet), as two interactions
handled at the same moment are.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

import pytest

import words
from matches import (
    ChallengeRepeated,
    FirstLegalMove,
    GameView,
    ManualClock,
    MatchService,
    Status,
)
from matches.storage import Store
from tests import store_support

GUILD, CHANNEL = 1, 10
ALICE, BOB, KAMEN = 100, 200, 999

store_url, store = store_support.store_url, store_support.any_store


def service_on(store: Store) -> MatchService:
    return MatchService(
        store, bot_user_id=KAMEN, picker=FirstLegalMove(), clock=ManualClock(),
        rng=random.Random(7),
    )  # fmt: skip


async def finished(service: MatchService, opponent: int, channel: int = CHANNEL) -> GameView:
    """A game of Oska between Alice and `opponent` (Kamen or Bob), which Alice resigned."""
    view = await service.challenge(
        guild_id=GUILD, channel_id=channel, challenger_id=ALICE, game="oska",
        opponent_id=opponent, time="1h", first="challenger",
        level="easy" if opponent == KAMEN else None, rated=opponent != KAMEN,
    )  # fmt: skip
    if opponent != KAMEN:
        view = await service.accept(view.id, opponent)
    over = await service.resign(ALICE, game_id=view.id)
    assert over.status is Status.FINISHED
    return over


def rematch(service: MatchService, old: GameView, user: int, channel: int) -> Awaitable[GameView]:
    """The Rematch button's challenge (bot/challenges.py): the other player, the sides
    swapped, the same rules."""
    assert old.players is not None
    first, second = old.players
    return service.challenge(
        guild_id=GUILD, channel_id=channel, challenger_id=user,
        opponent_id=second if user == first else first, game="oska", time="1h",
        first="opponent" if user == first else "challenger", level=old.ai_level,
        rated=old.row.rated, rematch_of=old.id,
    )  # fmt: skip


def before_next_game(store: Store, other: Callable[[], Awaitable[object]]) -> None:
    """The store's next new game is written second: `other` runs whole just before it."""
    real = store.create_game

    async def racing(*args: object, **kwargs: object) -> object:
        store.create_game = real  # type: ignore[method-assign]
        await other()
        return await real(*args, **kwargs)  # type: ignore[arg-type]

    store.create_game = racing  # type: ignore[method-assign, assignment]


async def pressed_twice(
    service: MatchService, store: Store, old: GameView, first: int, second: int
) -> tuple[GameView, ChallengeRepeated]:
    """`first` and `second` press Rematch at once (new threads, as the bot makes them):
    the one written first, and what the other was told."""
    made: list[GameView] = []

    async def other_press() -> None:
        made.append(await rematch(service, old, second, 21))

    before_next_game(store, other_press)
    with pytest.raises(ChallengeRepeated) as refused:
        await rematch(service, old, first, 20)
    [winner] = made
    return winner, refused.value


async def live_rematches(service: MatchService, old: GameView) -> list[int]:
    views = await service.open_games_of(ALICE)
    return [v.id for v in views if v.row.rematch_of == old.id]


async def test_rematch_pressed_twice_at_once_posts_one_challenge(store: Store) -> None:
    service = service_on(store)
    old = await finished(service, BOB)
    made, refused = await pressed_twice(service, store, old, ALICE, ALICE)
    assert made.status is Status.CHALLENGE and made.row.rematch_of == old.id
    assert refused.code == "match.challenge-repeated" and refused.params["id"] == made.id
    assert words.explain(refused) == (
        f"You already made this same challenge (game #{made.id}): it is still open."
    )
    assert await live_rematches(service, old) == [made.id]


async def test_rematch_pressed_by_both_players_at_once_posts_one_challenge(store: Store) -> None:
    service = service_on(store)
    old = await finished(service, BOB)
    made, refused = await pressed_twice(service, store, old, ALICE, BOB)
    assert made.row.challenger_id == BOB  # Bob's landed first: Alice is shown his
    assert refused.code == "match.rematch-exists"
    assert words.explain(refused) == f"Game #{old.id} already has its rematch: game #{made.id}."
    assert refused.params["channel_id"] == made.channel_id
    assert await live_rematches(service, old) == [made.id]
    # Declined, it is over: Rematch may be asked for again.
    await service.decline(made.id, ALICE)
    again = await rematch(service, old, ALICE, 22)
    assert await live_rematches(service, old) == [again.id]


async def test_rematch_against_kamen_pressed_twice_starts_one_game(store: Store) -> None:
    service = service_on(store)
    old = await finished(service, KAMEN)
    made, refused = await pressed_twice(service, store, old, ALICE, ALICE)
    assert made.status is Status.ACTIVE and made.row.rematch_of == old.id
    assert refused.code == "match.rematch-exists" and refused.params["id"] == made.id
    assert [v.id for v in await service.open_games_of(ALICE)] == [made.id]
