"""Freecell solving by several best-first searches taking turns (Freecell Solver's "soft threads").

Why several: one scoring of positions has a heavy tail. On most deals it walks
straight to a win in a few hundred positions, but on a few in a hundred it
wanders a plateau of tens of thousands, and a different weighting of the same
features usually finds those deals easy (and has its own few hard ones). So the
searches take turns, each given a slice of positions that doubles every round:
a deal costs about as many positions as the search that suits it best needs,
times the number of searches, while the first search alone still solves the
easy majority within its first slice, at the cost it had alone.

The searches expand the candidate moves
(:func:`shared.solver.freecell_moves.candidates`: one move per class of moves
whose results share a key) over the same canonical keys. A complete search
keeps every one, so when it runs out of positions it has seen every reachable
key: that is the proof behind ``unwinnable``. The first search is incomplete
on purpose: it never puts into a free cell a card that lies on the card it
builds on, which rarely helps, and so needs about a quarter fewer positions
(deals 1-1000, weights 6/2/2/4/2 and 1 a move, at most 20,000 a deal: 1.27
million in all pruned, 1.74 million not). When it runs out it proves nothing
and drops out; the complete search goes on.

The inner loop is written for speed (it is most of the solver's time): the
candidate moves, the move, the engine's autoplay when it can fire, the key,
the score and the push are done in one place, with the columns' build lengths
and scores remembered by column.
"""

from __future__ import annotations

from collections.abc import Sequence
from heapq import heappop, heappush
from typing import NamedTuple

from shared.solver.freecell_fast import Board, foundation_total, key, legal, play
from shared.solver.freecell_moves import CACHE_SIZE, candidates
from shared.solver.result import UNKNOWN, UNWINNABLE, WON, Limits
from shared.variants.base import InternalMove

#: positions between two looks at the clock
CLOCK_EVERY = 256


class Weights(NamedTuple):
    """How one search scores a board (lower is nearer a win).

    ``out``: per card not yet home; ``blocking``: per card lying on a lower card
    (it must move before that card can go home); ``buried``: per card above a
    card its foundation needs next; ``empty_column``: taken off per empty column;
    ``cell``: per occupied free cell; ``depth``: per move from the start (a little
    of it keeps a search from wandering off on long detours).
    """

    out: int
    blocking: int
    buried: int
    empty_column: int
    cell: int
    depth: int = 0


class Plan(NamedTuple):
    """One search of the portfolio: its weights, whether it takes the newest of equal
    scores first, and whether it expands every candidate move (only a complete search
    that runs out of positions proves a deal unwinnable)."""

    weights: Weights
    newest_first: bool = False
    complete: bool = True


#: a queued board: (priority, tie-break, key, board, moves from the start)
Item = tuple[int, int, bytes, Board, int]


class BestFirst:
    """One best-first search from ``start``, run in slices by :meth:`run`.

    ``parents`` maps each key seen to (parent key, move), for the line back.
    """

    def __init__(
        self, start: Board, auto: bool, plan: Plan, runs: dict[bytes, int] | None = None
    ) -> None:
        self.auto = auto
        #: column -> its top build's length, shared by the searches of one solve
        self.runs: dict[bytes, int] = {} if runs is None else runs
        self.weights = plan.weights
        self.complete = plan.complete
        self.order = -1 if plan.newest_first else 1
        self.start_key = key(start)
        self.parents: dict[bytes, tuple[bytes, InternalMove] | None] = {self.start_key: None}
        self.by_foundations: dict[Board, tuple[int, bytes, dict[bytes, int]]] = {}
        self.cached = 0
        self.heap: list[Item] = [(self.score(start), 0, self.start_key, start, 0)]
        self.counter = 0
        self.pending: Item | None = None
        self.won: bytes | None = self.start_key if foundation_total(start) == 52 else None

    @property
    def positions(self) -> int:
        return len(self.parents)

    def line(self) -> list[InternalMove]:
        """The moves from the start to the won board (after a win)."""
        moves: list[InternalMove] = []
        end = self.won
        assert end is not None
        link = self.parents[end]
        while link is not None:
            moves.append(link[1])
            link = self.parents[link[0]]
        moves.reverse()
        return moves

    def score(self, board: Board) -> int:
        """The board's score under this search's weights (lower is nearer a win)."""
        _, w_block, w_buried, w_empty, w_cell, _ = self.weights
        foundations = board[4:8]
        entry = self.by_foundations.get(foundations)
        if entry is None:
            entry = self._foundation_entry(foundations)
        total, high, costs = entry
        for col in board[8:16]:
            if col:
                cost = costs.get(col)
                if cost is None:
                    cost = costs[col] = column_cost(col, high, w_block, w_buried)
                    self.cached += 1
                total += cost
            else:
                total -= w_empty
        for c in board[0:4]:
            if c:
                total += w_cell
        return total

    def _foundation_entry(self, foundations: Board) -> tuple[int, bytes, dict[bytes, int]]:
        """The score's part that depends on the foundations alone, and the column costs
        under these foundations (emptied with the rest at ``CACHE_SIZE`` columns)."""
        if self.cached >= CACHE_SIZE:
            self.by_foundations.clear()
            self.cached = 0
        high = [0, 0, 0, 0]
        out = 52
        for fp in foundations:
            if fp:
                out -= len(fp)
                top = fp[-1]
                high[top >> 4] = top & 15
        entry = self.by_foundations[foundations] = (self.weights.out * out, bytes(high), {})
        return entry

    def run(self, until: int, limits: Limits) -> bool:
        """Search on until a win, exhaustion, ``until`` positions in this search, or time
        is up. True when the search is finished (won or exhausted).

        A board whose expansion was cut short is expanded again first at the next
        call (the children it made are seen, so it makes the rest, in the same
        order): sliced or not, a search sees the same positions in the same order.
        """
        won = self.won  # (a local: expand() sets self.won, which mypy would take as still None)
        if won is not None:
            return True
        heap = self.heap
        parents = self.parents
        expand = self.expand
        item = self.pending
        self.pending = None
        while item is not None or heap:
            if len(parents) >= until:
                self.pending = item
                return False
            if item is None:
                item = heappop(heap)
            if not expand(item, until, limits):
                if self.won is not None:
                    return True
                self.pending = item
                return False
            item = None
        return True

    def expand(self, item: Item, until: int, limits: Limits) -> bool:
        """Make the children of the popped ``item`` not seen before, score and queue them.

        False when it stopped early: on a win (``won`` is set), at ``until`` positions
        or out of time.
        """
        _, _, board_key, board, depth = item
        depth += 1
        step = depth * self.weights.depth
        complete = self.complete
        heap = self.heap
        parents = self.parents
        auto = self.auto
        score = self.score
        order = self.order
        counter = self.counter
        runs = self.runs
        full = board_key == self.start_key
        try:
            # The start may be unsettled (a deal, a hand-built board): all its moves count.
            for move in legal(board) if full else candidates(board, not auto, complete, runs):
                child = play(board, move, auto, full)
                cells = sorted(child[0] + child[1] + child[2] + child[3])
                child_key = bytes(cells) + b"\0" + b"\0".join(sorted(child[8:16]))
                if child_key in parents:
                    continue
                parents[child_key] = (board_key, move)
                if len(child[4]) + len(child[5]) + len(child[6]) + len(child[7]) == 52:
                    self.won = child_key
                    return False
                counter += 1
                heappush(heap, (score(child) + step, order * counter, child_key, child, depth))
                if len(parents) >= until:
                    return False
                if not counter % CLOCK_EVERY and limits.out_of_time():
                    return False
            return True
        finally:
            self.counter = counter


def column_cost(col: bytes, high: bytes, w_block: int, w_buried: int) -> int:
    """Cards lying on a lower card, plus the cards above each next-needed card, weighted."""
    blocking = 0
    buried = 0
    low = 99
    n = len(col)
    for i, card in enumerate(col):
        rank = card & 15
        if rank > low:
            blocking += 1
        else:
            low = rank
        if rank == high[card >> 4] + 1:
            buried += n - 1 - i
    return w_block * blocking + w_buried * buried


#: the searches, in turn order (weights chosen on Microsoft deals 1-1000, 20,000
#: positions each, for the fewest positions in all when they take turns)
PORTFOLIO: tuple[Plan, ...] = (
    Plan(Weights(6, 3, 2, 4, 2, depth=1), complete=False),
    Plan(Weights(3, 1, 1, 4, 2), newest_first=True),
)

#: positions the first search gets in the first round; every round doubles the slice
FIRST_SLICE = 2_000


def solve(
    start: Board, auto: bool, limits: Limits, plans: Sequence[Plan] = PORTFOLIO
) -> tuple[str, list[InternalMove], int]:
    """Search for a win from ``start``: (verdict, moves, positions seen in all searches).

    ``unwinnable`` only when a complete search ran out of positions; an incomplete
    one that runs out just leaves the turns to the others (``unknown`` when none
    is left).
    """
    if foundation_total(start) == 52:
        return WON, [], 1
    runs: dict[bytes, int] = {}
    searches = [BestFirst(start, auto, plan, runs) for plan in plans]
    cap = limits.positions
    slice_ = FIRST_SLICE
    # positions stored by all the searches, their common start counted once
    total = 1
    while True:
        for search in list(searches):
            others = total - (search.positions - 1)
            until = min(search.positions + slice_, cap - others + 1)
            finished = search.run(until, limits)
            total = others + search.positions - 1
            if search.won is not None:
                return WON, search.line(), total
            if finished:
                if search.complete:
                    return UNWINNABLE, [], total
                searches.remove(search)
            if total >= cap or limits.out_of_time():
                return UNKNOWN, [], total
        if not searches:
            return UNKNOWN, [], total
        slice_ *= 2
