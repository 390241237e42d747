"""How hard a won deal is: the positions the solver searched before it found its win.

The measure is the variant's own search (``shared.solver.solve_position``)
within the budget the dailies use (``Rules.daily_positions``): a deal whose
win the search finds among few positions has a line that the obvious moves
lead to; one that needs many has its win behind moves that look worse first.
The thresholds are per variant, declared with its rules
(``Rules.difficulty_positions``), the thirds of the won deals of a measured run
(docs/solver.md, "Difficulty", gives the run and the command): about a third
of won deals is easy, a third medium, a third hard. A deal the solver does not
win within the budget is never pooled, so "hard" means hard but proven winnable.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from shared.protocol import games as pg

if TYPE_CHECKING:
    from shared.variants.base import Rules


def difficulty_of(rules: type[Rules], positions: int) -> str:
    """easy, medium or hard for a deal of ``rules`` won after ``positions`` positions (the
    variant's ``difficulty_positions``)."""
    easy, medium = rules.difficulty_positions
    if positions <= easy:
        return pg.EASY
    if positions <= medium:
        return pg.MEDIUM
    return pg.HARD


@dataclass(frozen=True, slots=True)
class Found:
    """A keyed deal the solver won: its key, difficulty, positions searched, line length."""

    key: bytes
    difficulty: str
    positions: int
    line: int


def find(
    rules: type[Rules], options: Mapping[str, bool | int], tries: int, seconds: float
) -> list[Found]:
    """In a worker process: ``tries`` fresh random keys (as unpredictable as any keyed deal's:
    the operating system's randomness), each solved within the daily budget and ``seconds``
    at most; the deals won, each with its difficulty."""
    from shared.games import new_game
    from shared.solver import WON, Budget, solve_position
    from shared.variants import Variants

    parent = os.getppid()

    def clock() -> float:
        if os.getppid() != parent:  # the server died: stop searching
            os._exit(0)
        return time.monotonic()

    variants = Variants((rules,))
    found = []
    for _ in range(tries):
        key = secrets.token_bytes(32)
        game = new_game(rules.id, key=key, options=dict(options), variants=variants)
        budget = Budget(positions=rules.daily_positions, seconds=seconds, clock=clock)
        result = solve_position(game, budget)
        if result.verdict == WON:
            difficulty = difficulty_of(rules, result.positions)
            found.append(Found(key, difficulty, result.positions, len(result.line)))
    return found
