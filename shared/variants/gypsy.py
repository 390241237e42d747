"""Gypsy: two decks, eight foundations, eight columns built down in alternate colours.

Rules from docs/rules.md (Gypsy): only valid builds move, any length; foundation
cards stay in play; ``deal`` drops one card on each column, ten times.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from shared.build import mypyc_attr
from shared.cards import ALTERNATE_BUILDS, NAME, RANK, RED, is_build_step
from shared.position import Position
from shared.variants.base import DEAL, InternalMove, Rules
from shared.variants.layout import GAP, Layout
from shared.variants.piles import DEAL_OBJECT, MOVE_OBJECTS
from shared.variants.safe import OTHER_COLOUR, home_counts, nothing_builds_on, other_colour

FOUNDATIONS = tuple(f"f{i}" for i in range(8))
TABLEAU = tuple(f"t{i}" for i in range(8))
ACES: Final[tuple[int, ...]] = (1, 17, 33, 49)  # (of any length: see osmosis.SOURCES)
#: per card code, the codes of the two cards that may lie on it in a build
_BUILD_ONTO: Final = ALTERNATE_BUILDS


def build_length(pile: list[int], up: int) -> int:
    """Face-up cards at the top of ``pile`` that form one alternate-colour, one-down build:
    the longest group Gypsy lets a player pick up there."""
    length = 1
    while length < up:
        lower = pile[-length - 1]
        upper = pile[-length]
        if RANK[lower] != RANK[upper] + 1 or RED[lower] == RED[upper]:
            break
        length += 1
    return length


@mypyc_attr(allow_interpreted_subclasses=True)  # (tests narrow a variant in Python)
class GypsyRules(Rules):
    id = "gypsy"
    name = "Gypsy"
    option_defaults: ClassVar = {}
    max_score = 1000
    pile_ids = ("s", *FOUNDATIONS, *TABLEAU)
    layout = Layout.of(("s", GAP, *FOUNDATIONS), TABLEAU, down=TABLEAU)
    solver_search = "gypsy"
    #: the stock deals to t0..t7 in order, so the columns keep their places; any ace
    #: starts any foundation (the two copies of a card are the same integer already)
    interchangeable = ("f",)
    daily_positions = 20_000
    builds_on = ALTERNATE_BUILDS
    foundation_cards_in_play = True
    decks = 2
    # ``deal`` gives one card to each column; there is no waste and no redeal.
    deal_count = 8
    max_redeals: int | None = 0

    def lay_out(self, order: list[int]) -> Position:
        """Two face-down rounds and one face-up round to t0..t7; 80 cards stay in the stock."""
        piles: list[list[int]] = [[] for _ in self.pile_ids]
        tableau = self.tableau
        for k, card in enumerate(order[:24]):
            piles[tableau[k % 8]].append(card)
        # The next card to be dealt lies on top of the stock, at the end of its list.
        piles[self.stock] = order[:23:-1]
        down = [0] * len(piles)
        for t in tableau:
            down[t] = 2
        down[self.stock] = len(piles[self.stock])
        return Position(piles, down)

    # -- the stock -------------------------------------------------------------

    def can_use_stock(self, pos: Position) -> bool:
        return bool(pos.piles[self.stock])

    def use_stock(self, pos: Position) -> None:
        """One card face up onto each column in order, empty columns included."""
        piles = pos.piles
        stock = piles[self.stock]
        for t in self.tableau:
            if not stock:
                break
            piles[t].append(stock.pop())
        pos.down[self.stock] = len(stock)

    def stock_reason(self, pos: Position) -> str | None:
        if pos.piles[self.stock]:
            return None
        return "the stock is empty and gypsy has no redeal"

    # -- legal moves (fast) ----------------------------------------------------

    def _wanted(self, pos: Position) -> dict[int, list[int]]:
        """card -> the foundations that take it now, in pile order."""
        piles = pos.piles
        wanted: dict[int, list[int]] = {}
        empty: list[int] = []
        for f in self.foundations:
            fp = piles[f]
            if fp:
                top = fp[-1]
                if top & 15 < 13:
                    if top + 1 in wanted:
                        wanted[top + 1].append(f)
                    else:
                        wanted[top + 1] = [f]
            else:
                empty.append(f)
        if empty:
            # Only empty foundations take aces, so the aces' lists are never extended.
            for ace in ACES:
                wanted[ace] = empty
        return wanted

    def legal(self, pos: Position) -> list[InternalMove]:
        # Which piles take each card, as bits of pile indices in lists indexed by card
        # code (no dict, no list per card): the compiled build runs this as plain C. The
        # bits are read in pile order, so the moves come in the same order as ever.
        # (``x[i] = x[i] | bit``, not ``x[i] |= bit``, which mypyc makes a generic call.)
        piles = pos.piles
        down = pos.down
        tableau = self.tableau
        foundations = self.foundations
        # card -> the foundations that take it now
        homes = [0] * 64
        empty_f = 0
        for f in foundations:
            fp = piles[f]
            if fp:
                top = fp[-1]
                if top & 15 < 13:
                    homes[top + 1] = homes[top + 1] | 1 << f
            else:
                empty_f |= 1 << f
        if empty_f:
            # Only empty foundations take aces.
            for ace in ACES:
                homes[ace] = empty_f
        # card -> non-empty columns whose top card takes it
        takers = [0] * 64
        empty: list[int] = []
        for t in tableau:
            tp = piles[t]
            if tp:
                bit = 1 << t
                for card in _BUILD_ONTO[tp[-1]]:
                    takers[card] = takers[card] | bit
            else:
                empty.append(t)
        # The listed moves are the prebuilt tuples of MOVE_OBJECTS, as objects (no tuple
        # made per move: see there).
        moves: list[Any] = []
        for f in foundations:
            fp = piles[f]
            if not fp:
                continue
            one = MOVE_OBJECTS[f][1]
            card = fp[-1]
            bits = homes[card]
            if bits:
                for g in foundations:
                    if bits >> g & 1:
                        moves.append(one[g])
            bits = takers[card]
            if bits:
                for t in tableau:
                    if bits >> t & 1:
                        moves.append(one[t])
            for t in empty:
                moves.append(one[t])
        for s in tableau:
            pile = piles[s]
            size = len(pile)
            up = size - down[s]
            if up <= 0:
                continue
            by_count = MOVE_OBJECTS[s]
            bits = homes[pile[-1]]
            if bits:
                one = by_count[1]
                for f in foundations:
                    if bits >> f & 1:
                        moves.append(one[f])
            run = build_length(pile, up)  # (a build: 13 cards at most, all in MOVES)
            for n in range(1, run + 1):
                bits = takers[pile[size - n]] & ~(1 << s)
                if bits:
                    row = by_count[n]
                    for t in tableau:
                        if bits >> t & 1:
                            moves.append(row[t])
            if empty:
                for t in empty:
                    for n in range(1, run + 1):
                        moves.append(by_count[n][t])
        if piles[self.stock]:
            moves.append(DEAL_OBJECT)
        return moves

    # -- the rules, plainly ----------------------------------------------------

    def why_illegal(self, pos: Position, move: InternalMove) -> str | None:
        if move == DEAL:
            return self.stock_reason(pos)
        src, count, dst = move
        if src == self.stock:
            return "cards leave the stock only by deal"
        if dst == self.stock:
            return "nothing can be put on the stock"
        if count < 1:
            return "a move carries at least one card"
        reason = self.basic_reason(pos, move)
        if reason:
            return reason
        cards = pos.piles[src][-count:]
        if self.is_foundation[src] and count > 1:
            return "only the top card of a foundation can move"
        reason = self.build_reason(cards)
        if reason:
            return reason
        if self.is_foundation[dst]:
            return self.to_foundation_reason(pos, cards, dst)
        target = pos.piles[dst]
        if target and not is_build_step(target[-1], cards[0]):
            return (
                f"{NAME[cards[0]]} cannot go on {NAME[target[-1]]}: "
                "needs the other colour, one rank lower"
            )
        return None

    def safe_move(self, pos: Position, move: InternalMove) -> bool:
        """Both copies of both cards that could be built on this one are home and, since
        Gypsy's foundation cards come back into play (one of those could come back onto
        this card and take a card of its own colour two ranks lower), both copies of
        those are home too, unless they are aces (docs/solver.md, "Why a safe move
        loses nothing"; the solver's Gypsy search uses the same rule)."""
        card = pos.piles[move[0]][-1]
        if not nothing_builds_on(card, pos, self.foundations, other_colour(card), self.decks):
            return False
        rank = RANK[card]
        if rank <= 3:
            return True
        counts = home_counts(pos, self.foundations)
        same_colour = OTHER_COLOUR[0 if RED[card] else 1]
        return all(counts[s][rank - 2] >= self.decks for s in same_colour)

    # -- score and progress ----------------------------------------------------

    def score(self, pos: Position) -> int:
        """5 per foundation card, 60 per full foundation, 2 per built pair in the columns."""
        piles = pos.piles
        down = pos.down
        total = 0
        for f in self.foundations:
            n = len(piles[f])
            total += 5 * n + (60 if n == 13 else 0)
        for t in self.tableau:
            pile = piles[t]
            for i in range(max(down[t], 0) + 1, len(pile)):
                lower = pile[i - 1]
                upper = pile[i]
                if RANK[lower] == RANK[upper] + 1 and RED[lower] != RED[upper]:
                    total += 2
        return total

    def quick_progress(self, pos: Position) -> bool:
        """True when a card a foundation takes now can surely get there.

        Two sure ways: the card is in the stock (dealing alone brings it to
        the top of a column, and dealing never touches the foundations), or
        it lies in a column under face-up cards that :func:`can_clear` moves
        away with legal moves that leave the foundations alone.
        """
        piles = pos.piles
        wanted = self._wanted(pos)
        if not wanted.keys().isdisjoint(piles[self.stock]):
            return True
        down = pos.down
        tableau = self.tableau
        empties = 0
        for t in tableau:
            if not piles[t]:
                empties += 1
        for t in tableau:
            pile = piles[t]
            n = len(pile)
            if n <= down[t]:
                continue
            if pile[-1] in wanted:
                return True
            # A face-down card counts too: it turns up once the cards on it go.
            for i in range(n - 2, max(down[t] - 1, 0) - 1, -1):
                if pile[i] in wanted:
                    tops = [piles[u][-1] for u in tableau if u != t and piles[u]]
                    if can_clear(pile[i + 1 :], tops, empties):
                        return True
        return False


def can_clear(cover: list[int], tops: list[int], empties: int) -> bool:
    """Whether legal moves surely lift every card of ``cover`` (face up, bottom to top) off
    its column, given the other columns' top cards and the number of empty columns.

    Greedy, so "False" only means "not found": from the top, each time the
    longest movable piece whose bottom card some column top takes goes there,
    else the whole build goes to an empty column.
    """
    end = len(cover)
    while end:
        lo = end - 1
        while (
            lo
            and RANK[cover[lo - 1]] == RANK[cover[lo]] + 1
            and (RED[cover[lo - 1]] != RED[cover[lo]])
        ):
            lo -= 1
        for j in range(lo, end):
            card = cover[j]
            for k, top in enumerate(tops):
                if card in _BUILD_ONTO[top]:
                    tops[k] = cover[end - 1]
                    end = j
                    break
            else:
                continue
            break
        else:
            if not empties:
                return False
            empties -= 1
            tops.append(cover[end - 1])
            end = lo
    return True
