"""True ranks on a daily leaderboard in O(log n): the day's sort keys, sorted, in memory.

Counting the attempts ahead of a player over the leaderboard index reads every
one of them (tens of milliseconds at 100,000 entries); a sorted list answers
with one bisection. The list of a (variant, date) is read from the index once,
kept up to date as attempts finish, and dropped when days close. A read that
raced with a finish is not kept (the finish might be missing from it).
"""

from __future__ import annotations

import bisect
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from server.races.standings import RankKey

Day = tuple[str, str]
Loader = Callable[[str, str], Awaitable[list[RankKey]]]


class RankIndex:
    def __init__(self, load: Loader, *, days: int = 32) -> None:
        self._load = load
        self._days = days
        self._keys: OrderedDict[Day, list[RankKey]] = OrderedDict()
        #: finishes seen per day, to tell whether a read raced with one
        self._changes: dict[Day, int] = {}

    async def rank(self, variant: str, date: str, key: RankKey) -> int:
        """1 + the number of ended attempts strictly ahead of ``key`` (ties share a rank)."""
        keys = await self._sorted(variant, date)
        return bisect.bisect_left(keys, key) + 1

    def finished(self, variant: str, date: str, key: RankKey) -> None:
        day = (variant, date)
        self._changes[day] = self._changes.get(day, 0) + 1
        keys = self._keys.get(day)
        if keys is not None:
            bisect.insort(keys, key)

    def clear(self) -> None:
        """Forget every day: who is listed changed (a ban, a review decided)."""
        for day in list(self._keys):
            self.forget(*day)

    def forget(self, variant: str, date: str) -> None:
        day = (variant, date)
        self._changes[day] = self._changes.get(day, 0) + 1
        self._keys.pop(day, None)

    async def _sorted(self, variant: str, date: str) -> list[RankKey]:
        day = (variant, date)
        keys = self._keys.get(day)
        if keys is not None:
            self._keys.move_to_end(day)
            return keys
        seen = self._changes.get(day, 0)
        keys = await self._load(variant, date)
        if self._changes.get(day, 0) == seen:
            self._keys[day] = keys
            while len(self._keys) > self._days:
                self._keys.popitem(last=False)
        return keys
