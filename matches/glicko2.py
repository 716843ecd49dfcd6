"""Glicko-2, as Glickman's "Example of the Glicko-2 system" (2022) lays it out.

Kept here rather than taken from a library: the `glicko2` package (2.1.0)
computes the volatility's function with the rating where the paper has the
deviation (its `_f` squares mu where the paper squares phi), which the paper's
own example cannot show (its player is rated 1500, mu = 0) but every other
rating does; `pyglicko2` is an alpha; `openskill` is Weng-Lin, not Glicko-2.
`tests/test_glicko2.py` holds the paper's example and a sequence computed by hand.

Kamen rates one game as one rating period for both players; between a
player's games their deviation grows as over `elapsed / PERIOD` periods
without games (fractional), never beyond the starting deviation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

SCALE = 173.7178  # the Glicko-2 scale: μ = (r - 1500) / SCALE, φ = RD / SCALE
START_RATING = 1500.0
START_RD = 350.0
START_VOLATILITY = 0.06
TAU = 0.5  # how much the volatility may change: the paper's "reasonable" middle
EPSILON = 0.000001  # the volatility iteration's tolerance, as in the paper
PERIOD = timedelta(days=1)  # a day without games raises the deviation as one empty period
PROVISIONAL_RD = 110.0  # above this a rating is provisional, shown with a "?"


@dataclass(frozen=True, slots=True)
class Glicko:
    """A rating on the Glicko scale: the rating, its deviation (RD) and the volatility."""

    rating: float = START_RATING
    rd: float = START_RD
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD


@dataclass(frozen=True, slots=True)
class Result:
    """One game of a rating period, from the rated player's side: the opponent and the score."""

    opponent: Glicko
    score: float  # 1 a win, 0.5 a draw, 0 a loss


def idle(player: Glicko, elapsed: timedelta) -> Glicko:
    """`player` after `elapsed` without games: RD grows as over that many (fractional) periods."""
    periods = max(elapsed / PERIOD, 0.0)
    if periods == 0:
        return player
    phi = math.sqrt((player.rd / SCALE) ** 2 + periods * player.volatility**2)
    return Glicko(player.rating, min(phi * SCALE, START_RD), player.volatility)


def rate(player: Glicko, results: Sequence[Result], tau: float = TAU) -> Glicko:
    """The player's rating after one rating period with `results` (steps 1 to 8 of the paper)."""
    mu, phi, sigma = (player.rating - START_RATING) / SCALE, player.rd / SCALE, player.volatility
    if not results:  # step 6 alone: the deviation grows by one period
        return Glicko(player.rating, min(math.sqrt(phi**2 + sigma**2) * SCALE, START_RD), sigma)
    games = [
        (_g(result.opponent.rd / SCALE), (result.opponent.rating - START_RATING) / SCALE,
         result.score)
        for result in results
    ]  # fmt: skip
    expected = [(g, _e(mu, mu_j, g), score) for g, mu_j, score in games]
    v = 1.0 / sum(g * g * e * (1.0 - e) for g, e, _ in expected)
    improvement = sum(g * (score - e) for g, e, score in expected)
    delta = v * improvement
    sigma = _volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi**2 + sigma**2)
    phi = 1.0 / math.sqrt(1.0 / phi_star**2 + 1.0 / v)
    mu = mu + phi**2 * improvement
    return Glicko(START_RATING + SCALE * mu, SCALE * phi, sigma)


def expected_score(player: Glicko, opponent: Glicko) -> float:
    """The score `player` is expected to make against `opponent` (E of the paper)."""
    mu, mu_j = (player.rating - START_RATING) / SCALE, (opponent.rating - START_RATING) / SCALE
    return _e(mu, mu_j, _g(opponent.rd / SCALE))


def performance(results: Sequence[Result]) -> float | None:
    """The rating whose expected score against these opponents is the score made.

    Solved by bisection between 800 points below the weakest and above the
    strongest opponent, the bounds an all-win or all-loss record takes.
    None for no games.
    """
    if not results:
        return None
    scored = sum(result.score for result in results)
    ratings = [result.opponent.rating for result in results]
    low, high = min(ratings) - 800.0, max(ratings) + 800.0
    for _ in range(60):
        middle = (low + high) / 2
        guess = Glicko(middle, 0.0)
        if sum(expected_score(guess, result.opponent) for result in results) < scored:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, g: float) -> float:
    return 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2.0 * (phi**2 + v + ex) ** 2) - (x - a) / (
            tau * tau
        )

    big_a = a
    if delta**2 > phi**2 + v:
        big_b = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)
