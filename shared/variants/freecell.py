"""Freecell: four free cells, eight columns, every card face up, Microsoft's deal numbers.

The supermove limit and the safe-autoplay rule are Aisleriot's (rules.md, Freecell).
"""

from __future__ import annotations

from typing import ClassVar

from shared.cards import NAME, RANK, RED, SUIT, is_build_step
from shared.deals import microsoft_deal
from shared.position import Position
from shared.variants.base import DEAL, InternalMove, Rules

FREE_CELLS = ("r0", "r1", "r2", "r3")
FOUNDATIONS = ("f0", "f1", "f2", "f3")
TABLEAU = tuple(f"t{i}" for i in range(8))


def move_limit(empty_cells: int, empty_piles: int) -> int:
    """Cards one move may carry: (empty cells + 1) * 2 ** empty piles.

    ``empty_piles`` must already leave out the destination, and the source
    when the move empties it.
    """
    return (empty_cells + 1) << empty_piles


def build_length(pile: list[int]) -> int:
    """Cards at the top of ``pile`` that form one alternate-colour, one-down build."""
    length = 1
    size = len(pile)
    while length < size and is_build_step(pile[-length - 1], pile[-length]):
        length += 1
    return length


def is_safe(card: int, highest: list[int]) -> bool:
    """Aisleriot's safe-autoplay test, with ``highest`` the top rank on the foundations per suit."""
    rank = RANK[card]
    black = min(highest[0], highest[3])
    red = min(highest[1], highest[2])
    if RED[card]:
        return rank <= min(2 + black, 3 + red)
    return rank <= min(2 + red, 3 + black)


class FreecellRules(Rules):
    id = "freecell"
    name = "Freecell"
    option_defaults: ClassVar = {"autoplay": True}
    max_score = 52
    pile_ids = FREE_CELLS + FOUNDATIONS + TABLEAU

    def configure(self) -> None:
        self.autoplay = bool(self.options["autoplay"])

    def deal(self, seed: int) -> Position:
        piles: list[list[int]] = [[] for _ in self.pile_ids]
        for k, card in enumerate(microsoft_deal(seed)):
            piles[self.tableau[k % 8]].append(card)
        # Autoplay follows moves (rules.md), not the deal: the deal is Microsoft's layout as is.
        return Position(piles, [0] * len(piles))

    # -- legal moves (fast) ----------------------------------------------------

    def legal(self, pos: Position) -> list[InternalMove]:
        piles = pos.piles
        cells = self.reserves
        foundations = self.foundations
        tableau = self.tableau
        empty_cells = [c for c in cells if not piles[c]]
        n_cells = len(empty_cells)
        n_empty = sum(1 for t in tableau if not piles[t])
        wanted: dict[int, list[int]] = {}
        for f in foundations:
            fp = piles[f]
            if fp:
                if len(fp) < 13:
                    wanted[fp[-1] + 1] = [f]
            else:
                for suit in range(4):
                    wanted.setdefault(suit * 16 + 1, []).append(f)
        # The source is never among the empty piles (it holds the cards that move),
        # so only the destination changes the count.
        limit = move_limit(n_cells, n_empty)
        limit_to_empty = move_limit(n_cells, n_empty - 1) if n_empty else 0
        moves: list[InternalMove] = []
        append = moves.append
        for c in cells:
            pile = piles[c]
            if not pile:
                continue
            card = pile[-1]
            for e in empty_cells:
                append((c, 1, e))
            for f in wanted.get(card, ()):
                append((c, 1, f))
            rank = RANK[card]
            red = RED[card]
            for t in tableau:
                tp = piles[t]
                if not tp or (RANK[tp[-1]] == rank + 1 and RED[tp[-1]] != red):
                    append((c, 1, t))
        for s in tableau:
            pile = piles[s]
            if not pile:
                continue
            top = pile[-1]
            for e in empty_cells:
                append((s, 1, e))
            for f in wanted.get(top, ()):
                append((s, 1, f))
            run = build_length(pile)
            top_rank = RANK[top]
            for t in tableau:
                if t == s:
                    continue
                tp = piles[t]
                if tp:
                    under = tp[-1]
                    n = RANK[under] - top_rank
                    if 1 <= n <= run and RED[pile[-n]] != RED[under] and n <= limit:
                        append((s, n, t))
                else:
                    for n in range(1, min(run, limit_to_empty) + 1):
                        append((s, n, t))
        return moves

    # -- the rules, plainly ----------------------------------------------------

    def why_illegal(self, pos: Position, move: InternalMove) -> str | None:
        if move == DEAL:
            return "Freecell has no stock"
        src, count, dst = move
        ids = self.pile_ids
        reason = self.basic_reason(pos, move)
        if reason:
            return reason
        if self.is_foundation[src]:
            return "cards on the foundations are out of play in Freecell"
        pile = pos.piles[src]
        cards = pile[-count:]
        reason = self.build_reason(cards)
        if reason:
            return reason
        if self.is_foundation[dst]:
            return self.to_foundation_reason(pos, cards, dst)
        if dst in self.reserves:
            if count > 1:
                return "a free cell holds one card"
            if pos.piles[dst]:
                return f"free cell {ids[dst]} is not empty"
            return None
        target = pos.piles[dst]
        if target and not is_build_step(target[-1], cards[0]):
            return (
                f"{NAME[cards[0]]} cannot go on {NAME[target[-1]]}: "
                "needs the other colour, one rank lower"
            )
        empty_cells = sum(1 for c in self.reserves if not pos.piles[c])
        empty_piles = sum(
            1 for t in self.tableau if not pos.piles[t] and t != dst and t != src
        )
        limit = move_limit(empty_cells, empty_piles)
        if count > limit:
            return (
                f"{count} cards cannot move at once: with {empty_cells} empty free cells and "
                f"{empty_piles} other empty columns the limit is {limit}"
            )
        return None

    # -- automatic play ----------------------------------------------------------

    def after_move(self, pos: Position) -> None:
        if not self.autoplay:
            return
        piles = pos.piles
        sources = self.reserves + self.tableau
        foundations = self.foundations
        while True:
            highest = [0, 0, 0, 0]
            for f in foundations:
                fp = piles[f]
                if fp:
                    highest[SUIT[fp[0]]] = len(fp)
            for src in sources:
                pile = piles[src]
                if not pile:
                    continue
                card = pile[-1]
                if RANK[card] != highest[SUIT[card]] + 1 or not is_safe(card, highest):
                    continue
                f = self.first_foundation(pos, card)
                if f >= 0:
                    piles[f].append(pile.pop())
                    break
            else:
                return

    def quick_progress(self, pos: Position) -> bool:
        """A card its foundation wants can be dug out by single-card moves that are surely legal.

        Each card above it goes to an empty free cell, an empty column, or a
        column top of the other colour one rank higher (which then becomes
        that column's top). Every step is a legal move and none touches the
        foundations, so the wanted card stays wanted and then goes up: a
        proof that the position is not stuck.
        """
        piles = pos.piles
        highest = [0, 0, 0, 0]
        for f in self.foundations:
            if piles[f]:
                highest[SUIT[piles[f][0]]] = len(piles[f])
        free = sum(1 for c in self.reserves if not piles[c])
        tableau = self.tableau
        free += sum(1 for t in tableau if not piles[t])
        for t in tableau:
            pile = piles[t]
            for depth in range(len(pile)):
                card = pile[-1 - depth]
                if RANK[card] != highest[SUIT[card]] + 1:
                    continue
                if depth <= free:
                    return True
                if self._dig(piles, t, depth, free):
                    return True
                break
        return False

    def _dig(self, piles: list[list[int]], column: int, depth: int, free: int) -> bool:
        # Column tops as they change: a card placed on a top becomes the new top.
        tops = {t: piles[t][-1] for t in self.tableau if piles[t] and t != column}
        pile = piles[column]
        for k in range(1, depth + 1):
            card = pile[-k]
            rank = RANK[card] + 1
            red = RED[card]
            for t, top in tops.items():
                if RANK[top] == rank and RED[top] != red:
                    tops[t] = card
                    break
            else:
                if not free:
                    return False
                free -= 1
        return True
