"""``daily`` and ``leaderboard``: the day's deal and its ranking (server/daily.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from server.net.routing import handles
from server.services import dailies
from shared import protocol as p
from shared import protocol_races as r

if TYPE_CHECKING:
    from server.net.connection import Session


def _player(session: Session) -> int:
    assert session.player is not None  # the dispatcher lets only welcomed sessions here
    return session.player.id


@handles(r.DailyRequest)
async def daily(session: Session, message: r.DailyRequest) -> p.Reply:
    live, date = await dailies(session.app).attempt(_player(session), message.variant)
    await live.settled()
    view = session.app.games.view(live)
    return p.GameMessage(game=view, extra={"daily": {"date": date}}, re=message.id)


@handles(r.LeaderboardRequest)
async def leaderboard(session: Session, message: r.LeaderboardRequest) -> p.Reply:
    board = await dailies(session.app).leaderboard(
        _player(session), message.variant, message.date, message.limit
    )
    return r.Leaderboard(fields=board, re=message.id)
