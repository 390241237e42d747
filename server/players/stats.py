"""``stats``: games played and won per variant, best times, and the daily streak."""

from __future__ import annotations

import datetime
from collections.abc import Callable

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.errors import NotFound
from server.net.connection import Connection
from server.net.routing import Route
from server.storage.queries import daily as daily_store
from server.storage.queries import players
from server.storage.queries import stats as store
from shared import protocol as p


def streak(won_dates: list[str], today: str) -> int:
    """Consecutive days with a won daily, up to today (or yesterday: today is not over)."""
    won = set(won_dates)
    day = datetime.date.fromisoformat(today)
    if today not in won:
        day -= datetime.timedelta(days=1)
    count = 0
    while day.isoformat() in won:
        count += 1
        day -= datetime.timedelta(days=1)
    return count


class StatsHandler:
    def __init__(
        self, db_sessions: async_sessionmaker[AsyncSession], today: Callable[[], str]
    ) -> None:
        self.db_sessions = db_sessions
        #: today's date as the daily challenges count it (UTC)
        self.today = today

    def routes(self) -> tuple[Route, ...]:
        return (Route(p.StatsRequest, self.stats),)

    async def stats(self, connection: Connection, message: p.StatsRequest) -> p.Reply:
        player_id = message.player or connection.welcomed_player.id
        async with self.db_sessions() as db:
            player = await players.by_id(db, player_id=player_id)
            if player is None:
                raise NotFound(f"no player {player_id}")
            variants = await store.per_variant(db, player_id=player_id)
            won_dates = await daily_store.won_dates(db, player_id=player_id)
        return p.StatsReply(
            player=p.PlayerInfo(player.id, player.name),
            variants=tuple(p.VariantStats(**row) for row in variants),
            dailies_won=len(won_dates),
            daily_streak=streak(won_dates, self.today()),
            re=message.id,
        )
