"""Interpreter settings for a server process: the GIL's switch interval and the garbage collector.

``patience-club serve`` applies them once the server has started
(:func:`tune`); tests and tools that embed an :class:`server.app.App` in
their own process keep the interpreter's defaults.
"""

from __future__ import annotations

import asyncio
import gc
import sys
from typing import Any

#: seconds a thread may hold the GIL while another waits for it (CPython's default is 0.005)
SWITCH_INTERVAL_S = 0.0005

#: allocations between young-generation collections (CPython's default is 700)
GC_YOUNG_THRESHOLD = 2_000

#: seconds between full collections that walk the whole heap (:meth:`SurvivorFreezer.thaw`)
THAW_S = 600.0

#: collections of this generation and older freeze what survived them (0 young, 1 middle, 2 full)
FREEZE_AFTER = 0


class SurvivorFreezer:
    """Freeze what survives every collection; thaw and collect it all every 10 minutes.

    The server's heap is mostly long-lived: the games in memory and their undo
    histories, hundreds of thousands of containers. Left to the collector's
    defaults, whatever survives a young collection waits in the middle
    generation, and each middle collection walks all of it: at 500 clients x
    2 moves/s, one pause of 5 to 12 ms CPU (23 to 42 ms wall on a loaded
    machine) about once a second, the largest stalls of the event loop
    (measured with server/observe/stalls.py). So what
    survives any collection, young ones included, is frozen (``gc.freeze``):
    each collection walks only what was allocated since the last one (at most
    :data:`GC_YOUNG_THRESHOLD` new containers, about a millisecond), and the
    middle and old generations stay empty. Memory freed by reference counting
    (an evicted game, a closed connection's buffers: nearly all of it) is
    freed at once either way; only reference cycles among frozen objects wait
    for :meth:`thaw`, which the server calls every :data:`THAW_S`. They are
    few: after 10,500 moves of 500 clients, a full collection frees about
    3,300 objects. The thaw's full collection walks the whole heap: one pause
    (100 to 200 ms at that load) every 10 minutes instead of one a second.
    """

    def __init__(self) -> None:
        self.freezes = 0
        self.thaws = 0

    def install(self) -> None:
        if self._collected not in gc.callbacks:
            gc.callbacks.append(self._collected)

    def uninstall(self) -> None:
        if self._collected in gc.callbacks:
            gc.callbacks.remove(self._collected)
        gc.unfreeze()

    def thaw(self) -> None:
        """Collect the whole heap, frozen objects included (then freeze what survived)."""
        gc.unfreeze()
        gc.collect()
        self.thaws += 1

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "stop" and info.get("generation", 0) >= FREEZE_AFTER:
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
    less CPU in all; not many more, because each young collection walks what
    was allocated since the last one (at 20,000 it paused the loop for tens of
    milliseconds). :class:`SurvivorFreezer` freezes what survives, so the
    middle and full collections find nothing to walk until its thaw.
    """
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, old)
    freezer = SurvivorFreezer()
    freezer.install()
    return freezer


async def thaw_every(freezer: SurvivorFreezer, seconds: float = THAW_S) -> None:
    """Run ``freezer.thaw`` every ``seconds``, until cancelled."""
    while True:
        await asyncio.sleep(seconds)
        freezer.thaw()
