"""The solver: proves deals winnable (or not), gives hints, and backs the stuck check.

::

    from shared.solver import Budget, solve, solve_position, hint, find_winnable_seed
    result = solve("freecell", 617, {}, Budget(positions=200_000))
    result.verdict, result.line, result.positions
    hint(PlayerView.of(game), sampling_seed=0)     # what a player may be told

It sees the whole deal, face-down cards included, so it runs on the server;
the hint a player gets (:func:`hint`) takes a :class:`~shared.player_view.PlayerView`
and sees nothing the player does not. ``hint_all_seeing`` is the benchmark's
reference, the hint of someone who could see every card: never for players.
Budgets count positions unless the caller hands in a clock: ``shared`` reads
no clock itself, and a positions-only budget gives the same answer anywhere.
"""

from __future__ import annotations

from shared.solver.api import (
    DEFAULT_BUDGET,
    best_move,
    find_winnable_seed,
    hint_all_seeing,
    solve,
    solve_position,
    solve_rules,
)
from shared.solver.hints import DEFAULT_HINT_BUDGET, HintBudget, hint
from shared.solver.result import MEMORY_POSITIONS, UNKNOWN, UNWINNABLE, WON, Budget, Result

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_HINT_BUDGET",
    "MEMORY_POSITIONS",
    "UNKNOWN",
    "UNWINNABLE",
    "WON",
    "Budget",
    "HintBudget",
    "Result",
    "best_move",
    "find_winnable_seed",
    "hint",
    "hint_all_seeing",
    "solve",
    "solve_position",
    "solve_rules",
]
