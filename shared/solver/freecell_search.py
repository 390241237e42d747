"""Search over compact Freecell boards: the hint's score, and solving.

:func:`solve` hands the deal to several best-first searches taking turns
(:mod:`shared.solver.freecell_portfolio`); :func:`solve_score`, on the board
:func:`shared.solver.freecell_fast.play` makes, ranks the moves of a hint. The
engine's stuck check has its own search (:mod:`shared.solver.freecell_progress`).
"""

from __future__ import annotations

from shared.solver import freecell_portfolio
from shared.solver.freecell_fast import (
    CELLS,
    COLUMNS,
    Board,
    highest,
)
from shared.solver.result import Limits
from shared.variants.base import InternalMove


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
