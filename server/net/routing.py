"""Message type -> handler, and the one place where every refusal becomes an ``error`` reply.

A handler is ``async def handler(connection, message) -> Reply | None``; it
returns the reply (with ``re=message.id``) or None when it answered itself.
It raises :class:`ProtocolError` to refuse: :meth:`Router.dispatch` turns
that into the ``error`` reply. A feature declares its handlers with
:func:`handles` and lists them in its module's ``ROUTES`` tuple::

    @handles(CreateRoom)
    async def create_room(connection: Connection, message: CreateRoom) -> Reply: ...

    ROUTES = (create_room, ...)

and the app builds its :class:`Router` from those tuples when it is built
(:func:`server.app.wire`): declaring a handler registers nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from shared import protocol as p
from shared.errors import ProtocolError

if TYPE_CHECKING:
    from server.config import Config
    from server.events import Events
    from server.net.connection import Connection

log = logging.getLogger(__name__)

Handler = Callable[["Connection", Any], Awaitable[p.Reply | None]]

#: the close code for a connection past ``max_errors`` client mistakes
CLOSE_POLICY = 1008


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
        re: int | None = None
        self.events.message(connection)
        try:
            limited = not connection.bucket.take()
            m = p.unpack(frame)
            re = p.envelope_id(m)
            if limited:
                raise ProtocolError(
                    p.RATE_LIMITED,
                    f"more than {self.config.rate_limit:g} messages/s "
                    f"(burst {self.config.rate_burst}); slow down",
                )
            kind = m.get("type")
            route = self.routes.get(kind) if isinstance(kind, str) else None
            if route is not None and route.needs_hello and connection.player is None:
                raise ProtocolError(p.HELLO_FIRST, "send hello first")
            if route is None:
                raise p.unknown_type(p.message_type(m))  # invalid_field for 'type' or 'id' first
            message = p.REQUESTS.decode_map(m)
            reply = await route.handler(connection, message)
        except ProtocolError as exc:
            self._refuse(connection, exc, re)
            return
        except Exception:
            log.exception("%r: message failed", connection)
            self._refuse(connection, ProtocolError(p.INTERNAL, "the server failed; try again"), re)
            return
        if reply is not None:
            connection.send(reply)
            if isinstance(reply, p.Error):  # answered, not raised: stale_ply
                self.events.refused(connection, reply.code)

    def _refuse(self, connection: Connection, exc: ProtocolError, re: int | None) -> None:
        connection.send(p.Error(code=exc.code, message=exc.message, re=re))
        self.events.refused(connection, exc.code)
        if exc.code not in p.CLIENT_FAULTS and not exc.fault:
            return
        connection.faults += 1
        log.info("%r: %s: %s", connection, exc.code, exc.message)
        if connection.faults >= self.config.max_errors:
            log.warning("%r closed after %d client errors", connection, connection.faults)
            connection.close_after_sending(CLOSE_POLICY, f"{connection.faults} bad messages")
