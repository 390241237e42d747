"""Search over compact Freecell boards: solving, and the hint's ranking of moves.

:func:`solve` hands the deal to several best-first searches taking turns
(:mod:`shared.solver.freecell_portfolio`); :func:`best_move` ranks the moves
of a hint by :func:`solve_score` of the board
:func:`shared.solver.freecell_fast.play` makes. The engine's stuck check has
its own search (:mod:`shared.variants.freecell.search`).
"""

from __future__ import annotations

from shared.position import Position
from shared.solver import freecell_fast, freecell_portfolio
from shared.solver.freecell_fast import CELLS, COLUMNS, Board, highest
from shared.solver.result import Limits
from shared.variants.base import InternalMove, Rules

#: column costs a hint remembers; a move changes two columns, so most are seen before
COLUMN_CACHE = 200_000


def solve_score(board: Board, costs: dict[tuple[bytes, bytes], int] | None = None) -> int:
    """Lower is nearer a win: cards still out, cards lying above a lower card (they must
    move before it can go home), cards above the next card each foundation needs, and
    space used. Weights tuned on Microsoft deals 1-150 (and the four of 1-1000 that
    weighing blocking cards double left unsolved in 30 s). ``costs``: the column costs
    the caller remembers, by (column, foundation ranks)."""
    if costs is None:
        costs = {}
    high = bytes(highest(board))
    out = 52 - len(board[4]) - len(board[5]) - len(board[6]) - len(board[7])
    total = 3 * out
    for t in COLUMNS:
        col = board[t]
        if not col:
            total -= 2
            continue
        cost = costs.get((col, high))
        if cost is None:
            cost = freecell_portfolio.column_cost(col, high, 1, 1)
            if len(costs) >= COLUMN_CACHE:
                costs.clear()
            costs[(col, high)] = cost
        total += cost
    for c in CELLS:
        if board[c]:
            total += 1
    return total


def solve(start: Board, auto: bool, limits: Limits) -> tuple[str, list[InternalMove], int]:
    """Search for a win from ``start``: (verdict, moves, positions seen).

    Several best-first searches take turns (:mod:`shared.solver.freecell_portfolio`).
    """
    return freecell_portfolio.solve(start, auto, limits)


def solve_rules(rules: Rules, pos: Position, limits: Limits) -> tuple[str, list[InternalMove], int]:
    """:func:`solve` on an engine position, with the rules' autoplay option."""
    return solve(freecell_fast.from_position(pos), autoplays(rules), limits)


def best_move(rules: Rules, pos: Position, moves: list[InternalMove]) -> InternalMove:
    """The move after which :func:`solve_score` is lowest (the first such in list order)."""
    board = freecell_fast.from_position(pos)
    auto = autoplays(rules)
    costs: dict[tuple[bytes, bytes], int] = {}
    best: tuple[int, int] | None = None
    chosen = moves[0]
    for i, move in enumerate(moves):
        after = freecell_fast.play(board, move, auto, True)
        rank = (solve_score(after, costs), i)
        if best is None or rank < best:
            best, chosen = rank, move
    return chosen


def autoplays(rules: Rules) -> bool:
    """Whether the game's cards go home by themselves (Freecell's ``autoplay`` option)."""
    return bool(rules.options.get("autoplay", False))
