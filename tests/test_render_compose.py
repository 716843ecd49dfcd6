"""Boards put together from cached patches (render/compose.py): the same picture whatever
was drawn before, patches that never overlap, and the review's board drawn over the very
pixels of the plain board."""

from __future__ import annotations

import random

import pytest
from PIL import ImageChops

import render
from games.base import GameState, Side
from games.registry import GAMES
from render.compose import Item, groups
from render.review import BoardLabels, better_move_image


def random_game(game: str, seed: int, plies: int) -> list[GameState]:
    """Every position of a seeded random game of at most `plies` moves."""
    rng = random.Random(seed)
    state = GAMES[game].new()
    seen = [state]
    while (legal := state.legal_moves()) and len(state.moves) < plies:
        state = state.play(rng.choice(legal))
        seen.append(state)
    return seen


@pytest.mark.parametrize("game", list(GAMES))
def test_a_board_is_the_same_whatever_was_drawn_before_it(game: str) -> None:
    positions = random_game(game, 7, 30)
    first = [render.board(state, hints=True) for state in positions]
    # Other boards in between fill the caches with other patches: other players, the
    # other side's view, another size, another language.
    for seed in (8, 9):
        for state in random_game(game, seed, 30):
            render.board(state, players=("Ann", "Bob"), perspective=Side.SECOND, locale="cs")
            render.board(state, size=400)
    again = [render.board(state, hints=True) for state in reversed(positions)]
    assert first == list(reversed(again))


def test_overlapping_items_become_one_patch_drawn_in_their_order() -> None:
    items = [
        Item((0, 0, 10, 10), ("a",)),
        Item((40, 40, 50, 50), ("alone",)),
        Item((20, 20, 30, 30), ("c",)),
        Item((5, 5, 15, 15), ("b",)),
        Item((14, 0, 22, 21), ("d",)),  # joins b, so a, and reaches c
        Item((90, 90, 120, 120), ("clipped",)),
    ]
    found = dict((whats, box) for box, whats in groups(items, 100, 100))
    assert found == {
        (("a",), ("c",), ("b",), ("d",)): (0, 0, 30, 30),
        (("alone",),): (40, 40, 50, 50),
        (("clipped",),): (90, 90, 100, 100),
    }


def test_patches_never_overlap() -> None:
    rng = random.Random(3)
    items = []
    for index in range(60):
        x, y = rng.randrange(0, 300), rng.randrange(0, 300)
        items.append(Item((x, y, x + rng.randrange(5, 40), y + rng.randrange(5, 40)), (index,)))
    boxes = [box for box, _ in groups(items, 320, 320)]
    for i, (a0, b0, a1, b1) in enumerate(boxes):
        for c0, d0, c1, d1 in boxes[i + 1 :]:
            assert not (a0 < c1 and c0 < a1 and b0 < d1 and d0 < b1)
    drawn = sorted(what for _, whats in groups(items, 320, 320) for what in whats)
    assert drawn == [(index,) for index in range(60)]


@pytest.mark.parametrize("game", list(GAMES))
def test_the_review_board_is_the_plain_board_where_nothing_is_marked(game: str) -> None:
    state = next(s for s in random_game(game, 5, 12)[::-1] if len(s.legal_moves()) >= 2)
    legal = state.legal_moves()
    labels = BoardLabels(f"Played: {legal[0]}", f"Better: {legal[-1]}")
    plain = render.frame(state).convert("RGB")
    review = better_move_image(state, legal[0], legal[-1], labels).convert("RGB")
    assert review.width == plain.width and review.height > plain.height
    board = review.crop((0, 0, plain.width, plain.height))
    changed = ImageChops.difference(board, plain).getbbox()
    assert changed is not None  # the marks
    marked = [
        render.centre(state, square)
        for move in (legal[0], legal[-1])
        for square in state.describe(move).path or state.describe(move).forfeited[:1]
    ]
    x0, y0, x1, y1 = changed
    # Everything that differs lies round the marked squares: the caption and the rest are
    # the plain board's own pixels.
    reach = 80
    assert min(x for x, _ in marked) - reach <= x0 and x1 <= max(x for x, _ in marked) + reach
    assert min(y for _, y in marked) - reach <= y0 and y1 <= max(y for _, y in marked) + reach
    caption = (0, 0, plain.width, 100)
    assert board.crop(caption).tobytes() == plain.crop(caption).tobytes()
