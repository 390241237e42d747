"""Daily challenges: one winnable deal per variant per UTC day, one ranked attempt per player.

The deal of a day is the first candidate seed the solver proves winnable
(:mod:`server.daily.deals`). The secret the candidates derive from is
created at the first start and kept in the database, so nobody can predict
a deal before its day, and every process of one server agrees on it.
The solver runs in a separate process (CPU-bound, it would otherwise hold the
event loop's GIL); today's and tomorrow's deals are computed ahead in the
background, and a ``daily`` request that finds none waits for its own
computation without blocking anyone else. The result is stored, so a deal
never changes once offered.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import secrets
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from server.daily.deals import DAY_MS, candidate_seeds, day_end_ms, prove, utc_date
from server.daily.leaderboard import LeaderboardReader
from server.daily.ranks import RankIndex
from server.games.fields import check_variant
from server.games.live import LiveGame
from server.games.ply import ENDED
from server.races.standings import rank_key, ranked
from server.storage.models import Daily, DailyAttempt
from server.storage.queries import daily as store
from server.storage.queries.games import replay_record
from shared import protocol as p
from shared.errors import InvalidOptions, InvalidRecord, ProtocolError
from shared.game import RESIGNED, WON
from shared.games import replay

if TYPE_CHECKING:
    from server.app import App

log = logging.getLogger(__name__)

SECRET_KEY = "daily_secret"
#: the work ahead waits this long after start, so that a starting server answers first
AHEAD_DELAY_S = 10.0


@dataclass(frozen=True, slots=True)
class AttemptKey:
    variant: str
    date: str
    player: int


class DailyService:
    def __init__(self, app: App) -> None:
        self.app = app
        self.secret = b""
        #: (variant, date) -> seed, for the days already computed
        self.seeds: dict[tuple[str, str], int] = {}
        self._computing: dict[tuple[str, str], asyncio.Future[int]] = {}
        #: open attempts by game id
        self.attempts: dict[str, AttemptKey] = {}
        self._locks: dict[tuple[int, str], asyncio.Lock] = {}
        #: worker processes: one for requests, one for the work ahead (a slow search ahead
        #: never holds up a player's request)
        self._pools: dict[bool, ProcessPoolExecutor] = {}
        #: (variant, date) -> clock when no candidate could be proven: retried an hour later
        self._failed: dict[tuple[str, str], int] = {}
        self._ahead: asyncio.Task[None] | None = None
        self.reader = LeaderboardReader(app.config.db)
        self.ranks = RankIndex(self.reader.keys)

    # -- life cycle ------------------------------------------------------------------

    async def start(self) -> None:
        async with self.app.db_sessions() as db:
            value = await store.setting(db, key=SECRET_KEY, default=secrets.token_hex(32))
            self.secret = bytes.fromhex(value)
            now = self.app.clock()
            days = [utc_date(now), utc_date(now + DAY_MS)]
            for row in await store.dailies_on(db, dates=days):
                self.seeds[(row.variant, row.date)] = row.seed  # known at once: the lock needs it
            for attempt in await store.open_attempts(db):
                self.attempts[attempt.game_id] = AttemptKey(
                    attempt.variant, attempt.date, attempt.player_id
                )
        if self.app.config.daily_ahead:
            self._ahead = asyncio.create_task(self._compute_ahead(), name="dailies")

    async def stop(self) -> None:
        if self._ahead is not None:
            self._ahead.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ahead
        for pool in self._pools.values():
            # A search in progress would hold the shutdown for its whole budget: end it now.
            workers = list(getattr(pool, "_processes", {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for worker in workers:
                worker.terminate()
        self._pools.clear()
        self.reader.close()

    def today(self) -> str:
        return utc_date(self.app.clock())

    # -- the deal of a day -------------------------------------------------------------

    async def seed(self, variant: str, date: str, *, ahead: bool = False) -> int:
        """The day's deal, from memory, the database, or the solver (awaited, off the loop)."""
        key = (variant, date)
        known = self.seeds.get(key)
        if known is not None:
            return known
        failed = self._failed.get(key)
        if failed is not None and self.app.clock() - failed < 3_600_000:
            raise ProtocolError(
                p.INTERNAL,
                f"no {variant} deal for {date} has been proven winnable yet; try again later",
            )
        computing = self._computing.get(key)
        if computing is None:
            computing = asyncio.ensure_future(self._find(variant, date, ahead))
            self._computing[key] = computing
            computing.add_done_callback(lambda _: self._computing.pop(key, None))
        return await asyncio.shield(computing)

    async def _find(self, variant: str, date: str, ahead: bool) -> int:
        async with self.app.db_sessions() as db:
            row = await store.daily(db, variant=variant, date=date)
        if row is None:
            seeds = candidate_seeds(self.secret, date, variant)
            pool = self._pools.get(ahead)
            if pool is None:
                context = multiprocessing.get_context("spawn")
                pool = self._pools[ahead] = ProcessPoolExecutor(max_workers=1, mp_context=context)
            loop = asyncio.get_running_loop()
            started = time.monotonic()
            try:
                seed, positions = await loop.run_in_executor(
                    pool,
                    prove,
                    self.app.games.variants.get(variant),
                    seeds,
                    self.app.config.daily_budget_s,
                )
            except LookupError:
                self._failed[(variant, date)] = self.app.clock()
                log.error("daily %s %s: no candidate proven winnable", variant, date)
                raise ProtocolError(
                    p.INTERNAL,
                    f"no {variant} deal for {date} could be proven winnable; try again later",
                ) from None
            log.info(
                "daily %s %s: seed proven winnable in %.2f s (%d positions)",
                variant,
                date,
                time.monotonic() - started,
                positions,
            )
            async with self.app.db_sessions() as db, db.begin():
                if await store.daily(db, variant=variant, date=date) is None:
                    db.add(
                        Daily(
                            variant=variant,
                            date=date,
                            seed=seed,
                            positions=positions,
                            computed_ms=self.app.clock(),
                        )
                    )
            async with self.app.db_sessions() as db:
                row = await store.daily(db, variant=variant, date=date)
            assert row is not None
        self.seeds[(variant, date)] = row.seed
        return row.seed

    async def _compute_ahead(self) -> None:
        """Today's and tomorrow's deals of every variant, then again every hour."""
        await asyncio.sleep(AHEAD_DELAY_S)
        while True:
            now = self.app.clock()
            for date in (utc_date(now), utc_date(now + DAY_MS)):
                for variant in self.app.games.variants.ids:
                    try:
                        await self.seed(variant, date, ahead=True)
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
        check_variant(self.app.games.variants, variant)
        date = self.today()
        lock = self._locks.setdefault((player, variant), asyncio.Lock())
        async with lock:
            async with self.app.db_sessions() as db:
                found = await store.attempt(db, variant=variant, date=date, player_id=player)
            if found is not None:
                return await self.app.games.get(found.game_id), date
            seed = await self.seed(variant, date)
            # the attempt itself: the lock (guard) is not asked
            live = await self.app.games.start(player, variant, seed, {}, guarded=False)
            async with self.app.db_sessions() as db, db.begin():
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
                        rank_group=0,
                        rank_a=0,
                        rank_b=0,
                    )
                )
            self.attempts[live.id] = AttemptKey(variant, date, player)
        if len(self._locks) > 10_000:
            self._locks.clear()
        return live, date

    async def guard(self, player: int, variant: str, seed: int, options: Mapping[str, Any]) -> None:
        """``daily_locked``: today's deal is not played outside the attempt until it ended."""
        if not self.is_daily(variant, seed):
            return
        date = self.today()
        async with self.app.db_sessions() as db:
            found = await store.attempt(db, variant=variant, date=date, player_id=player)
        if found is None or found.game_id in self.attempts:
            raise ProtocolError(
                p.DAILY_LOCKED,
                f"seed {seed} is today's daily {variant}: play it with 'daily' first; "
                "replays are open once your attempt has ended",
            )

    def is_daily(self, variant: str, seed: int) -> bool:
        return self.seeds.get((variant, self.today())) == seed

    async def on_action(self, live: LiveGame, action: str) -> None:
        key = self.attempts.get(live.id)
        if key is None or live.state not in ENDED:
            return
        if key.date < self.today():
            return  # its day is over: it counts as it stood then (close_days)
        now = self.app.clock()
        elapsed, moves, score = live.elapsed_ms(now), live.game.ply, live.game.score
        ranked_as = rank_key(live.state, elapsed, moves, score)
        values = store.finished_values(live.state, elapsed, moves, score, ranked_as)
        async with self.app.db_sessions() as db, db.begin():
            await store.finish(
                db, variant=key.variant, date=key.date, player_id=key.player, values=values
            )
        del self.attempts[live.id]
        self.ranks.finished(key.variant, key.date, ranked_as)

    async def close_days(self) -> None:
        """Attempts still open when their day ended count as they stood at its end.

        The game is replayed from the actions played before midnight, so an
        action after it (a win, say) changes nothing; such a game ended then.
        """
        today = self.today()
        async with self.app.db_sessions() as db, db.begin():
            for attempt, game in await store.unfinished_before(db, date=today):
                end = day_end_ms(attempt.date)
                played = await store.actions_before(db, game_id=game.id, before_ms=end)
                resigned = game.state == RESIGNED and (game.ended_ms or end) < end
                record = replay_record(game, [action for action, _ in played], resigned=resigned)
                try:
                    stood = replay(
                        record,
                        variants=self.app.games.variants,
                        prover=self.app.games.searches.prover,
                    )
                except (InvalidRecord, InvalidOptions):
                    log.exception("daily attempt %s does not replay", game.id)
                    continue
                if stood.state == WON and played:
                    ended = played[-1][1]
                elif resigned and game.ended_ms is not None:
                    ended = game.ended_ms
                else:
                    ended = end
                elapsed = max(0, ended - game.started_ms)
                moves, score = stood.ply, stood.score
                key = rank_key(stood.state, elapsed, moves, score)
                values = store.finished_values(stood.state, elapsed, moves, score, key)
                await store.finish(
                    db,
                    variant=attempt.variant,
                    date=attempt.date,
                    player_id=attempt.player_id,
                    values=values,
                )
                self.attempts.pop(attempt.game_id, None)
                self.ranks.forget(attempt.variant, attempt.date)

    # -- leaderboard -----------------------------------------------------------------------

    async def leaderboard(
        self, player: int, variant: str, date: str | None, limit: int
    ) -> tuple[str, tuple[p.Standing, ...], p.Standing | None]:
        """The day (today when ``date`` is None), its best ``limit`` entries, and the player's."""
        check_variant(self.app.games.variants, variant)
        today = self.today()
        date = date or today
        if date < today:
            await self.close_days()
        entries, mine = await self.reader.read(variant, date, limit, player)
        me = None
        if mine is not None:
            entry, key = mine
            me = p.Standing(rank=await self.ranks.rank(variant, date, key), **entry)
        return date, tuple(p.Standing(**e) for e in ranked(entries)), me
