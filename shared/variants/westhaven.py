"""Westhaven: ten columns over face-down cards, one pass through the stock (rules.md, Westhaven)."""

from __future__ import annotations

from typing import ClassVar

from shared.position import Position
from shared.variants.base import InternalMove, Rules

TABLEAU = tuple(f"t{i}" for i in range(10))


class WesthavenRules(Rules):
    id = "westhaven"
    name = "Westhaven"
    option_defaults: ClassVar = {}
    max_score = 52
    pile_ids = ("s", "w", "f0", "f1", "f2", "f3", *TABLEAU)
    deal_count = 1
    max_redeals = 0

    def deal(self, seed: int) -> Position:
        raise NotImplementedError("westhaven deal: in progress")

    def legal(self, pos: Position) -> list[InternalMove]:
        raise NotImplementedError("westhaven legal: in progress")

    def why_illegal(self, pos: Position, move: InternalMove) -> str | None:
        raise NotImplementedError("westhaven why_illegal: in progress")
