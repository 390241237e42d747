"""A reader thread for leaderboards: each request is one call on a synchronous connection.

See :mod:`server.store.board` for why. SQLite in WAL mode lets this reader
run beside the writer without waiting for it; every read sees what was
committed before it began.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from server.races.standings import RankKey
from server.storage import engine as db
from server.storage.queries import leaderboard as store


class BoardReader:
    def __init__(self, url: str) -> None:
        self._engine = db.create_sync_engine(url)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="boards")

    async def board(
        self, variant: str, date: str, limit: int, player_id: int
    ) -> tuple[list[dict[str, Any]], tuple[dict[str, Any], RankKey] | None]:
        def read() -> tuple[list[dict[str, Any]], tuple[dict[str, Any], RankKey] | None]:
            with self._engine.connect() as conn:
                return store.read_board(
                    conn, variant=variant, date=date, limit=limit, player_id=player_id
                )

        return await asyncio.get_running_loop().run_in_executor(self._thread, read)

    async def keys(self, variant: str, date: str) -> list[RankKey]:
        def read() -> list[RankKey]:
            with self._engine.connect() as conn:
                return store.read_keys(conn, variant=variant, date=date)

        return await asyncio.get_running_loop().run_in_executor(self._thread, read)

    def close(self) -> None:
        self._thread.shutdown(wait=True)
        self._engine.dispose()
