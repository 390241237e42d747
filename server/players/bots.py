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
from collections.abc import Collection
from typing import TYPE_CHECKING

from server.storage.models import Room
from server.storage.queries import bots as store
from server.storage.queries import rooms as room_store

if TYPE_CHECKING:
    from server.app import App

log = logging.getLogger(__name__)

CLOSE_POLICY = 1008


async def remove_bots(app: App, ids: Collection[int] | None = None) -> store.Removal:
    """Remove the bots (all, or those of ``ids``) and what only they own; what was removed."""
    async with app.db_sessions() as db:
        found = await store.count(db, ids)  # what they own now: leaving rooms changes it
        chosen = [pid for pid, _ in found.bots]
        games = await store.game_ids(db, chosen)
    rooms = app.rooms
    close_connections(app, chosen)
    app.cluster.tell("bots_removed", players=chosen, games=games)  # (their other nodes)
    for pid in chosen:
        for room in await rooms.all_rooms_of(pid):
            await rooms.owners.leave(pid, room.code)  # on the node running the room
        rooms.presence.gone.pop(pid, None)
    gone = set(chosen)
    async with app.db_sessions() as db:
        raced = [row.code for row, _ in await room_store.load_all(db) if gone & _racers(row)]
    for code in raced:
        await rooms.owners.forget_racers(code, sorted(gone))
    for game_id in games:
        app.games.forget(game_id)
    async with app.db_sessions() as db, db.begin():
        await store.remove(db, chosen)
    app.daily.ranks.clear()
    log.warning("removed %d bot accounts and %d of their games", len(chosen), found.games)
    return found


def close_connections(app: App, players: Collection[int]) -> None:
    """Close this node's connections of removed bots (every node does, when told)."""
    for pid in players:
        for connection in list(app.players.get(pid, ())):
            connection.revoke(CLOSE_POLICY, "this bot account was removed")


def _racers(row: Room) -> set[int]:
    return {int(pid) for pid in row.racers}
