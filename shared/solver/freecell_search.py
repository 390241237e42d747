"""Search over compact Freecell boards: the candidate moves, the move, and solving.

Children that differ only by which free cell or empty column was used share a
key, so the search never tries both; every other legal move is kept, which is
why "all positions seen" proves a deal unwinnable. Without autoplay, a card
that no build can still need (Horne's rule: both other-colour cards one rank
lower are home) goes to its foundation as the only child.

:func:`solve` hands the deal to several best-first searches taking turns
(:mod:`shared.solver.freecell_portfolio`); :func:`solve_score` and :func:`play`
rank the moves of a hint. The engine's stuck check has its own search
(:mod:`shared.solver.freecell_progress`).
"""

from __future__ import annotations

from shared.solver import freecell_portfolio
from shared.solver.freecell_fast import (
    ACCEPTS,
    CELLS,
    COLUMNS,
    FOUNDATIONS,
    Board,
    autoplay,
    highest,
    run_length,
)
from shared.solver.result import Limits
from shared.variants.base import InternalMove


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
            cost = freecell_portfolio.column_cost(col, high, 1, 1)
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


def solve(start: Board, auto: bool, limits: Limits) -> tuple[str, list[InternalMove], int]:
    """Search for a win from ``start``: (verdict, moves, positions seen).

    Several best-first searches take turns (:mod:`shared.solver.freecell_portfolio`).
    """
    return freecell_portfolio.solve(start, auto, limits)
