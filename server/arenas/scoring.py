"""An arena's points: what each deal a player finished is worth, and a player's total.

The rule an arena will tell its players (arenas themselves are still to be built):

- a loss, a resign or a deal out of time: 0 points, and the streak ends;
- a win: 2 points, or 3 when won within the deal's par time;
- on a streak (the player's two previous deals both won) a win's points are
  doubled;
- a player who went berserk before the deal (half the deal's time allowance)
  and won it gets one more point, not doubled.

Pure: a player's finished deals in the order played give every deal's
points; the table's total is their sum (a property test holds it). Like the
ply rule, no I/O and no clock: the arena service stamps the times.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: points of a win, and of a win within par time
WIN = 2
WIN_WITHIN_PAR = 3
#: wins in a row before the next win's points are doubled
STREAK = 2
#: the extra point of a berserk win
BERSERK_BONUS = 1


@dataclass(frozen=True, slots=True)
class DealPlayed:
    """One finished deal of a player in an arena."""

    won: bool
    time_ms: int
    #: the par time of the deal (a win within it earns more)
    par_ms: int
    berserk: bool = False


@dataclass(frozen=True, slots=True)
class Scored:
    """A deal's points and whether it was played on a streak."""

    points: int
    on_streak: bool


def score_deals(deals: Iterable[DealPlayed]) -> list[Scored]:
    """Every deal's points, in the order they were played."""
    scored: list[Scored] = []
    wins_in_a_row = 0
    for deal in deals:
        on_streak = wins_in_a_row >= STREAK
        if not deal.won:
            scored.append(Scored(0, on_streak))
            wins_in_a_row = 0
            continue
        points = WIN_WITHIN_PAR if deal.time_ms <= deal.par_ms else WIN
        if on_streak:
            points *= 2
        if deal.berserk:
            points += BERSERK_BONUS
        scored.append(Scored(points, on_streak))
        wins_in_a_row += 1
    return scored


def total(deals: Sequence[DealPlayed]) -> int:
    """A player's points in the arena: the sum of their deals' points."""
    return sum(s.points for s in score_deals(deals))


def on_fire(deals: Sequence[DealPlayed]) -> bool:
    """Whether the player's next win would be doubled (shown as a flame in the standings)."""
    streak = 0
    for deal in reversed(deals):
        if not deal.won:
            break
        streak += 1
    return streak >= STREAK
