"""How the hint threads are shared between players: fair turns and a rate per player.

Hints are dear (up to ``hint_budget`` seconds of solver each) and the
process computes only ``hint_concurrency`` at once. Handing the threads to
whoever asks first let two accounts that ask again the moment each hint is
answered keep every thread busy, so that everyone else was told ``busy``.
So:

- *a rate per player*: each player has a bucket of ``burst`` hints that
  refills one hint every ``refill_s`` seconds; a player whose bucket is empty
  is told ``busy`` with how long to wait, however free the threads are;
- *turns by need*: a hint that finds every thread busy waits (up to
  ``wait_s``) for one, and a freed thread goes to the waiting player whose
  last hint started longest ago (a player who never had one first), not to
  whoever asked first; a hint that waited ``wait_s`` in vain is ``busy``.

The player is the game's owner, so that one player's connections share one
bucket and one turn. Pure bookkeeping on the event loop, with the clock
passed in; :class:`~server.games.hints.Hints` takes a slot around each
computation.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from server.errors import Busy

#: a player's bucket is dropped once full again and idle this long (memory stays bounded)
IDLE_S = 600.0


@dataclass(slots=True)
class _Bucket:
    tokens: float
    stamp: float
    #: when this player's last hint got its thread (the turn order), -inf: never
    last: float = float("-inf")


@dataclass(order=True, slots=True)
class _Waiter:
    last: float
    seq: int
    future: asyncio.Future[None] = field(compare=False)


class HintShares:
    """The hint threads' turns and each player's rate (see the module's docstring)."""

    def __init__(
        self,
        slots: int,
        *,
        burst: int = 3,
        refill_s: float = 10.0,
        wait_s: float = 3.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.slots = slots
        self.free = slots
        self.burst = burst
        self.refill_s = refill_s
        self.wait_s = wait_s
        self.clock = clock
        self._buckets: dict[int, _Bucket] = {}
        self._waiting: list[_Waiter] = []
        self._seq = itertools.count()

    def _bucket(self, player: int, now: float) -> _Bucket:
        bucket = self._buckets.get(player)
        if bucket is None:
            if len(self._buckets) > 10_000:
                self._forget_idle(now)
            bucket = self._buckets[player] = _Bucket(float(self.burst), now)
        elif self.refill_s > 0:
            bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.stamp) / self.refill_s)
            bucket.stamp = now
        return bucket

    def _forget_idle(self, now: float) -> None:
        for player, bucket in list(self._buckets.items()):
            if now - bucket.stamp > IDLE_S and now - bucket.last > IDLE_S:
                del self._buckets[player]

    def take(self, player: int) -> None:
        """Count one hint against ``player``'s rate, or refuse it with ``busy`` (at once)."""
        if self.burst <= 0:
            return
        now = self.clock()
        bucket = self._bucket(player, now)
        if bucket.tokens < 1.0:
            wait = (1.0 - bucket.tokens) * self.refill_s
            raise Busy(
                f"you asked for {self.burst} hints in a short while; "
                f"ask again in {max(1, round(wait))} s"
            )
        bucket.tokens -= 1.0

    async def slot(self, player: int) -> None:
        """A hint thread for ``player``: at once when one is free and nobody waits, else in
        turn by need; ``busy`` after ``wait_s`` without one. Give it back with :meth:`release`."""
        now = self.clock()
        bucket = self._bucket(player, now)
        if self.free > 0 and not self._waiting:
            self.free -= 1
            bucket.last = now
            return
        waiter = _Waiter(bucket.last, next(self._seq), asyncio.get_running_loop().create_future())
        heapq.heappush(self._waiting, waiter)
        try:
            async with asyncio.timeout(self.wait_s):
                await waiter.future
        except TimeoutError:
            raise Busy(f"the server is computing {self.slots} hints; ask again shortly") from None
        except asyncio.CancelledError:
            if waiter.future.done() and not waiter.future.cancelled():
                self.release()  # handed a thread as it was cancelled: hand it on
            raise
        finally:
            if not waiter.future.done():
                waiter.future.cancel()
                self._waiting.remove(waiter)
                heapq.heapify(self._waiting)
        bucket.last = self.clock()

    def release(self) -> None:
        """Give a thread back: to the waiting player whose last hint is oldest, or free."""
        while self._waiting:
            waiter = heapq.heappop(self._waiting)
            if not waiter.future.done():
                waiter.future.set_result(None)
                return
        self.free += 1
