"""Group commit: one thread writes the changes of many games in one transaction.

The server's write path, a design (told whole in docs/architecture.md, "The write path"):

- **What acknowledges a move.** A request hands its :class:`GameWrite` to
  :meth:`Writer.submit` and awaits the future it returns; the future is
  resolved only once the transaction holding the write has committed, and
  only then does the reply leave. With SQLite's ``synchronous=FULL`` a
  committed move survives a crash of the machine.
- **Why grouped commits.** Durability costs one fsync per commit. The writer
  takes everything that queued while the previous commit ran (up to
  ``max_batch``) and commits it in one transaction: under load a commit
  carries the moves of many games; idle, a write commits at once.
  ``delay_s`` waits after a group's first write to gather more.
- **Why a thread, on a synchronous engine.** Through the async session every
  statement is a hop to the driver's thread; here a whole transaction is one
  call in this thread, on a second, synchronous engine on the same database.
  The thread takes its batches from a thread-safe queue by itself, so the
  next commit starts as soon as the last one ends, without waiting for a
  turn of the busy event loop; the loop only hears of each finished commit
  (``call_soon_threadsafe``) and wakes its waiters.
- **Why hand-built SQL.** On SQLite ``executemany`` takes the GIL back from
  the event loop once per row;
  :func:`~server.storage.queries.game_writes.apply_writes` sends one multi-row
  statement per few hundred rows instead, built once per row count
  (:class:`~server.storage.queries.game_writes.Statements`, kept here). On
  PostgreSQL it sends one statement per table whose rows are arrays
  (``unnest``): one round trip each, whatever the size of the group.
- **Why on the driver's connection.** The thread keeps one connection for
  its whole life, and a group of plain actions (moves, undos, resigns: no
  new game, no other table's rows) goes to that connection's driver as it
  is: its cursor, its ``commit`` (:func:`~server.storage.queries.game_writes.apply_actions`).
  SQLAlchemy's pool checkout, transaction and execution contexts were
  almost all of the thread's Python per commit. A group with anything else
  goes through SQLAlchemy on the same connection
  (:func:`~server.storage.queries.game_writes.apply_writes`).
- **Failures.** A group whose transaction fails is committed again one write
  per transaction: a bad write fails alone, its future gets the exception
  (the game service answers ``internal`` and forgets the game, so that it
  reloads as stored), and the others are committed and acknowledged. A
  write whose game another process moved on first fails with
  :class:`~server.storage.queries.games.WriteConflict` and changes nothing
  (two nodes acting on one game: the database decides which action is
  stored). :meth:`stop` commits whatever is still queued.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import Connection, Engine

from server.storage.queries.game_writes import (
    DIRECT,
    Statements,
    apply_actions,
    apply_writes,
    plain,
)
from server.storage.queries.games import GameWrite, WriteConflict

log = logging.getLogger(__name__)

_Item = tuple[GameWrite, "asyncio.Future[None]", float]
#: an item and why it failed (None: committed)
_Outcome = tuple[_Item, BaseException | None]


class Writer:
    def __init__(self, engine: Engine, *, delay_s: float = 0.0, max_batch: int = 2000) -> None:
        """``delay_s`` waits that long after the first write to gather more (0: commit at once)."""
        self._engine = engine
        self._delay = delay_s
        self._max_batch = max_batch
        #: items for the thread; None tells it to finish what is queued and return
        self._queue: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="writer")
        self._serving: asyncio.Future[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopped = False
        #: commits and writes so far, for logs and the benchmark
        self.commits = 0
        self.writes = 0
        #: called with the seconds each write waited from submit() to its commit (metrics)
        self.observers: list[Callable[[float], None]] = []
        #: the multi-row statements' text, kept from one commit to the next (writer thread only)
        self._statements = Statements(engine.dialect.identifier_preparer.quote)
        #: the writer thread's connection, kept from one commit to the next (writer thread
        #: only), and its driver's connection with a cursor on it
        self._conn: Connection | None = None
        self._cursor: tuple[Any, Any] | None = None

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._serving = self._loop.run_in_executor(self._thread, self._serve)

    def submit(self, item: GameWrite) -> asyncio.Future[None]:
        """Queue ``item``; the future completes once it is committed (or fails if it cannot be)."""
        if self._stopped:
            raise RuntimeError("the writer is stopped")
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put((item, future, time.perf_counter()))
        return future

    async def stop(self) -> None:
        """Commit what is queued, then end the thread and the engine."""
        loop = asyncio.get_running_loop()
        if self._serving is not None:
            self._queue.put(None)
            await self._serving
            self._serving = None
        self._stopped = True
        # whatever was submitted while the thread was finishing
        leftover = self._take(block=False)
        while leftover:
            self._resolve(await loop.run_in_executor(self._thread, self._commit, leftover))
            leftover = self._take(block=False)
        if self._conn is not None:  # (a second stop finds it closed and the thread gone)
            await loop.run_in_executor(self._thread, self._close)
        self._thread.shutdown(wait=True)
        self._engine.dispose()

    # -- the writer thread ------------------------------------------------------------

    def _serve(self) -> None:
        """Commit batches until told to stop; each batch's outcome goes to the loop."""
        assert self._loop is not None
        loop = self._loop
        while True:
            batch = self._take(block=True)
            stopping = bool(batch) and batch[-1] is None
            items = [i for i in batch if i is not None]
            if items:
                outcomes = self._commit(items)
                try:
                    loop.call_soon_threadsafe(self._resolve, outcomes)
                except RuntimeError:  # the loop is closed: nobody waits any more
                    return
            if stopping:
                return

    def _take(self, *, block: bool) -> list[_Item | None]:
        """What is queued, up to ``max_batch`` (``block``: wait for the first item).

        Stops after a None (the stop signal), which it returns last.
        """
        batch: list[_Item | None] = []
        try:
            if block:
                first = self._queue.get()
                batch.append(first)
                if first is None:
                    return batch
                if self._delay:
                    time.sleep(self._delay)
            while len(batch) < self._max_batch:
                item = self._queue.get_nowait()
                batch.append(item)
                if item is None:
                    break
        except queue.Empty:
            pass
        return batch

    def _commit(self, items: Sequence[_Item | None]) -> list[_Outcome]:
        """Commit ``items`` in one transaction, or one by one if that fails."""
        batch = [i for i in items if i is not None]
        try:
            self._transaction([w for w, _, _ in batch])
        except WriteConflict as exc:
            if len(batch) == 1:
                log.info("%s", exc)
                return [(batch[0], exc)]
            log.info("a game of a group of %d writes moved on; retrying one by one", len(batch))
        except Exception:
            log.exception("group commit of %d writes failed; retrying them one by one", len(batch))
        else:
            return [(item, None) for item in batch]
        outcomes: list[_Outcome] = []
        for item in batch:
            try:
                self._transaction([item[0]])
            except WriteConflict as exc:
                log.info("%s", exc)
                outcomes.append((item, exc))
            except Exception as exc:
                log.exception("write failed")
                outcomes.append((item, exc))
            else:
                outcomes.append((item, None))
        return outcomes

    def _transaction(self, items: list[GameWrite]) -> None:
        conn = self._conn
        if conn is None:
            conn = self._conn = self._engine.connect()
        dialect = conn.dialect.name
        if dialect not in DIRECT or not plain(items):
            with conn.begin():
                apply_writes(conn, items, self._statements)
            return
        driver = conn.connection.driver_connection
        kept = self._cursor
        if kept is None or kept[0] is not driver:
            kept = self._cursor = (driver, driver.cursor())  # type: ignore[union-attr]
        try:
            apply_actions(kept[1], dialect, items, self._statements)
            driver.commit()  # type: ignore[union-attr]
        except BaseException:
            try:
                driver.rollback()  # type: ignore[union-attr]
            except Exception:  # the connection is broken: the next transaction opens another
                conn.invalidate()
            raise

    def _close(self) -> None:
        """Give the thread's connection back (at stop, in the thread)."""
        self._cursor = None
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    # -- back on the event loop -------------------------------------------------------

    def _resolve(self, outcomes: list[_Outcome]) -> None:
        """Wake the waiters of a finished commit (in the event loop)."""
        self.commits += 1
        self.writes += sum(exc is None for _, exc in outcomes)
        now = time.perf_counter()
        for (_, future, submitted), exc in outcomes:
            if future.done():
                continue
            if exc is None:
                future.set_result(None)
                for observe in self.observers:
                    observe(now - submitted)
            else:
                future.set_exception(exc)
