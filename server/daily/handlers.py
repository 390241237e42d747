"""``daily`` and ``leaderboard``: the day's deal and its ranking (the daily service)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from server.net.routing import handles
from shared import protocol as p
from shared import protocol_races as r

if TYPE_CHECKING:
    from server.net.connection import Connection


@handles(r.DailyRequest)
async def daily(connection: Connection, message: r.DailyRequest) -> p.Reply:
    player = connection.welcomed_player
    live, date = await connection.app.daily.attempt(player.id, message.variant)
    await live.settled()
    view = connection.app.games.view(live)
    return p.GameMessage(game=view, extra={"daily": {"date": date}}, re=message.id)


@handles(r.LeaderboardRequest)
async def leaderboard(connection: Connection, message: r.LeaderboardRequest) -> p.Reply:
    board = await connection.app.daily.leaderboard(
        connection.welcomed_player.id, message.variant, message.date, message.limit
    )
    return r.Leaderboard(fields=board, re=message.id)


ROUTES = (daily, leaderboard)
