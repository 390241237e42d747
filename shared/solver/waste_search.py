"""Thumb and Pouch's and Westhaven's own search: columns fed by a stock and a waste.

The generic search stores a position after every deal, so with 22-24 cards in
the stock (and, in Thumb and Pouch, two redeals) it spends most of its budget
turning cards over. Here a waste card is played as one step, "deal until X is
on top, then move X" (onto a foundation, a column that takes it, or the first
empty column), for every card the deals can bring up, each at its first
occurrence: reaching the same talon on a later pass leaves fewer redeals, which
can only do less. One card per deal means a card leaving the waste changes no
other card's turn, so this loses no position that a move is made from.

The board: the columns as tuples with their face-down counts, the rank home of
each suit (the foundations are interchangeable: an ace goes to the first empty
one, and a suit's cards keep to its pile), and the talon (waste then stock in
dealing order; a redeal keeps that order) with the count of cards on the waste
and the redeals used. Columns are sorted in the key (the stock feeds a waste,
so no rule tells them apart). The two games differ in tables: what may lie on
a card (another suit, or the other colour), what a column gives up (any face-up
card with those above it, or the top card or the whole face-up part), and
whether foundation cards come back (Thumb and Pouch only).

Forced moves, played alone: a card to its foundation when every card that could
be built on it is home, aces and twos always (the variants' ``safe_move``); dealing
past such a card is never better than playing it, so the scan of the talon
stops there. Every other legal move is tried (a whole column onto an empty one
and foundation-to-foundation moves only give the same key): when every key has
been seen, the deal is ``unwinnable``. Three best-first searches with different
scores take turns on a deal (``best_first.portfolio``); each expands every move, so
any one of them running out of keys is that proof.
"""

from __future__ import annotations

from typing import TypeVar

from shared.position import Position
from shared.solver import best_first
from shared.solver.result import Limits
from shared.variants.base import DEAL, InternalMove, Rules

T = TypeVar("T")

#: the piles this search reads, in the order of the variant's pile ids (the tableau after)
PILES = ("s", "w", "f0", "f1", "f2", "f3")
#: what a column gives up in the variants this search plays (``Rules.pick_up``)
PICK_UPS = ("any", "top_or_all")
WASTE = 1
F0 = 2
T0 = 6

Cols = tuple[tuple[int, ...], ...]
#: columns, face-down counts, rank home per suit, the foundation pile of each suit
#: (-1: none), talon, cards on the waste, redeals used
State = tuple[Cols, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], int, int]
Key = tuple[object, ...]
Step = tuple[InternalMove, ...]


def fits(rules: Rules, pos: Position) -> bool:
    """Foundations as the engine builds them (one suit each, from the ace up, no two of
    one suit), so that the rank home of each suit says everything about them."""
    suits = set()
    for f in rules.foundations:
        pile = pos.piles[f]
        if not pile:
            continue
        suit = pile[0] >> 4
        if suit in suits or any(card != suit * 16 + i + 1 for i, card in enumerate(pile)):
            return False
        suits.add(suit)
    return True


class Board:
    """What never changes during a search (the variant's rules as tables), and the moves
    of the compact board."""

    def __init__(self, rules: Rules) -> None:
        if rules.pile_ids[: len(PILES)] != PILES or rules.pick_up not in PICK_UPS:
            raise ValueError(f"{rules.id} is not a game of columns fed by a waste")
        self.max_redeals = rules.max_redeals
        self.columns = len(rules.tableau)
        #: the cards that may lie on each card code in a column, one rank lower (of
        #: another suit in Thumb and Pouch, of the other colour in Westhaven)
        self.onto = rules.builds_on
        #: the suits of those cards (the safe-move test)
        self.below = tuple(tuple(card >> 4 for card in cards) for cards in rules.builds_on)
        #: any face-up card moves with those above it (Thumb and Pouch), or only the top
        #: card or the whole face-up part (Westhaven)
        self.pick_any = rules.pick_up == "any"
        #: foundation cards stay in play (Thumb and Pouch)
        self.from_foundations = rules.foundation_cards_in_play

    def start(self, pos: Position) -> State:
        piles = pos.piles
        found = [0, 0, 0, 0]
        fpile = [-1, -1, -1, -1]
        for i in range(4):
            pile = piles[F0 + i]
            if pile:
                suit = pile[0] >> 4
                found[suit] = len(pile)
                fpile[suit] = F0 + i
        cols = tuple(tuple(piles[T0 + t]) for t in range(self.columns))
        down = tuple(pos.down[T0 + t] for t in range(self.columns))
        talon = tuple(piles[WASTE]) + tuple(reversed(piles[0]))
        return (
            cols,
            down,
            tuple(found),
            tuple(fpile),
            talon,
            len(piles[WASTE]),
            pos.redeals_used,
        )

    def safe(self, found: tuple[int, ...], card: int) -> bool:
        """No card still out can need ``card`` to lie on (see shared.variants.safe)."""
        rank = card & 15
        if rank <= 2:
            return True
        return all(found[s] >= rank - 1 for s in self.below[card])

    @staticmethod
    def home(state: State, card: int, moves: list[InternalMove], src: int) -> State:
        """``state`` after ``card`` (the top of ``src``, not the waste) goes to its foundation."""
        cols, down, found, fpile, talon, on_waste, redeals = state
        suit = card >> 4
        pile = fpile[suit]
        if pile < 0:
            pile = next(F0 + i for i in range(4) if F0 + i not in fpile)
            fpile = _put(fpile, suit, pile)
        moves.append((src, 1, pile))
        found = _put(found, suit, found[suit] + 1)
        if src >= T0:
            t = src - T0
            col = cols[t][:-1]
            cols = _put(cols, t, col)
            if down[t] and down[t] >= len(col):
                down = _put(down, t, len(col) - 1)
        return cols, down, found, fpile, talon, on_waste, redeals

    def forced(self, state: State, moves: list[InternalMove]) -> State:
        """``state`` after every forced foundation move (appended to ``moves``)."""
        changed = True
        while changed:
            changed = False
            cols, _, found, _, talon, on_waste, _ = state
            for t in range(self.columns):
                col = cols[t]
                if col:
                    card = col[-1]
                    if found[card >> 4] + 1 == card & 15 and self.safe(found, card):
                        state = self.home(state, card, moves, T0 + t)
                        changed = True
                        break
            else:
                if on_waste:
                    card = talon[on_waste - 1]
                    if found[card >> 4] + 1 == card & 15 and self.safe(found, card):
                        state = self.from_waste(state, on_waste - 1, 0, state[6], moves)
                        state = self.home(state, card, moves, WASTE)
                        changed = True
        return state

    @staticmethod
    def from_waste(
        state: State, index: int, deals: int, redeals: int, moves: list[InternalMove]
    ) -> State:
        """``state`` with talon card ``index`` taken off the waste top after ``deals`` deals
        (the move that takes it is the caller's)."""
        cols, down, found, fpile, talon, _, _ = state
        moves.extend([DEAL] * deals)
        rest = talon[:index] + talon[index + 1 :]
        return cols, down, found, fpile, rest, index, redeals

    def surfacing(self, state: State) -> list[tuple[int, int, int]]:
        """(talon index, deals, redeals used) for each card deals can bring to the waste
        top, at its first occurrence, the top card now first; the scan stops at a card
        that goes home safely (dealing past it is never better than playing it)."""
        found, talon, on_waste, redeals = state[2], state[4], state[5], state[6]
        result: list[tuple[int, int, int]] = []
        if on_waste:
            result.append((on_waste - 1, 0, redeals))
        size = len(talon)
        limit = self.max_redeals
        reached = {on_waste - 1} if on_waste else set()
        cur = on_waste
        deals = 0
        while True:
            if cur < size:
                cur += 1
            elif size and (limit is None or redeals < limit) and cur:
                cur = 0
                redeals += 1
            else:
                break
            deals += 1
            if cur and cur - 1 not in reached:
                reached.add(cur - 1)
                result.append((cur - 1, deals, redeals))
                card = talon[cur - 1]
                if found[card >> 4] + 1 == card & 15 and self.safe(found, card):
                    break
            if len(reached) == size:
                break
        return result

    def children(self, state: State) -> list[tuple[State, Step]]:
        """Every legal move worth a key of its own, each followed by the forced moves."""
        cols, down, found, fpile, talon, on_waste, redeals = state
        takers: dict[int, list[int]] = {}
        empty = -1
        onto = self.onto
        for t in range(self.columns):
            col = cols[t]
            if not col:
                if empty < 0:
                    empty = t
                continue
            for card in onto[col[-1]]:
                takers.setdefault(card, []).append(t)
        out: list[tuple[State, Step]] = []

        def finish(after: State, moves: list[InternalMove]) -> None:
            out.append((self.forced(after, moves), tuple(moves)))

        # To the foundations: column tops, then waste cards.
        for t in range(self.columns):
            col = cols[t]
            if col and found[col[-1] >> 4] + 1 == col[-1] & 15:
                moves: list[InternalMove] = []
                finish(self.home(state, col[-1], moves, T0 + t), moves)
        surfacing = self.surfacing(state)
        for index, deals, used in surfacing:
            card = talon[index]
            if found[card >> 4] + 1 == card & 15:
                moves = []
                after = self.from_waste(state, index, deals, used, moves)
                finish(self.home(after, card, moves, WASTE), moves)
        # Column to column: any face-up card with everything above it (Thumb and Pouch),
        # or the top card or the whole face-up part (Westhaven).
        for s in range(self.columns):
            col = cols[s]
            size = len(col)
            if not size:
                continue
            starts = range(down[s], size) if self.pick_any else {down[s], size - 1}
            for i in starts:
                targets = [t for t in takers.get(col[i], ()) if t != s]
                if i and empty >= 0:
                    targets.append(empty)
                for t in targets:
                    rest = col[:i]
                    grown = cols[t] + col[i:]
                    moved = list(cols)
                    moved[s] = rest
                    moved[t] = grown
                    new_down = _put(down, s, i - 1) if down[s] and down[s] >= i else down
                    after = (tuple(moved), new_down, found, fpile, talon, on_waste, redeals)
                    finish(after, [(T0 + s, size - i, T0 + t)])
        # Waste cards to the columns.
        for index, deals, used in surfacing:
            card = talon[index]
            targets = list(takers.get(card, ()))
            if empty >= 0:
                targets.append(empty)
            for t in targets:
                moves = []
                after = self.from_waste(state, index, deals, used, moves)
                moves.append((WASTE, 1, T0 + t))
                left, _, _, _, rest, index_now, used_now = after
                new_cols = _put(left, t, left[t] + (card,))
                finish((new_cols, down, found, fpile, rest, index_now, used_now), moves)
        # Foundation tops back to the columns (Thumb and Pouch).
        for suit in range(4 if self.from_foundations else 0):
            rank = found[suit]
            if not rank:
                continue
            card = suit * 16 + rank
            targets = list(takers.get(card, ()))
            if empty >= 0:
                targets.append(empty)
            for t in targets:
                new_found = _put(found, suit, rank - 1)
                new_fpile = fpile if rank > 1 else _put(fpile, suit, -1)
                new_cols = _put(cols, t, cols[t] + (card,))
                after = (new_cols, down, new_found, new_fpile, talon, on_waste, redeals)
                finish(after, [(fpile[suit], 1, T0 + t)])
        return out


def _put(items: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """``items`` with ``items[i]`` replaced by ``value``."""
    return (*items[:i], value, *items[i + 1 :])


def _key(state: State) -> Key:
    cols, down, found, _, talon, on_waste, redeals = state
    return (tuple(sorted(zip(cols, down, strict=True))), found, talon, on_waste, redeals)


def _score(state: State) -> int:
    """Lower is nearer a win: cards still out, face-down cards, and the cards lying on
    the next card each suit needs in a column."""
    cols, down, found = state[0], state[1], state[2]
    out = 52 - sum(found)
    buried = 0
    wanted = {s * 16 + found[s] + 1 for s in range(4) if found[s] < 13}
    for col in cols:
        n = len(col)
        for depth in range(n):
            if col[n - 1 - depth] in wanted:
                buried += depth
                break
    return 6 * out + sum(down) + buried


def _blocked(cols: Cols) -> int:
    """Cards lying above a lower card of their own suit in a column: each has to move
    before that card can go home."""
    blocked = 0
    for col in cols:
        lows = [99, 99, 99, 99]
        for card in col:
            suit = card >> 4
            rank = card & 15
            if rank > lows[suit]:
                blocked += 1
            elif rank < lows[suit]:
                lows[suit] = rank
    return blocked


def _score_blocked(state: State) -> int:
    """:func:`_score` with 3 per blocked card (:func:`_blocked`)."""
    return _score(state) + 3 * _blocked(state[0])


def _score_blocked_first(state: State) -> int:
    """Cards out, face-down cards (twice) and blocked cards (twice), without the buried
    count of :func:`_score`: the blocked cards lead."""
    return 5 * (52 - sum(state[2])) + 2 * sum(state[1]) + 2 * _blocked(state[0])


def _waste_blocked(state: State) -> int:
    """Cards on the waste lying above a lower card of their own suit there: once no
    redeal is left the waste is a stack, and each such card must find a column before
    that lower card can come off."""
    talon, on_waste = state[4], state[5]
    lows = [99, 99, 99, 99]
    blocked = 0
    for card in talon[:on_waste]:
        suit = card >> 4
        rank = card & 15
        if rank > lows[suit]:
            blocked += 1
        elif rank < lows[suit]:
            lows[suit] = rank
    return blocked


def _score_redeals(state: State) -> int:
    """:func:`_score_blocked_first` with 8 per redeal used: a search that spends the
    redeals early ends on a last pass whose waste it can only take from the top."""
    return _score_blocked_first(state) + 8 * state[6]


def _score_redeals_buried(state: State) -> int:
    """:func:`_score` with 8 per redeal used and 2 per blocked card."""
    return _score(state) + 8 * state[6] + 2 * _blocked(state[0])


def _score_waste_first(state: State) -> int:
    """:func:`_score_blocked_first` with 2 per blocked card on the waste
    (:func:`_waste_blocked`)."""
    return _score_blocked_first(state) + 2 * _waste_blocked(state)


def _score_waste_blocked(state: State) -> int:
    """:func:`_score_blocked` with 2 per blocked card on the waste."""
    return _score_blocked(state) + 2 * _waste_blocked(state)


#: the scores of the searches that take turns (``best_first.portfolio``): on a few deals
#: in a hundred one wanders for hundreds of thousands of positions where another wins in
#: a few thousand (Thumb and Pouch deals 7, 58, 62: 139,616, over 150,000 and 78,980
#: positions with :func:`_score` alone; 748, 2,146 and 834 with :func:`_score_blocked_first`)
SCORES = (_score, _score_blocked_first, _score_blocked)
#: with redeals (Thumb and Pouch), two more that count the redeals used: on tuning seeds
#: 1-120 at 60,000 positions the three above leave 7 deals undecided, these five 2
SCORES_REDEALS = (*SCORES, _score_redeals, _score_redeals_buried)
#: without (Westhaven: the waste is a stack from the start), two more that count the
#: blocked waste cards: on tuning seeds 1-120 at 60,000 positions 2 undecided become 0
SCORES_STACK = (*SCORES, _score_waste_first, _score_waste_blocked)


def solve(rules: Rules, pos: Position, limits: Limits) -> tuple[str, list[InternalMove], int]:
    """Search for a win from ``pos``: (verdict, internal moves, positions seen).

    Best-first searches on each of :data:`SCORES_REDEALS` (or :data:`SCORES_STACK`
    when the stock is dealt once) taking turns, newest first among
    equals (so each digs rather than widens); every key is expanded once by each, so
    any one running out of keys proves the deal ``unwinnable``.
    """
    board = Board(rules)
    first: list[InternalMove] = []
    start = board.forced(board.start(pos), first)
    scores = SCORES_STACK if board.max_redeals == 0 else SCORES_REDEALS
    return best_first.portfolio(start, first, board.children, _key, _won, scores, limits)


def _won(state: State) -> bool:
    return sum(state[2]) == 52
