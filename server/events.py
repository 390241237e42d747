"""Extension points of :class:`server.app.App`: life cycle, connections, messages, HTTP paths.

Races, dailies and metrics need to hear when the server starts and stops,
when a player connects or leaves, and what the dispatcher refused; they also
answer HTTP paths beside ``/healthz``. Their modules register here when
:func:`server.app.load_handlers` imports them, and the app calls the hooks,
so the connection handler stays free of their logic.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from websockets.http11 import Response

if TYPE_CHECKING:
    from server.app import App
    from server.net.connection import Session

AppHook = Callable[["App"], Awaitable[None]]
SessionHook = Callable[["Session"], None]
RefusalHook = Callable[["Session", str], None]
HttpHandler = Callable[["App"], Awaitable[Response]]

#: after migrations and the writer, before listening / after connections closed, before the
#: writer stops
ON_START: list[AppHook] = []
ON_STOP: list[AppHook] = []
#: a session said hello successfully / a connection ended (welcomed or not)
ON_WELCOME: list[SessionHook] = []
ON_CLOSE: list[SessionHook] = []
#: every inbound frame / every error reply, with its code
ON_MESSAGE: list[SessionHook] = []
ON_REFUSAL: list[RefusalHook] = []
#: HTTP GET path -> handler
HTTP: dict[str, HttpHandler] = {}


def register(hooks: list[AppHook], hook: AppHook) -> None:
    """Add ``hook`` once, however often its module is imported."""
    if hook not in hooks:
        hooks.append(hook)


async def started(app: App) -> None:
    for hook in ON_START:
        await hook(app)


async def stopping(app: App) -> None:
    for hook in reversed(ON_STOP):
        await hook(app)


def welcomed(session: Session) -> None:
    for hook in ON_WELCOME:
        hook(session)


def closed(session: Session) -> None:
    for hook in ON_CLOSE:
        hook(session)


def message(session: Session) -> None:
    for hook in ON_MESSAGE:
        hook(session)


def refused(session: Session, code: str) -> None:
    for hook in ON_REFUSAL:
        hook(session, code)
