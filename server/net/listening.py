"""Listening sockets bound before anything else starts, and an HTTP-only endpoint.

The server binds its ports first, before its writer thread, its workers and
the other nodes: a port that is taken (or an address that is not this
machine's) is then one clear line and a non-zero exit, with nothing started
that would keep the process alive. Sockets are bound without accepting
(``start_serving=False``) and start accepting once the app is ready.

:class:`HttpEndpoint` serves plain HTTP paths on an address of their own
(``/metrics``, kept off the game's public port) with websockets' HTTP
parser: every request gets a response, none becomes a WebSocket.
"""

from __future__ import annotations

import http
import os
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.http11 import Request, Response

from server.config import Config
from server.net.connection import WRITE_LIMIT
from server.net.front import Fronts
from server.net.http import json_response


class ListenError(OSError):
    """A port that cannot be bound (taken, not allowed, not this machine's): the operator's."""


async def bind(host: str, port: int, handler: Any, **kwargs: Any) -> Server:
    """A websockets server bound to ``host``:``port`` and not accepting yet.

    Raises :class:`ListenError` saying which address and why.
    """
    try:
        return await serve(handler, host, port, start_serving=False, **kwargs)
    except OSError as exc:
        why = os.strerror(exc.errno) if exc.errno else str(exc)
        raise ListenError(f"cannot listen on {host}:{port}: {why}") from None


async def bind_game(
    config: Config,
    handler: Callable[[ServerConnection], Awaitable[None]],
    answer: Callable[[ServerConnection, Request], Awaitable[Response | None]],
    fronts: Fronts | None = None,
) -> Server:
    """The game's port, not accepting yet: WebSocket connections handled by ``handler``,
    HTTP requests ``answer``-ed before any upgrade, within the transport limits; with
    ``fronts``, the client's files answered first on kept-alive connections (front.py)."""
    return await bind(
        config.host,
        config.port,
        handler,
        **({"create_connection": fronts.connection} if fronts is not None else {}),
        process_request=answer,
        max_size=config.max_message_bytes,
        compression=None,  # deflate costs ~100 KiB per connection; views are small
        max_queue=4,
        write_limit=WRITE_LIMIT,
        close_timeout=2,
        ping_interval=20,
        ping_timeout=20,
    )


async def bind_metrics(
    config: Config, serve_metrics: Callable[[], Awaitable[Response]]
) -> Server | None:
    """``GET /metrics`` on the address of its own the settings name, or None (not served)."""
    if not config.metrics_host:
        return None
    return await HttpEndpoint({"/metrics": serve_metrics}).bind(
        config.metrics_host, config.metrics_port
    )


def bound_port(server: Server) -> int:
    port: int = next(iter(server.sockets)).getsockname()[1]
    return port


class HttpEndpoint:
    """Plain HTTP GET paths on an address of their own (``/metrics``)."""

    def __init__(self, paths: Mapping[str, Callable[[], Awaitable[Response]]]) -> None:
        self.paths = dict(paths)

    async def answer(self, _connection: ServerConnection, request: Request) -> Response:
        handler = self.paths.get(request.path.split("?", 1)[0])
        if handler is None:
            return json_response(http.HTTPStatus.NOT_FOUND, {"status": "not found"})
        return await handler()

    async def bind(self, host: str, port: int) -> Server:
        async def never(_ws: ServerConnection) -> None:  # every request is answered above
            return None

        return await bind(host, port, never, process_request=self.answer)
