"""Search over compact Freecell boards: the candidate moves, solving, and a progress search.

Children that differ only by which free cell or empty column was used share a
key, so the search never tries both; every other legal move is kept, which is
why "all positions seen" proves a deal unwinnable. Without autoplay, a card
that no build can still need (Horne's rule: both other-colour cards one rank
lower are home) goes to its foundation as the only child.

:func:`solve` hands the deal to several best-first searches taking turns
(:mod:`shared.solver.freecell_portfolio`); :func:`solve_score` and :func:`play`
rank the moves of a hint; :func:`progress_possible` is the stuck check's search
as it was (the engine now uses ``freecell_progress``, which answers the same).
"""

from __future__ import annotations

from heapq import heappop, heappush

from shared.solver import freecell_portfolio
from shared.solver.freecell_fast import (
    BUILD,
    CELLS,
    COLUMNS,
    FOUNDATIONS,
    Board,
    autoplay,
    foundation_total,
    highest,
    key,
    legal,
    run_length,
)
from shared.solver.result import Limits
from shared.variants.base import InternalMove

#: ACCEPTS[card]: the two cards that may be built on ``card`` (other colour, one rank lower)
ACCEPTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(up for up in range(64) if BUILD[lo * 64 + up]) for lo in range(64)
)

#: moves the greedy witness of progress tries per wanted card
DIG_STEPS = 24

#: positions between two looks at the clock
CLOCK_EVERY = 512


def candidate_moves(board: Board, forced_safe: bool) -> list[InternalMove]:
    """Legal moves, one per class of equivalent ones, foundation moves first.

    Moves to a second empty cell or column, and a whole column onto an empty one,
    give boards with the same key as a move kept here, so nothing is lost.
    """
    empty_cell = -1
    n_cells = 0
    for c in CELLS:
        if not board[c]:
            n_cells += 1
            if empty_cell < 0:
                empty_cell = c
    empty_col = -1
    n_empty = 0
    for t in COLUMNS:
        if not board[t]:
            n_empty += 1
            if empty_col < 0:
                empty_col = t
    limit = (n_cells + 1) << n_empty
    limit_to_empty = (n_cells + 1) << (n_empty - 1) if n_empty else 0
    high = highest(board) if forced_safe else None
    # card -> the first foundation, in pile order, that takes it
    homes: dict[int, int] = {}
    first_empty = -1
    for f in FOUNDATIONS:
        fp = board[f]
        if fp:
            homes[fp[-1] + 1] = f
        elif first_empty < 0:
            first_empty = f
    if first_empty >= 0:
        for ace in (1, 17, 33, 49):
            homes[ace] = first_empty
    # the two cards each column top takes, so a source finds its targets by lookup
    takers: dict[int, list[int]] = {}
    for t in COLUMNS:
        tp = board[t]
        if tp:
            under = tp[-1]
            for card in ACCEPTS[under]:
                takers.setdefault(card, []).append(t)
    home: list[InternalMove] = []
    builds: list[InternalMove] = []
    others: list[InternalMove] = []
    for src in CELLS + COLUMNS:
        pile = board[src]
        if not pile:
            continue
        card = pile[-1]
        f = homes.get(card, -1)
        if f >= 0:
            move = (src, 1, f)
            if high is not None:
                rank = card & 15
                other = (0, 3) if card >> 4 in (1, 2) else (1, 2)
                if rank <= 2 or (high[other[0]] >= rank - 1 and high[other[1]] >= rank - 1):
                    return [move]
            home.append(move)
        if src >= 8:
            run = run_length(pile)
            for n in range(1, min(run, limit) + 1):
                targets = takers.get(pile[-n])
                if targets:
                    for t in targets:
                        builds.append((src, n, t))
            if empty_col >= 0:
                top = min(run, limit_to_empty)
                if top == len(pile):
                    top -= 1
                for n in range(top, 0, -1):
                    others.append((src, n, empty_col))
            if empty_cell >= 0:
                others.append((src, 1, empty_cell))
        else:
            targets = takers.get(card)
            if targets:
                for t in targets:
                    builds.append((src, 1, t))
            if empty_col >= 0:
                others.append((src, 1, empty_col))
    return home + builds + others


def play(board: Board, move: InternalMove, auto: bool, full: bool) -> Board:
    """``move`` then the engine's autoplay; ``full`` when the parent may not be settled.

    After a move that is not to a foundation, on a settled board only the card the
    move uncovered can have become playable, which saves most autoplay scans.
    """
    src, count, dst = move
    piles = list(board)
    pile = board[src]
    piles[dst] = board[dst] + pile[-count:]
    rest = pile[:-count]
    piles[src] = rest
    child = tuple(piles)
    if not auto:
        return child
    if full or dst in FOUNDATIONS:
        return autoplay(child)
    if rest:
        card = rest[-1]
        high = highest(child)
        if (card & 15) == high[card >> 4] + 1:
            return autoplay(child)
    return child


def solve_score(board: Board) -> int:
    """Lower is nearer a win: cards still out, cards lying above a lower card (they must
    move before it can go home), cards above the next card each foundation needs, and
    space used. Weights tuned on Microsoft deals 1-150 (and the four of 1-1000 that
    weighing blocking cards double left unsolved in 30 s)."""
    high = bytes(highest(board))
    out = 52 - len(board[4]) - len(board[5]) - len(board[6]) - len(board[7])
    total = 3 * out
    cache = _column_costs
    for t in COLUMNS:
        col = board[t]
        if not col:
            total -= 2
            continue
        cost = cache.get((col, high))
        if cost is None:
            cost = _column_cost(col, high)
            if len(cache) >= COLUMN_CACHE:
                cache.clear()
            cache[(col, high)] = cost
        total += cost
    for c in CELLS:
        if board[c]:
            total += 1
    return total


#: column costs remembered; a move changes two columns, so most are seen before
COLUMN_CACHE = 200_000
_column_costs: dict[tuple[bytes, bytes], int] = {}


def _column_cost(col: bytes, high: bytes) -> int:
    """Cards lying on a lower card, plus the cards above each next-needed card."""
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
    return blocking + buried


def solve(start: Board, auto: bool, limits: Limits) -> tuple[str, list[InternalMove], int]:
    """Search for a win from ``start``: (verdict, moves, positions seen).

    Several best-first searches take turns (:mod:`shared.solver.freecell_portfolio`).
    """
    return freecell_portfolio.solve(start, auto, limits)


def wanted_depth(board: Board) -> int:
    """How deep the shallowest card next for its foundation lies under other cards."""
    high = highest(board)
    best = 99
    for t in COLUMNS:
        col = board[t]
        n = len(col)
        for depth in range(min(n, best)):
            card = col[n - 1 - depth]
            if (card & 15) == high[card >> 4] + 1:
                best = depth
                break
    return best


def dig(board: Board, auto: bool) -> bool:
    """A cheap witness of progress: uncover a wanted card greedily, by legal moves only.

    For each card next for its foundation, shallowest first, move what lies on it
    onto other columns, into free cells or into empty columns while that can be
    done; True as soon as a card reaches or can reach a foundation. False means
    only that this greedy line failed.
    """
    high = highest(board)
    targets: list[tuple[int, int, int]] = []
    for t in COLUMNS:
        col = board[t]
        n = len(col)
        for i in range(n):
            card = col[i]
            if (card & 15) == high[card >> 4] + 1:
                targets.append((n - 1 - i, t, card))
    targets.sort()
    start_total = foundation_total(board)
    for _depth, t, card in targets:
        b = board
        first = True
        for _ in range(DIG_STEPS):
            col = b[t]
            above = len(col) - 1 - col.rindex(card) if card in col else -1
            if above < 0:
                break
            if above == 0:
                return True
            move = _dig_move(b, t, above)
            if move is None:
                break
            b = play(b, move, auto, first)
            first = False
            if foundation_total(b) > start_total:
                return True
    return False


def _dig_move(board: Board, t: int, above: int) -> InternalMove | None:
    """A legal move taking cards off the top of column ``t``, at most ``above`` of them."""
    col = board[t]
    n_cells = sum(1 for c in CELLS if not board[c])
    empties = [u for u in COLUMNS if not board[u]]
    limit = (n_cells + 1) << len(empties)
    run = min(run_length(col), above)
    for u in COLUMNS:
        tp = board[u]
        if u == t or not tp:
            continue
        under = tp[-1]
        n = (under & 15) - (col[-1] & 15)
        if 1 <= n <= run and n <= limit and BUILD[under * 64 + col[-n]]:
            return (t, n, u)
    if empties:
        n = min(run, (n_cells + 1) << (len(empties) - 1))
        if n > 1 or not n_cells:
            return (t, n, empties[0])
    for c in CELLS:
        if not board[c]:
            return (t, 1, c)
    # no room: make some by building a free cell's card onto another column
    for c in CELLS:
        card = board[c][0]
        for u in COLUMNS:
            tp = board[u]
            if u != t and tp and BUILD[tp[-1] * 64 + card]:
                return (c, 1, u)
    return None


def progress_possible(start: Board, auto: bool, budget: int) -> bool | None:
    """True when some line adds a card to the foundations, False when none can
    (every reachable board seen), None when ``budget`` boards were not enough."""
    if dig(start, auto):
        return True
    target = foundation_total(start)
    start_key = key(start)
    seen = {start_key}
    heap: list[tuple[int, int, Board]] = [(wanted_depth(start), 0, start)]
    counter = 0
    while heap:
        _, _, board = heappop(heap)
        full = counter == 0
        for move in legal(board) if full else candidate_moves(board, False):
            if move[2] in FOUNDATIONS:
                return True
            child = play(board, move, auto, full)
            if foundation_total(child) > target:
                return True
            child_key = key(child)
            if child_key in seen:
                continue
            if len(seen) >= budget:
                return None
            seen.add(child_key)
            counter += 1
            # newest first among equals: dig on rather than widen
            heappush(heap, (wanted_depth(child), -counter, child))
    return False
