"""Message type -> handler: the server's one dispatch table, open to extension.

A handler is ``async def handler(session, message) -> Reply | None``; it
returns the reply (with ``re=message.id``) or None when it answered itself.
It raises :class:`ProtocolError` to refuse: the dispatcher turns that into
the ``error`` reply, in one place. Message classes are the protocol's own
(``shared.protocol.REQUESTS``, fixed); a module routes one of them with::

    @handles(CreateRoom)
    async def create_room(session: Session, message: CreateRoom) -> Reply: ...

and is imported by :func:`server.app.load_handlers` (``EXTENSIONS``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from shared import protocol as p

if TYPE_CHECKING:
    from server.session import Session

Handler = Callable[["Session", Any], Awaitable[p.Reply | None]]
H = TypeVar("H", bound=Handler)


@dataclass(frozen=True, slots=True)
class Route:
    message: type[p.Request]
    handler: Handler
    #: False only for messages allowed before ``welcome`` (``hello`` itself)
    needs_hello: bool = True


ROUTES: dict[str, Route] = {}


def handles(message: type[p.Request], *, needs_hello: bool = True) -> Callable[[H], H]:
    """Route ``message`` (a class of ``shared.protocol.REQUESTS``) to ``handler``."""

    def register(handler: H) -> H:
        ROUTES[message.type] = Route(message, handler, needs_hello)
        return handler

    return register
