"""Shuffled decks: the order in which a seed's cards are dealt.

The first card of the returned list is the first card dealt. Variants decide
where each card goes.
"""

from __future__ import annotations

from shared.cards import deck
from shared.errors import InvalidOptions
from shared.rng import MT19937, MicrosoftRand

MIN_SEED = 1
MAX_SEED = 2**31 - 1


def check_seed(seed: object) -> int:
    """Seeds are integers from 1 to 2**31 - 1 (rules.md, Deals)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not MIN_SEED <= seed <= MAX_SEED:
        raise InvalidOptions(f"seed {seed!r} is not an integer from {MIN_SEED} to {MAX_SEED}")
    return seed


def microsoft_deal(seed: int) -> list[int]:
    """Microsoft FreeCell game ``seed``: the 52 cards in dealing order (card k to t(k mod 8))."""
    rng = MicrosoftRand(seed)
    # Microsoft's deck is indexed rank * 4 + suit, suits in the order C, D, H, S.
    cards = [suit * 16 + rank for rank in range(1, 14) for suit in range(4)]
    dealt: list[int] = []
    while cards:
        j = rng.rand() % len(cards)
        dealt.append(cards[j])
        cards[j] = cards[-1]
        cards.pop()
    return dealt


def aisleriot_deal(seed: int, decks: int = 1) -> list[int]:
    """Aisleriot's shuffle of ``decks`` unshuffled decks: the cards in dealing order."""
    rng = MT19937(seed)
    cards = deck() * decks
    n = len(cards)
    for i in range(n):
        j = i + rng.rand(n - i)
        cards[i], cards[j] = cards[j], cards[i]
    cards.reverse()
    return cards
