"""A daily's proof survives a failed store, and a stop during its search leaves nothing behind."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from server.app import App
from tests.server.conftest import Client, Connect


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
