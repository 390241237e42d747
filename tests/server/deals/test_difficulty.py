"""The difficulty measure of a won deal: its search's positions, and how many arrangements of
the cards the player cannot see the same search wins (a function of the deal, repeatable)."""

from __future__ import annotations

import hashlib
import time

import pytest

from server.deals.difficulty import (
    ARRANGEMENTS,
    THRESHOLDS,
    Measure,
    difficulty_of,
    find,
    hardness_of,
    measure,
)
from shared.games import new_game
from shared.protocol.games import DIFFICULTIES
from shared.variants.osmosis import OsmosisRules


def key(n: int) -> bytes:
    return hashlib.sha256(f"tests/difficulty|{n}".encode()).digest()


def test_the_measure_of_a_won_deal_counts_the_arrangements_of_its_unseen_cards_won() -> None:
    measured = 0
    for n in range(12):
        game = new_game("osmosis", key=key(n))
        found = measure(game, 10.0, time.monotonic)
        if found is None:
            continue
        assert 0 <= found.blind <= ARRANGEMENTS and found.positions > 0 and found.line > 0
        lost = ARRANGEMENTS - found.blind
        assert lost < found.hardness < lost + 1
        assert measure(new_game("osmosis", key=key(n)), 10.0, time.monotonic) == found
        assert game.ply == 0  # measured from the deal, the game untouched
        measured += 1
    assert measured >= 2


def test_where_nothing_is_hidden_every_arrangement_is_the_deal_itself() -> None:
    found = measure(new_game("freecell", key=key(1)), 10.0, time.monotonic)
    assert found is not None and found.blind in (0, ARRANGEMENTS)
    assert (found.blind == ARRANGEMENTS) == (found.positions <= found.budget // ARRANGEMENTS)


def test_the_pools_workers_label_each_deal_with_the_difficulty_of_its_hardness() -> None:
    found = find(OsmosisRules, {}, 12, 10.0)
    assert found
    for deal in found:
        game = new_game("osmosis", key=deal.key)
        measured = measure(game, 10.0, time.monotonic)
        assert measured is not None and deal.difficulty in DIFFICULTIES
        assert deal.difficulty == difficulty_of("osmosis", hardness_of("osmosis", measured))


def test_where_the_arrangements_do_not_predict_play_the_positions_alone_order_the_deals() -> None:
    # Thumb and Pouch: the arrangements won said nothing of what the players' hint wins
    # there (docs/solver.md, "Difficulty"), the positions did.
    assert THRESHOLDS["thumb_and_pouch"].arrangements == 0
    quick, slow = Measure(900, 40, 8, 15_000), Measure(9_000, 40, 8, 15_000)
    for blind in range(ARRANGEMENTS + 1):
        few = Measure(900, 40, blind, 15_000)
        assert hardness_of("thumb_and_pouch", few) == hardness_of("thumb_and_pouch", quick)
        assert hardness_of("osmosis", few) == pytest.approx(quick.hardness + ARRANGEMENTS - blind)
    assert hardness_of("thumb_and_pouch", quick) < hardness_of("thumb_and_pouch", slow)
