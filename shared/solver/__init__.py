"""The solver: proves deals winnable (or not), gives hints, and backs the stuck check.

::

    from shared.solver import Budget, solve, solve_position, hint, find_winnable_seed
    result = solve("freecell", 617, {}, Budget(positions=200_000))
    result.verdict, result.line, result.positions

It sees the whole deal, face-down cards included, so it runs on the server.
Budgets count positions unless the caller hands in a clock: ``shared`` reads
no clock itself, and a positions-only budget gives the same answer anywhere.
"""

from __future__ import annotations

from shared.solver.api import (
    DEFAULT_BUDGET,
    best_move,
    find_winnable_seed,
    hint,
    solve,
    solve_position,
    solve_rules,
)
from shared.solver.result import MEMORY_POSITIONS, UNKNOWN, UNWINNABLE, WON, Budget, Result

__all__ = [
    "DEFAULT_BUDGET",
    "MEMORY_POSITIONS",
    "UNKNOWN",
    "UNWINNABLE",
    "WON",
    "Budget",
    "Result",
    "best_move",
    "find_winnable_seed",
    "hint",
    "solve",
    "solve_position",
    "solve_rules",
]
