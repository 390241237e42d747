"""Best-first search on the engine's own positions and moves, for any variant.

It asks the variant's ``legal``, ``apply`` and ``after_move`` for everything,
so it plays exactly the engine's rules; canonical keys
(:mod:`shared.variants.keys`) keep it from trying equivalent positions twice,
and the variant's ``safe_move`` says which foundation moves it may play
alone. A line it finds is a list of internal moves that the engine replays as
they are. It expands and scores positions as the generic stuck proof does
(:mod:`shared.stuck.generic`).
"""

from __future__ import annotations

from collections.abc import Callable
from heapq import heappop, heappush

from shared.position import Position
from shared.solver.result import UNKNOWN, UNWINNABLE, WON, Limits
from shared.stuck.generic import Wanted, buried, children
from shared.variants.base import InternalMove, Rules
from shared.variants.keys import Key, key_function

CLOCK_EVERY = 256


def make_score(rules: Rules) -> Callable[[Position], int]:
    wanted = Wanted(rules)
    total = rules.card_count

    def score(pos: Position) -> int:
        """Lower is nearer a win: cards still out, face-down cards, cards over wanted ones."""
        out = total - rules.foundation_count(pos)
        return 6 * out + sum(pos.down) + buried(rules, pos, wanted.of(pos))

    return score


def solve(rules: Rules, start: Position, limits: Limits) -> tuple[str, list[InternalMove], int]:
    """Search for a win from ``start``: (verdict, internal moves, positions seen); the
    moves are the winning line, or when the budget runs out the line to the best-scored
    position seen (the lead: none if nothing scored better than the start)."""
    key = key_function(rules)
    score = make_score(rules)
    start_key = key(start)
    parents: dict[Key, tuple[Key, InternalMove] | None] = {start_key: None}
    if rules.is_won(start):
        return WON, [], 1
    best = score(start)
    heap: list[tuple[int, int, Key, Position]] = [(best, 0, start_key, start)]
    counter = 0
    lead = start_key
    while heap:
        _, _, pos_key, pos = heappop(heap)
        for move, child in children(rules, pos, forced=True):
            child_key = key(child)
            if child_key in parents:
                continue
            parents[child_key] = (pos_key, move)
            if rules.is_won(child):
                return WON, _path(parents, child_key), len(parents)
            counter += 1
            rank = score(child)
            if rank < best:
                best, lead = rank, child_key
            heappush(heap, (rank, counter, child_key, child))
            if len(parents) >= limits.positions or (
                not counter % CLOCK_EVERY and limits.out_of_time()
            ):
                return UNKNOWN, _path(parents, lead), len(parents)
    return UNWINNABLE, [], len(parents)


def best_move(rules: Rules, pos: Position, moves: list[InternalMove]) -> InternalMove:
    """The move after which :func:`make_score` is lowest (the first such in list order)."""
    score = make_score(rules)
    best: tuple[int, int] | None = None
    chosen = moves[0]
    for i, move in enumerate(moves):
        child = pos.copy()
        rules.apply(child, move)
        rules.after_move(child)
        rank = (score(child), i)
        if best is None or rank < best:
            best, chosen = rank, move
    return chosen


def _path(parents: dict[Key, tuple[Key, InternalMove] | None], end: Key) -> list[InternalMove]:
    moves: list[InternalMove] = []
    link = parents[end]
    while link is not None:
        moves.append(link[1])
        link = parents[link[0]]
    moves.reverse()
    return moves
