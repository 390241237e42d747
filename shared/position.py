"""The mutable board a variant's rules act on."""

from __future__ import annotations

from shared.cards import NAME


class Position:
    """Piles of card codes (bottom to top) with the count of face-down cards under each.

    ``down[i]`` cards at the bottom of pile ``i`` are face down; the stock is
    all face down. ``redeals_used`` counts turns of the waste back into the
    stock. Everything a variant needs is here, so that a position can be
    copied, compared and hashed cheaply.
    """

    __slots__ = ("down", "piles", "redeals_used")

    def __init__(self, piles: list[list[int]], down: list[int], redeals_used: int = 0) -> None:
        self.piles = piles
        self.down = down
        self.redeals_used = redeals_used

    def copy(self) -> Position:
        # (a comprehension, which the compiled build runs as a C loop of list slices)
        return Position([pile[:] for pile in self.piles], self.down[:], self.redeals_used)

    def key(self) -> tuple[object, ...]:
        """A hashable value equal for equal positions."""
        return (tuple(map(tuple, self.piles)), tuple(self.down), self.redeals_used)

    def __reduce__(self) -> tuple[type[Position], tuple[list[list[int]], list[int], int]]:
        """Pickles the same from either build (a compiled class has no ``__dict__``)."""
        return Position, (self.piles, self.down, self.redeals_used)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        parts = []
        for pile, down in zip(self.piles, self.down, strict=True):
            cards = [NAME[c] for c in pile]
            parts.append(" ".join(["?" + c for c in cards[:down]] + cards[down:]))
        return f"Position({parts!r}, redeals_used={self.redeals_used})"
