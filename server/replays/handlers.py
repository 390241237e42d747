"""``replay``: who may see a finished game move by move (docs/protocol.md, "Replays").

Fair play decides it. The game's own player may ask at any time, while it is
still played too: every board in it is one they saw, and it is how a client
lists the moves of a game it opens midway (a reload, a game resumed on another
device). Anybody else waits until it has ended (a game still being played, or
stuck, which is not over: ``undo`` still works, would show a rival's line
mid-race), and even then may only once
its deal is shown (a numbered deal, or a keyed one whose key is out): until
then the boards would tell of a deal that is still secret, a daily's before
its day ends, a race's before the race is over. And nobody replays a deal
they may not start: a racer does not see another racer's line on the deal
they are racing on (the game service's start guards, ``race_locked``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.errors import Forbidden, Internal
from server.games.live import Clock
from server.games.service import StartGuard
from server.games.store import GameStore
from server.net.connection import Connection
from server.net.routing import Later, Route
from server.replays.boards import replay_job
from server.storage.queries import players
from shared import protocol as p
from shared.states import ENDED

log = logging.getLogger(__name__)


class ReplayHandlers:
    """Finished games, move by move."""

    def __init__(
        self,
        store: GameStore,
        db_sessions: async_sessionmaker[AsyncSession],
        clock: Clock,
        guards: list[StartGuard],
    ) -> None:
        self.store = store
        self.db_sessions = db_sessions
        self.clock = clock
        #: what refuses a player the deal (a racer's numbered race deal): refuses its replays
        self.guards = guards

    def routes(self) -> tuple[Route, ...]:
        return (Route(p.ReplayRequest, self.replay),)

    async def replay(self, connection: Connection, message: p.ReplayRequest) -> Later:
        asker = connection.welcomed_player.id
        live = await self.store.get(message.game)
        live = await self.store.current(live.id)  # another node may have played it since
        await live.settled()
        if live.state not in ENDED and live.owner != asker:
            raise Forbidden(f"game {live.id!r} is still being played: it replays once it has ended")
        now = self.clock()
        deal = live.deal_view(now)
        if live.owner != asker:
            if deal.seed is None and deal.key is None:
                raise Forbidden(
                    f"the deal of game {live.id!r} is still secret: its replay opens once "
                    "its deal is shown"
                )
            for guard in self.guards:
                await guard(asker, live.game.rules.id, live.seed, live.game.options)
        actions, job = replay_job(live.game, self.store.variants, self.store.searches.prover)
        board = live.game.board()
        answer = p.ReplayReply(
            game=live.id,
            player="",
            variant=board.variant,
            options=dict(board.options),
            deal=deal,
            kind=live.kind,
            state=live.state,
            score=board.score,
            elapsed_ms=live.elapsed_ms(now),
            actions=actions,
            boards=(),
            re=message.id,
        )

        async def made() -> p.Reply:
            try:
                boards = await asyncio.to_thread(job)
            except Exception as exc:
                log.exception("game %s: its replay failed", live.id)
                raise Internal("the replay could not be made; try again") from exc
            async with self.db_sessions() as db:
                owner = await players.by_id(db, player_id=live.owner)
            name = owner.name if owner is not None else "?"
            return dataclasses.replace(answer, player=name, boards=boards)

        return Later(made())
