"""Arenas: timed tournaments on one variant, played on every node, scored once, kept.

An arena is a row of ``arenas`` (created by an operator's command, by the
schedule of the settings, or by a player: a private arena whose code is its
link). Between its start and its end every player who joined plays the same
sequence of keyed deals, each in their own time, one after another; their
keys stay secret until the arena is over (every arena game shows its key from
the arena's end: ``reveal_ms``).

Every node runs arenas the same way, with the database as the arbiter, so no
node owns an arena and killing one loses no acknowledged result. The work is
done by parts, each in its module:

- :mod:`server.arenas.catalogue`: the arenas known, created, listed, cancelled;
- :mod:`server.arenas.deals`: each arena's keyed deals, drawn once;
- :mod:`server.arenas.play`: joining, a player's next deal, berserk, leaving;
- :mod:`server.arenas.settlement`: scoring a finished deal once;
- :mod:`server.arenas.sweep`: the deals past their deadline and the arenas' ends;
- :mod:`server.arenas.standings`: the tables, their cluster lines and pushes.

This service is the feature as the rest of the server sees it: its life cycle
(the tick every ``arena_tick_ms``), and the hooks it is wired to (a game
listener, a hint guard, the cluster's news).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from server.arenas.catalogue import ArenaCatalogue
from server.arenas.deals import ArenaDeals
from server.arenas.play import ArenaPlay
from server.arenas.settlement import ArenaSettlement
from server.arenas.standings import ArenaStandings
from server.arenas.state import KEEP_MS
from server.arenas.sweep import ArenaSweep
from server.cluster.news import ArenaLine
from server.config import Config
from server.errors import HintsOff
from server.games.live import LiveGame
from shared import protocol as p
from shared.states import ENDED

log = logging.getLogger(__name__)


class ArenaService:
    """The arenas' tick, start and stop, and the hooks the rest of the server calls."""

    def __init__(
        self,
        catalogue: ArenaCatalogue,
        deals: ArenaDeals,
        standings: ArenaStandings,
        settlement: ArenaSettlement,
        play: ArenaPlay,
        sweep: ArenaSweep,
        config: Config,
        clock: Callable[[], int],
    ) -> None:
        self.catalogue = catalogue
        self.deals = deals
        self.standings = standings
        self.settlement = settlement
        self.play = play
        self.sweep = sweep
        self.config = config
        self.clock = clock
        self._ticking: asyncio.Task[None] | None = None

    # -- life cycle ------------------------------------------------------------------------

    async def start(self) -> None:
        await self.catalogue.poll()
        self._ticking = asyncio.create_task(self._tick_forever(), name="arenas")

    async def stop(self) -> None:
        tasks = [t for t in (self._ticking, *self.play.tasks) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.standings.stop()
        self.settlement.stop()

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(self.config.arena_tick_ms / 1000)
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("arenas: tick failed")

    async def tick(self) -> None:
        """Read the arenas changed since the last tick, create the scheduled ones due, end the
        deals out of time, and end the arenas whose time is up."""
        await self.catalogue.poll()
        await self.catalogue.create_scheduled()
        await self.sweep.sweep()
        now = self.clock()
        for arena in list(self.catalogue.arenas.values()):
            if arena.over(now) and arena.code not in self.sweep.finished:
                await self.sweep.finish(arena)
            elif arena.ends_ms + KEEP_MS < now:
                self._forget(arena.code)

    def _forget(self, code: str) -> None:
        self.catalogue.forget(code)
        self.standings.forget(code)
        self.deals.forget(code)
        self.play.seats.forget(code)
        self.sweep.finished.discard(code)

    async def cancel(self, code: str) -> None:
        """Cancel an arena (the operators'): it ends now, what was scored stays."""
        await self.catalogue.cancel(code)

    # -- hooks -----------------------------------------------------------------------------

    def on_action(self, live: LiveGame, _action: str) -> Awaitable[None] | None:
        """A game listener: an arena deal that ended is scored before its action is
        acknowledged (a failure is logged; the sweep or the next deal scores it). Every
        other action of every game returns at once, with nothing to await."""
        if live.kind != p.ARENA or live.state not in ENDED:
            return None
        return self._settle(live)

    async def _settle(self, live: LiveGame) -> None:
        try:
            await self.settlement.settle(live, just_stored=True)
        except Exception:
            log.exception("arena game %s: not scored now (it will be)", live.id)

    def hint_lock(self, live: LiveGame) -> None:
        """``hints_off`` in an arena's deal (a hint guard)."""
        if live.kind == p.ARENA:
            raise HintsOff("hints are off in an arena")

    def line_told(self, told: ArenaLine) -> None:
        """Another node scored a deal (or a player joined there)."""
        self.standings.line_told(told)

    def forget_tables(self, told: object) -> None:
        """Redis came back: what other nodes told meanwhile was lost; read the tables again."""
        self.standings.forget_tables(told)
