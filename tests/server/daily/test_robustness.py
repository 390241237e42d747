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


@pytest.mark.sqlite_only  # the database plays no part
async def test_stopping_during_a_daily_search_leaves_no_exception_unretrieved(
    config: Config,
) -> None:
    """SIGTERM while the dailies ahead are searched: the search's worker is ended, and the
    search's failure (BrokenProcessPool) must be nobody's unretrieved exception."""
    loop = asyncio.get_running_loop()
    unhandled: list[dict[str, Any]] = []
    previous = loop.get_exception_handler()
    loop.set_exception_handler(lambda _loop, context: unhandled.append(context))
    try:
        clock = FakeClock()
        app = App(config.replace(daily_budget_s=30.0), clock=clock)
        await app.start()
        # What the dailies ahead do (a task that stop() cancels), on days until one's search
        # is still running once its worker has started (a proof takes 0.05 to 5 s).
        for day in range(10):
            date = utc_date(clock.now + day * 86_400_000)
            ahead = asyncio.create_task(app.daily.deal("westhaven", date, ahead=True))
            await asyncio.sleep(1.5)
            searches = list(app.daily._computing.values())
            if searches:
                break
            await ahead
        assert searches, "no search was still running 1.5 s after it started"
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
