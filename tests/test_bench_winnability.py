"""The winnability benchmark's interval (Solvitaire's) and its resumable task list."""

from __future__ import annotations

import pytest

from bench.winnability import Task, pending
from bench.winnability_page import (
    Row,
    binomial_cdf,
    clopper_pearson,
    solvitaire_interval,
    table,
)


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # Reference values of the exact (Clopper-Pearson) interval at 95%
        (5, 10, 0.187086, 0.812914),
        (0, 10, 0.0, 0.308497),
        (10, 10, 0.691503, 1.0),
        (99, 100, 0.945541, 0.999747),
        (1, 2, 0.012579, 0.987421),
    ],
)
def test_clopper_pearson_matches_reference_values(k: int, n: int, low: float, high: float) -> None:
    got = clopper_pearson(k, n)
    assert got[0] == pytest.approx(low, abs=2e-6)
    assert got[1] == pytest.approx(high, abs=2e-6)


def test_binomial_cdf_sums_the_distribution() -> None:
    assert binomial_cdf(4, 1, 0.5) == pytest.approx(5 / 16)
    assert binomial_cdf(4, 4, 0.3) == 1.0


def test_the_interval_is_the_union_of_undecided_lost_and_won() -> None:
    low, high = solvitaire_interval(90, 5, 100)
    assert low == pytest.approx(clopper_pearson(90, 100)[0])
    assert high == pytest.approx(clopper_pearson(95, 100)[1])
    assert solvitaire_interval(90, 0, 100) == clopper_pearson(90, 100)


def test_a_rerun_skips_the_deals_already_solved_seed_by_seed_across_variants() -> None:
    done = {("gypsy", 1), ("osmosis", 2)}
    todo = list(pending(done, ["osmosis", "gypsy"], 1, 2, 10.0))
    assert todo == [Task("osmosis", 1, 10.0), Task("gypsy", 2, 10.0)]


def test_a_row_short_of_the_deals_asked_says_how_far_it_got() -> None:
    def row(deals: int) -> Row:
        return Row("gypsy", deals, 100001, 100000 + deals, deals - 1, 0, 1, 0, 1, 1, 1, 1, 10)

    short, full = table([row(240), row(10_000)], 10_000)[2:]
    assert "| 240 of 10,000 so far (100001-100240) |" in short
    assert "| 10,000 (100001-110000) |" in full
