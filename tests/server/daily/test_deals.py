"""The deal of a day: candidate keys from the secret, a budget per candidate, the first proven."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from server.daily.deals import candidate_budget, candidate_keys, prove
from shared.games import new_game
from shared.solver import Budget, solve_position
from shared.variants import STANDARD
from shared.variants.gypsy import GypsyRules


def test_candidate_keys_are_hmacs_of_the_day_the_variant_and_their_number() -> None:
    keys = candidate_keys(b"k" * 32, "2026-11-29", "gypsy", 8)
    assert keys == candidate_keys(b"k" * 32, "2026-11-29", "gypsy", 8)
    assert len(set(keys)) == 8 and all(len(key) == 32 for key in keys)
    assert keys[3] == hmac.new(b"k" * 32, b"2026-11-29|gypsy|3", hashlib.sha256).digest()
    assert keys != candidate_keys(b"j" * 32, "2026-11-29", "gypsy", 8)
    assert keys != candidate_keys(b"k" * 32, "2026-11-30", "gypsy", 8)
    assert keys != candidate_keys(b"k" * 32, "2026-11-29", "freecell", 8)


def test_every_variant_has_a_budget_per_candidate_in_positions_under_a_time_cap() -> None:
    assert all(variant.daily_positions > 0 for variant in STANDARD)
    ticks = iter(range(1000))
    budget = candidate_budget(GypsyRules, 2.5, lambda: next(ticks))
    assert (budget.positions, budget.seconds) == (GypsyRules.daily_positions, 2.5)


def _refused_first(variant: str) -> str:
    """A date on which the first candidate of ``variant`` is not proven within its positions,
    so that the test goes past it."""
    budget = Budget(positions=STANDARD.get(variant).daily_positions)
    for day in range(1, 29):
        date = f"2026-12-{day:02}"
        first = candidate_keys(b"k" * 32, date, variant, 1)[0]
        if not solve_position(new_game(variant, key=first), budget).won:
            return date
    raise AssertionError(f"every first {variant} candidate of December was proven")


@pytest.mark.parametrize("variant", ["osmosis", "thumb_and_pouch"])
def test_the_deal_is_the_first_candidate_proven_winnable_within_the_positions(
    variant: str,
) -> None:
    """The time cap is far off, so the positions decide: the worker's choice is the one a
    positions-only search makes, whatever the machine's load."""
    keys = candidate_keys(b"k" * 32, _refused_first(variant), variant, 24)
    key, positions = prove(STANDARD.get(variant), keys, 600.0)
    budget = Budget(positions=STANDARD.get(variant).daily_positions)
    result = solve_position(new_game(variant, key=key), budget)
    assert result.won and result.positions == positions
    assert keys.index(key) > 0
    for earlier in keys[: keys.index(key)]:
        assert not solve_position(new_game(variant, key=earlier), budget).won
