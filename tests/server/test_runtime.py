"""The server's garbage-collector policy: survivors of full collections frozen, thawed in time."""

from __future__ import annotations

import gc
import weakref

from server.runtime import SurvivorFreezer


class Cycle:
    """An object that only the cyclic collector can free."""

    def __init__(self) -> None:
        self.me = self


def test_survivors_are_frozen_and_a_cycle_among_them_is_freed_after_the_thaw() -> None:
    now = [0.0]
    freezer = SurvivorFreezer(thaw_s=60.0, clock=lambda: now[0])
    freezer.install()
    try:
        kept, doomed = Cycle(), Cycle()
        gc.collect()  # both survive it: frozen
        assert freezer.freezes == 1 and gc.get_freeze_count() > 0
        gone = weakref.ref(doomed)
        del doomed
        gc.collect()
        assert gone() is not None, "frozen: full collections before the thaw do not see it"

        now[0] = 61.0
        gc.collect()  # the thaw: everything back in the old generation
        assert freezer.thaws == 1 and gc.get_freeze_count() == 0
        gc.collect()  # sees the whole heap, then freezes what survived
        assert gone() is None
        assert kept.me is kept and gc.get_freeze_count() > 0
    finally:
        freezer.uninstall()
    assert gc.get_freeze_count() == 0 and freezer._collected not in gc.callbacks
