"""Seeded random games of every game under every variant, checking invariants.

For each position on the way: the legal moves are empty exactly when the game
is over; every state knows its game; every legal move plays and its text
round-trips; the game-specific invariant holds (48 seeds in Oware, 22 pieces
in Lasca, Oska stones only go forward). At the end: the outcome is a
`Termination` that words can say, replaying the move list rebuilds an equal
state, and the record exported and read back gives the same game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import pairwise

import pytest

import words
from games.base import GameState, Side, Termination, Variant
from games.record import load, record_of
from games.registry import GAMES

GAMES_PER_VARIANT = 10
MAX_PLIES = 3000

LASCA_SQUARES = [
    f"{file}{rank}"
    for rank in range(1, 8)
    for index, file in enumerate("abcdefg", start=1)
    if index % 2 == rank % 2
]


def oware_holds_48_seeds(before: GameState, move: str, after: GameState) -> None:
    assert sum(after.pits) + sum(after.stores) == 48  # type: ignore[attr-defined]


def lasca_keeps_22_pieces(before: GameState, move: str, after: GameState) -> None:
    assert sum(len(after.column(square)) for square in LASCA_SQUARES) == 22  # type: ignore[attr-defined,misc]


def oska_stones_only_go_forward(before: GameState, move: str, after: GameState) -> None:
    """Read from the boards themselves: the mover's stone that arrived stands further
    forward than the one that left, and no other stone of the mover moved; the
    opponent loses the stones jumped and, under huff-opponent, the one removed
    (one of those it forfeited), nothing else."""
    mover = before.to_move
    forward = 1 if mover is Side.FIRST else -1
    was = set(before.stones(mover))  # type: ignore[attr-defined]
    now = set(after.stones(mover))  # type: ignore[attr-defined]
    theirs_was = set(before.stones(mover.other))  # type: ignore[attr-defined]
    theirs_now = set(after.stones(mover.other))  # type: ignore[attr-defined]
    left, arrived = was - now, now - was
    info = before.describe(move)
    removed = set(info.forfeited) if ":" in move else set()
    forfeited = set(info.forfeited) - removed
    assert removed <= set(before.forfeitable()), move  # type: ignore[attr-defined]
    assert theirs_was - theirs_now == removed | set(info.captured), move
    assert theirs_now <= theirs_was, move
    if not info.path:  # a pass, or a removal alone (`a1:`, `a1:pass`)
        assert (left, arrived) == (set(), set())
        return
    landed = info.path[-1]
    assert arrived == {landed} - forfeited, move
    assert left == {info.path[0]} | (forfeited - {landed}), move
    rows = [int(square[1]) for square in info.path]
    assert all((b - a) * forward > 0 for a, b in pairwise(rows)), move


INVARIANTS: dict[str, Callable[[GameState, str, GameState], None]] = {
    "oware": oware_holds_48_seeds,
    "lasca": lasca_keeps_22_pieces,
    "oska": oska_stones_only_go_forward,
}

CASES = [
    pytest.param(name, variant, id=f"{name}-{variant or 'default'}")
    for name, spec in GAMES.items()
    for variant in spec.all_variants()
]


@pytest.mark.parametrize(("name", "variant"), CASES)
def test_random_games_keep_every_invariant(name: str, variant: Variant) -> None:
    spec = GAMES[name]
    invariant = INVARIANTS[name]
    for seed in range(GAMES_PER_VARIANT):
        rng = random.Random(f"{name}/{variant}/{seed}")
        state = spec.start(variant)
        for _ in range(MAX_PLIES):
            legal = state.legal_moves()
            assert (not legal) == (state.outcome() is not None)
            assert state.spec is spec
            if not legal:
                break
            for move in legal:
                assert state.parse_move(move) == move
                assert state.describe(move).text == move
                after = state.play(move)
                assert after.moves == (*state.moves, move)
                invariant(state, move, after)
            state = state.play(rng.choice(legal))
        else:
            pytest.fail(f"{name} game {seed} did not end in {MAX_PLIES} plies")

        outcome = state.outcome()
        assert outcome is not None and isinstance(outcome.reason, Termination)
        assert words.outcome_text(outcome, name)

        replayed = spec.replay(variant, state.moves)
        assert replayed == state
        assert replayed.spec is spec
        assert replayed.to_text() == state.to_text()

        record = record_of(spec, state, site="Test #games", first="Ann", second="Bob")
        loaded, loaded_state = load(record.to_text())
        assert loaded == record
        assert loaded_state == state
        assert loaded.to_text() == record.to_text()


@pytest.mark.parametrize("name", list(GAMES))
def test_text_form_round_trips_along_a_game(name: str) -> None:
    spec = GAMES[name]
    rng = random.Random(name)
    state = spec.new()
    while legal := state.legal_moves():
        text = state.to_text()
        assert spec.from_text(text, state.variant).to_text() == text
        state = state.play(rng.choice(legal))


def test_play_leaves_the_state_it_was_called_on_unchanged() -> None:
    for spec in GAMES.values():
        state = spec.new()
        text, legal = state.to_text(), state.legal_moves()
        state.play(legal[0])
        assert state.to_text() == text
        assert state.legal_moves() == legal
        assert state.moves == ()
