"""Message type -> handler, and the one place where every refusal becomes an ``error`` reply.

A handler is ``async def handler(connection, message) -> Reply | Later | None``;
it returns the reply (with ``re=message.id``), a :class:`Later` (a reply
still being computed: a hint), or None when it answered itself. To refuse,
it (or the service it calls) raises a :class:`server.errors.Refused`: the
client's fault or the server's, each with its code. A frame the protocol
cannot decode raises :class:`shared.errors.ProtocolError`. Only
:meth:`Router.dispatch` turns either into the ``error`` reply
(:func:`error_of`; ``stale_ply`` with its game), counts it, and closes a
connection after ``max_errors`` mistakes. A feature's handlers are the
methods of one object, built by the app with the parts they use, which lists
its routes::

    class RoomHandlers:
        def __init__(self, rooms: RoomService, ...) -> None: ...

        def routes(self) -> tuple[Route, ...]:
            return (Route(CreateRoom, self.create_room), ...)

        async def create_room(self, connection: Connection, message: CreateRoom) -> Reply: ...

and the app builds its :class:`Router` from those routes when it is built
(:func:`server.app.wire`): declaring a handler registers nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from server.errors import HelloFirst, Internal, RateLimited, Refused, StalePly
from shared import protocol as p
from shared.errors import ProtocolError

if TYPE_CHECKING:
    from server.config import Config
    from server.events import Events
    from server.net.connection import Connection

log = logging.getLogger(__name__)

#: the close code for a connection past ``max_errors`` client mistakes
CLOSE_POLICY = 1008


@dataclass(frozen=True, slots=True)
class Later:
    """A handler's reply still being computed: the connection handles other messages
    meanwhile, and a refusal raised while it is computed is answered like any other."""

    reply: Awaitable[p.Reply]


Handler = Callable[["Connection", Any], Awaitable[p.Reply | Later | None]]


def error_of(exc: Refused | ProtocolError, re: int | None) -> p.Error:
    """The ``error`` message of a refusal: its code and message, and the game as it is
    with ``stale_ply``."""
    game = exc.game if isinstance(exc, StalePly) else None
    return p.Error(code=exc.code, message=exc.message, game=game, re=re)


def is_mistake(exc: Refused | ProtocolError) -> bool:
    """Whether a refusal counts towards the close with 1008: a message no honest client
    sends (malformed, before hello, a guessed room code)."""
    if isinstance(exc, Refused):
        return exc.mistake
    return exc.code in p.CLIENT_FAULTS or exc.fault


@dataclass(frozen=True, slots=True)
class Route:
    message: type[p.Request]
    handler: Handler
    #: False only for messages allowed before ``welcome`` (``hello`` itself)
    needs_hello: bool = True


def handles(message: type[p.Request], *, needs_hello: bool = True) -> Callable[[Handler], Route]:
    """Make ``handler`` the :class:`Route` of ``message`` (a value: nothing is registered)."""

    def route(handler: Handler) -> Route:
        return Route(message, handler, needs_hello)

    return route


class Router:
    """Answers each frame of a connection through the route of its message type."""

    def __init__(self, routes: Iterable[Route], *, config: Config, events: Events) -> None:
        table: dict[str, Route] = {}
        for route in routes:
            kind = route.message.type
            if kind in table:
                raise ValueError(f"two handlers for message type {kind!r}")
            table[kind] = route
        #: message type -> route, fixed once built
        self.routes = MappingProxyType(table)
        self.config = config
        self.events = events

    async def dispatch(self, connection: Connection, frame: bytes | str) -> None:
        """Answer one frame; every refusal becomes an ``error`` here and nowhere else."""
        if connection.revoked:
            return  # banned, its token replaced or its account removed: nothing more is taken
        re: int | None = None
        self.events.message(connection)
        try:
            limited = not connection.bucket.take()
            m = p.unpack(frame)
            re = p.envelope_id(m)
            if limited:
                raise RateLimited(
                    f"more than {self.config.rate_limit:g} messages/s "
                    f"(burst {self.config.rate_burst}); slow down"
                )
            kind = m.get("type")
            route = self.routes.get(kind) if isinstance(kind, str) else None
            if route is not None and route.needs_hello and connection.player is None:
                raise HelloFirst("send hello first")
            if route is None:
                raise p.unknown_type(p.message_type(m))  # invalid_field for 'type' or 'id' first
            message = p.REQUESTS.decode_map(m)
            reply = await route.handler(connection, message)
        except (Refused, ProtocolError) as exc:
            self._refuse(connection, exc, re)
            return
        except Exception:
            log.exception("%r: message failed", connection)
            self._refuse(connection, Internal("the server failed; try again"), re)
            return
        if isinstance(reply, Later):
            connection.reply_later(self._later(connection, reply, re))
        elif reply is not None:
            connection.send(reply)

    async def _later(self, connection: Connection, later: Later, re: int | None) -> None:
        """Send a reply once computed; a refusal meanwhile, as :meth:`dispatch` would."""
        try:
            reply = await later.reply
        except (Refused, ProtocolError) as exc:
            self._refuse(connection, exc, re)
            return
        except Exception:
            log.exception("%r: a reply failed", connection)
            self._refuse(connection, Internal("the server failed; try again"), re)
            return
        connection.send(reply)

    def _refuse(self, connection: Connection, exc: Refused | ProtocolError, re: int | None) -> None:
        connection.send(error_of(exc, re))
        self.events.refused(connection, exc.code)
        if not is_mistake(exc):
            return
        connection.faults += 1
        log.info("%r: %s: %s", connection, exc.code, exc.message)
        if connection.faults >= self.config.max_errors:
            log.warning("%r closed after %d client errors", connection, connection.faults)
            connection.close_after_sending(CLOSE_POLICY, f"{connection.faults} bad messages")
