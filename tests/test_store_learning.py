"""Reviews kept per game and puzzle answers per player and server, on both backends."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from matches.storage import Store
from tests import store_support
from tests.store_support import NOW

store_url, store = store_support.store_url, store_support.any_store


async def test_a_review_is_kept_once_and_read_back(store: Store) -> None:
    assert await store.review(7) is None
    await store.save_review(7, '{"moves": 3}', NOW)
    # A second review of the same game (another process, the same moment) leaves the first.
    await store.save_review(7, '{"moves": 4}', NOW + timedelta(seconds=1))
    assert await store.review(7) == '{"moves": 3}'
    assert await store.review(8) is None
    # The deep review takes the quick one's place.
    await store.save_review(7, '{"deep": true}', NOW + timedelta(seconds=2), replace=True)
    assert await store.review(7) == '{"deep": true}'
    await store.save_review(
        9, '{"deep": true}', NOW, replace=True
    )  # no quick one: kept all the same
    assert await store.review(9) == '{"deep": true}'


async def test_the_first_answer_to_a_puzzle_is_the_one_that_counts(store: Store) -> None:
    assert await store.answer_puzzle(1, 10, "oska:a1", False, NOW)
    assert not await store.answer_puzzle(1, 10, "oska:a1", True, NOW)  # too late to count
    assert await store.answer_puzzle(1, 10, "oware:b2", True, NOW)
    assert await store.answer_puzzle(1, 11, "oska:a1", True, NOW)  # another player
    assert await store.answer_puzzle(2, 10, "oska:a1", True, NOW)  # another server
    assert await store.puzzles_answered(1, 10) == {"oska:a1": False, "oware:b2": True}
    assert await store.puzzles_answered(2, 10) == {"oska:a1": True}
    assert await store.puzzles_answered(3, 10) == {}


async def test_two_answers_at_once_count_once(store: Store) -> None:
    firsts = await asyncio.gather(
        *(store.answer_puzzle(1, 10, "lasca:c3", k % 2 == 0, NOW) for k in range(6))
    )
    assert firsts.count(True) == 1
    assert len(await store.puzzles_answered(1, 10)) == 1


async def test_forgetting_a_player_forgets_their_puzzle_answers(store: Store) -> None:
    await store.answer_puzzle(1, 10, "oska:a1", True, NOW)
    await store.answer_puzzle(1, 11, "oska:a1", True, NOW)
    assert await store.forget_user(10) is not None
    assert await store.puzzles_answered(1, 10) == {}
    assert await store.puzzles_answered(1, 11) == {"oska:a1": True}
