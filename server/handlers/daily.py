"""``daily`` and ``leaderboard``: the day's deal and its ranking (server/daily.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from server.handlers import handles
from server.services import dailies
from shared import protocol as p

if TYPE_CHECKING:
    from server.session import Session


def _player(session: Session) -> int:
    assert session.player is not None  # the dispatcher lets only welcomed sessions here
    return session.player.id


@handles(p.DailyRequest)
async def daily(session: Session, message: p.DailyRequest) -> p.Reply:
    live, date = await dailies(session.app).attempt(_player(session), message.variant)
    await live.settled()
    view = p.GameView.of(session.app.games.view(live))
    return p.GameReply(game=view, daily=p.DailyInfo(date), re=message.id)


@handles(p.LeaderboardRequest)
async def leaderboard(session: Session, message: p.LeaderboardRequest) -> p.Reply:
    date, entries, me = await dailies(session.app).leaderboard(
        _player(session), message.variant, message.date, message.limit
    )
    return p.LeaderboardReply(
        variant=message.variant, date=date, entries=entries, me=me, re=message.id
    )
