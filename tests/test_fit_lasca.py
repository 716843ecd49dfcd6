"""Fitting the Lasca weights to self-play: the samples say who won, the fit lowers the error."""

from __future__ import annotations

import dataclasses

from games import lasca as engine
from games.ai import fit_lasca, lasca_game
from games.ai.fit_lasca import Sample, error, fit, fit_scale, self_play
from games.ai.lasca_eval import WEIGHTS


def test_a_self_play_game_gives_quiet_positions_with_its_result_for_each_side() -> None:
    found = self_play(3)
    assert len(found) > 20
    by_side = {sample.side: sample.result for sample in found}
    assert set(by_side) == {0, 1}
    assert by_side[0] + by_side[1] == 1.0  # one game: a win for one is a loss for the other
    assert all(sample.result in (0.0, 0.5, 1.0) for sample in found)
    for sample in found:
        moves = engine.generate(sample.board, engine.OTHER[1 - sample.side], False)
        assert not any("x" in move for move in moves)  # no capture due


def test_the_fit_lowers_the_error_from_weights_set_wrong() -> None:
    data = [s for seed in (1, 2) for s in self_play(seed)]
    wrong = dataclasses.replace(WEIGHTS, officer=600, step=40)
    scale = fit_scale(wrong, data)
    found = fit(wrong, data, scale, rounds=2)
    assert error(found, data, scale) < error(wrong, data, scale)
    assert found.officer < 600 or found.step < 40
    assert all(getattr(found, name) >= 0 for name in fit_lasca.STEPS)


def test_an_evaluation_that_names_the_winner_has_less_error() -> None:
    # White (to move) has the only pieces: a won position, scored 1 for White.
    board = list(("",) * len(engine.SQUARES))
    board[engine.SQUARES.index("c3")] = "w"
    board[engine.SQUARES.index("e3")] = "W"
    won = [Sample(tuple(board), 0, 1.0)]
    pos = lasca_game.LascaPos(tuple(board), 0, 0, ())
    assert lasca_game.LascaGame(False, lambda p: 0).expand(pos)[0] is None  # not over yet
    blind = dataclasses.replace(WEIGHTS, soldier=0, officer=0, advance=0, step=0, tempo=0)
    assert error(WEIGHTS, won, 300) < error(blind, won, 300)
