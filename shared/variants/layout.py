"""How a variant's board is drawn: rows of pile ids, and how each pile spreads its cards.

A variant declares its :class:`Layout`; the server sends it in VariantInfo
(docs/protocol.md) so that a client can draw a game it has never heard of. Rows
run top to bottom, piles left to right, :data:`GAP` marks a gap between two
groups of piles.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

#: cards spread downwards, all visible (a tableau column)
DOWN: Final = "down"
#: cards spread sideways (Osmosis' reserves and foundations)
RIGHT: Final = "right"
#: only the top card shows, with a count (stock, waste, free cells, most foundations)
STACK: Final = "stack"
FANS: Final = (DOWN, RIGHT, STACK)

#: a gap between two groups of piles in a row
GAP: Final = ""


@dataclass(frozen=True, eq=True)
class Layout:
    """Rows of pile ids (``GAP`` between groups) and each pile's fan (:data:`FANS`)."""

    rows: tuple[tuple[str, ...], ...]
    fan: Mapping[str, str]

    @classmethod
    def of(
        cls, *rows: Sequence[str], down: Iterable[str] = (), right: Iterable[str] = ()
    ) -> Layout:
        """The layout of ``rows``: the piles named in ``down`` or ``right`` spread so,
        every other pile a stack."""
        spread = {pid: DOWN for pid in down} | {pid: RIGHT for pid in right}
        fan = {pid: spread.get(pid, STACK) for row in rows for pid in row if pid != GAP}
        return cls(tuple(tuple(row) for row in rows), MappingProxyType(fan))

    def check(self, pile_ids: Sequence[str]) -> None:
        """Raise ValueError unless every pile of ``pile_ids`` is drawn exactly once, with a fan."""
        drawn = [pid for row in self.rows for pid in row if pid != GAP]
        if sorted(drawn) != sorted(pile_ids):
            raise ValueError(
                f"the layout draws {drawn}, the variant has the piles {list(pile_ids)}"
            )
        wrong = {pid: fan for pid, fan in self.fan.items() if fan not in FANS or pid not in drawn}
        if wrong or set(self.fan) != set(drawn):
            raise ValueError(f"every drawn pile needs one fan of {FANS}: {dict(self.fan)}")

    def info(self) -> dict[str, Any]:
        """The ``layout`` field of VariantInfo (docs/protocol.md), as plain lists and maps."""
        return {"rows": [list(row) for row in self.rows], "fan": dict(self.fan)}
