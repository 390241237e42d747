"""``stats``: games played and won per variant, best times, and the daily streak."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from server.errors import NotFound
from server.net.routing import handles
from server.storage.queries import daily as daily_store
from server.storage.queries import players
from server.storage.queries import stats as store
from shared import protocol as p

if TYPE_CHECKING:
    from server.net.connection import Connection


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


@handles(p.StatsRequest)
async def stats(connection: Connection, message: p.StatsRequest) -> p.Reply:
    player_id = message.player or connection.welcomed_player.id
    app = connection.app
    async with app.db_sessions() as db:
        player = await players.by_id(db, player_id=player_id)
        if player is None:
            raise NotFound(f"no player {player_id}")
        variants = await store.per_variant(db, player_id=player_id)
        won_dates = await daily_store.won_dates(db, player_id=player_id)
    return p.StatsReply(
        player=p.PlayerInfo(player.id, player.name),
        variants=tuple(p.VariantStats(**row) for row in variants),
        dailies_won=len(won_dates),
        daily_streak=streak(won_dates, app.daily.today()),
        re=message.id,
    )


ROUTES = (stats,)
