"""How hard a won deal is: the positions the solver searched before it found its win.

The measure is the variant's own search (``shared.solver.solve_position``)
within the budget the dailies use (``Rules.daily_positions``): a deal whose
win the search finds among few positions has a line that the obvious moves
lead to; one that needs many has its win behind moves that look worse first.
The thresholds are per variant, the thirds of the won deals of a measured run
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
from types import MappingProxyType
from typing import TYPE_CHECKING

from shared.protocol import games as pg

if TYPE_CHECKING:
    from shared.variants.base import Rules


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Positions searched: at most ``easy`` is easy, at most ``medium`` medium, more hard."""

    easy: int
    medium: int


#: per variant, from the measured run of docs/solver.md ("Difficulty")
THRESHOLDS: Mapping[str, Thresholds] = MappingProxyType(
    {
        "osmosis": Thresholds(easy=34, medium=39),
        "thumb_and_pouch": Thresholds(easy=700, medium=1_100),
        "gypsy": Thresholds(easy=1_850, medium=3_500),
        "freecell": Thresholds(easy=480, medium=850),
        "westhaven": Thresholds(easy=600, medium=1_500),
    }
)
#: a variant the table does not name (one added later): these until it is measured
DEFAULT_THRESHOLDS = Thresholds(easy=500, medium=2_000)


def difficulty_of(variant: str, positions: int) -> str:
    """easy, medium or hard for a deal of ``variant`` won after ``positions`` positions."""
    limits = THRESHOLDS.get(variant, DEFAULT_THRESHOLDS)
    if positions <= limits.easy:
        return pg.EASY
    if positions <= limits.medium:
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
            difficulty = difficulty_of(rules.id, result.positions)
            found.append(Found(key, difficulty, result.positions, len(result.line)))
    return found
