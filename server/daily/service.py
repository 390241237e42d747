"""Daily challenges: one winnable keyed deal per variant per UTC day, one ranked attempt each.

The deal of a day is found, stored and kept by :mod:`server.daily.dealer`;
this service computes today's and tomorrow's ahead in the background, and
serves the attempts. A deal's key stays secret until the day ends (the
attempt's and every practice game's views show it from then on).

An attempt that ends is checked by review (:mod:`server.review`): a held
one stays off the leaderboard until an operator clears it. Attempts still
open when their day ends are closed as they stood (:mod:`server.daily.close`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.cluster.news import Ranked
from server.config import Config
from server.daily.close import close_days
from server.daily.dealer import DailyDeal, DailyDealer
from server.daily.deals import DAY_MS, day_end_ms, utc_date
from server.daily.leaderboard import LeaderboardReader
from server.daily.ranks import RankIndex
from server.errors import DailyOpen, HintsOff, NotFound
from server.games.fields import check_variant
from server.games.live import LiveGame
from server.races.standings import rank_key, ranked
from server.storage.models import DailyAttempt, Game
from server.storage.queries import daily as store
from shared import protocol as p
from shared.states import ENDED

if TYPE_CHECKING:
    from server.cluster.node import Cluster
    from server.games.service import GameService
    from server.games.store import GameStore
    from server.review.service import ReviewService

log = logging.getLogger(__name__)

#: the work ahead waits this long after start, so that a starting server answers first
AHEAD_DELAY_S = 10.0


@dataclass(frozen=True, slots=True)
class AttemptKey:
    variant: str
    date: str
    player: int


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
        #: the deal of each day: computed (ahead, or for a request), stored, kept
        self.dealer = DailyDealer(games.variants, db_sessions, config, clock)
        #: (variant, date) -> its deal, for the days already computed (the dealer's)
        self.deals = self.dealer.deals
        self._computing = self.dealer.computing
        #: open attempts by game id
        self.attempts: dict[str, AttemptKey] = {}
        self._locks: dict[tuple[int, str], asyncio.Lock] = {}
        self._ahead: asyncio.Task[None] | None = None
        self.reader = LeaderboardReader(config.db)
        self.ranks = RankIndex(self.reader.keys)
        #: told (variant, date, player) when an attempt ends listed (the season's points)
        self.finished: list[Callable[[str, str, int], Awaitable[None]]] = []

    # -- life cycle ------------------------------------------------------------------

    async def start(self) -> None:
        await self.dealer.start()
        async with self.db_sessions() as db:
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
        await self.dealer.stop()
        self.reader.close()

    def today(self) -> str:
        return utc_date(self.clock())

    # -- the deals ahead -----------------------------------------------------------------

    async def deal(self, variant: str, date: str, *, ahead: bool = False) -> DailyDeal:
        """The day's deal, from memory, the database, or the solver (awaited, off the loop)."""
        return await self.dealer.deal(variant, date, ahead=ahead)

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

    def on_action(self, live: LiveGame, action: str) -> Awaitable[None] | None:
        """A game listener: a ranked attempt that ended is stored as finished before its
        action is acknowledged. Every other action (every move of a game in play) returns
        at once, with nothing to await: no coroutine is made for it."""
        if live.state not in ENDED:
            return None
        if live.id not in self.attempts and not (live.kind == p.DAILY and self.store.shared):
            return None
        return self._ended(live)

    async def _ended(self, live: LiveGame) -> None:
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
