"""Race rooms over the wire: create, join, leave, start, watch. The rules are server/rooms.py's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from server.net.routing import handles
from server.services import rooms
from shared import protocol as p
from shared import protocol_races as r

if TYPE_CHECKING:
    from server.net.connection import PlayerInfo, Session


def _player(session: Session) -> PlayerInfo:
    assert session.player is not None  # the dispatcher lets only welcomed sessions here
    return session.player


@handles(r.CreateRoom)
async def create_room(session: Session, message: r.CreateRoom) -> p.Reply:
    service = rooms(session.app)
    player = _player(session)
    room = await service.create(player.id, player.name, message)
    return r.RoomMessage(fields={"room": service.view(room)}, re=message.id)


@handles(r.JoinRoom)
async def join_room(session: Session, message: r.JoinRoom) -> p.Reply:
    service = rooms(session.app)
    player = _player(session)
    room = await service.join(player.id, player.name, message.code)
    return r.RoomMessage(fields={"room": service.view(room)}, re=message.id)


@handles(r.LeaveRoom)
async def leave_room(session: Session, message: r.LeaveRoom) -> p.Reply:
    await rooms(session.app).leave(_player(session).id, message.code)
    return p.Ok(re=message.id)


@handles(r.StartRace)
async def start_race(session: Session, message: r.StartRace) -> p.Reply:
    await rooms(session.app).start_race(_player(session).id, message.code, message.seed)
    return p.Ok(re=message.id)


@handles(r.Watch)
async def watch(session: Session, message: r.Watch) -> p.Reply:
    service = rooms(session.app)
    live = await service.watch(session, _player(session).id, message.code, message.player)
    view = session.app.games.view(live)
    return p.GameMessage(
        game=view, extra={"code": message.code, "player": message.player}, re=message.id
    )
