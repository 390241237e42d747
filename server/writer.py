"""Group commit: one task writes the changes of many games in one transaction.

A request hands its :class:`GameWrite` to :meth:`Writer.write` and waits; the
writer takes everything that has queued up while the previous commit ran,
commits it in one transaction, and only then wakes the waiters. Under load a
commit carries the moves of many games, so durability costs one fsync per
group instead of one per move; when idle, a write commits at once.

The transaction runs as one call in the writer's own thread, on a
synchronous engine: one thread hop per commit rather than one per statement
(which is what an async driver costs), and the event loop never waits on it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from sqlalchemy import Engine

from server.store.games import GameWrite, apply_writes

log = logging.getLogger(__name__)

_Item = tuple[GameWrite, "asyncio.Future[None]", float]


class Writer:
    def __init__(self, engine: Engine, *, delay_s: float = 0.0, max_batch: int = 2000) -> None:
        """``delay_s`` waits that long after the first write to gather more (0: commit at once)."""
        self._engine = engine
        self._delay = delay_s
        self._max_batch = max_batch
        self._queue: list[_Item] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="writer")
        self._closing = False
        #: commits and writes so far, for logs and the benchmark
        self.commits = 0
        self.writes = 0
        #: called with the seconds each write waited from submit() to its commit (metrics)
        self.observers: list[Callable[[float], None]] = []

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="writer")

    def submit(self, item: GameWrite) -> asyncio.Future[None]:
        """Queue ``item``; the future completes once it is committed (or fails if it cannot be)."""
        if self._closing and self._task is None:
            raise RuntimeError("the writer is stopped")
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append((item, future, time.perf_counter()))
        self._wake.set()
        return future

    async def write(self, item: GameWrite) -> None:
        """Return once ``item`` is committed; raise if it could not be."""
        await self.submit(item)

    async def stop(self) -> None:
        """Commit what is queued, then end the task, the thread and the engine."""
        self._closing = True
        self._wake.set()
        if self._task is not None:
            await self._task
            self._task = None
        self._thread.shutdown(wait=True)
        self._engine.dispose()

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            if self._delay and not self._closing:
                await asyncio.sleep(self._delay)
            while self._queue:
                batch = self._queue[: self._max_batch]
                del self._queue[: self._max_batch]
                await self._commit(batch)
            if self._closing:
                return

    async def _commit(self, batch: list[_Item]) -> None:
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._thread, self._transaction, [i for i, _, _ in batch])
        except Exception:
            log.exception("group commit of %d writes failed; retrying them one by one", len(batch))
            for item, future, _ in batch:
                try:
                    await loop.run_in_executor(self._thread, self._transaction, [item])
                except Exception as exc:
                    log.exception("write failed")
                    if not future.done():
                        future.set_exception(exc)
                else:
                    if not future.done():
                        future.set_result(None)
            return
        self.commits += 1
        self.writes += len(batch)
        now = time.perf_counter()
        for _, future, submitted in batch:
            if not future.done():
                future.set_result(None)
            for observe in self.observers:
                observe(now - submitted)

    def _transaction(self, items: list[GameWrite]) -> None:
        with self._engine.begin() as conn:
            apply_writes(conn, items)
