"""Osmosis' own search: foundation moves only, the stock's deals folded into them.

In Osmosis nothing is ever placed on a reserve or the waste, so a line is a
sequence of foundation moves with deals in between. Deals change nothing but
which waste card is on top, and a reserve card's move commutes with them, so
the search steps from one foundation move to the next: a reserve top now, or
"deal until card X is on top, then play X" for every card deals can bring up
(each at its first occurrence: a later pass reaches the same talon with fewer
redeals left, which can only do less). Positions in the middle of a run of
deals are never stored, which is what made the generic search drown in
``deal_three`` games (a dozen positions a pass, a pass per foundation move).

The board is small: the cards home as one bit mask (card code = bit), the
suits of f1..f3 in the order they were started, the talon (waste then stock, in
dealing order: a redeal keeps that order, so it only ever loses cards) with
the count of cards on the waste, and the redeals used. Each reserve is its
dealt cards less those home (they leave from the top).

Forced moves, played alone (no line can regret them): a reserve top onto a
started foundation (the foundations only ever take more, and the talon is
untouched); with one card per deal, the waste top onto a started foundation as
well (``OsmosisRules.safe_move`` says why). Starting a foundation fixes the next
suit, and with three cards per deal a waste card leaving regroups every later
deal, so those are choices. Nothing else is pruned: when every key has been
seen the deal is ``unwinnable``.
"""

from __future__ import annotations

from collections.abc import Callable

from shared.position import Position
from shared.solver import best_first
from shared.solver.result import Limits
from shared.variants.base import DEAL, InternalMove, Rules

F0 = 4
STOCK = 8
WASTE = 9

#: (cards home as a bit mask, suits of f1.. in starting order, talon, cards on the waste,
#: redeals used); the talon is derived from the mask but kept to save rebuilding it
State = tuple[int, tuple[int, ...], tuple[int, ...], int, int]
Key = tuple[int, tuple[int, ...], int, int]
Step = tuple[InternalMove, ...]


def fits(pos: Position) -> bool:
    """The board this search reads: a base card on f0, every reserve top face up (as
    any game the engine plays has them; a hand-built position may not)."""
    piles = pos.piles
    return bool(piles[F0]) and all(pos.down[r] < len(piles[r]) or not piles[r] for r in range(4))


class Deal:
    """What never changes during a search: the reserves as dealt, the base card, the rules."""

    def __init__(self, rules: Rules, pos: Position) -> None:
        if not fits(pos):
            raise ValueError("not an Osmosis board this search reads (see fits)")
        piles = pos.piles
        self.reserves: tuple[tuple[int, ...], ...] = tuple(tuple(piles[r]) for r in range(4))
        self.base_suit = piles[F0][0] >> 4
        self.base_rank = piles[F0][0] & 15
        self.step = rules.deal_count
        self.max_redeals = rules.max_redeals
        #: with one card per deal, the waste top onto a started foundation is forced
        self.waste_safe = rules.deal_count == 1

    def start(self, pos: Position) -> State:
        piles = pos.piles
        home = 0
        order: list[int] = []
        for f in range(F0, F0 + 4):
            for card in piles[f]:
                home |= 1 << card
            if f > F0 and piles[f]:
                order.append(piles[f][0] >> 4)
        talon = tuple(piles[WASTE]) + tuple(reversed(piles[STOCK]))
        redeals = pos.redeals_used if self.max_redeals is not None else 0
        return home, tuple(order), talon, len(piles[WASTE]), redeals

    def target(self, home: int, order: tuple[int, ...], card: int) -> int:
        """The foundation (4..7) that takes ``card`` now, or -1 (docs/rules.md, Osmosis)."""
        suit = card >> 4
        if suit == self.base_suit:
            return F0
        rank = card & 15
        prev = self.base_suit
        for i, s in enumerate(order):
            if s == suit:
                return F0 + 1 + i if home >> (prev * 16 + rank) & 1 else -1
            prev = s
        if rank == self.base_rank and len(order) < 3:
            return F0 + 1 + len(order)
        return -1

    def started(self, order: tuple[int, ...], card: int) -> bool:
        suit = card >> 4
        return suit == self.base_suit or suit in order

    def reserve_top(self, home: int, r: int) -> int:
        """The top card of reserve ``r`` (its cards leave from the top), or -1."""
        for card in reversed(self.reserves[r]):
            if not home >> card & 1:
                return card
        return -1

    def forced(self, state: State, moves: list[InternalMove]) -> State:
        """``state`` after every forced move (appended to ``moves``)."""
        home, order, talon, on_waste, redeals = state
        changed = True
        while changed:
            changed = False
            for r in range(4):
                card = self.reserve_top(home, r)
                while card >= 0 and self.started(order, card):
                    f = self.target(home, order, card)
                    if f < 0:
                        break
                    home |= 1 << card
                    moves.append((r, 1, f))
                    changed = True
                    card = self.reserve_top(home, r)
            if self.waste_safe:
                while on_waste:
                    card = talon[on_waste - 1]
                    f = self.target(home, order, card) if self.started(order, card) else -1
                    if f < 0:
                        break
                    home |= 1 << card
                    talon = talon[: on_waste - 1] + talon[on_waste:]
                    on_waste -= 1
                    moves.append((WASTE, 1, f))
                    changed = True
        return home, order, talon, on_waste, redeals

    def surfacing(self, state: State) -> list[tuple[int, int, int]]:
        """(talon index, deals, redeals used) for each card deals can bring to the waste
        top, at its first occurrence; the top card now first, with no deal.

        When the waste top is forced (one card per deal), dealing past a card that a
        started foundation takes is never better than playing it: the scan stops there.
        """
        home, order, talon, on_waste, redeals = state
        found: list[tuple[int, int, int]] = []
        reached: set[int] = set()
        if on_waste:
            found.append((on_waste - 1, 0, redeals))
            reached.add(on_waste - 1)
        size = len(talon)
        step = self.step
        limit = self.max_redeals
        stop = self.waste_safe
        cur = on_waste
        deals = 0
        visited = {cur}
        while True:
            if cur < size:
                cur = min(cur + step, size)
            elif size and (limit is None or redeals < limit):
                cur = 0
                if limit is not None:
                    redeals += 1
            else:
                break
            deals += 1
            if limit is None:
                if cur in visited:
                    break
                visited.add(cur)
            if cur and cur - 1 not in reached:
                reached.add(cur - 1)
                found.append((cur - 1, deals, redeals))
                card = talon[cur - 1]
                if stop and self.started(order, card) and self.target(home, order, card) >= 0:
                    break
        return found

    def dead(self, state: State) -> bool:
        """Some reserve cards wait on each other in a cycle, so none of them can ever move.

        A reserve card goes home only after every card above it; card (s, r) goes
        home only after (s', r) for each suit s' started before s, and after its own
        suit's base-rank card when s is not started yet (a suit not started comes
        after every started one; two not started are not ordered yet).
        """
        home, order = state[0], state[1]
        base_suit = self.base_suit
        base_rank = self.base_rank
        place = {base_suit: 0}
        for i, s in enumerate(order):
            place[s] = i + 1
        piles = [[c for c in cards if not home >> c & 1] for cards in self.reserves]
        # after[c]: the reserve cards that must go home after c
        after: dict[int, list[int]] = {}
        waiting: list[int] = []
        for left in piles:
            for i, card in enumerate(left):
                after[card] = left[:i]
            waiting += left
        if len(waiting) < 2:
            return False
        for upper in waiting:
            suit = upper >> 4
            if suit == base_suit:
                continue
            rank = upper & 15
            mine = place.get(suit, 4)
            for lower in waiting:
                if lower & 15 == rank:
                    if place.get(lower >> 4, 4) < mine:
                        after[lower].append(upper)
                elif mine == 4 and lower == suit * 16 + base_rank:
                    after[lower].append(upper)
        # a cycle in "goes home before": depth-first, colouring the cards
        colour = dict.fromkeys(waiting, 0)
        for root in waiting:
            if colour[root]:
                continue
            colour[root] = 1
            stack = [(root, iter(after[root]))]
            while stack:
                card, rest = stack[-1]
                for nxt in rest:
                    if colour[nxt] == 1:
                        return True
                    if not colour[nxt]:
                        colour[nxt] = 1
                        stack.append((nxt, iter(after[nxt])))
                        break
                else:
                    colour[card] = 2
                    stack.pop()
        return False

    def children(self, state: State) -> list[tuple[State, Step]]:
        """Every choice of next foundation move, each followed by the forced moves."""
        home, order, talon, on_waste, redeals = state
        result: list[tuple[State, Step]] = []
        for r in range(4):
            card = self.reserve_top(home, r)
            if card < 0:
                continue
            f = self.target(home, order, card)
            if f < 0:
                continue
            moves: list[InternalMove] = [(r, 1, f)]
            grown = (*order, card >> 4) if f - F0 > len(order) else order
            after = self.forced((home | 1 << card, grown, talon, on_waste, redeals), moves)
            result.append((after, tuple(moves)))
        for index, deals, used in self.surfacing(state):
            card = talon[index]
            f = self.target(home, order, card)
            if f < 0:
                continue
            moves = [DEAL] * deals
            moves.append((WASTE, 1, f))
            grown = (*order, card >> 4) if f - F0 > len(order) else order
            rest = talon[:index] + talon[index + 1 :]
            after = self.forced((home | 1 << card, grown, rest, index, used), moves)
            result.append((after, tuple(moves)))
        return result


def _key(state: State) -> Key:
    return state[0], state[1], state[3], state[4]


def _cycle_key(step: int) -> Callable[[State], Key]:
    """The key with unlimited redeals: the waste counts that dealing from an empty waste
    passes through (0, step, 2 step, ... and the whole talon) lie on one cycle of deals
    and a redeal, so those positions reach each other and everything the others reach:
    one key for all of them (the count written as 0)."""

    def key(state: State) -> Key:
        home, order, talon, on_waste, redeals = state
        if on_waste == len(talon) or not on_waste % step:
            on_waste = 0
        return home, order, on_waste, redeals

    return key


def _home_count(home: int) -> int:
    return bin(home).count("1")


def solve(rules: Rules, pos: Position, limits: Limits) -> tuple[str, list[InternalMove], int]:
    """Search for a win from ``pos``: (verdict, internal moves, positions seen).

    Best-first on the cards still out, newest first among equals (so it dives
    rather than widens); every key is expanded once, so running out of keys
    proves the deal ``unwinnable``.
    """
    deal = Deal(rules, pos)
    first: list[InternalMove] = []
    start = deal.forced(deal.start(pos), first)
    key = search_key(rules)
    return best_first.search(start, first, deal.children, key, _won, _out, limits, dead=deal.dead)


def search_key(rules: Rules) -> Callable[[State], Key]:
    """The key the search tells boards apart by, under ``rules``."""
    return _key if rules.max_redeals is not None else _cycle_key(rules.deal_count)


def _out(state: State) -> int:
    return 52 - _home_count(state[0])


def _won(state: State) -> bool:
    return _home_count(state[0]) == 52
