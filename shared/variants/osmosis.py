"""Osmosis: four reserves feeding foundations that follow the base card (docs/rules.md, Osmosis).

Foundations are not built in rank order: f0 takes the base suit in any order,
and each later foundation takes its own suit only in the ranks already present
on the one before it, so cards "seep" down the row. Nothing is ever placed on
a reserve or the waste, so the only action that is not a foundation move is
``deal``; that makes the stuck question exact and cheap (see quick_progress).
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from shared.build import mypyc_attr
from shared.cards import NAME, RANK, RANKS, SUIT
from shared.position import Position
from shared.variants.base import DEAL, InternalMove, Rules
from shared.variants.layout import Layout
from shared.variants.piles import DEAL_OBJECT, MOVES

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

# Pile indices of the layout ("r0".."r3", "f0".."f3", "s", "w").
F0: Final = 4
STOCK: Final = 8
WASTE: Final = 9
# (The tuples below are typed as of any length: the compiled build walks such a tuple by
# index, and one of a fixed length through Python's iterator protocol.)
#: piles whose top card may move: the reserves, then the waste
SOURCES: Final[tuple[int, ...]] = (0, 1, 2, 3, WASTE)
#: (foundation, the foundation just before it) for f1..f3
FOLLOWERS: Final[tuple[tuple[int, int], ...]] = ((5, 4), (6, 5), (7, 6))
#: the move (src, 1, f) of every source and foundation, built once (the tuples of MOVES)
TO_FOUNDATION: Final[tuple[tuple[InternalMove, ...], ...]] = tuple(
    tuple(MOVES[src][1][f] for f in range(8)) for src in range(10)
)
#: TO_FOUNDATION as objects: what legal() lists (see shared.variants.piles.MOVE_OBJECTS)
_TO_FOUNDATION: Final[tuple[tuple[object, ...], ...]] = TO_FOUNDATION

#: cards of each suit, A..K
SUIT_CARDS: Final[tuple[frozenset[int], ...]] = tuple(
    frozenset(s * 16 + r for r in range(1, 14)) for s in range(4)
)
#: the four cards of each rank (index 0 unused)
RANK_CARDS: Final[tuple[frozenset[int], ...]] = tuple(
    frozenset(s * 16 + r for s in range(4)) for r in range(14)
)


@mypyc_attr(allow_interpreted_subclasses=True)  # (tests narrow a variant in Python)
class OsmosisRules(Rules):
    id = "osmosis"
    name = "Osmosis"
    option_defaults: ClassVar = {"deal_three": False}
    max_score = 52
    pile_ids = ("r0", "r1", "r2", "r3", "f0", "f1", "f2", "f3", "s", "w")
    #: stock and waste on top, then each reserve beside the foundation of its row, both
    #: spread sideways: which ranks a foundation holds is what the player must see
    layout = Layout.of(
        ("s", "w"),
        ("r0", "f0"),
        ("r1", "f1"),
        ("r2", "f2"),
        ("r3", "f3"),
        right=("r0", "r1", "r2", "r3", "f0", "f1", "f2", "f3"),
    )
    solver_search = "osmosis"
    #: the reserves only feed the foundations, whichever holds what
    interchangeable = ("r",)
    daily_positions = 10_000
    pick_up = "top"
    deal_count = 1
    max_redeals: int | None = 2

    def configure(self) -> None:
        # deal_three trades the three passes for unlimited ones (Aisleriot's option).
        self.deal_three = bool(self.options["deal_three"])
        self.deal_count = 3 if self.deal_three else 1
        self.max_redeals = None if self.deal_three else 2

    def lay_out(self, order: list[int]) -> Position:
        piles: list[list[int]] = [[] for _ in self.pile_ids]
        # Three face-down rounds and one face-up round to r0..r3: card k goes to r(k mod 4).
        for k in range(16):
            piles[k % 4].append(order[k])
        piles[F0].append(order[16])  # the base card
        # The next card to be dealt lies on top, at the end of the list.
        piles[STOCK] = order[:16:-1]
        down = [0] * len(piles)
        for r in range(4):
            down[r] = 3
        down[STOCK] = len(piles[STOCK])
        return Position(piles, down)

    def use_stock(self, pos: Position) -> None:
        """As the common rule, but with unlimited redeals (deal_three) none is counted.

        The count only serves the limit; counting without one would make every
        pass a new position, so the stuck search could never close the cycle
        and would never prove a dead deal_three game stuck.
        """
        used = pos.redeals_used
        super().use_stock(pos)
        if self.max_redeals is None:
            pos.redeals_used = used

    # -- foundations -------------------------------------------------------------

    def foundation_accepts(self, pos: Position, card: int, f: int) -> bool:
        """f0: the base suit in any order; f1..f3: see :meth:`follower_reason`. The same
        rule as :meth:`foundation_reason`, without making its words: the stuck proof asks
        it of every card of the deck whenever the foundations change."""
        piles = pos.piles
        base_pile = piles[F0]
        if not base_pile:
            return False
        if f == F0:
            return SUIT[card] == SUIT[base_pile[0]]
        prev = piles[f - 1]
        pile = piles[f]
        if not pile:
            return bool(prev) and RANK[card] == RANK[base_pile[0]]
        return SUIT[card] == SUIT[pile[0]] and SUIT[prev[0]] * 16 + RANK[card] in prev

    def foundation_reason(self, pos: Position, card: int, f: int) -> str | None:
        piles = pos.piles
        name = NAME[card]
        fid = self.pile_ids[f]
        base_pile = piles[F0]
        if not base_pile:
            return f"{name} cannot go on {fid}: f0 holds no base card"
        if f == F0:
            suit = SUIT[base_pile[0]]
            if SUIT[card] != suit:
                return f"{name} cannot go on f0: f0 takes only {SUIT_NAMES[suit]}, the base suit"
            return None
        return self.follower_reason(pos, card, f)

    def follower_reason(self, pos: Position, card: int, f: int) -> str | None:
        """A started f1..f3 takes its suit in the ranks present on the foundation before it;
        an empty one takes a base-rank card once the one before it is started."""
        piles = pos.piles
        name = NAME[card]
        fid = self.pile_ids[f]
        prev_id = self.pile_ids[f - 1]
        prev = piles[f - 1]
        pile = piles[f]
        if not pile:
            base_rank = RANK[piles[F0][0]]
            if not prev:
                return f"{name} cannot start {fid}: {prev_id} is not started yet"
            if RANK[card] != base_rank:
                return (
                    f"{name} cannot start {fid}: an empty foundation takes only "
                    f"a card of the base rank, {RANKS[base_rank - 1]}"
                )
            return None
        suit = SUIT[pile[0]]
        if SUIT[card] != suit:
            return f"{name} cannot go on {fid}: {fid} takes only {SUIT_NAMES[suit]}"
        if SUIT[prev[0]] * 16 + RANK[card] not in prev:
            return f"{name} cannot go on {fid}: no {RANKS[RANK[card] - 1]} on {prev_id} yet"
        return None

    # -- legal moves (fast) --------------------------------------------------------

    def legal(self, pos: Position) -> list[InternalMove]:
        piles = pos.piles
        down = pos.down
        moves: list[Any] = []  # (the prebuilt moves, as objects)
        base_pile = piles[F0]
        if base_pile:
            base = base_pile[0]
            base_suit = base >> 4
            base_rank = base & 15
            # What each follower wants: (f, suit, card code offset into prev, prev) when
            # started, or the empty foundations that may start now.
            started: list[tuple[int, int, int, list[int]]] = []
            opening: list[int] = []
            for f, p in FOLLOWERS:
                pile = piles[f]
                prev = piles[p]
                if pile:
                    started.append((f, pile[0] >> 4, (prev[0] >> 4) * 16, prev))
                elif prev:
                    opening.append(f)
            for src in SOURCES:
                pile = piles[src]
                if len(pile) <= down[src]:
                    continue
                card = pile[-1]
                suit = card >> 4
                rank = card & 15
                to = _TO_FOUNDATION[src]
                if suit == base_suit:
                    moves.append(to[F0])
                for f, want_suit, offset, prev in started:
                    if suit == want_suit and offset + rank in prev:
                        moves.append(to[f])
                if rank == base_rank:
                    for f in opening:
                        moves.append(to[f])
        # can_use_stock, inline: this runs on every step.
        if piles[STOCK] or (
            piles[WASTE] and (self.max_redeals is None or pos.redeals_used < self.max_redeals)
        ):
            moves.append(DEAL_OBJECT)
        return moves

    def safe_move(self, pos: Position, move: InternalMove) -> bool:
        """With one card per deal nothing is ever built, and a card sent onto a started
        foundation only adds to the ranks the next foundation takes (a stock pass still
        turns every other card), so that move is safe; starting a foundation is not, as
        it fixes which suit comes next. With three cards per deal a card leaving the
        waste changes which cards surface, so none is."""
        return not self.deal_three and bool(pos.piles[move[2]])

    def can_progress_now(self, pos: Position, legal: list[InternalMove]) -> bool:
        """Every legal move but deal goes to a foundation, and deal is listed last."""
        return bool(legal) and legal[0][0] >= 0

    def legal_and_progress(
        self, pos: Position, memo: dict[Any, Any] | None = None
    ) -> tuple[list[InternalMove], bool]:
        # (can_progress_now written out: the engine asks both on every step)
        legal = self.legal(pos)
        return legal, bool(legal) and legal[0][0] >= 0

    def foundation_count(self, pos: Position) -> int:
        piles = pos.piles
        return len(piles[4]) + len(piles[5]) + len(piles[6]) + len(piles[7])

    def score(self, pos: Position) -> int:
        """Cards on the foundations: 1 for the base card as dealt, 52 when won."""
        return self.foundation_count(pos)

    def is_won(self, pos: Position) -> bool:
        return self.foundation_count(pos) == 52

    # -- the rules, plainly --------------------------------------------------------

    def why_illegal(self, pos: Position, move: InternalMove) -> str | None:
        if move == DEAL:
            return self.stock_reason(pos)
        src, count, dst = move
        ids = self.pile_ids
        if src == dst:
            return f"{ids[src]} cannot move onto itself"
        if self.is_foundation[src]:
            return "cards on the foundations never move in osmosis"
        if src == STOCK:
            return "the stock's cards are turned with deal, not moved"
        if not self.is_foundation[dst]:
            if dst == STOCK:
                return "nothing is ever placed on the stock"
            if dst == WASTE:
                return "only deal puts cards on the waste"
            return f"nothing is ever placed on a reserve such as {ids[dst]}"
        reason = self.basic_reason(pos, move)
        if reason:
            return reason
        if count > 1:
            return "one card at a time goes to a foundation"
        return self.foundation_reason(pos, pos.piles[src][-1], dst)

    # -- the stuck check -------------------------------------------------------------

    def wanted(self, pos: Position) -> set[int]:
        """Every card some foundation takes now; it stays so until a card reaches one."""
        piles = pos.piles
        base_pile = piles[F0]
        if not base_pile:
            return set()
        wanted = set(SUIT_CARDS[SUIT[base_pile[0]]])
        for f, p in FOLLOWERS:
            pile = piles[f]
            prev = piles[p]
            if pile:
                offset = SUIT[pile[0]] * 16
                wanted.update(offset + RANK[c] for c in prev)
            elif prev:
                wanted |= RANK_CARDS[RANK[base_pile[0]]]
        return wanted

    def quick_progress(self, pos: Position) -> bool:
        """Some card a foundation takes now is a top card, or will be one after deals.

        Until a card reaches a foundation only ``deal`` changes the board, so
        the waste top takes exactly the cards that deals surface: in this
        pass, every deal_count-th card of the stock and its last; after a
        redeal, the same over the whole waste then stock, again each pass.
        So this answer is exact, and the bounded search only confirms "stuck".
        """
        piles = pos.piles
        down = pos.down
        stock = piles[STOCK]
        waste = piles[WASTE]
        base_pile = piles[F0]
        if not base_pile:
            return False
        redeal = self.max_redeals is None or pos.redeals_used < self.max_redeals
        step = self.deal_count
        if step == 1:
            # Every card is turned in turn: the stock now, the waste after a redeal.
            now, later = stock, (waste if redeal else [])
        else:
            order = stock[::-1]
            now = surfacing(order, step)
            later = surfacing(waste + order, step) if redeal else []
        # The common case first, without building the whole wanted set:
        # f0 takes every card of the base suit.
        suit_cards = SUIT_CARDS[base_pile[0] >> 4]
        if not (suit_cards.isdisjoint(now) and suit_cards.isdisjoint(later)):
            return True
        wanted = self.wanted(pos)
        for src in SOURCES:
            pile = piles[src]
            if len(pile) > down[src] and pile[-1] in wanted:
                return True
        return not (wanted.isdisjoint(now) and wanted.isdisjoint(later))


def surfacing(order: list[int], step: int) -> list[int]:
    """Cards that end on the waste top when ``order`` is dealt ``step`` at a time."""
    cards = order[step - 1 :: step]
    if len(order) % step:
        cards.append(order[-1])
    return cards
