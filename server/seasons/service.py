"""Season points kept as dailies end and days close, and the boards read from them.

An attempt that ends listed earns its points at once (``finished``, told by
the daily service); when its day is over, the day is closed once
(``close_days``): its final places are stored and the first ten places get
their points. Each change is applied to the six boards the day counts on
(its variant's and every variant's week, month and all time) as a
difference, with the count of players per points beside each board, in one
transaction: a board is then a range of an index, and a true rank one sum
(server/storage/queries/seasons.py). A day is closed in the transaction that
writes its ``season_closed`` row, so two nodes cannot close it twice.

A result held for review earns nothing while held; when an operator decides it,
its day is scored again (server/seasons/days.py): a result cleared after its
day closed takes its place then (docs/seasons.md).
Banned players keep their rows but are not listed, nor counted in a rank.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
from collections.abc import Callable

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.daily.service import DailyService
from server.errors import NotFound
from server.ratings.service import shown
from server.seasons import days
from server.seasons.points import EVERY_VARIANT, period_of, period_span, shared_ranks
from server.storage.queries import seasons as store
from server.storage.reader import BoardReader
from shared import protocol as p

log = logging.getLogger(__name__)

#: tries of a change that lost a race to another writer (a first row inserted twice)
TRIES = 3
#: days further back than this are not closed (a month's board, and a few days to spare)
CLOSE_BACK_DAYS = 35
#: how often the close of past days is looked for
CLOSE_EVERY_S = 60.0


class SeasonService:
    def __init__(
        self,
        daily: DailyService,
        db_sessions: async_sessionmaker[AsyncSession],
        reader: BoardReader,
        clock: Callable[[], int],
    ) -> None:
        self.daily = daily
        self.db_sessions = db_sessions
        self.clock = clock
        #: the boards' reads, in a thread of their own (the app's, shared with the ratings)
        self.reader = reader
        #: the day whose past days this node has closed (nothing to do until tomorrow)
        self._closed_through = ""
        self._closing = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        #: days this node closed (metrics, tests)
        self.days_closed = 0

    async def start(self) -> None:
        self._task = asyncio.create_task(self._close_every(), name="seasons")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _close_every(self) -> None:
        while True:
            await asyncio.sleep(CLOSE_EVERY_S)
            try:
                await self.close_days()
            except Exception:
                log.exception("closing the season's days failed; trying again later")

    # -- points ------------------------------------------------------------------------

    async def finished(self, variant: str, date: str, player: int) -> None:
        """An attempt ended listed (told by the daily service): its points, at once."""
        for attempt in range(TRIES):
            try:
                async with self.db_sessions() as db, db.begin():
                    await days.rescore(db, variant=variant, date=date, player_id=player)
                return
            except IntegrityError:
                if attempt == TRIES - 1:
                    raise
                log.info(
                    "season points of %s %s %d: written meanwhile, again", variant, date, player
                )

    async def close_days(self) -> None:
        """Close every past day not closed yet (once a day per node; cheap after that)."""
        today = self.daily.today()
        if self._closed_through == today:
            return
        async with self._closing:
            if self._closed_through == today:
                return
            await self.daily.close_days()  # attempts still open count as they stood
            since = (
                datetime.date.fromisoformat(today) - datetime.timedelta(days=CLOSE_BACK_DAYS)
            ).isoformat()
            async with self.db_sessions() as db:
                days = await store.open_days(db, before=today, since=since)
            for variant, date in days:
                await self._close(variant, date)
            self._closed_through = today

    async def _close(self, variant: str, date: str) -> None:
        """A day's final places and their points, in one transaction with its closed row."""
        try:
            async with self.db_sessions() as db, db.begin():
                await store.mark_closed(db, variant=variant, date=date, now_ms=self.clock())
                # (after the insert: a second closer of the day stops there)
                await store.lock_day(db, variant=variant, date=date, exclusive=True)
                placed = await days.score_day(db, variant=variant, date=date)
        except IntegrityError:
            log.info("season day %s %s: closed by another server", variant, date)
            return
        self.days_closed += 1
        log.info("season day %s %s closed: %d places", variant, date, placed)

    # -- boards --------------------------------------------------------------------------

    async def board(self, player: int, message: p.SeasonRequest) -> p.SeasonReply:
        """A board of points with the asker's own place and true rank."""
        variant = message.variant
        if variant is not None and variant not in self.daily.games.variants.ids:
            raise NotFound(f"no variant {variant!r}")
        await self.close_days()
        date = message.date or self.daily.today()
        first, last = period_span(message.period, date)
        scope = EVERY_VARIANT if variant is None else variant
        period = period_of(message.period, date)
        top, mine = await self.reader.read(
            lambda conn: store.read_board(
                conn, scope=scope, period=period, limit=message.limit, player_id=player
            )
        )

        def entry(rank: int, place: store.Place) -> p.SeasonEntry:
            pid, name, points, dailies, wins, rated = place
            rating = None if rated is None else shown(*rated)
            return p.SeasonEntry(rank, pid, name, points, dailies, wins, rating)

        ranks = shared_ranks([place[2] for place in top])
        return p.SeasonReply(
            period=message.period,
            variant=variant,
            date=date,
            first=first,
            last=last,
            entries=tuple(entry(rank, place) for rank, place in zip(ranks, top, strict=True)),
            me=None if mine is None else entry(*mine),
            re=message.id,
        )
