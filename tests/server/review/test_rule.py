"""The review rule alone: how many actions, the gaps between them (median, lower quantiles),
the first action on a deal never seen, the physical floor, and a win on a solver's line."""

from __future__ import annotations

from server.review.rule import Line, Played, Rule, Why, quantile

#: the median alone, as the rule was before it saw more
MEDIAN_ONLY = Rule(min_actions=20, median_ms=200, p25_ms=0, p10_ms=0, first_ms=0, key_ms=0)
RULE = Rule()


def times(start: int, gaps: list[int]) -> list[int]:
    out, now = [], start
    for gap in gaps:
        now += gap
        out.append(now)
    return out


def played(
    start: int,
    gaps: list[int],
    actions: list[str] | None = None,
    *,
    fresh: bool = False,
    won: bool = False,
) -> Played:
    """A result of ``gaps``; its actions ``deal`` (one key) unless given."""
    acts = actions if actions is not None else ["deal"] * len(gaps)
    return Played(tuple(acts), tuple(times(start, gaps)), start, fresh=fresh, won=won)


def held_for(rule: Rule, result: Played, line: Line | None = None) -> set[str]:
    return {why.value for why in rule.judge(result, line).why}


def test_at_least_min_actions_with_a_median_gap_under_the_rule_are_held() -> None:
    assert MEDIAN_ONLY.judge(played(1000, [150] * 20)).figures.median_ms == 150
    assert held_for(MEDIAN_ONLY, played(1000, [150] * 20)) == {"median"}
    assert held_for(MEDIAN_ONLY, played(1000, [150] * 19)) == set()  # too few to judge
    assert held_for(MEDIAN_ONLY, played(1000, [200] * 40)) == set()  # the rule is "under"
    assert held_for(MEDIAN_ONLY, played(1000, [199] * 40)) == {"median"}


def test_the_first_gap_counts_from_the_start_and_the_median_ignores_outliers() -> None:
    # A long think before the first move, then machine speed: still held.
    long_look = MEDIAN_ONLY.judge(played(0, [60_000] + [5] * 25))
    assert long_look.held and long_look.figures.median_ms == 5
    # Half slow and half fast: the median of an even count is the mean of the middle two.
    assert not MEDIAN_ONLY.judge(played(0, [100] * 10 + [300] * 10)).held
    assert MEDIAN_ONLY.judge(played(0, [100] * 11 + [300] * 9)).figures.median_ms == 100
    # Measured from a race's start rather than the game's own.
    late = tuple(times(50_000, [10] * 20))
    for start in (0, 49_000):
        result = MEDIAN_ONLY.judge(Played(("deal",) * 20, late, start, fresh=False))
        assert result.held and result.figures.median_ms == 10


def test_a_rule_of_0_actions_still_needs_one_and_a_limit_of_0_holds_nothing() -> None:
    assert not Rule(0, 200).judge(played(0, [])).held
    assert held_for(Rule(0, 200, first_ms=0, key_ms=0), played(0, [5])) == {"median", "p25", "p10"}
    nothing = Rule(20, 0, p25_ms=0, p10_ms=0, first_ms=0, key_ms=0, pauses=0)
    assert not nothing.judge(played(0, [0] * 30, fresh=True, won=True), Line(30, 0, 30)).held


def test_the_lower_quantiles_see_the_median_trick() -> None:
    # 205 ms before just over half of the actions, nothing before the rest: the median is a
    # person's, a quarter of the gaps are not.
    trick = [205 if n % 2 == 0 else 0 for n in range(55)]
    assert RULE.judge(played(0, trick)).figures.median_ms == 205
    assert {"p25", "p10"} <= held_for(RULE, played(0, trick))
    assert "median" not in held_for(RULE, played(0, trick))


def test_quantiles_are_the_lower_nearest_rank() -> None:
    assert quantile([5, 1, 4, 2, 3], 0.25) == 2 and quantile([5, 1, 4, 2, 3], 0.10) == 1
    assert quantile([7], 0.10) == 7
    assert quantile(list(range(100)), 0.25) == 24


def test_a_first_action_on_a_deal_never_seen_needs_a_look_at_it_first() -> None:
    quick = [400] + [700] * 30
    assert held_for(RULE, played(0, quick, fresh=True)) == {"first"}
    assert held_for(RULE, played(0, quick, fresh=False)) == set(), "a deal seen before"
    assert held_for(RULE, played(0, [1000] + [700] * 30, fresh=True)) == set()


def test_a_game_faster_than_its_keys_can_be_pressed_is_held() -> None:
    # A move is two key presses (80 ms each at the fastest), a deal one.
    moves = ["t0>t1"] * 30
    assert RULE.judge(played(0, [2000] + [150] * 29, moves)).figures.floor_ms == 30 * 160
    assert "floor" not in held_for(RULE, played(0, [2000] + [150] * 29, moves))
    # Every quantile a person's, yet 30 moves in 4.7 s: faster than 60 key presses.
    quick = [200] * 16 + [120] * 11 + [60] * 3
    assert held_for(RULE, played(0, quick, moves)) == {"floor"}
    assert held_for(RULE, played(0, quick)) == set(), "deals are one key each"


def test_a_straight_fast_win_on_the_solvers_line_is_held_and_a_human_one_is_not() -> None:
    line = Line(solver_moves=49, revisits=0, followed=49)
    steady = played(0, [1500] + [700] * 48, ["t0>t1"] * 49, won=True)
    review = RULE.judge(steady, line)
    assert review.why == {Why.EFFICIENT} and review.efficient
    assert "49 moves against the solver's 49 (49 of them its very line)" in review.text()
    # Two pauses of two seconds: a person thinking, though the line is a solver's.
    thinking = played(0, [1500] + [700] * 20 + [2500] + [700] * 20 + [3000] + [700] * 6,
                      ["t0>t1"] * 49, won=True)  # fmt: skip
    assert not RULE.judge(thinking, line).held and RULE.judge(thinking, line).efficient
    # An undo, a position revisited, or many more moves than the solver's: not its line.
    undone = played(0, [1500] + [700] * 50, ["t0>t1"] * 49 + ["undo", "t0>t1"], won=True)
    assert not RULE.judge(undone, line).held and not RULE.wants_line(undone)
    assert not RULE.judge(steady, Line(49, 1, 0)).held
    assert not RULE.judge(played(0, [1500] + [700] * 62, ["t0>t1"] * 63, won=True), line).held
    assert RULE.judge(played(0, [1500] + [700] * 60, ["t0>t1"] * 61, won=True), line).held
    # Not a win, or no line found in budget: nothing to compare with.
    assert not RULE.judge(played(0, [1500] + [700] * 48, ["t0>t1"] * 49), line).held
    assert not RULE.judge(steady, Line(None, 0, 0)).held and not RULE.judge(steady).held
