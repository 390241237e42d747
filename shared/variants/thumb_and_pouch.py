"""Thumb and Pouch: seven columns built down in any other suit, one-card stock, two redeals."""

from __future__ import annotations

from typing import ClassVar

from shared.position import Position
from shared.variants.base import InternalMove, Rules


class ThumbAndPouchRules(Rules):
    id = "thumb_and_pouch"
    name = "Thumb and Pouch"
    option_defaults: ClassVar = {}
    max_score = 52
    pile_ids = ("s", "w", "f0", "f1", "f2", "f3", "t0", "t1", "t2", "t3", "t4", "t5", "t6")
    card_count = 52
    deal_count = 1
    max_redeals = 2

    def deal(self, seed: int) -> Position:
        raise NotImplementedError("thumb_and_pouch: deal is being written")

    def legal(self, pos: Position) -> list[InternalMove]:
        raise NotImplementedError("thumb_and_pouch: legal is being written")
