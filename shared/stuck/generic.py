"""The generic stuck proof: a bounded best-first search on the engine's own positions.

It asks the variant's ``legal``, ``apply`` and ``after_move`` for everything,
so it plays exactly the engine's rules; canonical keys
(:mod:`shared.variants.keys`) keep it from counting equivalent positions
twice. It serves every variant that declares no search of its own
(``Rules.stuck_search``); the solver's generic search (shared.solver.engine_search)
expands positions with the same :func:`children` and scores them with the
same :func:`buried`.
"""

from __future__ import annotations

from heapq import heappop, heappush

from shared.position import Position
from shared.variants.base import InternalMove, Proof, Rules
from shared.variants.keys import COMPILED_KEY, CompiledKey, key_function

#: foundation states a :class:`Wanted` remembers before it starts again
WANTED_SIZE = 50_000


class Wanted:
    """Which cards some foundation takes now, remembered per foundation state, for one
    search: the answer depends only on the foundations (Osmosis looks at the one
    before), which change far less often than the rest of the board."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        #: by the foundations' cards: a tuple of tuples, or where the position key's C copy
        #: was built (shared.variants.keys), the key it makes of the foundations alone, one
        #: bytes made and hashed in C and equal exactly when their cards are
        self.cache: dict[object, frozenset[int]] = {}
        self.compiled: CompiledKey | None = COMPILED_KEY
        self.fixed: list[int] = list(rules.foundations)
        self.groups: list[list[int]] = []

    def __call__(self, pos: Position) -> frozenset[int]:
        return self.of(pos)

    def of(self, pos: Position) -> frozenset[int]:
        """The cards some foundation of ``pos`` takes (a method the compiled build calls
        directly, where calling the object is a call through Python)."""
        rules = self.rules
        compiled = self.compiled
        state: object
        if compiled is not None:
            state = compiled(pos.piles, pos.down, 0, self.fixed, self.groups)
        else:
            state = tuple(tuple(pos.piles[f]) for f in rules.foundations)
        found = self.cache.get(state)
        if found is None:
            cards = {c for pile in pos.piles for c in pile}
            accepts = rules.foundation_accepts
            found = frozenset(
                c for c in cards if any(accepts(pos, c, f) for f in rules.foundations)
            )
            if len(self.cache) > WANTED_SIZE:
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


def homeward_first(rules: Rules, moves: list[InternalMove]) -> list[InternalMove]:
    """``moves`` with those that send a card home (to a foundation, from elsewhere) first,
    each part in its own order (a loop, not a sort with a key function: the compiled
    build runs it as C)."""
    is_f = rules.is_foundation
    first: list[InternalMove] = []
    rest: list[InternalMove] = []
    for move in moves:
        src = move[0]
        if src >= 0 and is_f[move[2]] and not is_f[src]:
            first.append(move)
        else:
            rest.append(move)
    if not first:
        return rest
    first.extend(rest)
    return first


def moved(pos: Position, move: InternalMove, deal_piles: tuple[int, ...] | None = None) -> Position:
    """A copy of ``pos`` for ``move`` to be played on: new lists for the two piles it
    changes (for a deal, the rules' ``deal_piles``, every pile when not given) and for
    the face-down counts, the other piles' lists shared with ``pos``. Rules.apply changes
    no other pile, and Rules.after_move gives a pile it changes a new list, so ``pos`` is
    left as it was; nothing changes a search's positions in place afterwards, so they
    may share lists. (Copying two piles rather than all of them is most of what makes a
    child cheap.)"""
    src, _, dst = move
    if src < 0:
        if deal_piles is None:
            return pos.copy()
        piles = pos.piles[:]
        for i in deal_piles:
            piles[i] = piles[i][:]
        return Position(piles, pos.down[:], pos.redeals_used)
    piles = pos.piles[:]
    piles[src] = piles[src][:]
    piles[dst] = piles[dst][:]
    return Position(piles, pos.down[:], pos.redeals_used)


def children(
    rules: Rules, pos: Position, forced: bool = False
) -> list[tuple[InternalMove, Position]]:
    """Each legal move with the position after it, foundation moves first; when
    ``forced``, only the first foundation move the variant's ``safe_move`` allows,
    if one does. The children share the lists of the piles their move left alone with
    ``pos`` and with each other (:func:`moved`): they are not to be changed in place."""
    is_f = rules.is_foundation
    moves = homeward_first(rules, rules.legal(pos))
    if forced:
        for move in moves:
            if move[0] < 0 or not is_f[move[2]] or is_f[move[0]]:
                break
            if rules.safe_move(pos, move):
                moves = [move]
                break
    result: list[tuple[InternalMove, Position]] = []
    deal_piles = rules.deal_piles
    for move in moves:
        child = moved(pos, move, deal_piles)
        rules.apply(child, move)
        rules.after_move(child)
        result.append((move, child))
    return result


def progress_possible(rules: Rules, start: Position, budget: int) -> bool | None:
    """True when some line raises the foundation count above today's, False when none
    can (every reachable position seen), None when ``budget`` positions were not enough."""
    key = key_function(rules)
    wanted = Wanted(rules)
    target = rules.foundation_count(start)
    seen = {key.of(start)}
    heap: list[tuple[int, int, Position]] = [(0, 0, start)]
    counter = 0
    while heap:
        _, _, pos = heappop(heap)
        for _move, child in children(rules, pos):
            if rules.foundation_count(child) > target:
                return True
            child_key = key.of(child)
            if child_key in seen:
                continue
            if len(seen) >= budget:
                return None
            seen.add(child_key)
            counter += 1
            heappush(heap, (buried(rules, child, wanted.of(child)), counter, child))
    return False


class GenericProgress:
    """The generic stuck proof as a :class:`shared.variants.base.ProgressSearch`: the
    variant's ``quick_progress``, then :func:`progress_possible`. It remembers
    nothing between searches, so ``boards`` and ``native`` change nothing."""

    def __init__(self, *, boards: int = 0, native: bool = True) -> None:
        del boards, native

    def cheap_proof(self, rules: Rules, pos: Position, hint: Proof | None) -> Proof | None:
        return True if rules.quick_progress(pos) else None

    def search(self, rules: Rules, pos: Position, budget: int) -> tuple[bool | None, Proof | None]:
        # (no line to try again: quick_progress looks afresh at every position)
        return progress_possible(rules, pos, budget), None
