"""Scoring a finished arena deal: once, with its player's totals, before the action that ended
it is acknowledged.

A deal is scored once, on whichever node looks first (``arena_games`` row
locked, its state still unset; its points with :mod:`server.arenas.scoring`),
and the result is stored before the action that ended the game is
acknowledged (the arenas are a game listener). A result a node could not
score (it died) is scored by the next node that looks: the player's next
``arena_play``, or the sweep of deals past their deadline
(:mod:`server.arenas.sweep`). So killing a node loses no acknowledged result.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.arenas.catalogue import ArenaCatalogue
from server.arenas.deals import ArenaDeals
from server.arenas.scoring import DealPlayed, on_fire, score_deals
from server.arenas.standings import ArenaStandings
from server.arenas.table import Line
from server.config import Config
from server.games.live import LiveGame
from server.storage.engine import create_sync_engine
from server.storage.models import ArenaGame
from server.storage.queries import arena_review as review_store
from server.storage.queries import arenas as store
from shared.states import TIMEOUT, WON

if TYPE_CHECKING:
    from server.review.service import ReviewService

#: tries of a score that lost a race for the database to another writer
TRIES = 4


class ArenaSettlement:
    """Scores each ended arena deal once and puts its player's new line in the standings."""

    def __init__(
        self,
        catalogue: ArenaCatalogue,
        deals: ArenaDeals,
        standings: ArenaStandings,
        review: ReviewService,
        db_sessions: async_sessionmaker[AsyncSession],
        config: Config,
        clock: Callable[[], int],
    ) -> None:
        self.catalogue = catalogue
        self.deals = deals
        self.standings = standings
        self.review = review
        self.db_sessions = db_sessions
        self.config = config
        self.clock = clock
        #: scores are written in a thread on a synchronous connection (see _record)
        self._sync_engine: Engine | None = None
        #: deals this node scored (a metric)
        self.scored = 0

    def stop(self) -> None:
        if self._sync_engine is not None:
            self._sync_engine.dispose()
            self._sync_engine = None

    async def settle(self, live: LiveGame) -> None:
        """Score an ended arena deal once, with its player's totals, in one transaction."""
        async with self.db_sessions() as db:
            row = await store.game(db, game_id=live.id)
        if row is None or row.state is not None:
            return
        arena = await self.catalogue.arena(row.arena)
        deal = await self.deals.deal(arena, row.seq)
        ended = live.ended_ms if live.ended_ms is not None else self.clock()
        time_ms = live.elapsed_ms(ended)
        in_time = time_ms <= row.allowance_ms and ended <= arena.ends_ms
        won = live.state == WON and in_time
        held = won and await self.review.check(live, f"arena {arena.code} deal {row.seq + 1}")
        state = TIMEOUT if live.state == WON and not in_time else live.state
        this = DealPlayed(won=won and not held, time_ms=time_ms, par_ms=deal.par_ms,
                          berserk=row.berserk)  # fmt: skip
        totals: store.Totals | None = None
        for attempt in range(TRIES):
            try:
                totals = await self._record(row, this, state, held)
                break
            except DBAPIError:
                if attempt == TRIES - 1:
                    raise
                await asyncio.sleep(0.05 * (attempt + 1))
        if totals is None:
            return
        self.scored += 1
        table = await self.standings.table(arena.code)
        old = table.lines.get(row.player_id)
        name = old.name if old is not None else await self._name(row.player_id)
        line = Line(row.player_id, name, totals.points, totals.played, totals.wins, totals.fire)
        await self.standings.put(arena.code, line)

    async def _record(
        self, row: ArenaGame, this: DealPlayed, state: str, held: bool
    ) -> store.Totals | None:
        """Write the deal's result and the player's totals in one transaction, in a thread on a
        synchronous connection (see :func:`~server.storage.queries.arenas.record_sync`)."""

        def score(rows: Sequence[Any]) -> tuple[store.Result, store.Totals] | None:
            mine = next((r for r in rows if r.game_id == row.game_id), None)
            if mine is None or mine.state is not None:
                return None  # scored meanwhile by another node
            before = [r for r in rows if r.state is not None and r.seq < row.seq]
            later = [r for r in rows if r.state is not None and r.seq > row.seq]
            played = [_played(r) for r in before]
            scored = score_deals([*played, this])[-1]
            result = store.Result(state, this.time_ms, scored.points, scored.on_streak, held)
            everything = [*played, this, *(_played(r) for r in later)]
            totals = store.Totals(
                points=sum(r.points for r in before) + scored.points + sum(r.points for r in later),
                played=len(everything),
                wins=sum(1 for d in everything if d.won),
                fire=on_fire(everything),
            )
            return result, totals

        def work() -> store.Totals | None:
            with self._sync().begin() as conn:
                return store.record_sync(
                    conn, game_id=row.game_id, code=row.arena, player_id=row.player_id, score=score
                )

        return await asyncio.to_thread(work)

    async def refresh(self, game_ids: list[str]) -> None:
        """Reviews of these games were decided (server/arenas/review.py scored a cleared win
        in the decision's transaction): their players' lines as stored, in the standings."""
        for game_id in game_ids:
            async with self.db_sessions() as db:
                found = await review_store.line(db, game_id=game_id)
            if found is None:
                continue  # not an arena deal
            code, player, points, played, wins, fire = found
            table = await self.standings.table(code)
            old = table.lines.get(player)
            name = old.name if old is not None else await self._name(player)
            await self.standings.put(code, Line(player, name, points, played, wins, fire))

    def _sync(self) -> Engine:
        if self._sync_engine is None:
            self._sync_engine = create_sync_engine(self.config.db)
        return self._sync_engine

    async def _name(self, player: int) -> str:
        async with self.db_sessions() as db:
            return (await store.names(db, ids=[player])).get(player, "?")


def _played(row: Any) -> DealPlayed:
    """A finished deal as the scoring reads it (its stored points are what counted)."""
    won = row.state == WON and not row.held
    return DealPlayed(won=won, time_ms=row.time_ms, par_ms=row.time_ms, berserk=row.berserk)
