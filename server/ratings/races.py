"""A rated race as the results Glicko-2 rates: every pair of racers is one game.

Between two racers: the one who won beats the one who did not; when both
won, the faster wins (equal times draw); when neither won, more cards home
wins and equal cards home is a draw. Resigning sooner never helps: time
counts only between two wins.

Each racer's period is their results against every other racer, the
opponents' ratings taken as they stood before the race (a rating period
closes at each race's end). Pure: the race service reads and stores the
ratings around it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from server.ratings.glicko2 import Rating, Result, rate


@dataclass(frozen=True, slots=True)
class Finish:
    """How one racer's game ended, as far as the pairwise rule reads it."""

    won: bool
    #: the game's time in milliseconds (read only between two wins)
    time_ms: int
    cards_home: int


def score(mine: Finish, theirs: Finish) -> float:
    """My score against them: 1 a win, 0.5 a draw, 0 a loss."""
    if mine.won != theirs.won:
        return 1.0 if mine.won else 0.0
    if mine.won:
        if mine.time_ms == theirs.time_ms:
            return 0.5
        return 1.0 if mine.time_ms < theirs.time_ms else 0.0
    if mine.cards_home == theirs.cards_home:
        return 0.5
    return 1.0 if mine.cards_home > theirs.cards_home else 0.0


def rate_race(before: Mapping[str, Rating], finishes: Mapping[str, Finish]) -> dict[str, Rating]:
    """Every racer's rating after the race, from their ratings before it and how each finished.

    ``before`` and ``finishes`` have the same keys (the racers' ids); a racer
    without an opponent keeps a rating whose deviation only widens.
    """
    if before.keys() != finishes.keys():
        raise ValueError("every racer needs a rating before the race and a finish")
    after: dict[str, Rating] = {}
    for racer, finish in finishes.items():
        results = [
            Result(before[other], score(finish, finishes[other]))
            for other in finishes
            if other != racer
        ]
        after[racer] = rate(before[racer], results)
    return after
