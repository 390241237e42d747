"""Removing bot accounts from a running server (``patience-club admin remove-bots``).

The server first lets go of what it holds of them, as for a ban: their
connections are closed with 1008, they leave every room (a racer resigns,
a bot host hands on, a room with nobody else in it closes), their entries
in the rooms' last races are dropped and their games forgotten; then the
rows go (:func:`server.storage.queries.bots.remove`), in one transaction.
Nothing a person owns is touched.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.cluster.news import BotsRemoved
from server.storage.models import Room
from server.storage.queries import bots as store
from server.storage.queries import rooms as room_store

if TYPE_CHECKING:
    from server.cluster.node import Cluster
    from server.games.store import GameStore
    from server.net.connection import Connection
    from server.races.owners import Owners
    from server.races.presence import Presence
    from server.races.rooms import RoomTable

log = logging.getLogger(__name__)

CLOSE_POLICY = 1008


class BotRemoval:
    """Removes bot accounts from this server, and hears of those another node removed."""

    def __init__(
        self,
        db_sessions: async_sessionmaker[AsyncSession],
        players: Mapping[int, set[Connection]],
        table: RoomTable,
        owners: Owners,
        presence: Presence,
        game_store: GameStore,
        cluster: Cluster,
        ranks_changed: Callable[[], None],
    ) -> None:
        self.db_sessions = db_sessions
        #: this node's welcomed connections by player id
        self.players = players
        self.table = table
        self.owners = owners
        self.presence = presence
        self.game_store = game_store
        self.cluster = cluster
        #: the daily ranks are read again (the removed bots' entries leave them)
        self.ranks_changed = ranks_changed

    async def remove(self, ids: Collection[int] | None = None) -> store.Removal:
        """Remove the bots (all, or those of ``ids``) and what only they own; what was removed."""
        async with self.db_sessions() as db:
            found = await store.count(db, ids)  # what they own now: leaving rooms changes it
            chosen = [pid for pid, _ in found.bots]
            games = await store.game_ids(db, chosen)
        self.close_connections(chosen)
        self.cluster.tell(BotsRemoved(tuple(chosen), tuple(games)))  # (their other nodes)
        for pid in chosen:
            for room in await self.table.all_rooms_of(pid):
                await self.owners.leave(pid, room.code)  # on the node running the room
            self.presence.gone.pop(pid, None)
        gone = set(chosen)
        async with self.db_sessions() as db:
            raced = [row.code for row, _ in await room_store.load_all(db) if gone & _racers(row)]
        for code in raced:
            await self.owners.forget_racers(code, sorted(gone))
        for game_id in games:
            self.game_store.forget(game_id)
        async with self.db_sessions() as db, db.begin():
            await store.remove(db, chosen)
        self.ranks_changed()
        log.warning("removed %d bot accounts and %d of their games", len(chosen), found.games)
        return found

    def removed_elsewhere(self, told: BotsRemoved) -> None:
        """Another node removed bots: their connections here close, their games are forgotten."""
        self.close_connections(told.players)
        for game_id in told.games:
            self.game_store.forget(game_id)

    def close_connections(self, players: Collection[int]) -> None:
        """Close this node's connections of removed bots (every node does, when told)."""
        for pid in players:
            for connection in list(self.players.get(pid, ())):
                connection.revoke(CLOSE_POLICY, "this bot account was removed")


def _racers(row: Room) -> set[int]:
    return {int(pid) for pid in row.racers}
