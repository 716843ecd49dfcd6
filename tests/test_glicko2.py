"""The Glicko-2 maths: Glickman's worked example, and a sequence checked by hand."""

from __future__ import annotations

from datetime import timedelta

import pytest

from matches.glicko2 import Glicko, Result, expected_score, idle, performance, rate


def test_the_papers_example() -> None:
    # "Example of the Glicko-2 system": 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300.
    after = rate(
        Glicko(1500, 200, 0.06),
        [
            Result(Glicko(1400, 30), 1),
            Result(Glicko(1550, 100), 0),
            Result(Glicko(1700, 300), 0),
        ],
    )
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_player_away_from_1500_moves_the_volatility_as_the_paper_says() -> None:
    # The paper's games for a 2200 player: the figures of an independent implementation
    # of the paper (the `glicko2` package gives 0.060005 here: it squares the rating
    # where the paper squares the deviation, which a 1500 player cannot show).
    after = rate(
        Glicko(2200, 200, 0.06),
        [Result(Glicko(1400, 30), 1), Result(Glicko(1550, 100), 0), Result(Glicko(1700, 300), 0)],
    )
    assert after.rating == pytest.approx(1876.475036, abs=1e-5)
    assert after.rd == pytest.approx(189.745529, abs=1e-5)
    assert after.volatility == pytest.approx(0.0600254943, abs=1e-9)


def test_a_sequence_of_games_with_time_between_them() -> None:
    # Two new players: the winner goes to 1662 (+162), as the result message shows.
    first = rate(Glicko(), [Result(Glicko(), 1)])
    assert (round(first.rating), round(first.rd)) == (1662, 290)
    # Ten days without a game: RD grows as over ten periods, sqrt(290.32² + 10·(0.06·173.72)²).
    away = idle(first, timedelta(days=10))
    assert away.rd == pytest.approx(292.1840, abs=1e-4)
    assert away.rating == first.rating
    # Then a loss to 1600/100 and a draw with 1450/60.
    second = rate(away, [Result(Glicko(1600, 100), 0)])
    assert second.rating == pytest.approx(1493.5583, abs=1e-4)
    assert second.rd == pytest.approx(229.3610, abs=1e-4)
    third = rate(second, [Result(Glicko(1450, 60), 0.5)])
    assert third.rating == pytest.approx(1480.6516, abs=1e-4)
    assert third.rd == pytest.approx(193.0078, abs=1e-4)


def test_a_long_absence_never_takes_the_deviation_past_the_start() -> None:
    settled = Glicko(1800, 60, 0.06)
    assert idle(settled, timedelta(days=100_000)).rd == 350
    assert idle(settled, timedelta(0)).rd == 60
    assert not settled.provisional and Glicko(1800, 111).provisional


def test_performance_is_the_rating_that_expects_the_score_made() -> None:
    results = [Result(Glicko(1400, 30), 1), Result(Glicko(1550, 100), 0.5)]
    found = performance(results)
    assert found is not None
    made = sum(expected_score(Glicko(found, 0), result.opponent) for result in results)
    assert made == pytest.approx(1.5, abs=1e-6)
    # All wins or all losses stay within reach of the opponents, and order them.
    wins = performance([Result(Glicko(1500, 50), 1)])
    losses = performance([Result(Glicko(1500, 50), 0)])
    assert wins is not None and losses is not None
    assert 1500 < wins <= 2300 and 700 <= losses < 1500
    assert performance([]) is None
