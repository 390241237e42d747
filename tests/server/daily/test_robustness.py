"""A daily's proof survives a failed store, and a stop during its search leaves nothing behind."""

from __future__ import annotations

import asyncio
import gc
import logging
import sqlite3
from typing import Any

import pytest

from server.app import App
from server.config import Config
from server.daily.deals import utc_date
from tests.server.conftest import Client, Connect, FakeClock


@pytest.mark.sqlite_only  # another process holding SQLite's one write lock
async def test_a_daily_proven_then_lost_to_a_held_lock_is_not_proven_again(
    server: App, connect: Connect, db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="server.daily.service")
    alice: Client = await connect()
    await alice.hello("alice")
    # Another process holds SQLite's write lock past the server's busy timeout (10 s).
    lock = sqlite3.connect(db_url.removeprefix("sqlite+aiosqlite:///"), isolation_level=None)
    lock.execute("BEGIN IMMEDIATE")
    try:
        refused = await alice.request("daily", start=True, variant="freecell")
        assert (refused["type"], refused["code"]) == ("error", "internal"), refused
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    reply = await alice.request("daily", start=True, variant="freecell")
    assert reply["type"] == "game", reply
    proofs = [r for r in caplog.records if "proven winnable" in r.getMessage()]
    assert len(proofs) == 1, [r.getMessage() for r in proofs]


#: no candidate deal is proven in this many positions: with it as ``daily_min_positions``, a
#: day's search goes through every candidate (docs/operating.md)
UNREACHABLE_FLOOR = 10**12


@pytest.mark.sqlite_only  # the database plays no part
async def test_stopping_during_a_daily_search_leaves_no_exception_unretrieved(
    config: Config,
) -> None:
    """SIGTERM while the dailies ahead are searched: the stop ends the search's worker, and
    the search's failure (BrokenProcessPool) must be nobody's unretrieved exception.

    The worker is held mid-search by a real setting: with a ``daily_min_positions`` that no
    candidate reaches, the search of Gypsy's day goes through all 64 candidates, which takes
    its solver some 20 s of a core; the stop comes after 1.5 s. (Without the stop's cancel
    and the search's done-callback, the search outlives the stop, its worker killed under
    it, and is left for nobody to retrieve: this test then fails.)"""
    loop = asyncio.get_running_loop()
    unhandled: list[dict[str, Any]] = []
    previous = loop.get_exception_handler()
    loop.set_exception_handler(lambda _loop, context: unhandled.append(context))
    try:
        clock = FakeClock()
        app = App(config.replace(daily_min_positions=UNREACHABLE_FLOOR), clock=clock)
        await app.start()
        # What the dailies ahead do: a task that stop() cancels, its search under way.
        ahead = asyncio.create_task(app.daily.deal("gypsy", utc_date(clock.now), ahead=True))
        await asyncio.sleep(1.5)
        searches = list(app.daily._computing.values())
        assert searches and not ahead.done(), "the search ended within 1.5 s"
        ahead.cancel()
        await app.stop()  # what SIGTERM does
        await asyncio.wait(searches, timeout=20)  # (waiting retrieves no exception)
        assert all(s.done() for s in searches)
        del app, searches, ahead
        gc.collect()
        await asyncio.sleep(0.1)
    finally:
        loop.set_exception_handler(previous)
    assert [c.get("message") for c in unhandled] == []
