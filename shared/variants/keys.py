"""Canonical position keys: one key for positions that play the same from here on.

Piles that no rule tells apart may be swapped without changing anything a
player can do; each variant declares which kinds of pile those are
(``Rules.interchangeable``): the free cells and columns of Freecell, the
tableau of games whose stock feeds a waste, the reserves of Osmosis, and
foundations that any ace may start. The stuck proof and the solver's searches
on engine positions count positions by these keys.
"""

from __future__ import annotations

from collections.abc import Callable

from shared.position import Position
from shared.variants.base import Rules

Key = tuple[object, ...]


def key_function(rules: Rules) -> Callable[[Position], Key]:
    """The key of ``rules``' positions: pile contents with face-down counts, interchangeable
    piles sorted, and the redeals used."""
    groups = [
        tuple(i for i, pid in enumerate(rules.pile_ids) if pid[0] == kind)
        for kind in rules.interchangeable
    ]
    grouped = {i for group in groups for i in group}
    fixed = tuple(i for i in range(len(rules.pile_ids)) if i not in grouped)

    def key(pos: Position) -> Key:
        piles = pos.piles
        down = pos.down
        parts: list[object] = [pos.redeals_used]
        for i in fixed:
            parts.append((down[i], tuple(piles[i])))
        for group in groups:
            parts.append(tuple(sorted((down[i], tuple(piles[i])) for i in group)))
        return tuple(parts)

    return key
