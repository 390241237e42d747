"""The deadline sweep and the end of an arena, run by every node each tick.

Each second (``arena_tick_ms``) every node ends the arena deals past their
deadline and scores them: its own at once, any other node's after
``ORPHAN_MS`` (that node may be gone). At the arena's end (or its
cancellation) every deal still played ends and is scored, and the followers
get ``arena_over``. So no node owns an arena.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.arenas.settlement import ArenaSettlement
from server.arenas.standings import ArenaStandings
from server.arenas.state import ArenaState
from server.cluster.news import GamesForgotten
from server.storage.queries import arenas as store
from shared.states import ENDED, TIMEOUT

if TYPE_CHECKING:
    from server.cluster.node import Cluster
    from server.games.service import GameService
    from server.games.store import GameStore

log = logging.getLogger(__name__)

#: a deal past its deadline is ended by whichever node holds it at once, by any other node
#: after this grace (its own node may be gone)
ORPHAN_MS = 5_000


class ArenaSweep:
    """Ends the deals out of time and the arenas whose time is up."""

    def __init__(
        self,
        settlement: ArenaSettlement,
        standings: ArenaStandings,
        games: GameService,
        store: GameStore,
        cluster: Cluster,
        db_sessions: async_sessionmaker[AsyncSession],
        clock: Callable[[], int],
    ) -> None:
        self.settlement = settlement
        self.standings = standings
        self.games = games
        self.store = store
        self.cluster = cluster
        self.db_sessions = db_sessions
        self.clock = clock
        #: arenas whose end this node has pushed
        self.finished: set[str] = set()

    async def sweep(self) -> None:
        """End the deals out of time: this node's at once, any other's after ``ORPHAN_MS``."""
        now = self.clock()
        async with self.db_sessions() as db:
            late = await store.overdue(db, now_ms=now)
        for game_id, _code in late:
            live = self.store.in_memory(game_id)
            if live is None:
                async with self.db_sessions() as db:
                    row = await store.game(db, game_id=game_id)
                if row is None or row.deadline_ms > now - ORPHAN_MS:
                    continue
            try:
                live = await self.store.current(game_id)
                if live.state not in ENDED:
                    live = await self.games.end(live, TIMEOUT)  # scored by on_action
                await self.settlement.settle(live)
            except Exception:
                log.exception("arena game %s: could not be ended", game_id)

    async def finish(self, arena: ArenaState) -> None:
        """The arena's time is up (or it was cancelled): every deal still played ends and is
        scored, the table is read as stored, and its followers here get ``arena_over``."""
        async with self.db_sessions() as db:
            still = await store.open_games(db, code=arena.code)
        for game_id in still:
            try:
                live = await self.store.current(game_id)
                if live.state not in ENDED:
                    live = await self.games.end(live, TIMEOUT)
                await self.settlement.settle(live)
            except Exception:
                log.exception("arena %s: game %s could not be ended", arena.code, game_id)
                return  # tried again at the next tick
        if arena.cancelled_ms is not None and arena.cancelled_ms < arena.ends_ms:
            await self._reveal(arena)
        self.finished.add(arena.code)
        players = await self.standings.over(arena)
        log.info("arena %s %s: %d players", arena.code, arena.state(self.clock()), players)

    async def _reveal(self, arena: ArenaState) -> None:
        """A cancelled arena's games show their keys now, not at the end it would have had."""
        async with self.db_sessions() as db:
            ids = await store.game_ids(db, code=arena.code)
        lives = [await self.store.current(game_id) for game_id in ids]
        await self.games.reveal(lives)
        if ids:  # other nodes' copies show the keys too
            self.cluster.tell(GamesForgotten(tuple(ids)))
