"""The best-first loop the deal-folding searches share (Osmosis, Thumb and Pouch, Westhaven),
and the portfolio that runs several of them in turns.

Each of those searches has its own compact state, children (a step is a run of
engine moves: deals folded into the move that follows them) and score; the loop
around them is the same: newest first among equal scores (so it dives rather
than widens), every key expanded once (so running out of keys proves the deal
``unwinnable``), a positions budget and a clock looked at now and then.

Why a portfolio: one score has a heavy tail. On most deals it walks straight to
a win, on a few it wanders a plateau of hundreds of thousands of positions that
another weighting of the same features crosses in a few thousand (and that one
has its own hard deals). So, as Freecell Solver's "soft threads" and our
Freecell portfolio do, the searches take turns, each given a slice of positions
that doubles every round; every search expands every child, so any one of them
running out of keys is the proof.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from heapq import heappop, heappush
from typing import Generic, TypeVar

from shared.solver.result import UNKNOWN, UNWINNABLE, WON, Limits
from shared.variants.base import InternalMove

#: children made between two looks at the clock
CLOCK_EVERY = 256
#: positions expanded between two looks at the clock (a position may make no child at all)
EXPAND_CLOCK_EVERY = 32
#: the first slice of the portfolio, in positions (doubled every round)
FIRST_SLICE = 4_000

S = TypeVar("S")
K = TypeVar("K", bound=Hashable)
Step = tuple[InternalMove, ...]


class BestFirst(Generic[S, K]):
    """One best-first search from ``start``, run in slices by :meth:`run`.

    ``dead`` says a state can never be won: it is kept as seen but not expanded,
    which keeps "every key seen" a proof.
    """

    def __init__(
        self,
        start: S,
        children: Callable[[S], Iterable[tuple[S, Step]]],
        key: Callable[[S], K],
        won: Callable[[S], bool],
        score: Callable[[S], int],
        dead: Callable[[S], bool] | None = None,
    ) -> None:
        self.children = children
        self.key = key
        self.won = won
        self.score = score
        self.dead = dead
        self.start_key = key(start)
        self.parents: dict[K, tuple[K, Step] | None] = {self.start_key: None}
        self.heap: list[tuple[int, int, S]] = [(0, 0, start)]
        self.counter = 0
        self.expanded = 0
        self.best, self.lead = score(start), self.start_key
        self.end: K | None = None
        #: a state whose children were cut short by a slice's end (finished next turn)
        self.pending: tuple[K, list[tuple[S, Step]]] | None = None
        self.verdict = UNKNOWN
        if won(start):
            self.verdict, self.end = WON, self.start_key
        elif dead is not None and dead(start):
            self.verdict = UNWINNABLE

    @property
    def positions(self) -> int:
        return len(self.parents)

    def run(self, limits: Limits, stop_at: int) -> str:
        """Search until a verdict, ``stop_at`` positions seen by this search, the
        limits' positions (this search's alone) or time. The verdict so far."""
        if self.verdict != UNKNOWN:
            return self.verdict
        parents = self.parents
        heap = self.heap
        key = self.key
        dead = self.dead
        cap = min(stop_at, limits.positions)
        while self.pending is not None or heap:
            if self.pending is not None:
                state_key, todo = self.pending
                self.pending = None
            else:
                _, _, state = heappop(heap)
                self.expanded += 1
                if not self.expanded % EXPAND_CLOCK_EVERY and limits.out_of_time():
                    heappush(heap, (self.score(state), -self.counter, state))
                    self.expanded -= 1
                    return UNKNOWN
                state_key = key(state)
                todo = list(self.children(state))
            while todo:
                child, moves = todo.pop(0)
                child_key = key(child)
                if child_key in parents:
                    continue
                parents[child_key] = (state_key, moves)
                if self.won(child):
                    self.verdict, self.end = WON, child_key
                    return WON
                self.counter += 1
                if dead is None or not dead(child):
                    rank = self.score(child)
                    if rank < self.best:
                        self.best, self.lead = rank, child_key
                    heappush(heap, (rank, -self.counter, child))
                if len(parents) >= cap or (not self.counter % CLOCK_EVERY and limits.out_of_time()):
                    if todo:
                        self.pending = (state_key, todo)
                    return UNKNOWN
        self.verdict = UNWINNABLE
        return UNWINNABLE

    def line(self, first: list[InternalMove]) -> list[InternalMove]:
        """``first`` then the moves to the win (after a win), else to the search's lead
        (the best-scored position seen; none if none scored better than the start)."""
        end = self.end if self.end is not None else self.lead
        steps: list[Step] = []
        link = self.parents[end]
        while link is not None:
            steps.append(link[1])
            link = self.parents[link[0]]
        return first + [move for step in reversed(steps) for move in step]


def search(
    start: S,
    first: list[InternalMove],
    children: Callable[[S], Iterable[tuple[S, Step]]],
    key: Callable[[S], K],
    won: Callable[[S], bool],
    score: Callable[[S], int],
    limits: Limits,
    dead: Callable[[S], bool] | None = None,
) -> tuple[str, list[InternalMove], int]:
    """(verdict, internal moves, positions seen) from ``start``, reached by ``first``.

    The moves are the winning line, or when the budget runs out (``unknown``) the
    search's lead: the line to the best-scored position seen (none if no position
    scored better than the start).
    """
    return portfolio(start, first, children, key, won, (score,), limits, dead)


def portfolio(
    start: S,
    first: list[InternalMove],
    children: Callable[[S], Iterable[tuple[S, Step]]],
    key: Callable[[S], K],
    won: Callable[[S], bool],
    scores: Sequence[Callable[[S], int]],
    limits: Limits,
    dead: Callable[[S], bool] | None = None,
    first_slice: int = FIRST_SLICE,
    complete: bool = True,
) -> tuple[str, list[InternalMove], int]:
    """As :func:`search`, with one best-first search per score taking turns: slices of
    ``first_slice`` positions, doubling every round, until one wins or runs out of keys
    (a proof when ``children`` gives every move: each search expands every child). The
    positions budget and the memory bound count the searches' positions together; the
    lead is the first search's.

    ``complete=False``: ``children`` leaves moves out, so a search that runs out of
    keys proves nothing and just drops out; ``unwinnable`` then means only that every
    search ran out (the caller's search space is exhausted, not the deal's).
    """
    searches = [BestFirst(start, children, key, won, score, dead) for score in scores]
    total = limits.positions
    size = first_slice if len(searches) > 1 else total
    live = list(searches)
    while True:
        for one in list(live):
            others = sum(s.positions for s in searches if s is not one)
            limits.positions = max(total - others, 1)
            verdict = one.run(limits, one.positions + size)
            seen = sum(s.positions for s in searches)
            if verdict == WON or (verdict == UNWINNABLE and complete):
                limits.positions = total
                return verdict, one.line(first) if verdict == WON else [], seen
            if verdict == UNWINNABLE:
                live.remove(one)
                if not live:
                    limits.positions = total
                    return UNWINNABLE, [], seen
            elif seen >= total or limits.out_of_time():
                limits.positions = total
                return UNKNOWN, searches[0].line(first), seen
        size *= 2


__all__ = ["CLOCK_EVERY", "EXPAND_CLOCK_EVERY", "FIRST_SLICE", "BestFirst", "portfolio", "search"]
