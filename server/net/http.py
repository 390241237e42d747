"""HTTP GET beside the WebSocket, on the same port: ``/healthz`` and the paths features add.

websockets hands every request to :meth:`HttpPaths.answer` before its
handshake: the WebSocket path goes on to the handshake when the page asking
is allowed to (a browser's ``Origin``: server/net/origins.py; 403 otherwise), ``/healthz`` says
whether the database answers (and, on a node of several, whether Redis
does: 200 with ``"redis": "down"`` while it is lost, since the node still
serves what it can), a path the app was built with gets its handler's
response (``/metrics`` has an address of its own: server/net/listening.py),
the browser client's pages and files come from
:class:`~server.net.static.StaticSite`, anything else is a JSON 404.
"""

from __future__ import annotations

import asyncio
import http
import json
from collections.abc import Awaitable, Callable, Mapping
from types import MappingProxyType
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine
from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from server.net.origins import OriginPolicy
from server.net.static import StaticSite
from server.storage.engine import ping

#: the path of the WebSocket endpoint (docs/protocol.md, Transport)
WS_PATH = "/ws"

HttpHandler = Callable[[], Awaitable[Response]]
#: a handler of every path under a prefix: given the rest of the path
PrefixHandler = Callable[[str], Awaitable[Response]]


def response(status: http.HTTPStatus, content_type: str, body: bytes) -> Response:
    headers = Headers([("Content-Type", content_type), ("Content-Length", str(len(body)))])
    return Response(status.value, status.phrase, headers, body)


def json_response(status: http.HTTPStatus, body: dict[str, Any]) -> Response:
    return response(status, "application/json", json.dumps(body).encode())


class HttpPaths:
    """The HTTP paths of one app: ``/healthz`` on its database, ``paths`` (path -> handler),
    and the browser client's files (``site``) for every other GET."""

    def __init__(
        self,
        engine: AsyncEngine,
        paths: Mapping[str, HttpHandler],
        site: StaticSite,
        *,
        redis: Callable[[], bool] | None = None,
        origins: OriginPolicy | None = None,
        prefixes: Mapping[str, PrefixHandler] | None = None,
    ) -> None:
        self.engine = engine
        #: the pages whose browsers may open the WebSocket (net/origins.py)
        self.origins = origins or OriginPolicy()
        #: whether Redis is up, on a node of several (None: a node alone)
        self.redis = redis
        self.paths = MappingProxyType(dict(paths))
        #: paths under a prefix a feature answers (``/challenge/``: its JSON ``about``)
        self.prefixes = MappingProxyType(dict(prefixes or {}))
        self.site = site

    async def answer(self, _connection: ServerConnection, request: Request) -> Response | None:
        """The response to ``request``, or None to go on with the WebSocket handshake."""
        path = request.path.split("?", 1)[0]
        if path == WS_PATH:
            origin = request.headers.get("Origin")
            if not self.origins.allows(origin, request.headers.get("Host")):
                return json_response(
                    http.HTTPStatus.FORBIDDEN,
                    {"status": "forbidden", "reason": f"pages of {origin!r} may not connect"},
                )
            return None
        if path == "/healthz":
            try:
                ok = await asyncio.wait_for(ping(self.engine), 5)
            except TimeoutError:
                ok = False
            status = http.HTTPStatus.OK if ok else http.HTTPStatus.SERVICE_UNAVAILABLE
            body = {"status": "ok" if ok else "unavailable"}
            if self.redis is not None:
                body["redis"] = "up" if self.redis() else "down"
            return json_response(status, body)
        handler = self.paths.get(path)
        if handler is not None:
            return await handler()
        for prefix, answer in self.prefixes.items():
            if path.startswith(prefix) and path.endswith("/about"):
                return await answer(path[len(prefix) : -len("/about")])
        return self.site.answer(request) or json_response(
            http.HTTPStatus.NOT_FOUND, {"status": "not found", "websocket": WS_PATH}
        )

    def file_answer(self, request: Request) -> Response | None:
        """The answer to ``request`` when it asks for one of the client's files or pages
        (what :meth:`answer` gives the site), else None: the WebSocket, ``/healthz``, the
        feature paths and anything unknown are :meth:`answer`'s (server/net/front.py)."""
        path = request.path.split("?", 1)[0]
        if path in (WS_PATH, "/healthz") or path in self.paths:
            return None
        if any(path.startswith(p) and path.endswith("/about") for p in self.prefixes):
            return None
        return self.site.answer(request)
