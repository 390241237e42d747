"""Scoring a finished arena deal: once, with its player's totals, before the action that ended
it is acknowledged.

A deal is scored once, on whichever node looks first (``arena_games`` row
locked, its state still unset; its points with :mod:`server.arenas.scoring`),
and the result is stored before the action that ended the game is
acknowledged. Where it can, the result rides in that action's own write (a
write hook: one transaction at a deal's end, in the group commit, as a solo
game's last action); a win, which review reads first, and a deal this node
did not deal, are scored in a transaction of their own once the action is
stored (the arenas are a game listener). A result a node could not score (it
died) is scored by the next node that looks: the player's next
``arena_play``, or the sweep of deals past their deadline
(:mod:`server.arenas.sweep`). So killing a node loses no acknowledged result.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.arenas.catalogue import ArenaCatalogue
from server.arenas.deals import ArenaDeals
from server.arenas.scoring import DealPlayed, on_fire, score_deals
from server.arenas.seats import ArenaSeats, Seat
from server.arenas.standings import ArenaStandings
from server.arenas.state import ArenaState
from server.arenas.table import Line
from server.config import Config
from server.games.live import LiveGame
from server.storage.engine import create_sync_engine
from server.storage.queries import arena_review as review_store
from server.storage.queries import arenas as store
from server.storage.queries.games import GameWrite
from shared import protocol as p
from shared.states import ENDED, TIMEOUT, WON

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
        seats: ArenaSeats,
        review: ReviewService,
        db_sessions: async_sessionmaker[AsyncSession],
        config: Config,
        clock: Callable[[], int],
    ) -> None:
        self.catalogue = catalogue
        self.deals = deals
        self.standings = standings
        #: each player's latest deal as this node knows it (no read of a deal it just dealt)
        self.seats = seats
        self.review = review
        self.db_sessions = db_sessions
        self.config = config
        self.clock = clock
        #: scores are written in a thread on a synchronous connection (see _record)
        self._sync_engine: Engine | None = None
        #: deals this node scored (a metric)
        self.scored = 0
        #: deals whose result rides in the write of the action that ended them (with_result)
        self._recording: dict[str, Recording] = {}

    def stop(self) -> None:
        if self._sync_engine is not None:
            self._sync_engine.dispose()
            self._sync_engine = None

    def with_result(self, live: LiveGame, write: GameWrite) -> None:
        """A write hook: the action that ends an arena deal stores the deal's result and its
        player's totals in its own transaction (one write at a deal's end, with the moves
        of other games in the group commit), when this node holds the deal (its seat), its
        arena and its par. A win is left to :meth:`settle` once the action is stored:
        review reads the stored actions before a win is scored."""
        if live.kind != p.ARENA or live.state not in ENDED:
            return
        seat = self.seats.of_game(live.id)
        arena = self.catalogue.arenas.get(seat.arena) if seat is not None else None
        if seat is None or seat.state is not None or arena is None:
            return
        deal = self.deals.deals.get(seat.arena, {}).get(seat.seq)
        if deal is None:
            return
        ending = self._ending(live, arena, deal.par_ms)
        if ending.won(seat.allowance_ms):
            return
        recording = Recording()
        score = _scorer(seat, ending, False, recording)

        def record(conn: Connection) -> None:
            recording.totals = store.record_sync(
                conn, game_id=seat.game_id, code=seat.arena, player_id=seat.player_id, score=score
            )

        write.then.append(record)
        self._recording[live.id] = recording

    async def settle(self, live: LiveGame, *, just_stored: bool = False) -> None:
        """Score an ended arena deal once, with its player's totals, in one transaction.

        ``just_stored``: the action that ended it was stored a moment ago (the arenas'
        game listener), so what :meth:`with_result` put in its write was committed: its
        totals go to the standings, and nothing more is written."""
        recording = self._recording.pop(live.id, None)
        seat = self.seats.of_game(live.id)
        if seat is None:  # not dealt here (another node, or before a restart): as stored
            async with self.db_sessions() as db:
                row = await store.game(db, game_id=live.id)
            if row is None:
                return
            seat = Seat.of(row)
            self.seats.note(seat)
        if recording is not None and just_stored:
            seat.state = recording.state
            if recording.totals is not None:
                await self._show(seat, recording.totals)
            return
        if seat.state is not None:
            return
        arena = await self.catalogue.arena(seat.arena)
        deal = await self.deals.deal(arena, seat.seq)
        ending = self._ending(live, arena, deal.par_ms)
        held = ending.won(seat.allowance_ms) and await self.review.check(
            live, f"arena {arena.code} deal {seat.seq + 1}"
        )
        recording = Recording()
        for attempt in range(TRIES):
            try:
                await self._record(seat, ending, held, recording)
                break
            except DBAPIError:
                if attempt == TRIES - 1:
                    raise
                await asyncio.sleep(0.05 * (attempt + 1))
        seat.state = recording.state
        if recording.totals is not None:
            await self._show(seat, recording.totals)

    def _ending(self, live: LiveGame, arena: ArenaState, par_ms: int) -> Ending:
        ended = live.ended_ms if live.ended_ms is not None else self.clock()
        return Ending(live.state, live.elapsed_ms(ended), ended <= arena.ends_ms, par_ms)

    async def _show(self, seat: Seat, totals: store.Totals) -> None:
        """A deal scored here: the player's new line in the standings."""
        self.scored += 1
        table = await self.standings.table(seat.arena)
        old = table.lines.get(seat.player_id)
        name = old.name if old is not None else await self._name(seat.player_id)
        points, played, wins, fire = totals.points, totals.played, totals.wins, totals.fire
        await self.standings.put(seat.arena, Line(seat.player_id, name, points, played, wins, fire))

    async def _record(self, seat: Seat, ending: Ending, held: bool, into: Recording) -> None:
        """Write the deal's result and the player's totals in one transaction, in a thread on a
        synchronous connection (see :func:`~server.storage.queries.arenas.record_sync`)."""
        score = _scorer(seat, ending, held, into)

        def work() -> None:
            with self._sync().begin() as conn:
                into.totals = store.record_sync(
                    conn, game_id=seat.game_id, code=seat.arena, player_id=seat.player_id,
                    score=score,
                )  # fmt: skip

        await asyncio.to_thread(work)

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


@dataclass(frozen=True, slots=True)
class Ending:
    """How an arena deal ended, as its game tells: its state, its time, whether it ended
    before the arena did, and the deal's par time."""

    state: str
    time_ms: int
    in_arena: bool
    par_ms: int

    def won(self, allowance_ms: int) -> bool:
        """Won within the deal's allowance and the arena's time (a win out of time is a
        timeout)."""
        return self.state == WON and self.in_arena and self.time_ms <= allowance_ms


@dataclass(slots=True)
class Recording:
    """What scoring a deal wrote: the player's totals (None: nothing written, the deal was
    scored already or its row is gone) and the deal's state as scored or found."""

    totals: store.Totals | None = None
    state: str | None = None


def _scorer(seat: Seat, ending: Ending, held: bool, into: Recording) -> store.ScoreOf:
    """The scoring of :func:`~server.storage.queries.arenas.record_sync` for this deal.

    The deal's berserk and allowance are read from its row as locked, not from the seat (a
    berserk asked through another node changed them there)."""

    def score(rows: Sequence[Any]) -> tuple[store.Result, store.Totals] | None:
        mine = next((r for r in rows if r.game_id == seat.game_id), None)
        if mine is None or mine.state is not None:
            into.state = None if mine is None else mine.state
            return None  # scored meanwhile by another node
        before = [r for r in rows if r.state is not None and r.seq < mine.seq]
        later = [r for r in rows if r.state is not None and r.seq > mine.seq]
        played = [_played(r) for r in before]
        won = ending.won(mine.allowance_ms)
        state = TIMEOUT if ending.state == WON and not won else ending.state
        this = DealPlayed(won=won and not held, time_ms=ending.time_ms, par_ms=ending.par_ms,
                          berserk=mine.berserk)  # fmt: skip
        scored = score_deals([*played, this])[-1]
        result = store.Result(state, ending.time_ms, scored.points, scored.on_streak, held and won)
        everything = [*played, this, *(_played(r) for r in later)]
        totals = store.Totals(
            points=sum(r.points for r in before) + scored.points + sum(r.points for r in later),
            played=len(everything),
            wins=sum(1 for d in everything if d.won),
            fire=on_fire(everything),
        )
        into.state = state
        return result, totals

    return score


def _played(row: Any) -> DealPlayed:
    """A finished deal as the scoring reads it (its stored points are what counted)."""
    won = row.state == WON and not row.held
    return DealPlayed(won=won, time_ms=row.time_ms, par_ms=row.time_ms, berserk=row.berserk)
