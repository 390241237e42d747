"""Race rooms over the wire: create, join, leave, start, watch. The rules are server/rooms.py's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from server.handlers import handles
from server.services import rooms
from shared import protocol as p

if TYPE_CHECKING:
    from server.session import PlayerInfo, Session


def _player(session: Session) -> PlayerInfo:
    assert session.player is not None  # the dispatcher lets only welcomed sessions here
    return session.player


@handles(p.CreateRoom)
async def create_room(session: Session, message: p.CreateRoom) -> p.Reply:
    service = rooms(session.app)
    player = _player(session)
    room = await service.create(player.id, player.name, message)
    return p.RoomReply(room=service.view(room), re=message.id)


@handles(p.JoinRoom)
async def join_room(session: Session, message: p.JoinRoom) -> p.Reply:
    service = rooms(session.app)
    player = _player(session)
    room = await service.join(player.id, player.name, message.code)
    return p.RoomReply(room=service.view(room), re=message.id)


@handles(p.LeaveRoom)
async def leave_room(session: Session, message: p.LeaveRoom) -> p.Reply:
    await rooms(session.app).leave(_player(session).id, message.code)
    return p.Ok(re=message.id)


@handles(p.StartRace)
async def start_race(session: Session, message: p.StartRace) -> p.Reply:
    await rooms(session.app).start_race(_player(session).id, message.code, message.seed)
    return p.Ok(re=message.id)


@handles(p.Watch)
async def watch(session: Session, message: p.Watch) -> p.Reply:
    service = rooms(session.app)
    live = await service.watch(session, _player(session).id, message.code, message.player)
    view = p.GameView.of(session.app.games.view(live))
    return p.GameReply(game=view, code=message.code, player=message.player, re=message.id)
