"""Canonical position keys: one key for positions that play the same from here on.

Piles that no rule tells apart may be swapped without changing anything a
player can do; each variant declares which kinds of pile those are
(``Rules.interchangeable``): the free cells and columns of Freecell, the
tableau of games whose stock feeds a waste, the reserves of Osmosis, and
foundations that any ace may start. The stuck proof and the solver's searches
on engine positions count positions by these keys.

A key is one ``bytes``: the searches hash and compare thousands of them, and a
bytes object hashes its bytes once (the hash is kept), compares them with
``memcmp`` and is no container the garbage collector walks, where a tuple of
tuples hashed, compared and was walked item by item. It is made from one list
of small ints: the redeals used, then each pile's card codes (all below 64)
followed by one number at 64 or above that ends the pile and says how many of
its cards lie face down (:func:`_end`), the interchangeable piles of a kind in
sorted order (as pairs of their list and face-down count). So two keys are
equal exactly when the redeals used, every other pile and each kind's multiset
of piles (cards and face-down count) are equal.
"""

from __future__ import annotations

from typing import Final

from shared.position import Position
from shared.variants.base import Rules

Key = bytes

#: the largest count written as one number (64 + count, at most 254); above it, 255 and
#: the count in four bytes
_SHORT: Final = 190


def _end(codes: list[int], n: int) -> None:
    """Append the end of a pile's part of a key, which says ``n``: 64 + ``n`` (no card
    code is 64 or above), or for ``n`` above 190 the number 255 and ``n`` in four bytes."""
    if n <= _SHORT:
        codes.append(64 + n)
    else:
        codes.append(255)
        codes.extend(n.to_bytes(4, "little"))


class PositionKey:
    """The key of ``rules``' positions (see the module docstring), as a callable object:
    the compiled searches call :meth:`of` directly."""

    def __init__(self, rules: Rules) -> None:
        groups = [
            [i for i, pid in enumerate(rules.pile_ids) if pid[0] == kind]
            for kind in rules.interchangeable
        ]
        grouped = {i for group in groups for i in group}
        self.fixed: list[int] = [i for i in range(len(rules.pile_ids)) if i not in grouped]
        self.groups: list[list[int]] = [group for group in groups if group]

    def of(self, pos: Position) -> bytes:
        """The key of ``pos``."""
        # (typed loops into one list of ints and one bytes() of it, no bytes per pile: the
        # compiled build runs the loops as C)
        piles = pos.piles
        down = pos.down
        codes: list[int] = []
        _end(codes, pos.redeals_used)
        for i in self.fixed:
            codes.extend(piles[i])
            d = down[i]
            if d <= _SHORT:  # (_end's common case, written out)
                codes.append(64 + d)
            else:
                _end(codes, d)
        for group in self.groups:
            members = [(piles[i], down[i]) for i in group]
            members.sort()
            for pile, d in members:
                codes.extend(pile)
                if d <= _SHORT:
                    codes.append(64 + d)
                else:
                    _end(codes, d)
        return bytes(codes)

    def __call__(self, pos: Position) -> bytes:
        return self.of(pos)


def key_function(rules: Rules) -> PositionKey:
    """The key of ``rules``' positions: pile contents with face-down counts, interchangeable
    piles sorted, and the redeals used (a :class:`PositionKey`, called as a function)."""
    return PositionKey(rules)
