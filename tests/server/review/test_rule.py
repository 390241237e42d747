"""The review rule alone: how many actions, and the median of the gaps between them."""

from __future__ import annotations

from server.review.rule import Rule

RULE = Rule(min_actions=20, median_ms=200)


def times(start: int, gaps: list[int]) -> list[int]:
    out, now = [], start
    for gap in gaps:
        now += gap
        out.append(now)
    return out


def test_at_least_min_actions_with_a_median_gap_under_the_rule_are_held() -> None:
    assert RULE.held(times(1000, [150] * 20), 1000) == 150
    assert RULE.held(times(1000, [150] * 19), 1000) is None  # too few to judge
    assert RULE.held(times(1000, [200] * 40), 1000) is None  # the rule is "under"
    assert RULE.held(times(1000, [199] * 40), 1000) == 199


def test_the_first_gap_counts_from_the_start_and_the_median_ignores_outliers() -> None:
    # A long think before the first move, then machine speed: still held.
    assert RULE.held(times(0, [60_000] + [5] * 25), 0) == 5
    # Half slow and half fast: the median of an even count is the mean of the middle two.
    assert RULE.held(times(0, [100] * 10 + [300] * 10), 0) is None
    assert RULE.held(times(0, [100] * 11 + [300] * 9), 0) == 100
    # Measured from a race's start rather than the game's own.
    late = times(50_000, [10] * 20)
    assert RULE.held(late, 0) == 10 and RULE.held(late, 49_000) == 10


def test_a_rule_of_0_actions_still_needs_one_and_a_median_of_0_holds_nothing() -> None:
    assert Rule(0, 200).held([], 0) is None
    assert Rule(0, 200).held([5], 0) == 5
    assert Rule(20, 0).held([0] * 30, 0) is None
