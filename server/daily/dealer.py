"""The deal of each day: a winnable keyed deal per variant per UTC day, computed once.

The deal of a day is the keyed deal of the first candidate key the solver
proves winnable (:mod:`server.daily.deals`). The secret the candidates
derive from is created at the first start and kept in the database, so
nobody can predict a deal before its day, and every process of one server
agrees on it. The solver runs in a separate process (CPU-bound, it would
otherwise hold the event loop's GIL); a request that finds no deal waits for
its own computation without blocking anyone else, and the work ahead
(:class:`server.daily.service.DailyService`) has a worker of its own. The
result is stored, so a deal never changes once offered. Deals stored before
keyed deals keep their numbered deal.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.config import Config
from server.daily.deals import candidate_keys, prove
from server.errors import Internal
from server.storage.models import Daily
from server.storage.queries import daily as store
from server.worker_signals import ignore_stop_signals
from shared.variants import Variants

#: under the daily service's name: the lines operators filter on did not move
log = logging.getLogger("server.daily.service")

SECRET_KEY = "daily_secret"


@dataclass(frozen=True, slots=True)
class DailyDeal:
    """A day's deal: a key (every deal the server computes), or a seed (deals stored earlier)."""

    key: bytes | None
    seed: int | None = None

    @classmethod
    def of(cls, row: Daily) -> DailyDeal:
        return cls(bytes.fromhex(row.deal_key) if row.deal_key else None, row.seed)


class DailyDealer:
    """Finds, stores and keeps the deal of each (variant, day), one search per day at a time."""

    def __init__(
        self,
        variants: Variants,
        db_sessions: async_sessionmaker[AsyncSession],
        config: Config,
        clock: Callable[[], int],
    ) -> None:
        self.variants = variants
        self.db_sessions = db_sessions
        self.config = config
        self.clock = clock
        self.secret = b""
        #: (variant, date) -> its deal, for the days already computed
        self.deals: dict[tuple[str, str], DailyDeal] = {}
        self.computing: dict[tuple[str, str], asyncio.Future[DailyDeal]] = {}
        #: worker processes: one for requests, one for the work ahead (a slow search ahead
        #: never holds up a player's request)
        self._pools: dict[bool, ProcessPoolExecutor] = {}
        #: (variant, date) -> clock when no candidate could be proven: retried an hour later
        self._failed: dict[tuple[str, str], int] = {}
        #: (variant, date) -> the candidate proven winnable and its positions, until stored: a
        #: store that failed (a held SQLite lock) is retried without proving it again
        self._proven: dict[tuple[str, str], tuple[bytes, int]] = {}

    async def start(self) -> None:
        """Read the secret the candidates derive from (created at the first start)."""
        async with self.db_sessions() as db:
            value = await store.setting(db, key=SECRET_KEY, default=secrets.token_hex(32))
            self.secret = bytes.fromhex(value)

    async def stop(self) -> None:
        """End the searches in progress and their workers."""
        # Searches in progress end with their workers below: their requests are cancelled
        # first, so that no task is left holding a BrokenProcessPool nobody retrieves.
        computing = list(self.computing.values())
        for future in computing:
            future.cancel()
        for future in computing:
            with contextlib.suppress(BaseException):
                await future
        for pool in self._pools.values():
            # A search in progress would hold the shutdown for its whole budget: end it now.
            workers = list(getattr(pool, "_processes", {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for worker in workers:
                worker.terminate()
        self._pools.clear()

    async def deal(self, variant: str, date: str, *, ahead: bool = False) -> DailyDeal:
        """The day's deal, from memory, the database, or the solver (awaited, off the loop)."""
        key = (variant, date)
        known = self.deals.get(key)
        if known is not None:
            return known
        failed = self._failed.get(key)
        if failed is not None and self.clock() - failed < 3_600_000:
            raise Internal(
                f"no {variant} deal for {date} has been proven winnable yet; try again later",
            )
        computing = self.computing.get(key)
        if computing is None:
            computing = asyncio.ensure_future(self._find(variant, date, ahead))
            self.computing[key] = computing
            computing.add_done_callback(lambda _: self.computing.pop(key, None))
            # Its failure is each waiter's to handle; a search nobody waits for any more (the
            # request was cancelled) must not leave an exception that nobody retrieved.
            computing.add_done_callback(lambda f: f.cancelled() or f.exception())
        return await asyncio.shield(computing)

    async def _find(self, variant: str, date: str, ahead: bool) -> DailyDeal:
        async with self.db_sessions() as db:
            row = await store.daily(db, variant=variant, date=date)
        if row is None:
            await self._compute(variant, date, ahead)
            async with self.db_sessions() as db:
                row = await store.daily(db, variant=variant, date=date)
            assert row is not None
        deal = self.deals[(variant, date)] = DailyDeal.of(row)
        return deal

    async def _compute(self, variant: str, date: str, ahead: bool) -> None:
        """Prove a candidate winnable in a worker process and store it (unless another
        process stored the day's deal first: theirs is kept)."""
        keys = candidate_keys(self.secret, date, variant)
        proven = self._proven.get((variant, date))
        if proven is None:
            proven = await self._prove(variant, date, keys, ahead)
            self._proven[(variant, date)] = proven
        key, positions = proven
        async with self.db_sessions() as db, db.begin():
            if await store.daily(db, variant=variant, date=date) is None:
                db.add(
                    Daily(
                        variant=variant,
                        date=date,
                        deal_key=key.hex(),
                        positions=positions,
                        computed_ms=self.clock(),
                    )
                )
        del self._proven[(variant, date)]

    async def _prove(
        self, variant: str, date: str, keys: list[bytes], ahead: bool
    ) -> tuple[bytes, int]:
        """The first candidate key its worker proves winnable, and the positions it took."""
        pool = self._pools.get(ahead)
        if pool is None:
            context = multiprocessing.get_context("spawn")
            pool = self._pools[ahead] = ProcessPoolExecutor(
                max_workers=1, mp_context=context, initializer=ignore_stop_signals
            )
        loop = asyncio.get_running_loop()
        started = time.monotonic()
        rules = self.variants.get(variant)
        budget, floor = self.config.daily_budget_s, self.config.daily_min_positions
        try:
            key, positions = await loop.run_in_executor(pool, prove, rules, keys, budget, floor)
        except LookupError:
            self._failed[(variant, date)] = self.clock()
            log.error("daily %s %s: no candidate proven winnable", variant, date)
            raise Internal(
                f"no {variant} deal for {date} could be proven winnable; try again later",
            ) from None
        log.info(
            "daily %s %s: candidate %d proven winnable in %.2f s (%d positions)",
            variant,
            date,
            keys.index(key),
            time.monotonic() - started,
            positions,
        )
        return key, positions
