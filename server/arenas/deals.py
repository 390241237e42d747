"""The arena's sequence of keyed deals: each drawn once, on whichever node reaches it first.

A deal is drawn from the pool of won deals (server/deals/pool.py) the first
time a player reaches it, stored with its commitment (shown from then on,
before anyone plays it) and its par time (:mod:`server.arenas.par`); its key
stays secret until the arena is over. ``arena_deals`` is unique by arena and
seq, so two nodes drawing at once keep the one stored first.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.arenas import par
from server.arenas.state import ArenaState, DealRow
from server.config import Config
from server.deals.pool import options_text
from server.storage.models import ArenaDeal
from server.storage.queries import arenas as store
from server.storage.queries import pool as pooled
from shared import protocol as p
from shared.deals import commitment

if TYPE_CHECKING:
    from server.deals.pool import DealPool


class ArenaDeals:
    """Each arena's deals as stored, drawn when first needed, cached on this node."""

    def __init__(
        self,
        pool: DealPool,
        db_sessions: async_sessionmaker[AsyncSession],
        config: Config,
        clock: Callable[[], int],
    ) -> None:
        self.pool = pool
        self.db_sessions = db_sessions
        self.config = config
        self.clock = clock
        self.deals: dict[str, dict[int, DealRow]] = {}
        self._drawing: dict[tuple[str, int], asyncio.Future[DealRow]] = {}

    def forget(self, code: str) -> None:
        self.deals.pop(code, None)

    async def deal(self, arena: ArenaState, seq: int) -> DealRow:
        """Deal ``seq`` of the arena's sequence: stored, or drawn now (once, on every node)."""
        cache = self.deals.setdefault(arena.code, {})
        known = cache.get(seq)
        if known is not None:
            return known
        key = (arena.code, seq)
        drawing = self._drawing.get(key)
        if drawing is None:
            drawing = asyncio.ensure_future(self._fetch(arena, seq))
            self._drawing[key] = drawing
            drawing.add_done_callback(lambda _: self._drawing.pop(key, None))
            drawing.add_done_callback(lambda f: f.cancelled() or f.exception())
        found = await asyncio.shield(drawing)
        cache[seq] = found
        return found

    async def _fetch(self, arena: ArenaState, seq: int) -> DealRow:
        async with self.db_sessions() as db:
            row = await store.deal(db, code=arena.code, seq=seq)
        if row is None:
            key, line = await self._draw(arena)
            row = ArenaDeal(
                arena=arena.code,
                seq=seq,
                deal_key=key.hex(),
                commitment=commitment(arena.variant, key),
                par_ms=par.par_ms(line),
                line=-1 if line is None else line,
            )
            try:
                async with self.db_sessions() as db, db.begin():
                    db.add(row)
            except IntegrityError:  # another node drew it first: theirs is the deal
                async with self.db_sessions() as db:
                    row = await store.deal(db, code=arena.code, seq=seq)
                assert row is not None
        return DealRow(row.seq, bytes.fromhex(row.deal_key), row.commitment, row.par_ms)

    async def _draw(self, arena: ArenaState) -> tuple[bytes, int | None]:
        """A won deal from the pool with the moves of its solver's line, or (the pool empty) one
        solved now, whose line is not known."""
        difficulty = self.config.arena_difficulty
        async with self.db_sessions() as db:
            rows = await pooled.take_many(
                db,
                variant=arena.variant,
                options=options_text(arena.options),
                difficulty=difficulty,
                count=1,
            )
        if rows:
            key, _positions, line = rows[0]
            return bytes.fromhex(key), line
        return await self.pool.draw(arena.variant, arena.options, difficulty), None

    async def views(self, arena: ArenaState) -> tuple[p.ArenaDeal, ...]:
        """The arena's deals drawn so far: their commitments, and their keys once it is over."""
        async with self.db_sessions() as db:
            rows = await store.deals(db, code=arena.code)
        reveal = arena.over(self.clock())
        return tuple(
            p.ArenaDeal(row.seq, row.commitment, row.par_ms, row.deal_key if reveal else None)
            for row in rows
        )
