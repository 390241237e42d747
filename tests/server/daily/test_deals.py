"""The deal of a day: candidate seeds from the secret, a budget per candidate, the first proven."""

from __future__ import annotations

import pytest

from server.daily.deals import candidate_budget, candidate_seeds, prove
from shared.solver import Budget, solve
from shared.variants import STANDARD
from shared.variants.gypsy import GypsyRules


def test_candidate_seeds_depend_on_the_secret_the_day_and_the_variant() -> None:
    seeds = candidate_seeds(b"k" * 32, "2026-11-29", "gypsy", 8)
    assert seeds == candidate_seeds(b"k" * 32, "2026-11-29", "gypsy", 8)
    assert len(set(seeds)) == 8 and all(1 <= s <= 2**31 - 1 for s in seeds)
    assert seeds != candidate_seeds(b"j" * 32, "2026-11-29", "gypsy", 8)
    assert seeds != candidate_seeds(b"k" * 32, "2026-11-30", "gypsy", 8)
    assert seeds != candidate_seeds(b"k" * 32, "2026-11-29", "freecell", 8)


def test_every_variant_has_a_budget_per_candidate_in_positions_under_a_time_cap() -> None:
    assert all(variant.daily_positions > 0 for variant in STANDARD)
    ticks = iter(range(1000))
    budget = candidate_budget(GypsyRules, 2.5, lambda: next(ticks))
    assert (budget.positions, budget.seconds) == (GypsyRules.daily_positions, 2.5)


# On these dates the first candidates are refused (3 Osmosis deals proven unwinnable, one
# Thumb and Pouch deal not proven within its positions), so the loop is exercised.
@pytest.mark.parametrize(
    ("variant", "date"), [("osmosis", "2026-12-02"), ("thumb_and_pouch", "2026-12-08")]
)
def test_the_deal_is_the_first_candidate_proven_winnable_within_the_positions(
    variant: str, date: str
) -> None:
    """The time cap is far off, so the positions decide: the worker's choice is the one a
    positions-only search makes, whatever the machine's load."""
    seeds = candidate_seeds(b"k" * 32, date, variant, 24)
    seed, positions = prove(STANDARD.get(variant), seeds, 600.0)
    budget = Budget(positions=STANDARD.get(variant).daily_positions)
    result = solve(variant, seed, {}, budget)
    assert result.won and result.positions == positions
    for earlier in seeds[: seeds.index(seed)]:
        assert not solve(variant, earlier, {}, budget).won
