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
tuples hashed, compared and was walked item by item. Each pile is written as
its card codes (all below 64) followed by one byte at 64 or above that ends it
and says how many of its cards lie face down (:func:`_count`); the
interchangeable piles of a kind are sorted as such parts. So two keys are
equal exactly when the redeals used, every other pile and each kind's multiset
of piles (cards and face-down count) are equal.

:data:`COMPILED_KEY` is the same function in C (``_keys.c``), built where the
install had a C compiler and loaded in the compiled build only: it makes the
very same bytes (the tests compare the two), so a search counts the same
positions with either; :meth:`PositionKey.of` uses it where it was built.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from shared.position import Position
from shared.variants.base import Rules

Key = bytes

#: the largest count written in one byte (64 + count, at most 254); above it, 255 and 4 bytes
_SHORT: Final = 190


def _count(n: int) -> bytes:
    """A count as the end of a pile's part of a key: one byte at 64 or above (no card
    code is), or for a count above 190 the byte 255 and the count in four bytes."""
    if n <= _SHORT:
        return bytes((64 + n,))
    return b"\xff" + n.to_bytes(4, "little")


#: _count(n) made once for the counts a pile can have
COUNTS: Final[tuple[bytes, ...]] = tuple(_count(n) for n in range(_SHORT + 1))


#: key(piles, down, redeals, fixed, groups): :meth:`PositionKey.python_of` in C
CompiledKey = Callable[[list[list[int]], list[int], int, list[int], list[list[int]]], bytes]

#: the key in C (``_keys.c``), or None where it was not built (or in the pure build)
COMPILED_KEY: CompiledKey | None = None
try:
    from shared.variants import _keys
except ImportError:  # not built here, or the pure build: the Python copy does the same
    pass
else:
    COMPILED_KEY = _keys.key


class PositionKey:
    """The key of ``rules``' positions (see the module docstring), as a callable object:
    the compiled searches call :meth:`of` directly. ``native``: use :data:`COMPILED_KEY`
    where it was built (the same bytes, about three times sooner)."""

    def __init__(self, rules: Rules, native: bool = True, canonical: bool = True) -> None:
        """``canonical=False``: no pile is taken as interchangeable, so two keys are equal
        exactly when the positions are (as :meth:`Position.key`), in one bytes."""
        groups = [
            [i for i, pid in enumerate(rules.pile_ids) if pid[0] == kind]
            for kind in (rules.interchangeable if canonical else ())
        ]
        grouped = {i for group in groups for i in group}
        self.fixed: list[int] = [i for i in range(len(rules.pile_ids)) if i not in grouped]
        self.groups: list[list[int]] = [group for group in groups if group]
        self.compiled: CompiledKey | None = COMPILED_KEY if native else None

    def of(self, pos: Position) -> bytes:
        """The key of ``pos``."""
        compiled = self.compiled
        if compiled is not None:
            return compiled(pos.piles, pos.down, pos.redeals_used, self.fixed, self.groups)
        return self.python_of(pos)

    def python_of(self, pos: Position) -> bytes:
        """The key of ``pos``, in Python: the reference :data:`COMPILED_KEY` is tested
        against, and the key wherever that was not built."""
        # (one bytes per pile and one join; measured against one list of every code made
        # into bytes at once, which costs more in both builds)
        piles = pos.piles
        down = pos.down
        counts = COUNTS
        redeals = pos.redeals_used
        parts: list[bytes] = [counts[redeals] if redeals <= _SHORT else _count(redeals)]
        for i in self.fixed:
            d = down[i]
            parts.append(bytes(piles[i]))
            parts.append(counts[d] if d <= _SHORT else _count(d))
        for group in self.groups:
            members = [
                bytes(piles[i]) + (counts[down[i]] if down[i] <= _SHORT else _count(down[i]))
                for i in group
            ]
            members.sort()
            parts.extend(members)
        return b"".join(parts)

    def __call__(self, pos: Position) -> bytes:
        return self.of(pos)


def key_function(rules: Rules) -> PositionKey:
    """The key of ``rules``' positions: pile contents with face-down counts, interchangeable
    piles sorted, and the redeals used (a :class:`PositionKey`, called as a function)."""
    return PositionKey(rules)
