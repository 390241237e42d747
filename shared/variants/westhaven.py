"""Westhaven: ten columns over face-down cards, one pass through the stock (docs/rules.md).

What makes Westhaven hard is its pick-up rule: a column gives up only its top
card or its whole face-up part, never a piece of a run, and the stock is dealt
once, one card at a time.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, NamedTuple

from shared.build import mypyc_attr
from shared.cards import ALTERNATE_BUILDS, NAME, RANK, RED
from shared.position import Position
from shared.variants.base import DEAL, InternalMove, Rules
from shared.variants.layout import GAP, Layout
from shared.variants.piles import DEAL_OBJECT, LONGEST_BUILD, MOVE_OBJECTS
from shared.variants.safe import nothing_builds_on, other_colour

FOUNDATIONS = ("f0", "f1", "f2", "f3")
TABLEAU = tuple(f"t{i}" for i in range(10))
#: cards dealt face down to each column before the face-up row (docs/rules.md: cards 1-20)
DOWN_ROWS: Final = 2


def _cards_it_goes_on(card: int) -> tuple[int, ...]:
    """The two cards ``card`` may be built on: one rank higher, the other colour."""
    rank = card & 15
    if not 1 <= rank <= 12:
        return ()
    suits = (0, 3) if RED[card] else (1, 2)
    return tuple(suit * 16 + rank + 1 for suit in suits)


#: for each card code, the tableau tops it may be dropped on (looked up, not computed, in legal)
GOES_ON: Final[tuple[tuple[int, ...], ...]] = tuple(_cards_it_goes_on(c) for c in range(64))


class Supply(NamedTuple):
    """Copies of the stock and the waste, for a line of play tried by quick_progress."""

    stock: list[int]
    waste: list[int]


@mypyc_attr(allow_interpreted_subclasses=True)  # (tests narrow a variant in Python)
class WesthavenRules(Rules):
    id = "westhaven"
    name = "Westhaven"
    option_defaults: ClassVar = {}
    max_score = 52
    pile_ids = ("s", "w", *FOUNDATIONS, *TABLEAU)
    layout = Layout.of(("s", "w", GAP, *FOUNDATIONS), TABLEAU, down=TABLEAU)
    solver_search = "waste"
    #: the stock feeds a waste, so no rule tells the columns apart; any ace starts any
    #: foundation
    interchangeable = ("t", "f")
    daily_positions = 15_000
    builds_on = ALTERNATE_BUILDS
    pick_up = "top_or_all"
    deal_count = 1
    max_redeals: int | None = 0

    def lay_out(self, order: list[int]) -> Position:
        piles: list[list[int]] = [[] for _ in self.pile_ids]
        down = [0] * len(piles)
        columns = len(self.tableau)
        dealt = columns * (DOWN_ROWS + 1)
        for k, card in enumerate(order[:dealt]):
            piles[self.tableau[k % columns]].append(card)
        for t in self.tableau:
            down[t] = DOWN_ROWS
        # The next card to be dealt lies on top of the stock, at the end of its list.
        stock = order[dealt:]
        stock.reverse()
        piles[self.stock] = stock
        down[self.stock] = len(stock)
        return Position(piles, down)

    # -- legal moves (fast) ----------------------------------------------------

    def legal(self, pos: Position) -> list[InternalMove]:
        # Lists indexed by card code, not dicts: the compiled build runs this as plain C.
        piles = pos.piles
        down = pos.down
        # card -> the column it is the top card of, or -1
        top_at = [-1] * 64
        empties: list[int] = []
        for t in self.tableau:
            tp = piles[t]
            if tp:
                top_at[tp[-1]] = t
            else:
                empties.append(t)
        empty_f: list[int] = []
        # card -> the foundation it goes on next, or -1
        next_f = [-1] * 64
        for f in self.foundations:
            fp = piles[f]
            if not fp:
                empty_f.append(f)
            elif RANK[fp[-1]] < 13:
                next_f[fp[-1] + 1] = f
        # The listed moves are the prebuilt tuples of MOVE_OBJECTS, as objects (no tuple
        # made per move: see there).
        moves: list[Any] = []
        if piles[self.stock]:
            moves.append(DEAL_OBJECT)
        goes_on = GOES_ON
        waste = self.waste
        wp = piles[waste]
        if wp:
            one = MOVE_OBJECTS[waste][1]
            card = wp[-1]
            if RANK[card] == 1:
                for f in empty_f:
                    moves.append(one[f])
            elif next_f[card] >= 0:
                moves.append(one[next_f[card]])
            for under in goes_on[card]:
                t = top_at[under]
                if t >= 0:
                    moves.append(one[t])
            for e in empties:
                moves.append(one[e])
        for s in self.tableau:
            pile = piles[s]
            up = len(pile) - down[s]
            if up <= 0:
                continue
            by_count = MOVE_OBJECTS[s]
            one = by_count[1]
            card = pile[-1]
            if RANK[card] == 1:
                for f in empty_f:
                    moves.append(one[f])
            elif next_f[card] >= 0:
                moves.append(one[next_f[card]])
            for under in goes_on[card]:
                t = top_at[under]
                if t >= 0:
                    moves.append(one[t])
            for e in empties:
                moves.append(one[e])
            if up > 1:
                # (a face-up part is a build, 13 cards at most: MOVES has them all)
                whole = by_count[up] if up <= LONGEST_BUILD else None
                for under in goes_on[pile[-up]]:
                    t = top_at[under]
                    if t >= 0 and t != s:
                        moves.append(whole[t] if whole is not None else (s, up, t))
                for e in empties:
                    moves.append(whole[e] if whole is not None else (s, up, e))
        return moves

    # -- the rules, plainly ----------------------------------------------------

    def why_illegal(self, pos: Position, move: InternalMove) -> str | None:
        if move == DEAL:
            if pos.piles[self.stock]:
                return None
            return "the stock is empty and westhaven deals it only once"
        src, count, dst = move
        ids = self.pile_ids
        if src == self.stock:
            return "cards leave the stock only by deal"
        if self.is_foundation[src]:
            return "cards on the foundations are out of play in westhaven"
        reason = self.basic_reason(pos, move)
        if reason:
            return reason
        if dst == self.stock or dst == self.waste:
            return f"nothing can be put on {ids[dst]}"
        pile = pos.piles[src]
        if src == self.waste and count > 1:
            return "only the top card of the waste can move"
        up = len(pile) - pos.down[src]
        if count not in (1, up):
            return (
                f"from {ids[src]} only the top card or the whole face-up part "
                f"({up} cards) can move, never part of a run"
            )
        card = pile[-count]
        if self.is_foundation[dst]:
            if count > 1:
                return "one card at a time goes to a foundation"
            return self.foundation_reason(pos, card, dst)
        target = pos.piles[dst]
        if not target:
            return None
        under = target[-1]
        if RED[card] == RED[under]:
            return f"{NAME[card]} cannot go on {NAME[under]}: needs the other colour"
        if RANK[card] + 1 != RANK[under]:
            return f"{NAME[card]} cannot go on {NAME[under]}: needs one rank lower"
        return None

    def safe_move(self, pos: Position, move: InternalMove) -> bool:
        """Both cards that could be built on this one (one rank lower, the other colour)
        are home."""
        card = pos.piles[move[0]][-1]
        return nothing_builds_on(card, pos, self.foundations, other_colour(card))

    # -- stuck check -----------------------------------------------------------

    def quick_progress(self, pos: Position) -> bool:
        """Proof by example: a short line of legal moves that brings a wanted card to a top.

        Dealing never changes the foundations, so a wanted card in the stock
        will reach the waste top. A wanted card under other cards is dug out
        greedily on a copy of the columns: each card or face-up part above it
        goes to a column whose top takes it, else to an empty column, else a
        whole all-face-up column is first moved onto another to empty it.
        Every step is a legal move, so success is a proof; failure proves
        nothing.
        """
        piles = pos.piles
        wanted: list[int] = []
        aces = False
        for f in self.foundations:
            fp = piles[f]
            if not fp:
                aces = True
            elif RANK[fp[-1]] < 13:
                wanted.append(fp[-1] + 1)
        if aces:
            wanted.extend((1, 17, 33, 49))
        stock = piles[self.stock]
        waste = piles[self.waste]
        for card in wanted:
            if card in stock:
                return True
        # The common case first, without copying: a wanted card right under a top card
        # that has a column to go to.
        tops: set[int] = set()
        empty = False
        for t in self.tableau:
            tp = piles[t]
            if tp:
                tops.add(tp[-1])
            else:
                empty = True
        goes_on = GOES_ON
        for t in (self.waste, *self.tableau):
            pile = piles[t]
            if (
                len(pile) > 1
                and pile[-2] in wanted
                and len(pile) > pos.down[t]
                and (empty or not tops.isdisjoint(goes_on[pile[-1]]))
            ):
                return True
        for card in wanted:
            if card in waste:
                if self._dig(pos, self.waste, waste.index(card)):
                    return True
                continue
            for t in self.tableau:
                pile = piles[t]
                if card in pile:
                    if self._dig(pos, t, pile.index(card)):
                        return True
                    break
        return False

    def _dig(self, pos: Position, src: int, index: int) -> bool:
        """Play legal moves on a copy until the card at ``index`` of pile ``src`` is on top."""
        tableau = self.tableau
        piles = {t: pos.piles[t][:] for t in tableau}
        down = {t: pos.down[t] for t in tableau}
        waste = src == self.waste
        digging = pos.piles[src][: index + 1] if waste else piles[src]
        extra = len(pos.piles[src]) - index - 1 if waste else 0
        # Dealing would bury a card dug out of the waste; for a column it only brings cards.
        supply = None if waste else Supply(pos.piles[self.stock][:], pos.piles[self.waste][:])
        for _ in range(40):
            if waste:
                if not extra:
                    return True
                card = pos.piles[src][index + extra]
                count = 1
            else:
                n = len(digging)
                if n == index + 1:
                    return True
                up = n - down[src]
                if up <= 0:
                    return False
                # The whole face-up part when it sits right on the card, else the top card.
                count = up if n - up == index + 1 else 1
                card = digging[-count]
            dst = self._place(piles, src, card, supply)
            if dst < 0 and count > 1:
                count = 1
                card = digging[-1]
                dst = self._place(piles, src, card, supply)
            if dst < 0:
                if not self._empty_one(piles, down, src, supply):
                    return False
                continue
            if waste:
                extra -= 1
                piles[dst].append(card)
            else:
                piles[dst].extend(digging[-count:])
                del digging[-count:]
                if down[src] >= len(digging):
                    down[src] = len(digging) - 1
        return False

    def _place(
        self, piles: dict[int, list[int]], src: int, card: int, supply: Supply | None
    ) -> int:
        """A column other than ``src`` that takes ``card`` now: a fitting top, else an empty
        column, else a column given a fitting top dealt from the stock."""
        wants = GOES_ON[card]
        empty = -1
        for t, pile in piles.items():
            if t == src:
                continue
            if not pile:
                if empty < 0:
                    empty = t
            elif pile[-1] in wants:
                return t
        if empty >= 0 or supply is None:
            return empty
        for under in wants:
            t = self._fetch(piles, supply, under, src, src)
            if t >= 0:
                return t
        return -1

    def _fetch(
        self, piles: dict[int, list[int]], supply: Supply, card: int, avoid1: int, avoid2: int
    ) -> int:
        """Deal until ``card`` tops the waste (unless it does already) and move it onto a
        column (not an avoided one) whose top takes it: that column, or -1."""
        stock, waste = supply
        on_waste = bool(waste) and waste[-1] == card
        if not on_waste and card not in stock:
            return -1
        wants = GOES_ON[card]
        for t, pile in piles.items():
            if t != avoid1 and t != avoid2 and pile and pile[-1] in wants:
                if not on_waste:
                    # Cards dealt before it stay on the waste, the last one on top.
                    at = stock.index(card)
                    waste.extend(reversed(stock[at + 1 :]))
                    del stock[at:]
                else:
                    waste.pop()
                pile.append(card)
                return t
        return -1

    def _empty_one(
        self, piles: dict[int, list[int]], down: dict[int, int], src: int, supply: Supply | None
    ) -> bool:
        """Empty a column (not ``src``) by moving all of it, all face up, onto another,
        whose fitting top may first be dealt from the stock."""
        top_at = {pile[-1]: t for t, pile in piles.items() if pile and t != src}
        movable = [t for t, pile in piles.items() if t != src and pile and not down[t]]
        for t in movable:
            pile = piles[t]
            for under in GOES_ON[pile[0]]:
                u = top_at.get(under, t)
                if u != t:
                    piles[u].extend(pile)
                    pile.clear()
                    return True
        if supply is None:
            return False
        for t in movable:
            pile = piles[t]
            for under in GOES_ON[pile[0]]:
                u = self._fetch(piles, supply, under, src, t)
                if u >= 0:
                    piles[u].extend(pile)
                    pile.clear()
                    return True
        return False
