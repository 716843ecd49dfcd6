"""What the service's tests share: checking a refusal by its code and by its words."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import words
from matches import MatchError


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
