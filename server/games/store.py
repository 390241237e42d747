"""The games of this node: found in memory, rebuilt from the database, reloaded when behind.

Games live in memory while in use (:class:`~server.games.cache.GameCache`)
and are rebuilt from their deal and actions when asked for after a restart
(the replay runs in a thread: it may run stuck searches). With several nodes
on one database (``shared``) a node's copy of a game may be behind what is
stored, another node having acted on it: :meth:`GameStore.current` compares
the copy with the stored ply and state and reloads it when they differ. What
may be done to a game, and its writes, are the game service's
(:mod:`server.games.service`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.errors import Forbidden, Internal, NotFound
from server.games.cache import GameCache
from server.games.live import LiveGame
from server.games.searches import StuckSearches
from server.storage.queries import games as store
from shared.errors import InvalidOptions, InvalidRecord
from shared.games import replay
from shared.notation import parse_action
from shared.states import PLAYING, RESIGNED, STUCK, WON
from shared.variants import Variants

log = logging.getLogger(__name__)


class GameStore:
    """Finds the games this node plays: in memory, or rebuilt as stored."""

    def __init__(
        self,
        db_sessions: async_sessionmaker[AsyncSession],
        searches: StuckSearches,
        variants: Variants,
        shared: bool = False,
        idle_pause_s: int = 30,
        *,
        cache_size: int = 10_000,
    ) -> None:
        self.db_sessions = db_sessions
        #: an unranked game loaded with a running clock stops this long after its last action
        self.idle_pause_ms = idle_pause_s * 1000
        #: where a rebuilt game's stuck searches run (the games share its prover)
        self.searches = searches
        #: the variants the server plays
        self.variants = variants
        #: other nodes act on this database's games too: copies in memory may be behind
        self.shared = shared
        self._games = GameCache(self._load, cache_size)

    async def get(self, game_id: str) -> LiveGame:
        """The game, from memory or rebuilt from the database; ``not_found`` otherwise."""
        found = await self._games.get(game_id)
        if found is None:
            raise NotFound(f"no game {game_id!r}")
        return found

    async def owned(self, player_id: int, game_id: str) -> LiveGame:
        live = await self.get(game_id)
        if live.owner != player_id:
            raise Forbidden(f"game {game_id!r} belongs to another player")
        return live

    def owned_in_memory(self, player_id: int, game_id: str) -> LiveGame | None:
        """:meth:`owned` of a game this node has in memory, without awaiting anything (every
        action of a game in play); None when it is not in memory (then :meth:`owned` loads
        it)."""
        live = self._games.used(game_id)
        if live is not None and live.owner != player_id:
            raise Forbidden(f"game {game_id!r} belongs to another player")
        return live

    def remember(self, live: LiveGame) -> None:
        """Keep a game just dealt (stored by the game service)."""
        self._games.remember(live)

    def in_memory(self, game_id: str) -> LiveGame | None:
        """The game if this node has it in memory (nothing loaded)."""
        return self._games.peek(game_id)

    def forget(self, game_id: str) -> None:
        """Drop this node's copy: the next read rebuilds the game as stored."""
        self._games.forget(game_id)

    def forget_all(self, game_ids: tuple[str, ...] | list[str]) -> None:
        for game_id in game_ids:
            self._games.forget(game_id)

    async def current(self, game_id: str) -> LiveGame:
        """The game as it stands: on a shared database, reloaded when the stored row shows
        that another node has acted on it since this node's copy."""
        live = await self.get(game_id)
        if not self.shared:
            return live
        with contextlib.suppress(Exception):
            await live.settled()
        async with self.db_sessions() as db:
            stored = await store.ply_and_state(db, game_id=game_id)
        if stored is not None and stored != (live.game.ply, live.state):
            return await self.fresh(game_id)
        return live

    async def fresh(self, game_id: str) -> LiveGame:
        """The game reloaded from the database, this node's copy dropped first."""
        cached = self._games.peek(game_id)
        if cached is not None:
            with contextlib.suppress(Exception):
                await cached.settled()  # what this node has in hand is stored first
            self._games.forget(game_id)
        return await self.get(game_id)

    async def _load(self, game_id: str) -> LiveGame | None:
        async with self.db_sessions() as db:
            loaded = await store.load(db, game_id=game_id)
        if loaded is None:
            return None
        row, actions = loaded
        record = store.replay_record(row, actions, resigned=row.state == RESIGNED)
        try:
            # Replaying may run stuck searches: in a thread, not on the event loop.
            game = await asyncio.to_thread(
                replay, record, variants=self.variants, prover=self.searches.prover
            )
        except (InvalidRecord, InvalidOptions) as exc:
            log.error("game %s does not replay: %s", game_id, exc)
            raise Internal(f"game {game_id!r} cannot be rebuilt") from exc
        await self.searches.settle(game)
        forced = row.state if row.state not in (PLAYING, WON, STUCK, RESIGNED) else None
        live = LiveGame(
            id=row.id,
            owner=row.player_id,
            game=game,
            started_ms=row.started_ms,
            kind=row.kind,
            key_open=row.key_open,
            reveal_ms=row.reveal_ms,
            ended_ms=row.ended_ms,
            forced_state=forced,
            hints=row.hints,
            last=parse_action(game.actions[-1]) if game.actions else None,
            paused_ms=row.paused_ms,
            stopped_ms=row.stopped_ms,
        )
        # Nobody on this node has it open yet: a clock left running (a server stopped hard)
        # stops after the grace from its last action, until a connection opens it.
        live.left(row.updated_ms, self.idle_pause_ms)
        return live
