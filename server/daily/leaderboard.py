"""A reader thread for leaderboards: each request is one call on a synchronous connection.

See :mod:`server.storage.queries.leaderboard` for why. SQLite in WAL mode
lets this reader run beside the writer without waiting for it; every read
sees what was committed before it began.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy import Connection

from server.races.standings import RankKey
from server.storage.engine import create_sync_engine
from server.storage.queries import leaderboard as store

T = TypeVar("T")


class LeaderboardReader:
    def __init__(self, url: str) -> None:
        self._engine = create_sync_engine(url)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="leaderboards")

    async def read(
        self, variant: str, date: str, limit: int, player_id: int
    ) -> tuple[list[dict[str, Any]], store.Mine | None]:
        """The top ``limit`` entries of the day, and the player's own with its sort key and
        review state."""
        return await self._in_thread(
            lambda conn: store.read_board(
                conn, variant=variant, date=date, limit=limit, player_id=player_id
            )
        )

    async def keys(self, variant: str, date: str) -> list[RankKey]:
        """The sort keys of the day's ended attempts, in order."""
        return await self._in_thread(lambda conn: store.read_keys(conn, variant=variant, date=date))

    async def _in_thread(self, read: Callable[[Connection], T]) -> T:
        def call() -> T:
            with self._engine.connect() as conn:
                return read(conn)

        return await asyncio.get_running_loop().run_in_executor(self._thread, call)

    def close(self) -> None:
        self._thread.shutdown(wait=True)
        self._engine.dispose()
