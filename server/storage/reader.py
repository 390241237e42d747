"""A reader thread for boards: each request is one call on a synchronous connection.

Through the async driver every statement is a hop to the driver's thread and
back, and each hop waits for the event loop's next turn, which under load
costs milliseconds; a board request (the top places, the asker's own, its
rank) is three statements. Run as one call in a thread of its own on the
synchronous driver, it costs one hop (server/daily/leaderboard.py does the same
for the daily leaderboard). SQLite in WAL mode lets the reader run beside the
writer; every statement reads what was committed before it began.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from sqlalchemy import Connection

from server.storage.engine import create_sync_engine

T = TypeVar("T")


class BoardReader:
    def __init__(self, url: str) -> None:
        self._engine = create_sync_engine(url)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="boards")

    async def read(self, read: Callable[[Connection], T]) -> T:
        """``read(connection)``, run in the reader's thread."""

        def call() -> T:
            with self._engine.connect() as conn:
                return read(conn)

        return await asyncio.get_running_loop().run_in_executor(self._thread, call)

    def close(self) -> None:
        self._thread.shutdown(wait=True)
        self._engine.dispose()
