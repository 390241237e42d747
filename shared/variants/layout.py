"""How a variant's board is drawn: rows of pile ids, and how each pile spreads its cards.

A variant declares its :class:`Layout`; the server sends it in VariantInfo
(docs/protocol.md) so that a client can draw a game it has never heard of. Rows
run top to bottom, piles left to right, :data:`GAP` marks a gap between two
groups of piles.

Each pile also has a display name, the words a client reads it out or writes
it in (``tableau 4``, ``free cell 1``, ``stock``): a kind's word from
:data:`PILE_WORDS`, or the variant's own (Freecell's reserves are free
cells), and a 1-based number for numbered piles (:func:`pile_display_names`). The
server sends them in VariantInfo's ``pile_names``, so that no client names a
pile after the variant it belongs to.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from shared.errors import InvalidVariant

#: cards spread downwards, all visible (a tableau column)
DOWN: Final = "down"
#: cards spread sideways (Osmosis' reserves and foundations)
RIGHT: Final = "right"
#: only the top card shows, with a count (stock, waste, free cells, most foundations)
STACK: Final = "stack"
FANS: Final = (DOWN, RIGHT, STACK)

#: a gap between two groups of piles in a row
GAP: Final = ""

#: what a pile of each kind (its id's letter) is called unless its variant says otherwise
PILE_WORDS: Final[Mapping[str, str]] = MappingProxyType(
    {"s": "stock", "w": "waste", "t": "tableau", "f": "foundation", "r": "reserve"}
)


def pile_display_names(
    pile_ids: Iterable[str], words: Mapping[str, str] = PILE_WORDS
) -> dict[str, str]:
    """Each pile's display name: its kind's word (``words`` over :data:`PILE_WORDS`), with
    the pile's number counted from 1 (``t3`` -> ``tableau 4``); the stock and the waste, one
    of each, by the word alone."""
    merged = {**PILE_WORDS, **words}
    names = {}
    for pid in pile_ids:
        word = merged[pid[0]]
        names[pid] = f"{word} {int(pid[1:]) + 1}" if pid[1:] else word
    return names


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
        """Raise :class:`InvalidVariant` (a ValueError) unless every pile of ``pile_ids`` is
        drawn exactly once, with a fan."""
        drawn = [pid for row in self.rows for pid in row if pid != GAP]
        if sorted(drawn) != sorted(pile_ids):
            raise InvalidVariant(
                f"the layout draws {drawn}, the variant has the piles {list(pile_ids)}"
            )
        wrong = {pid: fan for pid, fan in self.fan.items() if fan not in FANS or pid not in drawn}
        if wrong or set(self.fan) != set(drawn):
            raise InvalidVariant(f"every drawn pile needs one fan of {FANS}: {dict(self.fan)}")

    def info(self) -> dict[str, Any]:
        """The ``layout`` field of VariantInfo (docs/protocol.md), as plain lists and maps."""
        return {"rows": [list(row) for row in self.rows], "fan": dict(self.fan)}
