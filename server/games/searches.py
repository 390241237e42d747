"""The engine's bounded stuck searches, run in worker processes instead of on the event loop.

After most actions the engine knows a game's state from cheap proofs; the
rest need its bounded search (Freecell: up to 2000 positions, tens of
milliseconds). Run on the event loop, that search would stall every other
connection for as long, which is what made the server's tail latency. So
:meth:`StuckSearches.settle` asks the game for the search it still needs
(:meth:`shared.game.Game.stuck_question`), has a worker process answer it
(each worker owns a :class:`shared.stuck.StuckProver`) and hands the verdict
back (:meth:`shared.game.Game.answer_stuck`); the state, the view and the next
move then use it without searching.

Each worker is a process with a pipe that the event loop reads directly
(``add_reader``): no executor threads, whose share of the GIL would slow the
loop down. The questions asked while the loop runs one batch of callbacks go
to a worker in one message, and it answers all it has read in one message:
under load, one pipe write per batch instead of one per question.

The pool is an optimisation, never a dependency: with ``workers`` 0, or when
a worker cannot be started or dies (killed, say), the search runs in the
server's own process, as it always could, in the server's own prover
(:attr:`StuckSearches.prover`, which the games the server makes share), and
the failure is logged. A dead
worker is replaced, at most once per :data:`RETRY_AFTER_S`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import logging
import multiprocessing
import time
from multiprocessing.connection import Connection as Pipe
from multiprocessing.process import BaseProcess

from server.worker_signals import ignore_stop_signals
from shared.game import Game
from shared.stuck import StuckProver, StuckQuestion
from shared.variants import STANDARD, Variants

log = logging.getLogger(__name__)

#: seconds after a worker failure before a new worker is started (searches run here meanwhile)
RETRY_AFTER_S = 30.0

#: seconds a worker gets to exit at shutdown before it is killed
STOP_TIMEOUT_S = 5.0

#: seconds a worker may take over one question before it is taken for hung (a bounded search
#: takes milliseconds): it is ended, and the server searches itself
QUESTION_TIMEOUT_S = 10.0

#: searches one worker may owe; past it (on every worker) the server searches itself, rather
#: than block on a full pipe or queue without bound
MAX_WAITING = 64


class WorkerLost(Exception):
    """A worker process ended (or its pipe broke) with searches outstanding."""


#: a question on the wire: its number, then the StuckQuestion's fields (cheaper to pickle)
_Asked = tuple[int, tuple[object, ...]]
_FIELDS = tuple(f.name for f in dataclasses.fields(StuckQuestion))


def serve_questions(conn: Pipe, variants: Variants = STANDARD) -> None:
    """A worker's whole life: answer lists of questions with lists of ``(number, verdict)``,
    in one prover of its own (what its searches remember serves the next questions).

    It ignores SIGINT and SIGTERM (a Ctrl-C or a service stop reaches the
    whole process group): the server stops it by closing the pipe, after its
    graceful shutdown, and a server that dies closes the pipe too.
    """
    ignore_stop_signals()
    prover = StuckProver(variants)
    while True:
        try:
            asked: list[_Asked] = conn.recv()
            while conn.poll():  # everything already sent, answered together
                asked += conn.recv()
        except (EOFError, OSError):
            return
        verdicts: list[tuple[int, bool | None]] = []
        for number, values in asked:
            try:
                verdict: bool | None = prover.answer(StuckQuestion(*values))  # type: ignore[arg-type]
            except Exception:
                verdict = None  # the server answers it itself, and sees the error there
            verdicts.append((number, verdict))
        conn.send(verdicts)


class _Worker:
    """One worker process, its end of the pipe and the searches it owes."""

    def __init__(self, process: BaseProcess, conn: Pipe) -> None:
        self.process = process
        self.conn = conn
        self.waiting: dict[int, asyncio.Future[bool | None]] = {}
        #: asked since the last flush, sent together at the end of the loop's batch
        self.outbox: list[_Asked] = []


class StuckSearches:
    """Answers the games' stuck questions in ``workers`` processes (0: in this process).

    ``prover`` is this process's: the games the server makes share it, and it
    answers here what no worker does. ``variants`` is where the workers find
    the rules a question names.
    """

    def __init__(
        self, workers: int, variants: Variants = STANDARD, prover: StuckProver | None = None
    ) -> None:
        self.workers = workers
        self.variants = variants
        self.prover = prover if prover is not None else StuckProver(variants)
        self._pool: list[_Worker] = []
        self._numbers = itertools.count()
        self._failed_at: float | None = None
        self._started = False
        self._closed = False
        #: questions answered by the workers and in this process, for tests, logs and the benchmark
        self.in_workers = 0
        self.in_process = 0

    # -- life cycle ------------------------------------------------------------------

    def start(self) -> None:
        """Start the worker processes (in the running event loop)."""
        self._started = True
        self._fill()

    def close(self) -> None:
        """End the worker processes: closing a pipe tells its worker to exit."""
        self._closed = True
        pool, self._pool = self._pool, []
        for worker in pool:
            self._detach(worker, WorkerLost("the server is stopping"))
        for worker in pool:
            worker.process.join(STOP_TIMEOUT_S)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()

    @property
    def pids(self) -> list[int]:
        """The worker processes' ids (tests end one to check that the server carries on)."""
        return [w.process.pid for w in self._pool if w.process.pid is not None]

    # -- asking ------------------------------------------------------------------------

    async def settle(self, game: Game) -> None:
        """Make ``game``'s state known without searching on the event loop."""
        question = game.stuck_question()
        if question is None:
            return
        verdict = await self.answer(question)
        game.answer_stuck(question, verdict)

    async def answer(self, question: StuckQuestion) -> bool:
        """The verdict for ``question`` (True: stuck), from a worker when one works."""
        self._fill()
        worker = min(self._pool, key=lambda w: len(w.waiting), default=None)
        if worker is not None and len(worker.waiting) < MAX_WAITING:
            number = next(self._numbers)
            loop = asyncio.get_running_loop()
            future: asyncio.Future[bool | None] = loop.create_future()
            worker.waiting[number] = future
            if not worker.outbox:
                loop.call_soon(self._flush, worker)
            worker.outbox.append((number, tuple(getattr(question, f) for f in _FIELDS)))
            try:
                async with asyncio.timeout(QUESTION_TIMEOUT_S):
                    verdict = await future
            except WorkerLost:
                pass
            except TimeoutError:
                hung = TimeoutError(f"no answer in {QUESTION_TIMEOUT_S:g} s")
                self._lost(worker, hung, kill=True)
            else:
                if verdict is not None:
                    self.in_workers += 1
                    return verdict
        self.in_process += 1
        return self.prover.answer(question)

    # -- workers -----------------------------------------------------------------------

    def _fill(self) -> None:
        """Start workers up to ``workers``, unless one failed less than RETRY_AFTER_S ago."""
        if not self._started or self._closed or len(self._pool) >= self.workers:
            return
        if self._failed_at is not None:
            if time.monotonic() - self._failed_at < RETRY_AFTER_S:
                return
            log.warning("restarting stuck-search workers")
            self._failed_at = None
        loop = asyncio.get_running_loop()
        # spawn, not fork: the server has threads (the writer) and an event loop running
        context = multiprocessing.get_context("spawn")
        while len(self._pool) < self.workers:
            try:
                mine, theirs = context.Pipe()
                process = context.Process(
                    target=serve_questions,
                    args=(theirs, self.variants),
                    name="stuck-search",
                    daemon=True,
                )
                process.start()
                theirs.close()
            except Exception:
                log.exception("cannot start a stuck-search worker; searching in the server")
                self._failed_at = time.monotonic()
                return
            worker = _Worker(process, mine)
            loop.add_reader(mine.fileno(), self._readable, worker)
            self._pool.append(worker)

    def _flush(self, worker: _Worker) -> None:
        asked, worker.outbox = worker.outbox, []
        if not asked or worker not in self._pool:
            return
        try:
            worker.conn.send(asked)
        except (OSError, ValueError) as exc:
            self._lost(worker, exc)

    def _readable(self, worker: _Worker) -> None:
        try:
            while worker.conn.poll():
                for number, verdict in worker.conn.recv():
                    future = worker.waiting.pop(number, None)
                    if future is not None and not future.done():
                        future.set_result(verdict)
        except (EOFError, OSError) as exc:
            self._lost(worker, exc)

    def _lost(self, worker: _Worker, exc: BaseException, *, kill: bool = False) -> None:
        if kill:
            worker.process.kill()
        if worker not in self._pool:
            return
        self._pool.remove(worker)
        self._failed_at = time.monotonic()
        log.error(
            "stuck-search worker %s lost (%s); searching in the server, new worker in %g s",
            worker.process.pid,
            str(exc) or type(exc).__name__,
            RETRY_AFTER_S,
        )
        self._detach(worker, WorkerLost(str(exc)))
        worker.process.join(1 if kill else 0)  # reap it (a killed process ends at once)

    @staticmethod
    def _detach(worker: _Worker, exc: WorkerLost) -> None:
        """Stop reading the worker, close its pipe, fail what it still owed."""
        # (no loop any more, or the pipe already closed: nothing to stop reading)
        with contextlib.suppress(RuntimeError, OSError, ValueError):
            asyncio.get_running_loop().remove_reader(worker.conn.fileno())
        worker.conn.close()
        worker.outbox.clear()
        for future in worker.waiting.values():
            if not future.done():
                future.set_exception(exc)
        worker.waiting.clear()
