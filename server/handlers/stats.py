"""``stats``: games played and won per variant, best times, and the daily streak."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from server.handlers import handles
from server.services import dailies
from server.store import daily as daily_store
from server.store import players
from server.store import stats as store
from shared import protocol as p
from shared.errors import ProtocolError

if TYPE_CHECKING:
    from server.session import Session


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
async def stats(session: Session, message: p.StatsRequest) -> p.Reply:
    assert session.player is not None
    player_id = message.player or session.player.id
    app = session.app
    async with app.sessions() as db:
        player = await players.by_id(db, player_id=player_id)
        if player is None:
            raise ProtocolError(p.NOT_FOUND, f"no player {player_id}")
        variants = await store.per_variant(db, player_id=player_id)
        won_dates = await daily_store.won_dates(db, player_id=player_id)
    return p.StatsReply(
        player=p.PlayerInfo(player.id, player.name),
        variants=tuple(p.VariantStats(**row) for row in variants),
        dailies_won=len(won_dates),
        daily_streak=streak(won_dates, dailies(app).today()),
        re=message.id,
    )
