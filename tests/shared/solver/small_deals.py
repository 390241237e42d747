"""Small deals of every variant, made from real ones: boards whose whole reachable graph
the plain search can build, yet narrow enough to hold lost positions.

Each keeps a real deal's order and leaves out cards that start home, so what is home
differs by suit (a card's safety then depends on it, as in a real game):

- Westhaven, Thumb and Pouch: three columns and two (the variants narrowed, same legal
  moves), per suit only the cards above a rank picked per suit;
- Gypsy: its own eight columns (its search reads eight) with two cards each, the rest
  of the high cards in the stock;
- Osmosis (either option): a few kept ranks per started suit, every other rank of those
  suits home in the order the foundations allow (each suit's base-rank card first), the
  suits not started kept whole; two cards per reserve, the rest in the stock.
"""

from __future__ import annotations

import hashlib

from shared.games import rules_for
from shared.position import Position
from shared.variants.base import Rules
from shared.variants.layout import GAP, Layout
from shared.variants.thumb_and_pouch import ThumbAndPouchRules
from shared.variants.westhaven import WesthavenRules

COLUMNS = ("t0", "t1", "t2")


class NarrowWesthaven(WesthavenRules):
    """Westhaven's rules on three columns: the same legal moves, a board small enough to
    search whole and narrow enough to be lost."""

    pile_ids = ("s", "w", "f0", "f1", "f2", "f3", *COLUMNS)
    layout = Layout.of(("s", "w", GAP, "f0", "f1", "f2", "f3"), COLUMNS, down=COLUMNS)


class NarrowThumbAndPouch(ThumbAndPouchRules):
    """Thumb and Pouch's rules on two columns: on three, its small deals are never lost
    without the moves from a foundation (the graphs leave those out)."""

    pile_ids = ("s", "w", "f0", "f1", "f2", "f3", *COLUMNS[:2])
    layout = Layout.of(("s", "w", GAP, "f0", "f1", "f2", "f3"), COLUMNS[:2], down=COLUMNS[:2])


NARROW: dict[str, type[Rules]] = {
    "westhaven": NarrowWesthaven,
    "thumb_and_pouch": NarrowThumbAndPouch,
}


def _digest(label: str, seed: int) -> bytes:
    return hashlib.sha256(f"{label}|{seed}".encode()).digest()


def lows_of(seed: int, low: int, spread: int) -> tuple[int, int, int, int]:
    """Per-suit ranks put home: ``low`` to ``low + spread``, picked from the seed."""
    digest = _digest("lows", seed)
    return (
        low + digest[0] % (spread + 1),
        low + digest[1] % (spread + 1),
        low + digest[2] % (spread + 1),
        low + digest[3] % (spread + 1),
    )


def _high_order(rules: Rules, seed: int, lows: tuple[int, int, int, int]) -> list[int]:
    return [c for c in rules_for(rules.id).numbered_order(seed) if c & 15 > lows[c >> 4]]


def _home_low_cards(rules: Rules, piles: list[list[int]], lows: tuple[int, ...]) -> None:
    f = 0
    for suit in range(4):
        for _ in range(rules.decks):
            if lows[suit]:
                piles[rules.foundations[f]] = [suit * 16 + r for r in range(1, lows[suit] + 1)]
                f += 1


def small_deal(rules: Rules, seed: int, lows: tuple[int, int, int, int]) -> Position:
    """The real deal ``seed``'s order (of the full variant) without the cards of suit s and
    rank ``lows[s]`` or lower, which start home. The columns (three, or Gypsy's eight) get
    two cards each, the lower one face down; the rest is the stock, in order."""
    order = _high_order(rules, seed, lows)
    piles: list[list[int]] = [[] for _ in rules.pile_ids]
    down = [0] * len(piles)
    tab = rules.tableau
    for k, card in enumerate(order[: 2 * len(tab)]):
        piles[tab[k % len(tab)]].append(card)
    for t in tab:
        down[t] = min(1, len(piles[t]) - 1) if piles[t] else 0
    stock = order[2 * len(tab) :]
    stock.reverse()
    piles[rules.stock] = stock
    down[rules.stock] = len(stock)
    _home_low_cards(rules, piles, lows)
    return Position(piles, down)


def small_osmosis(rules: Rules, seed: int, kept: int, started: int) -> Position:
    """Osmosis' deal ``seed`` cut down: its base card stays on f0; the first ``started``
    suits (the base suit, then the others in the order the deal shows them) are started
    with every rank home but ``kept`` ranks (the first ranks the deal shows, never the
    base rank), each foundation's base-rank card first; the other suits are kept whole.
    Every card left in play is dealt in the deal's order: two to each reserve (the lower
    face down), the rest to the stock."""
    order = rules.numbered_order(seed)
    base = order[16]
    base_suit, base_rank = base >> 4, base & 15
    suits = [base_suit]
    for card in order:
        if card >> 4 not in suits:
            suits.append(card >> 4)
    ranks: list[int] = []
    for card in order:
        rank = card & 15
        if rank != base_rank and rank not in ranks and len(ranks) < kept:
            ranks.append(rank)
    home_ranks = [base_rank] + [r for r in range(1, 14) if r != base_rank and r not in ranks]
    piles: list[list[int]] = [[] for _ in rules.pile_ids]
    f = rules.foundations
    for i, suit in enumerate(suits[:started]):
        piles[f[i]] = [suit * 16 + r for r in home_ranks]
    home = {card for i in range(started) for card in piles[f[i]]}
    rest = [c for c in order if c not in home]
    for k, card in enumerate(rest[:8]):
        piles[k % 4].append(card)
    stock = rest[8:]
    stock.reverse()
    stock_pile = rules.pile_ids.index("s")
    piles[stock_pile] = stock
    down = [0] * len(piles)
    for r in range(4):
        down[r] = min(1, len(piles[r]) - 1) if piles[r] else 0
    down[stock_pile] = len(stock)
    return Position(piles, down)
