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
FREEZE_AFTER = 1


class SurvivorFreezer:
    """Freeze what survives middle and full collections; thaw and collect it all every 10 minutes.

    The server's heap is mostly long-lived: the games in memory and their undo
    histories, hundreds of thousands of containers. CPython walks them again
    in every middle collection until they reach the old generation, and in
    every full collection after that, each walk a pause of up to hundreds of
    milliseconds for every move waiting on the loop (the p99 of 500 clients
    at 2 moves/s went from 87 ms to 9 ms without them). What survived a
    middle or full collection is very likely to live on, so it is frozen
    (``gc.freeze``): later collections walk only what is newer. Memory freed
    by reference counting (an evicted game, a closed connection's buffers:
    nearly all of it) is freed at once either way; only reference cycles among
    frozen objects wait for :meth:`thaw`, which the server calls every
    :data:`THAW_S` (under load, the cyclic garbage is a few hundred objects a
    minute). The thaw's full collection walks the whole heap: one long pause
    every 10 minutes instead of many.
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


async def thaw_every(freezer: SurvivorFreezer, seconds: float = THAW_S) -> None:
    """Run ``freezer.thaw`` every ``seconds``, until cancelled."""
    while True:
        await asyncio.sleep(seconds)
        freezer.thaw()
