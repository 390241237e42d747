"""Daily challenges: one winnable keyed deal per variant per UTC day, one ranked attempt each.

The deal of a day is the keyed deal of the first candidate key the solver
proves winnable (:mod:`server.daily.deals`). The secret the candidates
derive from is created at the first start and kept in the database, so
nobody can predict a deal before its day, and every process of one server
agrees on it. Its key stays secret until the day ends (the attempt's and
every practice game's views show it from then on). The solver runs in a
separate process (CPU-bound, it would otherwise hold the event loop's GIL);
today's and tomorrow's deals are computed ahead in the background, and a
``daily`` request that finds none waits for its own computation without
blocking anyone else. The result is stored, so a deal never changes once
offered. Deals stored before keyed deals keep their numbered deal.

An attempt that ends is checked by review (:mod:`server.review`): a held
one stays off the leaderboard until an operator clears it. Attempts still
open when their day ends are closed as they stood (:mod:`server.daily.close`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.cluster.news import Ranked
from server.config import Config
from server.daily.close import close_days
from server.daily.deals import DAY_MS, candidate_keys, day_end_ms, prove, utc_date
from server.daily.leaderboard import LeaderboardReader
from server.daily.ranks import RankIndex
from server.errors import DailyOpen, HintsOff, Internal, NotFound
from server.games.fields import check_variant
from server.games.live import LiveGame
from server.races.standings import rank_key, ranked
from server.storage.models import Daily, DailyAttempt, Game
from server.storage.queries import daily as store
from server.worker_signals import ignore_stop_signals
from shared import protocol as p
from shared.states import ENDED

if TYPE_CHECKING:
    from server.cluster.node import Cluster
    from server.games.service import GameService
    from server.games.store import GameStore
    from server.review.service import ReviewService

log = logging.getLogger(__name__)

SECRET_KEY = "daily_secret"
#: the work ahead waits this long after start, so that a starting server answers first
AHEAD_DELAY_S = 10.0


@dataclass(frozen=True, slots=True)
class AttemptKey:
    variant: str
    date: str
    player: int


@dataclass(frozen=True, slots=True)
class DailyDeal:
    """A day's deal: a key (every deal the server computes), or a seed (deals stored earlier)."""

    key: bytes | None
    seed: int | None = None

    @classmethod
    def of(cls, row: Daily) -> DailyDeal:
        return cls(bytes.fromhex(row.deal_key) if row.deal_key else None, row.seed)


class DailyService:
    def __init__(
        self,
        games: GameService,
        store: GameStore,
        review: ReviewService,
        cluster: Cluster,
        db_sessions: async_sessionmaker[AsyncSession],
        config: Config,
        clock: Callable[[], int],
    ) -> None:
        self.games = games
        self.store = store
        self.review = review
        self.cluster = cluster
        self.db_sessions = db_sessions
        self.config = config
        self.clock = clock
        self.secret = b""
        #: (variant, date) -> its deal, for the days already computed
        self.deals: dict[tuple[str, str], DailyDeal] = {}
        self._computing: dict[tuple[str, str], asyncio.Future[DailyDeal]] = {}
        #: open attempts by game id
        self.attempts: dict[str, AttemptKey] = {}
        self._locks: dict[tuple[int, str], asyncio.Lock] = {}
        #: worker processes: one for requests, one for the work ahead (a slow search ahead
        #: never holds up a player's request)
        self._pools: dict[bool, ProcessPoolExecutor] = {}
        #: (variant, date) -> clock when no candidate could be proven: retried an hour later
        self._failed: dict[tuple[str, str], int] = {}
        #: (variant, date) -> the candidate proven winnable and its positions, until stored: a
        #: store that failed (a held SQLite lock) is retried without proving it again
        self._proven: dict[tuple[str, str], tuple[bytes, int]] = {}
        self._ahead: asyncio.Task[None] | None = None
        self.reader = LeaderboardReader(config.db)
        self.ranks = RankIndex(self.reader.keys)
        #: told (variant, date, player) when an attempt ends listed (the season's points)
        self.finished: list[Callable[[str, str, int], Awaitable[None]]] = []

    # -- life cycle ------------------------------------------------------------------

    async def start(self) -> None:
        async with self.db_sessions() as db:
            value = await store.setting(db, key=SECRET_KEY, default=secrets.token_hex(32))
            self.secret = bytes.fromhex(value)
            for attempt in await store.open_attempts(db):
                self.attempts[attempt.game_id] = AttemptKey(
                    attempt.variant, attempt.date, attempt.player_id
                )
        if self.config.daily_ahead:
            self._ahead = asyncio.create_task(self._compute_ahead(), name="dailies")

    async def stop(self) -> None:
        if self._ahead is not None:
            self._ahead.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ahead
        # Searches in progress end with their workers below: their requests are cancelled
        # first, so that no task is left holding a BrokenProcessPool nobody retrieves.
        computing = list(self._computing.values())
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
        self.reader.close()

    def today(self) -> str:
        return utc_date(self.clock())

    # -- the deal of a day -------------------------------------------------------------

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
        computing = self._computing.get(key)
        if computing is None:
            computing = asyncio.ensure_future(self._find(variant, date, ahead))
            self._computing[key] = computing
            computing.add_done_callback(lambda _: self._computing.pop(key, None))
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
        rules = self.games.variants.get(variant)
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

    async def _compute_ahead(self) -> None:
        """Today's and tomorrow's deals of every variant, then again every hour."""
        await asyncio.sleep(AHEAD_DELAY_S)
        while True:
            now = self.clock()
            for date in (utc_date(now), utc_date(now + DAY_MS)):
                for variant in self.games.variants.ids:
                    try:
                        await self.deal(variant, date, ahead=True)
                    except asyncio.CancelledError:
                        raise
                    except Exception:
                        log.exception("daily %s %s could not be computed", variant, date)
            with contextlib.suppress(Exception):
                await self.close_days()
            await asyncio.sleep(3600)

    # -- attempts ------------------------------------------------------------------------

    async def attempt(self, player: int, variant: str) -> tuple[LiveGame, str]:
        """The player's attempt at today's deal, started now if it is the first ``daily``."""
        check_variant(self.games.variants, variant)
        date = self.today()
        lock = self._locks.setdefault((player, variant), asyncio.Lock())
        async with lock:
            async with self.db_sessions() as db:
                found = await store.attempt(db, variant=variant, date=date, player_id=player)
            if found is not None:
                return await self.store.get(found.game_id), date
            live = await self._start(player, variant, date, p.DAILY)
            try:
                await self._record_attempt(live, player, variant, date)
            except IntegrityError:
                # Another server on this database recorded the player's attempt first (one
                # attempt each is the table's key): theirs is the attempt, this game goes.
                await self._drop_unrecorded(live)
                async with self.db_sessions() as db:
                    found = await store.attempt(db, variant=variant, date=date, player_id=player)
                if found is None:
                    raise
                return await self.store.get(found.game_id), date
            self.attempts[live.id] = AttemptKey(variant, date, player)
        if len(self._locks) > 10_000:
            self._locks.clear()
        return live, date

    async def started(self, player: int, variant: str) -> tuple[LiveGame | None, str]:
        """The player's attempt at today's deal if started (nothing is dealt here)."""
        check_variant(self.games.variants, variant)
        date = self.today()
        async with self.db_sessions() as db:
            found = await store.attempt(db, variant=variant, date=date, player_id=player)
        return (None if found is None else await self.store.get(found.game_id)), date

    async def _record_attempt(self, live: LiveGame, player: int, variant: str, date: str) -> None:
        async with self.db_sessions() as db, db.begin():
            db.add(
                DailyAttempt(
                    variant=variant,
                    date=date,
                    player_id=player,
                    game_id=live.id,
                    finished=False,
                    state=live.state,
                    elapsed_ms=0,
                    moves=0,
                    score=0,
                    undos=0,
                    rank_group=0,
                    rank_a=0,
                    rank_b=0,
                    review="",
                )
            )

    async def _drop_unrecorded(self, live: LiveGame) -> None:
        """The game started for an attempt that another server recorded first: never played."""
        self.store.forget(live.id)
        async with self.db_sessions() as db, db.begin():
            await db.execute(delete(Game).where(Game.id == live.id))

    async def practice(self, player: int, variant: str) -> tuple[LiveGame, str]:
        """A new unranked game on today's deal, once the player's attempt has ended."""
        check_variant(self.games.variants, variant)
        date = self.today()
        async with self.db_sessions() as db:
            found = await store.attempt(db, variant=variant, date=date, player_id=player)
        attempt = None if found is None else await self.store.get(found.game_id)
        if attempt is None or attempt.state not in ENDED:
            raise DailyOpen(
                f"your daily {variant} attempt of {date} has not ended: practice after it",
            )
        return await self._start(player, variant, date, p.PRACTICE), date

    async def archive(self, player: int, variant: str, date: str) -> LiveGame:
        """A new unranked game on a past day's deal (the archive): its day is over, so its key
        is public and the game shows it; a day that had no deal is not found."""
        check_variant(self.games.variants, variant)
        if date >= self.today():
            raise NotFound(
                f"the archive holds the days before today, not {date}: play today's daily"
            )
        async with self.db_sessions() as db:
            row = await store.daily(db, variant=variant, date=date)
        if row is None:
            raise NotFound(f"no {variant} daily on {date}")
        deal = DailyDeal.of(row)
        return await self.games.start(
            player,
            variant,
            {},
            seed=deal.seed,
            key=deal.key,
            kind=p.PRACTICE,
            reveal_ms=day_end_ms(date),
            guarded=False,
        )

    async def _start(self, player: int, variant: str, date: str, kind: str) -> LiveGame:
        """A game on the day's deal whose key shows once the day has ended."""
        deal = await self.deal(variant, date)
        return await self.games.start(
            player,
            variant,
            {},
            seed=deal.seed,
            key=deal.key,
            kind=kind,
            reveal_ms=day_end_ms(date),
            guarded=False,
        )

    def daily_lock(self, live: LiveGame) -> None:
        """``hints_off`` in a ranked attempt."""
        if live.kind == p.DAILY:
            raise HintsOff("hints are off in a ranked daily attempt")

    async def on_action(self, live: LiveGame, action: str) -> None:
        key = self.attempts.get(live.id)
        if key is None and live.kind == p.DAILY and live.state in ENDED and self.store.shared:
            key = await self._attempt_started_elsewhere(live.id)
        if key is None or live.state not in ENDED:
            return
        if key.date < self.today():
            return  # its day is over: it counts as it stood then (close_days)
        now = self.clock()
        what = f"daily {key.variant} {key.date}"
        held = await self.review.check(live, what)
        elapsed, moves, score = live.elapsed_ms(now), live.game.ply, live.game.score
        home = live.game.foundation_cards
        ranked_as = rank_key(live.state, elapsed, moves, home)
        values = store.finished_values(
            live.state,
            elapsed,
            moves,
            score,
            ranked_as,
            undos=live.undos,
            foundation=home,
            held=held,
        )
        async with self.db_sessions() as db, db.begin():
            await store.finish(
                db, variant=key.variant, date=key.date, player_id=key.player, values=values
            )
            listed = not held and await store.ranked_player(db, player_id=key.player)
        self.attempts.pop(live.id, None)
        if listed:
            self.ranks.finished(key.variant, key.date, ranked_as)
            # the other nodes' ranks too, so that every node answers the same
            self.cluster.tell(Ranked(key.variant, key.date, ranked_as))
            for told in self.finished:
                try:
                    await told(key.variant, key.date, key.player)
                except Exception:  # the attempt is stored: its day's close counts it anyway
                    log.exception("daily %s %s: a listener failed", key.variant, key.date)

    def ranked_elsewhere(self, told: Ranked) -> None:
        """Another node's attempt finished ranked: this node's ranks count it too."""
        self.ranks.finished(told.variant, told.date, told.key)

    async def _attempt_started_elsewhere(self, game_id: str) -> AttemptKey | None:
        """The open attempt of a daily game another node started (several nodes)."""
        async with self.db_sessions() as db:
            attempt = await store.open_attempt_of(db, game_id=game_id)
        if attempt is None:
            return None
        return AttemptKey(attempt.variant, attempt.date, attempt.player_id)

    async def close_days(self) -> None:
        """Attempts still open when their day ended count as they stood at its end."""
        closed = await close_days(self.db_sessions, self.games.variants, self.review, self.today())
        for game_id, variant, date in closed:
            self.attempts.pop(game_id, None)
            self.ranks.forget(variant, date)

    # -- leaderboard -----------------------------------------------------------------------

    async def leaderboard(
        self, player: int, variant: str, date: str | None, limit: int
    ) -> tuple[str, tuple[p.Standing, ...], p.Standing | None]:
        """The day (today when ``date`` is None), its best ``limit`` entries, and the player's.

        Held attempts, bots' and banned players' are not listed; a held attempt is its own
        player's ``me`` with no rank and its review state; a bot's ``me`` is None."""
        check_variant(self.games.variants, variant)
        today = self.today()
        date = date or today
        if date < today:
            await self.close_days()
        entries, mine = await self.reader.read(variant, date, limit, player)
        me = None
        if mine is not None:
            entry, key, review = mine
            if review in p.REVIEWS:
                me = p.Standing(rank=None, review=review, **entry)
            else:
                me = p.Standing(rank=await self.ranks.rank(variant, date, key), **entry)
        return date, tuple(p.Standing(**e) for e in ranked(entries)), me
