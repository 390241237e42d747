"""The rooms this node runs: their views, their saves, and what their members and watchers are sent.

The room service, the race runner, presence and the owners all work on the
same rooms; this table is what they share, so that none of them needs the
others to show a room or to save it. Pushes go to this node's connections
and, through the cluster, to every other node's.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.cluster import news
from server.errors import Busy
from server.races.state import Member, RoomState
from server.races.watchers import Watchers
from server.storage.queries import rooms as store
from shared import protocol as p

if TYPE_CHECKING:
    from server.cluster.node import Cluster
    from server.net.connection import Connection

log = logging.getLogger(__name__)

#: told, after a room's rows were stored, which players they showed connected
Saved = Callable[[Iterable[tuple[int, bool]]], None]


class RoomTable:
    def __init__(
        self,
        db_sessions: async_sessionmaker[AsyncSession],
        clock: Callable[[], int],
        cluster: Cluster,
        players: Mapping[int, set[Connection]],
        watchers: Watchers,
    ) -> None:
        self.db_sessions = db_sessions
        self.clock = clock
        self.cluster = cluster
        #: this node's welcomed connections by player id
        self.players = players
        self.watchers = watchers
        #: the rooms this node owns (all of them, on a node alone)
        self.rooms: dict[str, RoomState] = {}
        #: after each save (presence writes again the rows whose players came or went)
        self.saved: list[Saved] = []

    async def _fenced_out(self, room: RoomState) -> None:
        """The database refused a save: another node took the room (a later fencing token) while
        this one stalled past its lease, or it is gone. Nothing of this node's was stored; it
        lets the room go and the request fails."""
        log.warning(
            "room %s: save refused, another node holds the room now (fence %d); let go",
            room.code,
            room.fence,
        )
        await self.cluster.lease_lost(room.code)
        raise Busy(f"room {room.code} is run by another server now; try again")

    def codes(self) -> list[str]:
        return list(self.rooms)

    def view(self, room: RoomState) -> p.RoomView:
        """RoomView of docs/protocol.md, with who is connected now (to any node)."""
        return room.view(self.cluster.online)

    def push(
        self,
        room: RoomState,
        message: p.Reply,
        *,
        to: Iterable[int] | None = None,
        skip: int | None = None,
    ) -> None:
        targets = [m.id for m in room.members] if to is None else list(to)
        data = p.encode(message)
        for pid in targets:
            if pid == skip:
                continue
            for connection in list(self.players.get(pid, ())):
                connection.send_encoded(data)
        self.cluster.fan_out(data, to=targets, skip=skip)

    def push_board(self, code: str, player: int, message: p.Reply) -> None:
        """A racer's board to whoever watches it, on this node and the others."""
        data = p.encode(message)
        for connection in list(self.watchers.of(code, player)):
            connection.send_encoded(data)
        self.cluster.fan_out(data, board=(code, player))

    def board_pushed(self, pushed: news.BoardPushed) -> None:
        """A board the room's owner (another node) pushed: to its watchers here."""
        for connection in list(self.watchers.of(pushed.code, pushed.player)):
            connection.send_encoded(pushed.data)

    def drop_watches(
        self, code: str, players: list[int] | None = None, targets: list[int] | None = None
    ) -> None:
        """Watches ended in room ``code``, on every node (see :meth:`Watchers.drop`)."""
        self.watchers.drop(code, players, targets)
        told = news.Unwatched(
            code,
            None if players is None else tuple(players),
            None if targets is None else tuple(targets),
        )
        self.cluster.tell(told)

    def unwatched(self, told: news.Unwatched) -> None:
        """Watches another node ended."""
        players = None if told.players is None else list(told.players)
        targets = None if told.targets is None else list(told.targets)
        self.watchers.drop(told.code, players, targets)

    def push_room(self, room: RoomState, *, skip: int | None = None) -> None:
        self.push(room, p.RoomReply(room=self.view(room)), skip=skip)

    def rooms_of(self, player_id: int) -> list[RoomState]:
        """The rooms of this node that ``player_id`` is a member of."""
        return [room for room in self.rooms.values() if room.member(player_id) is not None]

    async def all_rooms_of(self, player_id: int) -> list[RoomState]:
        """Every room ``player_id`` is a member of, on whichever node (as stored, elsewhere)."""
        if not self.cluster.enabled:
            return self.rooms_of(player_id)
        async with self.db_sessions() as db:
            loaded = await store.of_player(db, player_id=player_id)
        return [
            self.rooms.get(row.code)
            or RoomState.from_row(row, [Member(*member) for member in members])
            for row, members in loaded
        ]

    async def save(self, room: RoomState) -> None:
        """Store the room's whole state, one save at a time."""
        async with room.lock:
            online = self.players
            members = [(m.id, m.joined_ms, m.seq, m.role, m.id in online) for m in room.members]
            room.touched_ms = self.clock()
            async with self.db_sessions() as db, db.begin():
                saved = await store.save(
                    db, room=room.row(room.touched_ms), members=members, new=not room.stored
                )
            if not saved:
                await self._fenced_out(room)
            room.stored = True
            # A player who came or went while this was stored: their rows are written again.
            written = [(pid, connected) for pid, _, _, _, connected in members]
            for hook in self.saved:
                hook(written)
