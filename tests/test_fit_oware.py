"""Fitting the Oware weights to self-play: the samples say who won, the fit lowers the error."""

from __future__ import annotations

from games.ai import fit_oware, oware_eval, oware_game
from games.ai.fit_oware import Sample, error, fit, fit_scale, named, ordered, self_play
from games.oware import OwareState
from games.registry import GAMES


def test_a_self_play_game_gives_quiet_positions_with_its_result_for_each_side() -> None:
    found = self_play(3)
    assert len(found) > 20
    assert all(sample.result in (0.0, 0.5, 1.0) for sample in found)
    # A position of the opening (both rows alike but for a few seeds, no
    # store yet) and the game's result: one side's win, the other's loss.
    assert found[0].features[0] == 0 and found[0].features[-1] == 1
    assert len({min(sample.result, 1 - sample.result) for sample in found}) == 1


def test_the_features_by_the_weights_are_the_evaluation() -> None:
    state = GAMES["oware"].new("")
    for move in ("A", "f", "B", "e", "C", "d", "D"):
        state = state.play(move)
        assert isinstance(state, OwareState)
        pos = oware_game.from_state(state)
        features = oware_eval.features(pos)
        total = sum(w * f for w, f in zip(oware_eval.WEIGHTS, features, strict=True))
        assert total == oware_eval.evaluate(pos)


def test_the_fit_lowers_the_error_from_weights_set_wrong() -> None:
    data = [s for seed in (1, 2, 3, 4) for s in self_play(seed)]
    wrong = {**named(oware_eval.WEIGHTS), "row_seed": 80, "tempo": 60}
    scale = fit_scale(wrong, data)
    found = fit(wrong, data, scale, rounds=2)
    assert error(found, data, scale) < error(wrong, data, scale)
    assert found["row_seed"] < 80 or found["tempo"] < 60
    assert all(found[name] >= 0 for name in fit_oware.STEPS)
    assert found["store"] == 100  # the unit stays
    assert len(ordered(found)) == len(oware_eval.WEIGHTS)


def test_an_evaluation_that_names_the_winner_has_less_error() -> None:
    # Ten seeds more in the store of the side to move, who won.
    won = [Sample((10, 0, 0, 0, 0, 1), 1.0)]
    blind = {**named(oware_eval.WEIGHTS), "store": 0}
    assert error(named(oware_eval.WEIGHTS), won, 300) < error(blind, won, 300)
