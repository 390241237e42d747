"""Issue 5's services of one running :class:`App`: rooms and dailies, started and stopped with it.

They are kept beside the app, not in it, so that the app knows nothing of
races; handlers reach them through :func:`rooms` and :func:`dailies`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from server import events as hooks
from server.daily.service import DailyService
from server.races.service import RoomService

if TYPE_CHECKING:
    from server.app import App
    from server.net.connection import Session

_ROOMS: WeakKeyDictionary[App, RoomService] = WeakKeyDictionary()
_DAILIES: WeakKeyDictionary[App, DailyService] = WeakKeyDictionary()


def rooms(app: App) -> RoomService:
    return _ROOMS[app]


def dailies(app: App) -> DailyService:
    return _DAILIES[app]


async def _start(app: App) -> None:
    daily = _DAILIES[app] = DailyService(app)
    await daily.start()
    room_service = _ROOMS[app] = RoomService(app)
    room_service.seed_guards.append(lambda variant, _options, seed: daily.is_daily(variant, seed))
    await room_service.start()


async def _stop(app: App) -> None:
    room_service = _ROOMS.pop(app, None)
    if room_service is not None:
        await room_service.stop()
    daily = _DAILIES.pop(app, None)
    if daily is not None:
        await daily.stop()


def _welcomed(session: Session) -> None:
    room_service = _ROOMS.get(session.app)
    player = session.player
    if room_service is None or player is None:
        return
    if len(session.app.players.get(player.id, ())) == 1:  # their first connection
        room_service.connection_changed(player.id)


def _closed(session: Session) -> None:
    room_service = _ROOMS.get(session.app)
    if room_service is None:
        return
    room_service.session_closed(session)
    player = session.player
    if player is not None and player.id not in session.app.players:
        room_service.connection_changed(player.id)  # their last connection went away


hooks.register(hooks.ON_START, _start)
hooks.register(hooks.ON_STOP, _stop)
if _welcomed not in hooks.ON_WELCOME:
    hooks.ON_WELCOME.append(_welcomed)
if _closed not in hooks.ON_CLOSE:
    hooks.ON_CLOSE.append(_closed)
