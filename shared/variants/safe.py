"""Foundation moves no winning line can regret: the variants' ``safe_move`` tests.

A card is safe to send home when no card still out can ever need it as the
card to build on (Horne's rule for Freecell, carried over to each variant's
build rule): the cards that go on rank r are rank r - 1 of the other colour
(Westhaven, Gypsy) or of another suit (Thumb and Pouch), and once all of those
are home, a line that keeps the card out can send it home now instead. Aces
and twos are always safe: an ace always has a foundation to go to.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from shared.cards import RANK, RED, SUIT
from shared.position import Position

#: the suits of the cards that lie on a card of each colour in an alternate-colour build
#: (index: RED[card])
OTHER_COLOUR: Final[tuple[tuple[int, ...], tuple[int, ...]]] = ((1, 2), (0, 3))


def home_counts(pos: Position, foundations: Iterable[int]) -> list[list[int]]:
    """counts[suit][rank]: copies of that card on the foundations."""
    counts = [[0] * 14 for _ in range(4)]
    for f in foundations:
        for card in pos.piles[f]:
            counts[SUIT[card]][RANK[card]] += 1
    return counts


def nothing_builds_on(
    card: int, pos: Position, foundations: Iterable[int], suits: Iterable[int], copies: int = 1
) -> bool:
    """Every copy of the cards one rank lower in ``suits`` (the ones that could be built
    on ``card``) is home, or ``card`` is an ace or a two: sending it home is safe."""
    rank = RANK[card]
    if rank <= 2:
        return True
    counts = home_counts(pos, foundations)
    return all(counts[s][rank - 1] >= copies for s in suits)


def other_colour(card: int) -> tuple[int, ...]:
    """The suits of the other colour than ``card``'s."""
    return OTHER_COLOUR[RED[card]]


def other_suits(card: int) -> tuple[int, ...]:
    """Every suit but ``card``'s."""
    return tuple(s for s in range(4) if s != SUIT[card])
