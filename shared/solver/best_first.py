"""The best-first loop the deal-folding searches share (Osmosis, Thumb and Pouch, Westhaven).

Each of those searches has its own compact state, children (a step is a run of
engine moves: deals folded into the move that follows them) and score; the loop
around them is the same: newest first among equal scores (so it dives rather
than widens), every key expanded once (so running out of keys proves the deal
``unwinnable``), a positions budget and a clock looked at now and then.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from heapq import heappop, heappush
from typing import TypeVar

from shared.solver.result import UNKNOWN, UNWINNABLE, WON, Limits
from shared.variants.base import InternalMove

#: children made between two looks at the clock
CLOCK_EVERY = 256
#: positions expanded between two looks at the clock (a position may make no child at all)
EXPAND_CLOCK_EVERY = 32

S = TypeVar("S")
K = TypeVar("K", bound=Hashable)
Step = tuple[InternalMove, ...]


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
    scored better than the start). ``dead`` says a state can never be won: it is
    kept as seen but not expanded, which keeps "every key seen" a proof.
    """
    start_key = key(start)
    parents: dict[K, tuple[K, Step] | None] = {start_key: None}
    if won(start):
        return WON, first, 1
    if dead is not None and dead(start):
        return UNWINNABLE, [], 1
    heap: list[tuple[int, int, S]] = [(0, 0, start)]
    counter = 0
    expanded = 0
    best, lead = score(start), start_key
    while heap:
        _, _, state = heappop(heap)
        expanded += 1
        if not expanded % EXPAND_CLOCK_EVERY and limits.out_of_time():
            return UNKNOWN, _lead(first, parents, lead), len(parents)
        state_key = key(state)
        for child, moves in children(state):
            child_key = key(child)
            if child_key in parents:
                continue
            parents[child_key] = (state_key, moves)
            if won(child):
                return WON, first + _path(parents, child_key), len(parents)
            counter += 1
            if dead is None or not dead(child):
                rank = score(child)
                if rank < best:
                    best, lead = rank, child_key
                heappush(heap, (rank, -counter, child))
            if len(parents) >= limits.positions or (
                not counter % CLOCK_EVERY and limits.out_of_time()
            ):
                return UNKNOWN, _lead(first, parents, lead), len(parents)
    return UNWINNABLE, [], len(parents)


def _lead(
    first: list[InternalMove], parents: dict[K, tuple[K, Step] | None], end: K
) -> list[InternalMove]:
    return first + _path(parents, end)


def _path(parents: dict[K, tuple[K, Step] | None], end: K) -> list[InternalMove]:
    steps: list[Step] = []
    link = parents[end]
    while link is not None:
        steps.append(link[1])
        link = parents[link[0]]
    return [move for step in reversed(steps) for move in step]


__all__ = ["CLOCK_EVERY", "EXPAND_CLOCK_EVERY", "search"]
