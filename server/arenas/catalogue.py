"""The arenas a node knows: read from the database, created (by an operator's command, by the
schedule of the settings, or by a player), listed and cancelled.

Every node reads the arenas changed since its last look each tick, so an arena
created or cancelled anywhere (the admin command included) is known everywhere
within ``arena_tick_ms``. A scheduled occurrence has a code of its own
(:meth:`~server.arenas.schedule.Entry.code`): the node that stores it first
makes it, the others read it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.arenas.schedule import Entry, due, parse
from server.arenas.state import KEEP_MS, ArenaState, new_code
from server.config import Config
from server.deals.pool import options_text
from server.errors import NotFound
from server.games.fields import check_variant, checked_options
from server.storage.models import Arena
from server.storage.queries import arenas as store
from shared import protocol as p

if TYPE_CHECKING:
    from server.games.store import GameStore

log = logging.getLogger(__name__)


class ArenaCatalogue:
    """Every arena this node knows, by code, as stored."""

    def __init__(
        self,
        store: GameStore,
        db_sessions: async_sessionmaker[AsyncSession],
        config: Config,
        clock: Callable[[], int],
    ) -> None:
        self.store = store
        self.db_sessions = db_sessions
        self.config = config
        self.clock = clock
        self.schedule: tuple[Entry, ...] = parse(config.arena_schedule, store.variants.ids)
        self.arenas: dict[str, ArenaState] = {}
        self._seen_ms = 0
        #: arenas this node created (a metric)
        self.created = 0

    async def poll(self) -> None:
        """Read the arenas changed since the last look (a little before it: clocks differ)."""
        now = self.clock()
        since = self._seen_ms - 10_000
        async with self.db_sessions() as db:
            rows = await store.changed(db, since_ms=since, ends_after_ms=now - KEEP_MS)
        for row in rows:
            self.arenas[row.code] = ArenaState.of(row)
            self._seen_ms = max(self._seen_ms, row.updated_ms)

    def forget(self, code: str) -> None:
        self.arenas.pop(code, None)

    async def arena(self, code: str) -> ArenaState:
        """The arena of ``code``, from memory or as stored; ``not_found`` otherwise."""
        known = self.arenas.get(code)
        if known is not None:
            return known
        async with self.db_sessions() as db:
            row = await store.arena(db, code=code)
        if row is None:
            raise NotFound(f"no arena {code!r}")
        arena = self.arenas[code] = ArenaState.of(row)
        return arena

    # -- creating --------------------------------------------------------------------------

    async def create(
        self,
        *,
        variant: str,
        minutes: int,
        starts_ms: int,
        name: str,
        host_id: int | None,
        private: bool,
        code: str | None = None,
        schedule: str | None = None,
    ) -> ArenaState | None:
        """Store a new arena; None when ``code`` (a scheduled occurrence's) is stored already."""
        check_variant(self.store.variants, variant)
        options = checked_options(self.store.variants, variant, {})
        now = self.clock()
        for _ in range(5):
            row = Arena(
                code=code or new_code(),
                name=name,
                variant=variant,
                options=options_text(options),
                starts_ms=starts_ms,
                ends_ms=starts_ms + minutes * 60_000,
                host_id=host_id,
                private=private,
                schedule=schedule,
                cancelled_ms=None,
                created_ms=now,
                updated_ms=now,
            )
            try:
                async with self.db_sessions() as db, db.begin():
                    db.add(row)
            except IntegrityError:
                if code is not None:
                    return None
                continue  # a random code taken: another
            arena = self.arenas[row.code] = ArenaState.of(row)
            self.created += 1
            log.info(
                "arena %s created: %s, %s, %d minutes%s",
                row.code,
                name,
                variant,
                minutes,
                " (private)" if private else "",
            )
            return arena
        raise NotFound("no free arena code was found; try again")  # pragma: no cover

    async def create_scheduled(self) -> None:
        """Store the schedule's occurrences starting within ``arena_ahead_h``."""
        ahead = self.config.arena_ahead_h * 3_600_000
        for entry, starts in due(self.schedule, self.clock(), ahead):
            code = entry.code(starts)
            if code in self.arenas:
                continue
            await self.create(
                variant=entry.variant,
                minutes=entry.minutes,
                starts_ms=starts,
                name=entry.name,
                host_id=None,
                private=False,
                code=code,
                schedule=entry.text,
            )
            if code not in self.arenas:  # another node made it: read it
                async with self.db_sessions() as db:
                    row = await store.arena(db, code=code)
                if row is not None:
                    self.arenas[code] = ArenaState.of(row)

    async def cancel(self, code: str) -> None:
        """Cancel an arena (the operators'): it ends now, what was scored stays."""
        arena = await self.arena(code)
        now = self.clock()
        async with self.db_sessions() as db, db.begin():
            row = await store.arena(db, code=code)
            assert row is not None
            row.cancelled_ms = now
            row.updated_ms = now
        arena.cancelled_ms = now

    # -- listing ---------------------------------------------------------------------------

    async def listed(self, player: int, message: p.ArenasRequest) -> p.ArenasReply:
        """Every public arena not over for a day, and the private ones the player is in."""
        now = self.clock()
        shown = [a for a in self.arenas.values() if a.ends_ms + KEEP_MS > now]
        codes = [a.code for a in shown]
        async with self.db_sessions() as db:
            joined = await store.joined_by(db, player_id=player, codes=codes)
            counts = await store.counts(db, codes=codes)
            hosts = await store.names(db, ids=[a.host_id for a in shown if a.host_id])
        visible = [a for a in shown if not a.private or a.host_id == player or a.code in joined]
        visible.sort(key=lambda a: (a.over(now), a.starts_ms, a.code))
        return p.ArenasReply(
            arenas=tuple(
                a.info(
                    self.clock(),
                    counts.get(a.code, 0),
                    a.code in joined,
                    None if a.host_id is None else hosts.get(a.host_id),
                )
                for a in visible
            ),
            re=message.id,
        )
