"""Interpreter settings for a server process: the GIL's switch interval and the garbage collector.

``patience-club serve`` applies them once the server has started
(:func:`tune`); tests and tools that embed an :class:`server.app.App` in
their own process keep the interpreter's defaults.
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable
from typing import Any

#: seconds a thread may hold the GIL while another waits for it (CPython's default is 0.005)
SWITCH_INTERVAL_S = 0.0005

#: allocations between young-generation collections (CPython's default is 700)
GC_YOUNG_THRESHOLD = 2_000

#: at most this long between full collections that see the whole heap
THAW_S = 600.0

#: CPython's oldest generation (0, 1, 2): its collections are the full ones
OLDEST = 2


class SurvivorFreezer:
    """After a full collection, freeze what survived it; thaw all of it every ``thaw_s``.

    The server's heap is mostly long-lived: the games in memory and their undo
    histories, hundreds of thousands of containers. A full collection walks
    all of them, a pause of tens to hundreds of milliseconds for every move
    waiting on the loop, and CPython runs one each time the old generation has
    grown by a quarter. Objects that survived a full collection are live, so
    they are frozen (``gc.freeze``): the next full collections walk only what
    was promoted since. Every ``thaw_s`` they are thawed, and the next full
    collection walks everything, so a reference cycle among them is found
    within about ``thaw_s``; memory freed by reference counting (most of it:
    an evicted game, a closed connection's buffers) is freed at once either way.
    """

    def __init__(self, thaw_s: float = THAW_S, clock: Callable[[], float] = time.monotonic):
        self.thaw_s = thaw_s
        self.clock = clock
        self.freezes = 0
        self.thaws = 0
        self._thawed_at = clock()

    def install(self) -> None:
        self._thawed_at = self.clock()
        if self._collected not in gc.callbacks:
            gc.callbacks.append(self._collected)

    def uninstall(self) -> None:
        if self._collected in gc.callbacks:
            gc.callbacks.remove(self._collected)
        gc.unfreeze()

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        if phase != "stop" or info.get("generation") != OLDEST:
            return
        now = self.clock()
        if now - self._thawed_at >= self.thaw_s:
            gc.unfreeze()  # the next full collection sees the whole heap
            self._thawed_at = now
            self.thaws += 1
        else:
            gc.freeze()
            self.freezes += 1


def tune() -> SurvivorFreezer:
    """Apply the server's interpreter settings; returns the installed freezer.

    The switch interval: the group-commit writer is a thread, and each SQL
    statement it runs releases the GIL and must take it back from the event
    loop. With CPython's default 5 ms a busy loop made every commit wait
    several times 5 ms, and with every move waiting on a commit the server
    idled while its clients waited (saturated throughput doubled at 0.5 ms).
    The threads that answer ``hint`` and rebuild games gain the same way.

    The collector: what is alive once the server has started (modules,
    classes, functions: about 100,000 objects) is frozen at once. Young
    collections run every 2,000 allocations rather than 700: each move
    allocates a few hundred short-lived containers, so fewer collections cost
    less CPU in all; not many more, because the middle generation then holds
    the undo histories of ten times as many moves, and walking it paused the
    loop for over 100 ms at 20,000 (measured at 500 moves/s: pauses of 6 ms
    young and 24 ms middle at most with 2,000). Full collections are left to
    :class:`SurvivorFreezer`.
    """
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, old)
    freezer = SurvivorFreezer()
    freezer.install()
    return freezer
