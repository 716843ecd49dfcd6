"""The AI's bare-tuple positions against the engines, on seeded random games.

The search and the Oska solver run the engines' module functions on bare
positions instead of engine states; here every position of random games of
every variant is compared: the legal moves, the position after each move, and
who won at the end.
"""

from __future__ import annotations

import random

import pytest

from games import lasca, oska, oware
from games.ai import lasca_game, oska_game, oware_game
from games.ai.search import WIN
from games.base import GameState, Variant
from games.registry import GAMES

GAMES_PER_VARIANT = 6


def variants(name: str) -> list[object]:  # pytest params
    return [pytest.param(v, id=str(v) or "default") for v in GAMES[name].all_variants()]


def expected_score(state: GameState) -> int:
    outcome = state.outcome()
    assert outcome is not None
    if outcome.winner is None:
        return 0
    return WIN if outcome.winner == state.to_move else -WIN


@pytest.mark.parametrize("variant", variants("oware"))
def test_oware_positions_follow_the_engine(variant: Variant) -> None:
    rng = random.Random(7)
    for _ in range(GAMES_PER_VARIANT):
        state = oware.start(variant)
        rules = oware_game.OwareRules.of(state)
        game = oware_game.OwareGame(rules, lambda pos: 0)
        pos = oware_game.from_state(state)
        while True:
            score, moves = game.expand(pos)
            legal = state.legal_moves()
            assert [game.text(pos, m) for m in sorted(moves)] == list(legal)
            if not legal:
                assert score == expected_score(state)
                break
            # Prefer small pits now and then, so that positions repeat.
            move = rng.choice(legal[:2] if rng.random() < 0.3 else legal)
            state = state.play(move)
            pos = game.play(pos, "ABCDEFabcdef".index(move))
            assert pos.pits == state.pits
            assert pos.stores == state.stores
            assert pos.side == int(state.to_move)
            assert pos.obliged == state.obliged
            assert pos.hist == state.history
            assert pos.ending == state.ending


@pytest.mark.parametrize("variant", variants("lasca"))
def test_lasca_positions_follow_the_engine(variant: Variant) -> None:
    rng = random.Random(11)
    for _ in range(GAMES_PER_VARIANT):
        state = lasca.start(variant)
        game = lasca_game.LascaGame(variant["promotion"] == "continues", lambda pos: 0)
        pos = lasca_game.from_state(state)
        while True:
            score, moves = game.expand(pos)
            legal = state.legal_moves()
            assert sorted(moves) == sorted(legal)
            if not legal:
                assert score == expected_score(state)
                break
            move = rng.choice(legal)
            state = state.play(move)
            pos = game.play(pos, move)
            assert pos.board == state.board
            assert pos.side == int(state.to_move)
            assert pos.quiet == state.quiet_moves
            assert pos.seen == state.seen


@pytest.mark.parametrize("variant", variants("oska"))
def test_oska_positions_follow_the_engine(variant: Variant) -> None:
    rng = random.Random(3)
    mode, elimination = oska_game.rules_of(variant)
    game = oska_game.OskaGame(mode, elimination, oska_game.material)
    for _ in range(30):
        state = oska.start(variant)
        pos = oska_game.from_state(state)
        while True:
            score, moves = game.expand(pos)
            legal = state.legal_moves()
            assert list(moves) == list(legal)
            if not legal:
                assert score == expected_score(state)
                break
            move = rng.choice(legal)
            state = state.play(move)
            pos = game.play(pos, move)
            assert (pos.blue, pos.red, pos.side) == oska_game.masks(state)
            assert pos.pending == oska_game.pending_of(state)
