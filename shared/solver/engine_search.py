"""Best-first search on the engine's own positions and moves, for every variant.

It asks the variant's ``legal``, ``apply`` and ``after_move`` for everything,
so it plays exactly the engine's rules; canonical keys (:mod:`shared.solver.keys`)
keep it from trying equivalent positions twice. A line it finds is a list of
internal moves that the engine replays as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from heapq import heappop, heappush

from shared.position import Position
from shared.solver.keys import Key, key_function
from shared.solver.result import UNKNOWN, UNWINNABLE, WON, Limits
from shared.solver.safe import SafeTest, safe_test
from shared.variants.base import InternalMove, Rules

CLOCK_EVERY = 256


class Wanted:
    """Which cards some foundation takes now, cached per foundation state.

    The answer depends only on the foundations (Osmosis looks at the one before),
    which change far less often than the rest of the board.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.cache: dict[tuple[tuple[int, ...], ...], frozenset[int]] = {}

    def __call__(self, pos: Position) -> frozenset[int]:
        rules = self.rules
        state = tuple(tuple(pos.piles[f]) for f in rules.foundations)
        found = self.cache.get(state)
        if found is None:
            cards = {c for pile in pos.piles for c in pile}
            accepts = rules.foundation_accepts
            found = frozenset(
                c for c in cards if any(accepts(pos, c, f) for f in rules.foundations)
            )
            if len(self.cache) > 50_000:
                self.cache.clear()
            self.cache[state] = found
        return found


def buried(rules: Rules, pos: Position, wanted: frozenset[int]) -> int:
    """Cards lying on the shallowest wanted card of each pile, foundations left out."""
    total = 0
    is_f = rules.is_foundation
    for i, pile in enumerate(pos.piles):
        if is_f[i] or not pile:
            continue
        n = len(pile)
        for depth in range(n):
            if pile[n - 1 - depth] in wanted:
                total += depth
                break
        else:
            total += n
    return total


def make_score(rules: Rules) -> Callable[[Position], int]:
    wanted = Wanted(rules)
    total = rules.card_count

    def score(pos: Position) -> int:
        """Lower is nearer a win: cards still out, face-down cards, cards over wanted ones."""
        out = total - rules.foundation_count(pos)
        return 6 * out + sum(pos.down) + buried(rules, pos, wanted(pos))

    return score


def children(
    rules: Rules, pos: Position, safe: SafeTest | None = None
) -> list[tuple[InternalMove, Position]]:
    """Each legal move with the position after it, foundation moves first; only the
    first safe foundation move when ``safe`` finds one."""
    is_f = rules.is_foundation
    moves = rules.legal(pos)
    moves.sort(key=lambda m: not (m[0] >= 0 and is_f[m[2]] and not is_f[m[0]]))
    if safe is not None:
        for move in moves:
            if move[0] < 0 or not is_f[move[2]] or is_f[move[0]]:
                break
            if safe(pos, move):
                moves = [move]
                break
    result = []
    for move in moves:
        child = pos.copy()
        rules.apply(child, move)
        rules.after_move(child)
        result.append((move, child))
    return result


def solve(rules: Rules, start: Position, limits: Limits) -> tuple[str, list[InternalMove], int]:
    """Search for a win from ``start``: (verdict, internal moves, positions seen)."""
    key = key_function(rules)
    score = make_score(rules)
    safe = safe_test(rules)
    start_key = key(start)
    parents: dict[Key, tuple[Key, InternalMove] | None] = {start_key: None}
    if rules.is_won(start):
        return WON, [], 1
    heap: list[tuple[int, int, Key, Position]] = [(score(start), 0, start_key, start)]
    counter = 0
    while heap:
        _, _, pos_key, pos = heappop(heap)
        for move, child in children(rules, pos, safe):
            child_key = key(child)
            if child_key in parents:
                continue
            parents[child_key] = (pos_key, move)
            if rules.is_won(child):
                return WON, _path(parents, child_key), len(parents)
            counter += 1
            heappush(heap, (score(child), counter, child_key, child))
            if len(parents) >= limits.positions:
                return UNKNOWN, [], len(parents)
            if not counter % CLOCK_EVERY and limits.out_of_time():
                return UNKNOWN, [], len(parents)
    return UNWINNABLE, [], len(parents)


def _path(parents: dict[Key, tuple[Key, InternalMove] | None], end: Key) -> list[InternalMove]:
    moves: list[InternalMove] = []
    link = parents[end]
    while link is not None:
        moves.append(link[1])
        link = parents[link[0]]
    moves.reverse()
    return moves


def progress_possible(rules: Rules, start: Position, budget: int) -> bool | None:
    """True when some line raises the foundation count above today's, False when none
    can (every reachable position seen), None when ``budget`` positions were not enough."""
    key = key_function(rules)
    wanted = Wanted(rules)
    target = rules.foundation_count(start)
    seen = {key(start)}
    heap: list[tuple[int, int, Position]] = [(0, 0, start)]
    counter = 0
    while heap:
        _, _, pos = heappop(heap)
        for _move, child in children(rules, pos):
            if rules.foundation_count(child) > target:
                return True
            child_key = key(child)
            if child_key in seen:
                continue
            if len(seen) >= budget:
                return None
            seen.add(child_key)
            counter += 1
            heappush(heap, (buried(rules, child, wanted(child)), counter, child))
    return False
