"""Thumb and Pouch: seven columns built down in any other suit, one-card stock, two redeals.

Aisleriot's rules (docs/rules.md, Thumb and Pouch). Unlike Klondike, any face-up
card may be picked up with everything above it (no build needed), and the
foundations stay in play: their top card may go back to the tableau, or an
ace to another empty foundation. The foundations follow the common rule.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from shared.build import mypyc_attr
from shared.cards import NAME, OTHER_SUIT_BUILDS, RANK, SUIT
from shared.position import Position
from shared.variants.base import DEAL, InternalMove, Rules
from shared.variants.layout import GAP, Layout
from shared.variants.piles import DEAL_OBJECT, LONGEST_BUILD, MOVE_OBJECTS
from shared.variants.safe import nothing_builds_on, other_suits

FOUNDATIONS = ("f0", "f1", "f2", "f3")
TABLEAU = tuple(f"t{i}" for i in range(7))
#: the ace of each suit, the cards an empty foundation takes
ACES: Final[tuple[int, ...]] = (1, 17, 33, 49)  # (of any length: see osmosis.SOURCES)
#: the cards that may lie on each card code on the tableau: one rank lower, any other suit
ONTO: Final = OTHER_SUIT_BUILDS
#: positions :meth:`ThumbAndPouchRules.quick_progress` may visit before answering "don't know"
PROBE_BUDGET: Final = 200


@mypyc_attr(allow_interpreted_subclasses=True)  # (tests narrow a variant in Python)
class ThumbAndPouchRules(Rules):
    id = "thumb_and_pouch"
    name = "Thumb and Pouch"
    option_defaults: ClassVar = {}
    max_score = 52
    pile_ids = ("s", "w", *FOUNDATIONS, *TABLEAU)
    layout = Layout.of(("s", "w", GAP, *FOUNDATIONS), TABLEAU, down=TABLEAU)
    solver_search = "waste"
    #: the stock feeds a waste, so no rule tells the columns apart; any ace starts any
    #: foundation
    interchangeable = ("t", "f")
    daily_positions = 15_000
    builds_on = ONTO
    pick_up = "any"
    foundation_cards_in_play = True
    deal_count = 1
    max_redeals: int | None = 2

    def configure(self) -> None:
        #: the piles whose top card alone may move, in pile order: the waste, then the
        #: foundations (a tuple made once; the compiled build walks it by index)
        self.single_sources: tuple[int, ...] = (self.waste, *self.foundations)

    def lay_out(self, order: list[int]) -> Position:
        piles: list[list[int]] = [[] for _ in self.pile_ids]
        tableau = self.tableau
        k = 0
        # Round r gives one face-down card to each of t_r .. t6, left to right.
        for r in range(len(tableau)):
            for t in tableau[r:]:
                piles[t].append(order[k])
                k += 1
        down = [0] * len(piles)
        for t in tableau:
            down[t] = len(piles[t]) - 1
        # The next card to be dealt lies on top of the stock, at the end of its list.
        piles[self.stock] = order[k:][::-1]
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
            for card in ONTO[tp[-1]]:
                if card in takers:
                    takers[card].append(t)
                else:
                    takers[card] = [t]
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
        # The piles that take each card as bits of pile indices, in lists indexed by card
        # code (no dict, no list per card): the compiled build runs this as plain C. The
        # bits are read in pile order, so the moves come in the same order as ever.
        # (``x[i] = x[i] | bit``, not ``x[i] |= bit``, which mypyc makes a generic call.)
        piles = pos.piles
        down = pos.down
        tableau = self.tableau
        foundations = self.foundations
        takers = [0] * 64
        empties: list[int] = []
        for t in tableau:
            tp = piles[t]
            if not tp:
                empties.append(t)
                continue
            bit = 1 << t
            for card in ONTO[tp[-1]]:
                takers[card] = takers[card] | bit
        homes = [0] * 64
        for f in foundations:
            fp = piles[f]
            bit = 1 << f
            if fp:
                if RANK[fp[-1]] < 13:
                    homes[fp[-1] + 1] = homes[fp[-1] + 1] | bit
            else:
                for ace in ACES:
                    homes[ace] = homes[ace] | bit
        # The listed moves are the prebuilt tuples of MOVE_OBJECTS, as objects (no tuple
        # made per move: see there).
        moves: list[Any] = []
        # One-card sources: the waste top and every foundation top.
        for src in self.single_sources:
            pile = piles[src]
            if not pile:
                continue
            one = MOVE_OBJECTS[src][1]
            card = pile[-1]
            bits = homes[card] & ~(1 << src)
            if bits:
                for f in foundations:
                    if bits >> f & 1:
                        moves.append(one[f])
            bits = takers[card]
            if bits:
                for t in tableau:
                    if bits >> t & 1:
                        moves.append(one[t])
            for t in empties:
                moves.append(one[t])
        for s in tableau:
            pile = piles[s]
            size = len(pile)
            if not size:
                continue
            by_count = MOVE_OBJECTS[s]
            bits = homes[pile[-1]]
            if bits:
                one = by_count[1]
                for f in foundations:
                    if bits >> f & 1:
                        moves.append(one[f])
            for i in range(down[s], size):
                count = size - i
                # (a face-up part longer than MOVES' 13 cards, never in play: made here)
                row = by_count[count] if count <= LONGEST_BUILD else None
                bits = takers[pile[i]] & ~(1 << s)
                if bits:
                    for t in tableau:
                        if bits >> t & 1:
                            moves.append(row[t] if row is not None else (s, count, t))
                for t in empties:
                    moves.append(row[t] if row is not None else (s, count, t))
        if self.can_use_stock(pos):
            moves.append(DEAL_OBJECT)
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

    def safe_move(self, pos: Position, move: InternalMove) -> bool:
        """Every card that could be built on this one (one rank lower, another suit) is home."""
        card = pos.piles[move[0]][-1]
        return nothing_builds_on(card, pos, self.foundations, other_suits(card))

    # -- the stuck check's shortcut --------------------------------------------

    def quick_progress(self, pos: Position) -> bool:
        """A proof that some card not on a foundation can still reach one, or False.

        Two stages, both exact (every step is a legal move): proofs read off
        the position, then a small goal-directed search that never touches
        the foundations, so the cards they take now stay wanted, and that
        stops as soon as such a proof holds. It exists because the generic
        stuck search wanders: it spends its whole budget (hundreds of ms) in
        positions where a few purposeful moves uncover a wanted card.
        """
        wanted = self._foundation_takers(pos)
        return self._progress_in_sight(pos, wanted) or self._probe(pos, wanted)

    def _progress_in_sight(self, pos: Position, wanted: dict[int, list[int]]) -> bool:
        """A wanted card is a top card, is in the stock (deals alone bring it up), is in
        the waste with a redeal left, lies right under a waste top that can go to the
        tableau, or lies in a tableau pile under a group that another pile takes."""
        piles = pos.piles
        for card in piles[self.stock]:
            if card in wanted:
                return True
        waste = piles[self.waste]
        takers, empties = self._tableau_takers(pos)
        if waste:
            if waste[-1] in wanted:
                return True
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
            if not pile:
                continue
            if pile[-1] in wanted:
                return True
            # The group above index i can be picked up when pile[i + 1] is face up.
            for i in range(max(down[t] - 1, 0), len(pile) - 1):
                if pile[i] in wanted:
                    if empties:
                        return True
                    for u in takers.get(pile[i + 1], ()):
                        if u != t:
                            return True
        return False

    def _probe(self, pos: Position, wanted: dict[int, list[int]]) -> bool:
        """Depth-first search, most promising steps first, for a position in which
        :meth:`_progress_in_sight` holds; False when ``PROBE_BUDGET`` positions found none.

        Children are built one at a time in priority order, so that the usual
        case, a proof one or two steps away, costs a few copies, not one per move.
        """
        seen = {pos.key()}
        stack = [pos]
        while stack:
            current = stack.pop()
            fresh: list[Position] = []
            for _, card, src, count, dst in self._probe_steps(current):
                child = current.copy()
                if card >= 0:
                    # Deal (turning the waste back at most once) until ``card`` is on top.
                    waste = child.piles[self.waste]
                    while not waste or waste[-1] != card:
                        self.use_stock(child)
                self.apply(child, (src, count, dst))
                if self._progress_in_sight(child, wanted):
                    return True
                key = child.key()
                if key in seen:
                    continue
                if len(seen) >= PROBE_BUDGET:
                    return False
                seen.add(key)
                fresh.append(child)
            stack.extend(reversed(fresh))
        return False

    def _probe_steps(self, pos: Position) -> list[tuple[int, int, int, int, int]]:
        """Purposeful steps as (priority, card fetched or -1, src, count, dst), best first:
        turning a face-down card, emptying a pile, other tableau moves, then a card
        fetched from the stock and waste (by deals, then one move) onto the tableau."""
        piles = pos.piles
        down = pos.down
        takers, empties = self._tableau_takers(pos)
        first_empty = empties[:1]
        steps: list[tuple[int, int, int, int, int]] = []
        for s in self.tableau:
            pile = piles[s]
            size = len(pile)
            for i in range(down[s], size):
                targets = [t for t in takers.get(pile[i], ()) if t != s]
                if i:
                    # All empty piles are alike; a whole pile moved to one changes nothing.
                    targets += first_empty
                priority = 0 if i == down[s] and i else (1 if i == 0 else 2)
                steps.extend((priority, -1, s, size - i, t) for t in targets)
        # Every card the stock and waste can bring to the waste top, in dealing order.
        stock = piles[self.stock]
        waste = piles[self.waste]
        reachable = waste[-1:] + stock[::-1]
        max_redeals = self.max_redeals
        if max_redeals is None or pos.redeals_used < max_redeals:
            reachable += waste[:-1]
        for card in reachable:
            for t in takers.get(card, []) + first_empty:
                steps.append((3, card, self.waste, 1, t))
        steps.sort(key=lambda step: step[0])
        return steps
