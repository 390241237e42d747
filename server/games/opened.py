"""Which connection has which game open: an unranked game's clock pauses when nobody has.

A connection has at most one game open: the last game it started, fetched or
acted on (``start_game``, ``get_game``, ``move``, ``undo``, ``resign``,
``hint``, ``daily``). It leaves it when it opens another, sends
``leave_game``, or closes. When the last connection of the player leaves an
unranked game (solo, practice), its clock runs on for ``idle_pause_s`` (a
reload, a dropped connection coming back, cost nothing) and then stops
(:meth:`LiveGame.left`); the next connection that opens it starts it again
from where it stopped (:meth:`LiveGame.opened`). Ranked clocks never pause.

Knowing only what each connection last asked for is the server's whole
view: a board left open in a tab nobody looks at keeps its clock running, and
a player connected to two nodes keeps each node's count. The stop is stored
with the game (``stopped_ms``), so that the games list and a restarted
server read the clock as it stood; a game loaded with a running clock and no
connection (a server stopped hard) stops ``idle_pause_s`` after its last
stored action.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.games.live import LiveGame
from server.games.store import GameStore
from server.net.connection import Connection
from server.storage.queries import games as store

log = logging.getLogger(__name__)


class OpenGames:
    """The game each connection has open (by connection number), and who has each open."""

    def __init__(
        self,
        games: GameStore,
        db_sessions: async_sessionmaker[AsyncSession],
        clock: Callable[[], int],
        grace_s: int,
    ) -> None:
        self.games = games
        self.db_sessions = db_sessions
        self.clock = clock
        self.grace_ms = grace_s * 1000
        self._of_connection: dict[int, str] = {}
        self._openers: dict[str, set[int]] = {}
        #: games whose clock stopped and is not stored yet (stored together, by one task)
        self._due: dict[str, LiveGame] = {}
        self._saver: asyncio.Task[None] | None = None

    def open(self, connection: int, live: LiveGame) -> None:
        """``connection`` asked for ``live``: it has it open (and no other game)."""
        before = self._of_connection.get(connection)
        if before != live.id:
            if before is not None:
                self._leave(connection, before)
            self._of_connection[connection] = live.id
            self._openers.setdefault(live.id, set()).add(connection)
        live.opened(self.clock())  # each time: a copy reloaded meanwhile comes stopped

    def leave(self, connection: int, game_id: str) -> None:
        """``leave_game``: the connection no longer shows the game (a game it has not open:
        nothing changes)."""
        if self._of_connection.get(connection) == game_id:
            del self._of_connection[connection]
            self._leave(connection, game_id)

    def closed(self, connection: Connection) -> None:
        """The connection ended: it leaves its game."""
        game_id = self._of_connection.pop(connection.number, None)
        if game_id is not None:
            self._leave(connection.number, game_id)

    def openers(self, game_id: str) -> int:
        """How many connections have the game open."""
        return len(self._openers.get(game_id, ()))

    def _leave(self, connection: int, game_id: str) -> None:
        openers = self._openers.get(game_id)
        if openers is None:
            return
        openers.discard(connection)
        if openers:
            return
        del self._openers[game_id]
        live = self.games.in_memory(game_id)
        if live is not None and live.left(self.clock(), self.grace_ms):
            self._due[game_id] = live
            if self._saver is None or self._saver.done():
                self._saver = asyncio.create_task(self._save_due(), name="clocks")

    async def _save_due(self) -> None:
        """Store the stopped clocks as they are now (the games list reads them; a restart
        keeps them): those due meanwhile in one transaction, on one database connection.

        Many connections close at once (a network cut, a node's clients all
        leaving): a task and a session each would ask the pool for as many
        connections at once, and each one past the pool's size is opened for
        that one update and closed after it (on SQLite a new thread, and the
        schema parsed again: what made the whole server's instructions per move
        grow with its clients, docs/operating.md).
        """
        while self._due:
            lives = list(self._due.values())
            self._due.clear()
            try:
                async with self.db_sessions() as db, db.begin():
                    for live in lives:
                        await store.save_clock(
                            db,
                            game_id=live.id,
                            ply=live.game.ply,
                            paused_ms=live.paused_ms,
                            stopped_ms=live.stopped_ms,
                        )
            except Exception:
                log.exception("the clocks of %d games could not be stored", len(lives))

    async def drain(self) -> None:
        """Wait for the clocks being stored (shutdown)."""
        while self._saver is not None and not self._saver.done():
            await asyncio.gather(self._saver, return_exceptions=True)
