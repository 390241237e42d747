"""Race rooms over the wire: create, join, leave, start, watch. The rules are the room service's,
which runs each request on the node that owns the room."""

from __future__ import annotations

from typing import TYPE_CHECKING

from server.net.routing import handles
from shared import protocol as p

if TYPE_CHECKING:
    from server.net.connection import Connection


@handles(p.CreateRoom)
async def create_room(connection: Connection, message: p.CreateRoom) -> p.Reply:
    service = connection.app.rooms
    room = await service.create(connection.welcomed_player, message)
    return p.RoomReply(room=service.view(room), re=message.id)


@handles(p.JoinRoom)
async def join_room(connection: Connection, message: p.JoinRoom) -> p.Reply:
    service = connection.app.rooms
    view = await service.owners.join(connection.welcomed_player, message.code, message.role)
    return p.RoomReply(room=view, re=message.id)


@handles(p.LeaveRoom)
async def leave_room(connection: Connection, message: p.LeaveRoom) -> p.Reply:
    await connection.app.rooms.owners.leave(connection.welcomed_player.id, message.code)
    return p.Ok(re=message.id)


@handles(p.StartRace)
async def start_race(connection: Connection, message: p.StartRace) -> p.Reply:
    player = connection.welcomed_player
    await connection.app.rooms.owners.start(player.id, message.code, message.seed)
    return p.Ok(re=message.id)


@handles(p.Watch)
async def watch(connection: Connection, message: p.Watch) -> p.Reply:
    player = connection.welcomed_player
    owners = connection.app.rooms.owners
    live = await owners.watch(connection, player.id, message.code, message.player)
    view = connection.app.games.view(live)
    return p.GameReply(game=view, code=message.code, player=message.player, re=message.id)


ROUTES = (create_room, join_room, leave_room, start_race, watch)
