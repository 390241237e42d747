"""The rule of points per daily by place (pure): Hypothesis over made-up days."""

from __future__ import annotations

import datetime

from hypothesis import given
from hypothesis import strategies as st

from server.seasons.points import (
    EVERY_VARIANT,
    MOST,
    attempt_points,
    boards_of,
    period_of,
    period_span,
    places,
    shared_ranks,
)

#: a day's board: each other player's result (won, sort key) besides ours
results = st.lists(st.tuples(st.booleans(), st.integers(0, 5)), max_size=30)


def day_points(mine: tuple[bool, int], others: list[tuple[bool, int]]) -> int:
    """Our points for one day whose board is ``others`` plus ``mine`` (a lower key is
    better, a win always before a loss)."""
    board = sorted(
        [(0, (0 if won else 1, key, 0), won) for won, key in [mine]]
        + [(i + 1, (0 if won else 1, key, 0), won) for i, (won, key) in enumerate(others)],
        key=lambda entry: entry[1],
    )
    placed = places([(pid, key) for pid, key, _ in board])
    return attempt_points(mine[0], placed[0])


@given(
    every_day=st.lists(st.tuples(st.booleans(), st.integers(0, 5)), min_size=2, max_size=31),
    boards=st.lists(results, min_size=31, max_size=31),
    lucky=st.tuples(st.booleans(), st.integers(0, 5)),
    lucky_day=st.integers(0, 30),
)
def test_playing_every_day_beats_one_lucky_day(
    every_day: list[tuple[bool, int]],
    boards: list[list[tuple[bool, int]]],
    lucky: tuple[bool, int],
    lucky_day: int,
) -> None:
    """Two days or more played, however badly, score more than any one day, however well."""
    steady = sum(day_points(result, boards[i]) for i, result in enumerate(every_day))
    once = day_points(lucky, boards[lucky_day % len(boards)])
    assert steady > once
    assert once <= MOST < 2 * attempt_points(False, None)


@given(st.lists(st.tuples(st.integers(1, 10**6), st.integers(0, 3)), unique_by=lambda t: t[0]))
def test_places_share_ties_and_follow_the_board(entries: list[tuple[int, int]]) -> None:
    entries.sort(key=lambda e: e[1])
    placed = places([(pid, (key, 0, 0)) for pid, key in entries])
    for pid, key in entries:
        ahead = sum(1 for _, other in entries if other < key)
        assert placed[pid] == ahead + 1


@given(st.lists(st.integers(0, 50), max_size=40))
def test_shared_ranks_count_the_points_above(points: list[int]) -> None:
    points.sort(reverse=True)
    for value, rank in zip(points, shared_ranks(points), strict=True):
        assert rank == 1 + sum(1 for other in points if other > value)


@given(st.dates(datetime.date(2000, 1, 1), datetime.date(2100, 12, 31)))
def test_a_day_counts_in_its_week_its_month_and_all_time(day: datetime.date) -> None:
    date = day.isoformat()
    for kind in ("week", "month"):
        first, last = period_span(kind, date)
        assert first is not None and last is not None and first <= date <= last
        assert period_of(kind, first) == period_of(kind, last) == period_of(kind, date)
        before = (datetime.date.fromisoformat(first) - datetime.timedelta(days=1)).isoformat()
        assert period_of(kind, before) != period_of(kind, date)
    assert len(set(boards_of("gypsy", date))) == 6
    assert ("*", "all") in boards_of("gypsy", date) and EVERY_VARIANT == "*"
