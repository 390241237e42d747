"""Glicko-2, as Mark Glickman published it ("Example of the Glicko-2 system", 2013).

A rating is three numbers: the rating ``r`` (1500 for a new player), its
deviation ``rd`` (how unsure we are: 350 for a new player) and the
volatility ``sigma`` (how erratic the player's results are). A rating
period takes the results a player had against opponents whose ratings are
taken as they stood before the period, and gives the new rating.

Pure arithmetic: no I/O, no clock. The constants we chose are documented in
docs/ratings.md; the worked example of Glickman's paper is a test
(tests/server/ratings/test_glicko2.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Glicko-2 works on its own scale: rating = SCALE * mu + 1500
SCALE = 173.7178
#: a new player's rating, deviation and volatility
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
#: the system constant tau constrains the change of volatility over time (0.3 to 1.2 in the
#: paper; smaller is steadier). Patience races are noisy (a deal decides a lot): 0.5.
TAU = 0.5
#: the deviation never grows past a new player's
MAX_DEVIATION = 350.0
#: below this deviation a rating is established; above it the clients show it with "?"
PROVISIONAL_DEVIATION = 110.0
#: convergence tolerance of the volatility iteration (the paper's epsilon)
EPSILON = 0.000001


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's Glicko-2 rating on the usual (Glicko) scale."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    @property
    def provisional(self) -> bool:
        """Whether too few results back it: shown with a "?" (deviation 110 and above)."""
        return self.deviation >= PROVISIONAL_DEVIATION


@dataclass(frozen=True, slots=True)
class Result:
    """One game of a period: the opponent's rating before the period and the score (1, 0.5, 0)."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the Illinois algorithm on f(x) = 0, x = ln(sigma'^2)."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi2 - v - ex)) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (
            tau * tau
        )

    big_a = a
    if delta * delta > phi2 + v:
        big_b = math.log(delta * delta - phi2 - v)
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


def rate(player: Rating, results: Sequence[Result], *, tau: float = TAU) -> Rating:
    """The player's rating after one rating period with ``results``.

    A period without results only widens the deviation (step 6 of the paper),
    up to a new player's.
    """
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    if not results:
        widened = math.sqrt(phi * phi + player.volatility**2) * SCALE
        return Rating(player.rating, min(widened, MAX_DEVIATION), player.volatility)
    inverse_v = 0.0
    improvement = 0.0
    for result in results:
        mu_j = (result.opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = result.opponent.deviation / SCALE
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        inverse_v += g * g * e * (1.0 - e)
        improvement += g * (result.score - e)
    v = 1.0 / inverse_v
    delta = v * improvement
    sigma = _new_volatility(player.volatility, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Rating(
        rating=new_mu * SCALE + DEFAULT_RATING,
        deviation=min(new_phi * SCALE, MAX_DEVIATION),
        volatility=sigma,
    )
