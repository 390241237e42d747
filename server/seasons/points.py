"""Points per daily by place, and the boards a day counts on: pure functions of their arguments.

A daily attempt that ended and is listed on its day's board earns points in
two parts. When it ends: ``FINISHED`` for playing it out, ``WON`` more for a
win. When its day closes and the places are final: ``PLACE`` points for the
first ten places (ties share the place, and its points). The most one day can
give (19) is less than what two days of playing give at the least (20): over
any week or month, a player who plays every day is ahead of one who played
once, however well (docs/seasons.md; tests/server/seasons/test_points.py
checks it with Hypothesis).
"""

from __future__ import annotations

import datetime

#: an ended, listed attempt, won or not
FINISHED = 10
#: more for a win
WON = 4
#: more for the day's final places, first to tenth
PLACE = (5, 3, 2, 1, 1, 1, 1, 1, 1, 1)
#: the most one daily can give
MOST = FINISHED + WON + PLACE[0]

#: the board of every variant together
EVERY_VARIANT = "*"
WEEK, MONTH, ALL = "week", "month", "all"
PERIODS = (WEEK, MONTH, ALL)


def attempt_points(won: bool, place: int | None) -> int:
    """An attempt's points: ``place`` is its final place (None while its day is open)."""
    points = FINISHED + (WON if won else 0)
    if place is not None and 1 <= place <= len(PLACE):
        points += PLACE[place - 1]
    return points


def period_of(kind: str, date: str) -> str:
    """The period a day belongs to: ``w2026-49`` (its ISO week), ``m2026-12``, or ``all``."""
    if kind == ALL:
        return ALL
    day = datetime.date.fromisoformat(date)
    if kind == WEEK:
        year, week, _ = day.isocalendar()
        return f"w{year}-{week:02d}"
    if kind == MONTH:
        return f"m{day.year}-{day.month:02d}"
    raise ValueError(f"no period {kind!r}")


def periods_of(date: str) -> tuple[str, str, str]:
    """The week, the month and ``all``: the three periods a day's points count in."""
    return period_of(WEEK, date), period_of(MONTH, date), ALL


def boards_of(variant: str, date: str) -> list[tuple[str, str]]:
    """Every (scope, period) a daily of ``variant`` on ``date`` counts on: six boards."""
    return [(scope, period) for scope in (variant, EVERY_VARIANT) for period in periods_of(date)]


def period_span(kind: str, date: str) -> tuple[str | None, str | None]:
    """The first and last day of the period holding ``date`` (None, None for all time)."""
    if kind == ALL:
        return None, None
    day = datetime.date.fromisoformat(date)
    if kind == WEEK:
        first = day - datetime.timedelta(days=day.isoweekday() - 1)
        return first.isoformat(), (first + datetime.timedelta(days=6)).isoformat()
    first = day.replace(day=1)
    following = (first + datetime.timedelta(days=32)).replace(day=1)
    return first.isoformat(), (following - datetime.timedelta(days=1)).isoformat()


def places(keys: list[tuple[int, tuple[int, int, int]]]) -> dict[int, int]:
    """Final places from (player, sort key) in board order: equal keys share a place."""
    placed: dict[int, int] = {}
    previous: tuple[int, int, int] | None = None
    place = 0
    for position, (player, key) in enumerate(keys, start=1):
        if key != previous:
            place, previous = position, key
        placed[player] = place
    return placed


def shared_ranks(points: list[int]) -> list[int]:
    """Ranks of a board read best first: equal points share the rank of the first of them."""
    ranks: list[int] = []
    for position, value in enumerate(points, start=1):
        ranks.append(ranks[-1] if ranks and points[position - 2] == value else position)
    return ranks
