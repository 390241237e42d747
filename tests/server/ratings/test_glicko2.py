"""Glicko-2 against Glickman's worked example, and the properties a rating must keep."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from server.ratings.glicko2 import (
    DEFAULT_DEVIATION,
    PROVISIONAL_DEVIATION,
    Rating,
    Result,
    rate,
)


def test_glickmans_worked_example() -> None:
    # "Example of the Glicko-2 system" (Glickman, 2013): tau 0.5
    player = Rating(1500, 200, 0.06)
    results = [
        Result(Rating(1400, 30), 1),
        Result(Rating(1550, 100), 0),
        Result(Rating(1700, 300), 0),
    ]
    after = rate(player, results, tau=0.5)
    # the paper rounds its intermediate steps: 1464.06, 151.52, 0.05999
    assert abs(after.rating - 1464.06) < 0.02
    assert abs(after.deviation - 151.52) < 0.01
    assert abs(after.volatility - 0.05999) < 0.00001


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = rate(Rating(1600, 80, 0.06), [])
    assert after.rating == 1600
    assert 80 < after.deviation < 81


def test_the_deviation_never_passes_a_new_players() -> None:
    assert rate(Rating(), []).deviation == DEFAULT_DEVIATION


def test_a_new_rating_is_provisional_until_its_deviation_falls_under_110() -> None:
    assert Rating().provisional
    assert Rating(1500, PROVISIONAL_DEVIATION).provisional
    assert not Rating(1500, PROVISIONAL_DEVIATION - 0.01).provisional


ratings = st.builds(
    Rating,
    st.floats(800, 2600),
    st.floats(30, 350),
    st.floats(0.03, 0.09),
)


@given(ratings, ratings)
def test_a_win_never_lowers_and_a_loss_never_raises_a_rating(me: Rating, them: Rating) -> None:
    assert rate(me, [Result(them, 1)]).rating >= me.rating
    assert rate(me, [Result(them, 0)]).rating <= me.rating
