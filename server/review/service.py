"""Holds ranked results played faster than the rule allows (:mod:`server.review.rule`).

The daily service and the races ask, when a ranked result ends, whether it
is held; a held result gets a pending ``reviews`` row for an operator
(``patience-club admin held``, ``clear``, ``confirm``). Bot accounts are
never ranked, so their results are not held.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.games.live import LiveGame
from server.review.rule import Rule
from server.storage.queries import players
from server.storage.queries import reviews as store

log = logging.getLogger(__name__)


class ReviewService:
    def __init__(
        self, db_sessions: async_sessionmaker[AsyncSession], clock: Callable[[], int], rule: Rule
    ) -> None:
        self.db_sessions = db_sessions
        self.clock = clock
        self.rule = rule

    async def check(self, live: LiveGame, what: str, *, since_ms: int | None = None) -> bool:
        """Whether ``live``'s result is held (stored as such if so); its gaps are measured
        from ``since_ms`` (a race's start), else from the game's start."""
        await live.settled()
        async with self.db_sessions() as db:
            times = await store.received_times(db, game_id=live.id)
        start = live.started_ms if since_ms is None else since_ms
        return await self.hold(live.id, live.owner, what, times, start)

    async def hold(
        self, game_id: str, player_id: int, what: str, times: Sequence[int], start_ms: int
    ) -> bool:
        """Whether the result of these action times is held; if so, its review is stored."""
        median = self.rule.held(times, start_ms)
        if median is None:
            return False
        async with self.db_sessions() as db, db.begin():
            player = await players.by_id(db, player_id=player_id)
            if player is None or player.bot:
                return False
            review = await store.hold(
                db,
                game_id=game_id,
                player_id=player_id,
                what=what,
                actions=len(times),
                median_gap_ms=median,
                now_ms=self.clock(),
            )
        log.warning(
            "review %d: %s of player %d (game %s) held: %d actions, median gap %d ms",
            review,
            what,
            player_id,
            game_id,
            len(times),
            median,
        )
        return True
