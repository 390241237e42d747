"""What the running server tells its parts: start and stop, welcomes and closes, messages, refusals.

Races, dailies and metrics need to hear when the server starts and stops,
when a player connects or leaves, and what the router refused; the app and
the router say so through one :class:`Events` object that the app owns, so
the connection handler stays free of their logic. Who listens is decided in
one place, when the app is built (:func:`server.app.wire`); importing a
module subscribes nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from server.net.connection import Connection

LifeHook = Callable[[], Awaitable[None]]
ConnectionHook = Callable[["Connection"], None]
RefusalHook = Callable[["Connection", str], None]


@dataclass(eq=False)
class Events:
    """The listeners of one app, by event; each list is called in order."""

    #: after migrations and the writer start, before the server listens
    on_start: list[LifeHook] = field(default_factory=list)
    #: after every connection has closed, before the writer stops (called in reverse order)
    on_stop: list[LifeHook] = field(default_factory=list)
    #: a connection said ``hello`` successfully / a connection ended (welcomed or not)
    on_welcome: list[ConnectionHook] = field(default_factory=list)
    on_close: list[ConnectionHook] = field(default_factory=list)
    #: every inbound frame / every error reply, with its code
    on_message: list[ConnectionHook] = field(default_factory=list)
    on_refusal: list[RefusalHook] = field(default_factory=list)

    async def started(self) -> None:
        for hook in self.on_start:
            await hook()

    async def stopping(self) -> None:
        for hook in reversed(self.on_stop):
            await hook()

    def welcomed(self, connection: Connection) -> None:
        for hook in self.on_welcome:
            hook(connection)

    def closed(self, connection: Connection) -> None:
        for hook in self.on_close:
            hook(connection)

    def message(self, connection: Connection) -> None:
        for hook in self.on_message:
            hook(connection)

    def refused(self, connection: Connection, code: str) -> None:
        for hook in self.on_refusal:
            hook(connection, code)
