"""The ghost: where the challenger was at each moment of their game, by its own clock.

A challenge's ghost is a timeline of ``[elapsed_ms, moves, home]`` points, one
after each action of the challenger's game (one at the deal, one at its end): the time
their clock showed then, the actions played so far, the cards home. The
friend is told the point at their own game's elapsed time, never a point
ahead of it, so the ghost says where the challenger *was* and nothing of
where they will be; it holds no card, so nothing about a face-down one.

The moves rows keep when each action was received, not when the clock
paused (an unranked clock stops while nobody has the game open,
server/games/clock.py). The time the clock did not count is known only in
total (its ``paused_ms``, and the wall time from deal to end less the
elapsed time), so it is taken out of the longest gaps between actions, as
water is poured off the tallest columns: every gap longer than a level is
cut to that level, the level chosen so that exactly the uncounted time goes.
A pause happens only in a gap long enough to hold it (the grace before a
clock pauses is itself a long gap), so the longest gaps are where it was.
The last point then falls on the game's own elapsed time.

Pure: no clock, no I/O.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence

from shared.states import PLAYING

#: one point of a timeline: elapsed_ms, moves, home
Point = list[int]


def level(gaps: Sequence[int], excess: int) -> float | None:
    """The level every gap longer than it is cut to, so that ``excess`` goes in all; None when
    nothing is to be cut."""
    if excess <= 0 or not gaps:
        return None
    tallest = sorted(gaps, reverse=True)
    total = 0
    for count, gap in enumerate(tallest, start=1):
        total += gap
        following = tallest[count] if count < len(tallest) else 0
        cut_to = (total - excess) / count
        if cut_to >= following:
            return max(cut_to, 0.0)
    return 0.0


def timeline(
    *,
    started_ms: int,
    ended_ms: int,
    elapsed_ms: int,
    played_ms: Sequence[int],
    homes: Sequence[int],
    home_at_deal: int = 0,
) -> list[Point]:
    """The ghost of a game that ended: ``played_ms`` the moment each action was received,
    ``homes`` the cards home after each, ``elapsed_ms`` what its clock showed at the end."""
    if len(played_ms) != len(homes):
        raise ValueError("one count of cards home per action")
    moments = [started_ms, *played_ms, max(ended_ms, played_ms[-1] if played_ms else started_ms)]
    gaps = [max(0, b - a) for a, b in itertools.pairwise(moments)]
    cut = level(gaps, sum(gaps) - elapsed_ms)
    counted = gaps if cut is None else [min(float(g), cut) for g in gaps]
    points: list[Point] = [[0, 0, home_at_deal]]
    at = 0.0
    for ply, (gap, home) in enumerate(zip(counted, homes, strict=False), start=1):
        at += gap
        points.append([min(round(at), elapsed_ms), ply, home])
    _, moves, home = points[-1]
    points.append([elapsed_ms, moves, home])  # the end: its state shows from here
    return points


def at(points: Sequence[Point], elapsed_ms: int, *, final_state: str) -> tuple[int, int, str]:
    """Moves, cards home and state of the ghost at ``elapsed_ms`` of the friend's game: the
    last point at or before it; the final state from the game's end (its last point) on."""
    times = [point[0] for point in points]
    index = max(0, bisect.bisect_right(times, elapsed_ms) - 1)
    _, moves, home = points[index]
    end = points[-1][0]
    state = final_state if elapsed_ms >= end else PLAYING
    return moves, home, state
