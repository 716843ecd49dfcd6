"""What the service's tests share: checking a refusal by its code and by its words."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import pytest

import words
from matches import FirstLegalMove, ManualClock, MatchError, MatchService
from matches.reviews import Reviewer
from matches.storage import Store
from store import store_for


@contextmanager
def refused(
    kind: type[MatchError], text: str | None = None, *, code: str | None = None, **params: Any
) -> Iterator[pytest.ExceptionInfo[MatchError]]:
    """Like `pytest.raises(kind, match=text)`, where `text` is searched in what the player
    reads (`words.explain`); `code` and `params`, when given, must be the error's."""
    with pytest.raises(kind) as caught:
        yield caught
    error = caught.value
    if text is not None:
        said = words.explain(error)
        assert re.search(text, said), f"{text!r} not in {said!r}"
    if code is not None:
        assert error.code == code, error
    for key, value in params.items():
        assert error.params.get(key) == value, error


# The service on a fresh database, with a clock the test moves and Kamen's first legal move.
Env = tuple[MatchService, ManualClock, Store]


@asynccontextmanager
async def service_on(
    url: str, bot_user_id: int, reviewer: Reviewer | None = None
) -> AsyncIterator[Env]:
    """The service on a fresh database at `url` (each engine in turn, with `store_url`),
    with `reviewer` making its reviews when given."""
    store = store_for(url)
    await store.open()
    clock = ManualClock()
    service = MatchService(
        store, bot_user_id=bot_user_id, picker=FirstLegalMove(), clock=clock,
        rng=random.Random(1), reviewer=reviewer,
    )  # fmt: skip
    try:
        yield service, clock, store
    finally:
        await store.close()
