"""Gypsy: two decks, eight foundations, eight columns built down in alternate colours."""

from __future__ import annotations

from typing import ClassVar

from shared.variants.base import Rules

FOUNDATIONS = tuple(f"f{i}" for i in range(8))
TABLEAU = tuple(f"t{i}" for i in range(8))


class GypsyRules(Rules):
    id = "gypsy"
    name = "Gypsy"
    option_defaults: ClassVar = {}
    max_score = 1000
    pile_ids = ("s",) + FOUNDATIONS + TABLEAU
    card_count = 104
    deal_count = 8
    max_redeals = 0
