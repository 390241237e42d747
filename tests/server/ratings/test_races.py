"""A rated race as pairwise results: who beats whom, and what never pays."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from server.ratings.glicko2 import Rating
from server.ratings.races import Finish, rate_race, score

WON_FAST = Finish(won=True, time_ms=60_000, cards_home=52)
WON_SLOW = Finish(won=True, time_ms=90_000, cards_home=52)
LOST_40 = Finish(won=False, time_ms=30_000, cards_home=40)
LOST_40_LATER = Finish(won=False, time_ms=120_000, cards_home=40)
LOST_12 = Finish(won=False, time_ms=200_000, cards_home=12)


def test_won_beats_not_won_whatever_the_times() -> None:
    assert score(WON_SLOW, LOST_40) == 1
    assert score(LOST_40, WON_SLOW) == 0


def test_of_two_wins_the_faster_wins() -> None:
    assert score(WON_FAST, WON_SLOW) == 1
    assert score(WON_SLOW, WON_FAST) == 0


def test_of_two_losses_more_cards_home_wins_and_equal_cards_draw_whatever_the_times() -> None:
    assert score(LOST_40, LOST_12) == 1
    assert score(LOST_40, LOST_40_LATER) == 0.5
    assert score(LOST_40_LATER, LOST_40) == 0.5


finishes = st.builds(Finish, st.booleans(), st.integers(1, 10**7), st.integers(0, 104))


@given(finishes, finishes)
def test_scores_of_a_pair_add_up_to_one(a: Finish, b: Finish) -> None:
    assert score(a, b) + score(b, a) == 1


@given(st.integers(0, 104), st.integers(1, 10**7), st.integers(1, 10**7), finishes)
def test_resigning_sooner_never_scores_more(
    cards: int, sooner: int, later: int, other: Finish
) -> None:
    early, late = sorted((sooner, later))
    assert score(Finish(False, early, cards), other) == score(Finish(False, late, cards), other)


def test_the_winner_of_a_three_racer_race_gains_and_the_last_loses() -> None:
    before = {"a": Rating(), "b": Rating(), "c": Rating()}
    after = rate_race(before, {"a": WON_FAST, "b": WON_SLOW, "c": LOST_12})
    assert after["a"].rating > 1500 > after["c"].rating
    assert after["a"].rating > after["b"].rating > after["c"].rating


def test_every_racer_is_rated_against_the_others_ratings_from_before_the_race() -> None:
    before = {"a": Rating(1700, 60), "b": Rating(1500, 60)}
    after = rate_race(before, {"a": WON_FAST, "b": LOST_12})
    # the order in which racers are taken changes nothing: nobody sees another's new rating
    reordered = rate_race(
        {"b": Rating(1500, 60), "a": Rating(1700, 60)}, {"b": LOST_12, "a": WON_FAST}
    )
    assert after == reordered
    even = rate_race({"a": Rating(1500, 60), "b": Rating(1500, 60)}, {"a": WON_FAST, "b": LOST_12})
    assert after["a"].rating - 1700 < even["a"].rating - 1500  # beating a weaker racer pays less
