"""Winnable deals on demand: pools of keyed deals the solver has won, filled in the background.

A pool is one variant, one option set and one difficulty. Background workers
(``deal_pool_workers`` processes, as the daily's search) draw fresh random
keys, solve their deals and store the won ones in ``pooled_deals`` until each
pool of the variants' default options holds ``deal_pool_size`` deals (an
option set someone asked for is filled too, from then on). Each node takes
``AHEAD`` deals per pool out of the table ahead of the requests, in one
transaction in the background (``queries.pool.take_many``), and puts them
back at stop; a request is served from those, else takes one row itself
(``queries.pool.take``). Either way it never waits for the solver, and a row
is deleted by whoever takes it, so no deal is dealt twice, whichever node
takes it. The table survives a restart (a node killed loses the few it had
taken ahead, never dealt).

An empty pool falls back to solving on request in the pool's spare process
for at most ``deal_pool_wait_s``; past it the request is ``busy`` with a
message that says so. The key is dealt as any keyed deal's: secret until the
game reveals it; nothing said about the deal names its line.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.config import Config
from server.deals.difficulty import Found, find
from server.errors import Busy
from server.games.fields import checked_options
from server.games.live import Clock
from server.storage.models import PooledDeal
from server.storage.queries import pool as queries
from server.worker_signals import ignore_stop_signals
from shared.protocol import games as pg
from shared.variants import Variants

log = logging.getLogger(__name__)

#: keys one worker call tries (a call is short, so a request's fallback waits little)
TRIES_PER_CALL = 2
#: seconds of solver per deal at most (the positions budget usually ends it first)
SOLVE_CAP_S = 10.0
#: seconds the fillers rest when every pool is full
REST_S = 1.0
#: deals per pool a node takes out of the table ahead of the requests, in one transaction in
#: the background, again once half of them are dealt: a request touches no database before
#: its game's write, and the takes are few (one per ``AHEAD // 2`` requests of a pool). One
#: take per request, as with 4 ahead, doubled the write transactions and, SQLite having one
#: writer, the games' writes waited behind them: p99 197 ms against 83 ms without the pool
AHEAD = 16

#: (variant, options as canonical JSON)
PoolKey = tuple[str, str]


def options_text(options: Mapping[str, bool | int]) -> str:
    """An option set as the pool names it: canonical JSON."""
    return json.dumps(dict(options), sort_keys=True, separators=(",", ":"))


class DealPool:
    """The pools, their fillers, and the deal a request takes."""

    def __init__(
        self,
        db_sessions: async_sessionmaker[AsyncSession],
        variants: Variants,
        clock: Clock,
        config: Config,
    ) -> None:
        self.db_sessions = db_sessions
        self.variants = variants
        self.clock = clock
        #: deals each pool is filled to, processes filling them, seconds a request may solve
        self.size = config.deal_pool_size
        self.workers = config.deal_pool_workers
        self.wait_s = config.deal_pool_wait_s
        #: the option sets filled: every variant's defaults, and those asked for since
        self.wanted: dict[PoolKey, None] = {
            (v, options_text(checked_options(variants, v, {}))): None for v in variants.ids
        }
        #: deals waiting per (variant, options, difficulty), as last counted
        self.counts: dict[tuple[str, str, str], int] = {}
        self.dealt = 0
        self.solved_on_request = 0
        self._processes: ProcessPoolExecutor | None = None
        self._fillers: list[asyncio.Task[None]] = []
        #: deals taken ahead, per pool: (key, positions, line), put back at stop
        self.ready: dict[tuple[str, str, str], list[tuple[str, int, int]]] = {}
        self._ahead: dict[tuple[str, str, str], asyncio.Task[None]] = {}
        self._warming: asyncio.Task[None] | None = None
        #: won deals being stored (a filler's write, never cut by its cancellation)
        self._storing: set[asyncio.Task[None]] = set()

    # -- life cycle ------------------------------------------------------------------------

    async def start(self) -> None:
        async with self.db_sessions() as db:
            self.counts = await queries.counts(db)
        self._warming = asyncio.create_task(self._warm(), name="deal-pool-warm")
        self._fillers = [
            asyncio.create_task(self._fill(n), name=f"deal-pool-{n}") for n in range(self.workers)
        ]

    async def stop(self) -> None:
        """Stop solving, let the database writes under way end, put the deals taken ahead
        back. The fillers and the warming are cancelled (they wait on the solver's
        processes); the takes ahead and the stores are not: a write cut inside its
        transaction can leave the connection holding the database's lock, and the put back
        would then wait out the busy timeout and fail."""
        tasks = list(self._fillers)
        if self._warming is not None:
            tasks.append(self._warming)
            self._warming = None
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*self._ahead.values(), *self._storing, return_exceptions=True)
        self._fillers = []
        self._ahead = {}
        await self._put_back()
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)
            self._processes = None

    # -- dealing ---------------------------------------------------------------------------

    async def draw(self, variant: str, options: Mapping[str, bool | int], difficulty: str) -> bytes:
        """The key of a won deal of ``variant`` and ``difficulty``, taken out of its pool
        (``invalid_field`` for a variant or options the server does not play)."""
        text = options_text(checked_options(self.variants, variant, options))
        self.wanted.setdefault((variant, text), None)
        pool = (variant, text, difficulty)
        ready = self.ready.get(pool)
        running = self._ahead.get(pool)
        if not ready and running is not None and not running.done():
            # the take under way will bring some: wait for it rather than write beside it
            await asyncio.shield(running)
            ready = self.ready.get(pool)
        if ready:
            key: str | None = ready.pop()[0]
        else:
            async with self.db_sessions() as db:
                key = await queries.take(db, variant=variant, options=text, difficulty=difficulty)
            if key is not None:
                self.counts[pool] = max(0, self.counts.get(pool, 1) - 1)
        if len(self.ready.get(pool, ())) <= AHEAD // 2:
            self._take_ahead(pool)
        if key is not None:
            self.dealt += 1
            return bytes.fromhex(key)
        return await self._solve_now(variant, text, difficulty)

    async def _warm(self) -> None:
        """Take the default pools' first deals ahead, one pool after another, so that the
        first requests find them in memory."""
        for variant, text in list(self.wanted):
            for difficulty in pg.DIFFICULTIES:
                pool = (variant, text, difficulty)
                if self.counts.get(pool, 0) > 0 and pool not in self._ahead:
                    self._ahead[pool] = task = asyncio.create_task(self._fetch(pool))
                    await asyncio.shield(task)  # stop() cancels the warming, never the take

    def _take_ahead(self, pool: tuple[str, str, str]) -> None:
        """Take the pool's next deals out of the table in the background (one at a time)."""
        running = self._ahead.get(pool)
        if running is None or running.done():
            self._ahead[pool] = asyncio.create_task(self._fetch(pool), name="deal-pool-ahead")

    async def _fetch(self, pool: tuple[str, str, str]) -> None:
        ready = self.ready.setdefault(pool, [])
        need = AHEAD - len(ready)
        if need <= 0:
            return
        variant, text, difficulty = pool
        try:
            async with self.db_sessions() as db:
                rows = await queries.take_many(
                    db, variant=variant, options=text, difficulty=difficulty, count=need
                )
        except Exception:
            log.exception("deal pool %s: could not take deals ahead", pool)
            return
        ready.extend(rows)
        self.counts[pool] = max(0, self.counts.get(pool, 0) - len(rows))

    async def _put_back(self) -> None:
        """The deals taken ahead go back to the table (a node that dies loses them: at most
        ``AHEAD`` per pool, never dealt)."""
        rows = [
            PooledDeal(
                variant=variant,
                options=text,
                difficulty=difficulty,
                deal_key=key,
                positions=positions,
                line=line,
                created_ms=self.clock(),
            )
            for (variant, text, difficulty), ready in self.ready.items()
            for key, positions, line in ready
        ]
        self.ready = {}
        if rows:
            async with self.db_sessions() as db, db.begin():
                db.add_all(rows)

    async def _solve_now(self, variant: str, text: str, difficulty: str) -> bytes:
        """The pool is empty: solve fresh deals until one of ``difficulty`` is won, for
        ``wait_s`` at most (the others won meanwhile go to their pools)."""
        deadline = time.monotonic() + self.wait_s
        while time.monotonic() < deadline:
            for found in await self._find(variant, text, deadline - time.monotonic()):
                if found.difficulty == difficulty:
                    self.solved_on_request += 1
                    self.dealt += 1
                    return found.key
                await self._keep(variant, text, found)
        raise Busy(
            f"no winnable {difficulty} {variant} deal is ready: the server is still finding "
            "some; try again in a minute, or ask for another difficulty"
        )

    # -- filling ---------------------------------------------------------------------------

    async def _find(self, variant: str, text: str, seconds: float) -> list[Found]:
        if self._processes is None:
            # one process more than the fillers use: a request's fallback never waits for them
            context = multiprocessing.get_context("spawn")
            self._processes = ProcessPoolExecutor(
                self.workers + 1, mp_context=context, initializer=ignore_stop_signals
            )
        rules = self.variants.get(variant)
        options = json.loads(text)
        cap = max(0.1, min(SOLVE_CAP_S, seconds))
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._processes, find, rules, options, TRIES_PER_CALL, cap
        )

    def _lacking(self) -> tuple[PoolKey, int] | None:
        """The option set whose emptiest pool is emptiest, and how many it lacks."""
        best: tuple[PoolKey, int] | None = None
        for pool in list(self.wanted):
            lack = max(self.size - self.counts.get((*pool, d), 0) for d in pg.DIFFICULTIES)
            if lack > 0 and (best is None or lack > best[1]):
                best = (pool, lack)
        return best

    async def _fill(self, number: int) -> None:
        """One filler: solve deals for the pool that lacks most, forever."""
        while True:
            try:
                lacking = self._lacking()
                if lacking is None:
                    await asyncio.sleep(REST_S)
                    async with self.db_sessions() as db:  # other nodes take deals too
                        self.counts = await queries.counts(db)
                    continue
                (variant, text), _ = lacking
                for found in await self._find(variant, text, SOLVE_CAP_S):
                    await self._keep(variant, text, found)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("deal pool filler %d failed; resting", number)
                await asyncio.sleep(REST_S * 5)

    async def _keep(self, variant: str, text: str, found: Found) -> None:
        """Store a won deal in its pool, unless the pool is full."""
        pool = (variant, text, found.difficulty)
        if self.counts.get(pool, 0) >= self.size:
            return
        row = PooledDeal(
            variant=variant,
            options=text,
            difficulty=found.difficulty,
            deal_key=found.key.hex(),
            positions=found.positions,
            line=found.line,
            created_ms=self.clock(),
        )
        storing = asyncio.create_task(self._store(pool, row), name="deal-pool-store")
        self._storing.add(storing)
        storing.add_done_callback(self._storing.discard)
        await asyncio.shield(storing)  # a filler cancelled meanwhile: the store still ends

    async def _store(self, pool: tuple[str, str, str], row: PooledDeal) -> None:
        with contextlib.suppress(IntegrityError):  # a key drawn twice: 2^-256, never dealt twice
            async with self.db_sessions() as db, db.begin():
                await queries.put(db, row)
            self.counts[pool] = self.counts.get(pool, 0) + 1
