"""Foundation moves no winning line can regret, per variant: the search plays them alone.

A card is safe to send home when no card still out can ever need it as the
card to build on (Horne's rule for Freecell, carried over to each variant's
build rule): the cards that go on rank r are rank r - 1 of the other colour
(Westhaven, Gypsy) or of another suit (Thumb and Pouch), and once all of those
are home, a line that keeps the card out can send it home now instead. Aces
and twos are always safe: an ace always has a foundation to go to. In Osmosis
with one card per deal nothing is ever built, and a card sent onto a started
foundation only adds to the ranks the next foundation takes (a stock pass still
turns every other card), so that move is safe; starting a foundation is not, as
it fixes which suit comes next. With three cards per deal a card leaving the
waste changes which cards surface, so none is forced.
"""

from __future__ import annotations

from collections.abc import Callable

from shared.cards import RANK, RED, SUIT
from shared.position import Position
from shared.variants.base import InternalMove, Rules

SafeTest = Callable[[Position, InternalMove], bool]


def _home_counts(rules: Rules, pos: Position) -> list[list[int]]:
    """counts[suit][rank]: copies of that card on the foundations."""
    counts = [[0] * 14 for _ in range(4)]
    for f in rules.foundations:
        for card in pos.piles[f]:
            counts[SUIT[card]][RANK[card]] += 1
    return counts


def safe_test(rules: Rules) -> SafeTest | None:
    """The variant's safe-move test, or None when no foundation move is forced."""
    variant = rules.id
    if variant == "osmosis":
        if rules.deal_count != 1:
            return None
        return lambda pos, move: bool(pos.piles[move[2]])
    if variant in ("westhaven", "gypsy"):
        copies = 2 if variant == "gypsy" else 1

        def alternate(pos: Position, move: InternalMove) -> bool:
            card = pos.piles[move[0]][-1]
            rank = RANK[card]
            if rank <= 2:
                return True
            counts = _home_counts(rules, pos)
            others = (0, 3) if RED[card] else (1, 2)
            return all(counts[s][rank - 1] >= copies for s in others)

        return alternate
    if variant == "thumb_and_pouch":

        def other_suit(pos: Position, move: InternalMove) -> bool:
            card = pos.piles[move[0]][-1]
            rank = RANK[card]
            if rank <= 2:
                return True
            counts = _home_counts(rules, pos)
            return all(counts[s][rank - 1] for s in range(4) if s != SUIT[card])

        return other_suit
    return None
