"""Thumb and Pouch: seven columns built down in any other suit, one-card stock, two redeals.

Aisleriot's rules (rules.md, Thumb and Pouch). Unlike Klondike, any face-up
card may be picked up with everything above it (no build needed), and the
foundations stay in play: their top card may go back to the tableau, or an
ace to another empty foundation. The foundations follow the common rule.
"""

from __future__ import annotations

from typing import ClassVar

from shared.cards import NAME, RANK, SUIT
from shared.deals import aisleriot_deal
from shared.position import Position
from shared.variants.base import DEAL, InternalMove, Rules

FOUNDATIONS = ("f0", "f1", "f2", "f3")
TABLEAU = tuple(f"t{i}" for i in range(7))
#: the ace of each suit, the cards an empty foundation takes
ACES = (1, 17, 33, 49)


def other_suit_down(under: int, card: int) -> bool:
    """``card`` may lie on ``under`` on the tableau: one rank lower, any other suit."""
    return RANK[card] + 1 == RANK[under] and SUIT[card] != SUIT[under]


class ThumbAndPouchRules(Rules):
    id = "thumb_and_pouch"
    name = "Thumb and Pouch"
    option_defaults: ClassVar = {}
    max_score = 52
    pile_ids = ("s", "w", *FOUNDATIONS, *TABLEAU)
    card_count = 52
    deal_count = 1
    max_redeals = 2

    def deal(self, seed: int) -> Position:
        cards = aisleriot_deal(seed)
        piles: list[list[int]] = [[] for _ in self.pile_ids]
        tableau = self.tableau
        k = 0
        # Round r gives one face-down card to each of t_r .. t6, left to right.
        for r in range(len(tableau)):
            for t in tableau[r:]:
                piles[t].append(cards[k])
                k += 1
        down = [0] * len(piles)
        for t in tableau:
            down[t] = len(piles[t]) - 1
        # The next card to be dealt lies on top of the stock, at the end of its list.
        piles[self.stock] = cards[k:][::-1]
        down[self.stock] = len(piles[self.stock])
        return Position(piles, down)

    # -- legal moves (fast) ----------------------------------------------------

    def _tableau_takers(self, pos: Position) -> tuple[dict[int, list[int]], list[int]]:
        """Card code -> the non-empty tableau piles it may go on; and the empty tableau piles."""
        piles = pos.piles
        takers: dict[int, list[int]] = {}
        empties: list[int] = []
        for t in self.tableau:
            tp = piles[t]
            if not tp:
                empties.append(t)
                continue
            under = tp[-1]
            rank = under & 15
            if rank > 1:
                suit = under >> 4
                for s in (0, 1, 2, 3):
                    if s != suit:
                        takers.setdefault(s * 16 + rank - 1, []).append(t)
        return takers, empties

    def _foundation_takers(self, pos: Position) -> dict[int, list[int]]:
        """Card code -> the foundations that take it now (the common rule)."""
        piles = pos.piles
        wanted: dict[int, list[int]] = {}
        for f in self.foundations:
            fp = piles[f]
            if fp:
                if RANK[fp[-1]] < 13:
                    wanted.setdefault(fp[-1] + 1, []).append(f)
            else:
                for ace in ACES:
                    wanted.setdefault(ace, []).append(f)
        return wanted

    def legal(self, pos: Position) -> list[InternalMove]:
        piles = pos.piles
        down = pos.down
        takers, empties = self._tableau_takers(pos)
        wanted = self._foundation_takers(pos)
        moves: list[InternalMove] = []
        append = moves.append
        # One-card sources: the waste top and every foundation top.
        waste = self.waste
        for src in (waste, *self.foundations):
            pile = piles[src]
            if not pile:
                continue
            card = pile[-1]
            for f in wanted.get(card, ()):
                if f != src:
                    append((src, 1, f))
            for t in takers.get(card, ()):
                append((src, 1, t))
            for t in empties:
                append((src, 1, t))
        for s in self.tableau:
            pile = piles[s]
            size = len(pile)
            if not size:
                continue
            for f in wanted.get(pile[-1], ()):
                append((s, 1, f))
            for i in range(down[s], size):
                count = size - i
                for t in takers.get(pile[i], ()):
                    if t != s:
                        append((s, count, t))
                for t in empties:
                    append((s, count, t))
        if self.can_use_stock(pos):
            append(DEAL)
        return moves

    # -- the rules, plainly ----------------------------------------------------

    def why_illegal(self, pos: Position, move: InternalMove) -> str | None:
        if move == DEAL:
            return self.stock_reason(pos)
        src, count, dst = move
        ids = self.pile_ids
        if src == self.stock:
            return "cards leave the stock only by 'deal'"
        if dst == self.stock or dst == self.waste:
            return f"nothing is ever placed on {'the stock' if dst == self.stock else 'the waste'}"
        reason = self.basic_reason(pos, move)
        if reason:
            return reason
        if count > 1 and src not in self.tableau:
            return f"only the top card of {ids[src]} can move"
        cards = pos.piles[src][-count:]
        if self.is_foundation[dst]:
            if count > 1:
                return "one card at a time goes to a foundation"
            return self.foundation_reason(pos, cards[0], dst)
        target = pos.piles[dst]
        if not target:
            return None
        under, card = target[-1], cards[0]
        if RANK[card] + 1 != RANK[under]:
            return f"{NAME[card]} cannot go on {NAME[under]}: needs one rank lower"
        if SUIT[card] == SUIT[under]:
            return f"{NAME[card]} cannot go on {NAME[under]}: needs a different suit"
        return None

    # -- the stuck check's shortcut --------------------------------------------

    def quick_progress(self, pos: Position) -> bool:
        """Proofs that some card not on a foundation can still reach one.

        A card a foundation takes now (``wanted``) stays wanted while only
        the stock and the tableau change, so each of these proves progress:
        it is in the stock (deals alone bring it up); it is in the waste and
        a redeal is left; it lies right under the waste top and that top can
        go to the tableau; or it lies in a tableau pile under a group (the
        cards above it, which may always be picked up together) that another
        pile or an empty pile takes.
        """
        piles = pos.piles
        wanted = self._foundation_takers(pos)
        stock = piles[self.stock]
        for card in stock:
            if card in wanted:
                return True
        waste = piles[self.waste]
        takers, empties = self._tableau_takers(pos)
        if waste:
            max_redeals = self.max_redeals
            if max_redeals is None or pos.redeals_used < max_redeals:
                for card in waste:
                    if card in wanted:
                        return True
            if len(waste) >= 2 and waste[-2] in wanted and (empties or waste[-1] in takers):
                return True
        down = pos.down
        for t in self.tableau:
            pile = piles[t]
            # The group above index i can be picked up when pile[i + 1] is face up.
            for i in range(max(down[t] - 1, 0), len(pile) - 1):
                if pile[i] in wanted:
                    if empties:
                        return True
                    for u in takers.get(pile[i + 1], ()):
                        if u != t:
                            return True
        return False
