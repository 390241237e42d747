"""``could_win``: who may ask it, and its answer when ready (server/deals/hindsight.py)."""

from __future__ import annotations

import logging

from server.deals.hindsight import Hindsight
from server.errors import Forbidden, Internal, Refused
from server.games.live import Clock
from server.games.store import GameStore
from server.net.connection import Connection
from server.net.routing import Later, Route
from shared import protocol as p
from shared.states import ENDED, STUCK

log = logging.getLogger(__name__)


class DealHandlers:
    """The questions about a deal once its game is over."""

    def __init__(self, hindsight: Hindsight, store: GameStore, clock: Clock) -> None:
        self.hindsight = hindsight
        self.store = store
        self.clock = clock

    def routes(self) -> tuple[Route, ...]:
        return (Route(p.CouldWinRequest, self.could_win),)

    async def could_win(self, connection: Connection, message: p.CouldWinRequest) -> Later:
        """The game's player only, once the game is over (won, resigned, out of time, stuck)
        and its deal shown (``forbidden`` before: the answer would tell of unseen cards)."""
        live = await self.store.owned(connection.welcomed_player.id, message.game)
        live = await self.store.current(live.id)  # another node may have played it since
        await live.settled()
        if live.state not in ENDED and live.state != STUCK:
            raise Forbidden(f"game {live.id!r} is not over: finish or resign it first")
        deal = live.deal_view(self.clock())
        if deal.seed is None and deal.key is None:
            raise Forbidden(f"the deal of game {live.id!r} is still secret: resign it first")
        found = self.hindsight.ask(live, connection)

        async def answer() -> p.Reply:
            try:
                reply = await found
            except Refused:
                raise
            except Exception as exc:
                log.exception("game %s: could_win failed", live.id)
                raise Internal("the question could not be answered; try again") from exc
            return p.CouldWinReply(
                deal=reply.deal, ply=reply.ply, line=reply.line, boards=reply.boards, re=message.id
            )

        return Later(answer())
