"""Osmosis: four reserves, foundations that follow the base card (rules.md, Osmosis)."""

from __future__ import annotations

from typing import ClassVar

from shared.position import Position
from shared.variants.base import InternalMove, Rules


class OsmosisRules(Rules):
    id = "osmosis"
    name = "Osmosis"
    option_defaults: ClassVar = {"deal_three": False}
    max_score = 52
    pile_ids = ("r0", "r1", "r2", "r3", "f0", "f1", "f2", "f3", "s", "w")
    deal_count = 1
    max_redeals: int | None = 2

    def configure(self) -> None:
        self.deal_three = bool(self.options["deal_three"])
        self.deal_count = 3 if self.deal_three else 1
        self.max_redeals = None if self.deal_three else 2

    def deal(self, seed: int) -> Position:
        raise NotImplementedError("osmosis deal: in progress")

    def legal(self, pos: Position) -> list[InternalMove]:
        raise NotImplementedError("osmosis legal: in progress")

    def why_illegal(self, pos: Position, move: InternalMove) -> str | None:
        raise NotImplementedError("osmosis why_illegal: in progress")
