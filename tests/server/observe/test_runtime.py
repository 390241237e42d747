"""The server's garbage-collector policy: survivors frozen, and thawed for a full collection."""

from __future__ import annotations

import gc
import weakref

from server.observe.runtime import SurvivorFreezer


class Cycle:
    """An object that only the cyclic collector can free."""

    def __init__(self) -> None:
        self.me = self


def test_survivors_are_frozen_and_a_cycle_among_them_is_freed_by_the_thaw() -> None:
    freezer = SurvivorFreezer()
    freezer.install()
    try:
        kept, doomed = Cycle(), Cycle()
        gc.collect()  # both survive it: frozen
        assert freezer.freezes >= 1 and gc.get_freeze_count() > 0
        gone = weakref.ref(doomed)
        del doomed
        gc.collect(1)
        gc.collect()
        assert gone() is not None, "frozen: collections before the thaw do not see it"

        freezer.thaw()
        assert freezer.thaws == 1 and gone() is None
        assert kept.me is kept and gc.get_freeze_count() > 0, "the survivors frozen again"
    finally:
        freezer.uninstall()
    assert gc.get_freeze_count() == 0 and freezer._collected not in gc.callbacks
