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
