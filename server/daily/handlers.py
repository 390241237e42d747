"""``daily`` and ``leaderboard``: the day's deal and its ranking (the daily service)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from server.net.routing import handles
from shared import protocol as p

if TYPE_CHECKING:
    from server.net.connection import Connection


@handles(p.DailyRequest)
async def daily(connection: Connection, message: p.DailyRequest) -> p.Reply:
    player = connection.welcomed_player
    service = connection.app.daily
    start = service.practice if message.practice else service.attempt
    live, date = await start(player.id, message.variant)
    await live.settled()
    view = connection.app.games.view(live)
    return p.GameReply(game=view, daily=p.DailyInfo(date), re=message.id)


@handles(p.LeaderboardRequest)
async def leaderboard(connection: Connection, message: p.LeaderboardRequest) -> p.Reply:
    date, entries, me = await connection.app.daily.leaderboard(
        connection.welcomed_player.id, message.variant, message.date, message.limit
    )
    return p.LeaderboardReply(
        variant=message.variant, date=date, entries=entries, me=me, re=message.id
    )


ROUTES = (daily, leaderboard)
