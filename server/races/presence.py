"""Who of the rooms' members is connected, and what it means for their rooms.

Every change of connection shows in the rooms (a player's first connection
opening, their last closing). A racer whose every connection has been
closed for ``race_abandon_s`` during a race is resigned, so that a race
never waits for someone who has gone; a player who has not come back since
this server started counts as gone since then. A renamed player shows the
new name (a banned one leaves their rooms: :meth:`RoomService.banned`).
Who is connected is also written to the members' rows (for the operators'
``admin rooms``), by one task at a time that writes what holds when it
writes, so that the rows end as the connections are.

With several nodes, "connected" means connected to any node: each node
announces its players' first connection and last close
(:mod:`server.cluster.roster`), and the owner of a room hears of them
through :meth:`Presence.remote_changed` (a
:class:`~server.cluster.news.PresenceChanged` event); the owner writes the rows of its
rooms' members.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.cluster.news import PresenceChanged
from server.config import Config
from server.races.race import RaceRunner
from server.races.rooms import RoomTable
from server.races.state import RoomState
from server.storage.queries import rooms as store
from shared.states import ENDED

if TYPE_CHECKING:
    from server.cluster.node import Cluster
    from server.games.service import GameService
    from server.net.connection import Connection

log = logging.getLogger(__name__)


class Presence:
    def __init__(
        self,
        table: RoomTable,
        race: RaceRunner,
        games: GameService,
        cluster: Cluster,
        players: Mapping[int, set[Connection]],
        db_sessions: async_sessionmaker[AsyncSession],
        config: Config,
        clock: Callable[[], int],
    ) -> None:
        self.table = table
        self.race = race
        self.games = games
        self.cluster = cluster
        #: this node's welcomed connections by player id
        self.players = players
        self.db_sessions = db_sessions
        self.config = config
        self.clock = clock
        #: members whose last connection closed: player id -> when
        self.gone: dict[int, int] = {}
        #: when this server started: members not seen since count as gone from then
        self.since_ms = 0
        #: players whose members' rows must show whether they are connected now
        self._unwritten: set[int] = set()
        self._writing: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.since_ms = self.clock()

    def changed(self, player_id: int) -> None:
        """A player connected or left: the rooms they are in show it."""
        rooms = self.table.rooms_of(player_id)
        for room in rooms:
            self.table.push_room(room)
        if rooms:
            self._write(player_id)

    def recheck(self, written: Iterable[tuple[int, bool]]) -> None:
        """Rows just stored with these players connected or not: write again the ones that
        changed meanwhile."""
        for player_id, connected in written:
            if (player_id in self.cluster.online) != connected:
                self._write(player_id)

    def _write(self, player_id: int) -> None:
        self._unwritten.add(player_id)
        if self._writing is None or self._writing.done():
            self._writing = asyncio.create_task(self._write_all(), name="presence-rows")

    async def _write_all(self) -> None:
        while self._unwritten:
            players, self._unwritten = self._unwritten, set()
            online = {pid for pid in players if pid in self.cluster.online}
            try:
                async with self.db_sessions() as db, db.begin():
                    await store.set_connected(db, players=online, connected=True)
                    await store.set_connected(db, players=players - online, connected=False)
            except Exception:
                log.exception("storing who is connected failed")
                return
            self.recheck((pid, pid in online) for pid in players)

    async def stop(self) -> None:
        """Wait for the rows of the last comings and goings."""
        if self._writing is not None:
            await self._writing

    def connection_welcomed(self, connection: Connection) -> None:
        """A player's first connection: the rooms they are in show them connected."""
        player = connection.welcomed_player
        if len(self.players.get(player.id, ())) == 1:
            self.cluster.first_here(player.id)
            self.gone.pop(player.id, None)
            self.changed(player.id)

    def connection_closed(self, connection: Connection) -> None:
        """A connection ended: it watches nothing; at a player's last, their rooms show it."""
        self.table.watchers.drop_connection(connection)
        player = connection.player
        if player is not None and player.id not in self.players:
            self.cluster.last_here(player.id)
            if player.id in self.cluster.online:
                return  # still connected to another node
            if self.table.rooms_of(player.id):
                self.gone[player.id] = self.clock()
            self.changed(player.id)

    def remote_changed(self, changed: PresenceChanged) -> None:
        """A player came to their first node or left their last one (told by another node)."""
        player_id = changed.player
        if changed.online:
            self.gone.pop(player_id, None)
        elif self.table.rooms_of(player_id):
            self.gone[player_id] = self.clock()
        self.changed(player_id)

    async def resign_gone(self, room: RoomState) -> None:
        """Resign the racers of ``room``'s race gone for ``race_abandon_s`` or more."""
        now = self.clock()
        patience_ms = self.config.race_abandon_s * 1000
        for player_id, game_id in list(room.racers.items()):
            if player_id in self.cluster.online:
                continue
            if now - self.gone.get(player_id, self.since_ms) < patience_ms:
                continue
            if (await self.race.states([game_id])).get(game_id) in ENDED:
                continue
            live = await self.race.game(game_id)
            if live.state in ENDED:
                continue
            log.info("room %s: player %d gone, resigned from the race", room.code, player_id)
            await self.games.resign_now(live)

    def forget_gone(self) -> None:
        """Players in no room any more need no time of leaving (the idle sweep asks)."""
        for player_id in list(self.gone):
            if not self.table.rooms_of(player_id):
                del self.gone[player_id]

    def renamed(self, player_id: int, name: str) -> None:
        for room in self.table.rooms_of(player_id):
            member = room.member(player_id)
            if member is not None and member.name != name:
                member.name = name
                self.table.push_room(room)
