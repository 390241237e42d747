"""Daily streaks: consecutive UTC days with a won daily (pure)."""

from __future__ import annotations

import datetime
from collections.abc import Iterable


def current_streak(won: Iterable[str], today: str) -> int:
    """Consecutive days with a won daily up to today, or up to yesterday (today is not over)."""
    days = set(won)
    day = datetime.date.fromisoformat(today)
    if today not in days:
        day -= datetime.timedelta(days=1)
    count = 0
    while day.isoformat() in days:
        count += 1
        day -= datetime.timedelta(days=1)
    return count


def best_streak(won: Iterable[str]) -> int:
    """The longest run of consecutive days with a won daily."""
    days = sorted({datetime.date.fromisoformat(d) for d in won})
    best = run = 0
    previous: datetime.date | None = None
    for day in days:
        run = run + 1 if previous is not None and (day - previous).days == 1 else 1
        best = max(best, run)
        previous = day
    return best
