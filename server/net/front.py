"""The browser client's files answered on a kept-alive connection, before websockets sees it.

websockets answers one plain HTTP request per TCP connection, then closes it. A cold load of
the page asks for about forty files, so it cost forty TCP connections, each with its own
websockets connection object and handler task made and thrown away: the server's largest
part of a cold load, and a connection set up and torn down in the browser for every file.

Every connection of the game's port now opens as a :class:`Front`. While its requests are
plain ``GET``\\ s of the client's files (:meth:`server.net.http.HttpPaths.file_answer`) they
are answered here from the table, on the same connection (HTTP/1.1 keep-alive), several in a
row if the browser sends them so. The first request that is anything else (the WebSocket's
upgrade, ``/healthz``, ``/challenge/ID/about``, a 404, a request this small parser does not
take) hands the connection, with that request's bytes, to websockets' own connection object,
made then: from there on it is exactly what it was (the handshake, its time limit, the
answers of :class:`~server.net.http.HttpPaths`).

A kept-alive connection with no request for :data:`IDLE_S` is closed (one with half a request
is handed to websockets, whose own time limit then applies); one whose client does not read
stops being read (``pause_reading``) until its replies have gone out, so a client that sends
many requests and reads none cannot make the server buffer their answers without bound.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

#: seconds a kept-alive connection waits for its next request before it is closed
IDLE_S = 5.0
#: the largest request head taken here (the browser's are under 1 KiB): a longer one, or one
#: not ended by then, goes to websockets, which has limits of its own
MAX_HEAD = 8192
#: the request headers whose presence means a request is not a plain GET of a file
NOT_PLAIN = ("upgrade", "content-length", "transfer-encoding", "expect")

#: answers a request for a client file, or None when it is not one (``HttpPaths.file_answer``)
FileAnswer = Callable[[Request], Response | None]


def plain_get(head: bytes) -> tuple[Request, bool] | None:
    """The request ``head`` (its request line and headers, without the blank line) when it is
    a plain ``GET`` over HTTP/1.1 with no body, and whether the client asked to close after
    it; None for anything else (websockets' parser then decides)."""
    try:
        lines = head.decode("ascii").split("\r\n")
    except UnicodeDecodeError:
        return None
    parts = lines[0].split(" ")
    if len(parts) != 3 or parts[0] != "GET" or parts[2] != "HTTP/1.1" or not parts[1]:
        return None
    headers = Headers()
    for line in lines[1:]:
        name, colon, value = line.partition(":")
        if not colon or not name or name != name.strip() or " " in name:
            return None
        headers[name] = value.strip()
    if any(name in headers for name in NOT_PLAIN) or len(headers.get_all("Host")) != 1:
        return None
    closing = any(
        token.strip().lower() == "close"
        for value in headers.get_all("Connection")
        for token in value.split(",")
    )
    return Request(parts[1], headers), closing


class Front(asyncio.Protocol):
    """One TCP connection of the game's port, until it is handed to websockets (or closes)."""

    def __init__(
        self,
        answer: FileAnswer,
        connect: Callable[[], ServerConnection],
        gone: Callable[[Front], None] = lambda _front: None,
    ) -> None:
        self.answer = answer
        #: makes websockets' connection object for this TCP connection, when it is handed over
        self.connect = connect
        #: told once when the connection is no longer this front's (handed over, or closed)
        self.gone = gone
        self.transport: asyncio.Transport | None = None
        self.buffer = b""
        #: replies not written out yet: reading waits for them (flow control)
        self.paused = False
        self.handed = False
        self.idle: asyncio.TimerHandle | None = None
        self.served = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self._wait()

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        self._serve()

    def _serve(self) -> None:
        """Answer every whole request in the buffer that is a client file; hand over at the
        first that is not."""
        transport = self.transport
        assert transport is not None
        while not self.handed and not self.paused and not transport.is_closing():
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                if len(self.buffer) > MAX_HEAD:
                    self.hand_over()
                return
            if end > MAX_HEAD:
                self.hand_over()
                return
            parsed = plain_get(self.buffer[:end])
            response = self.answer(parsed[0]) if parsed is not None else None
            if parsed is None or response is None:
                self.hand_over()
                return
            self.buffer = self.buffer[end + 4 :]
            self.served += 1
            transport.write(response.serialize())
            if parsed[1]:
                transport.close()
                return
            self._wait()

    def hand_over(self) -> None:
        """From now on websockets has this connection, with what was read and not answered."""
        if self.handed or self.transport is None:
            return
        self.handed = True
        self._stop_waiting()
        self.gone(self)
        inner = self.connect()
        transport = self.transport
        transport.set_protocol(inner)
        inner.connection_made(transport)
        if self.paused:
            transport.resume_reading()  # websockets does its own flow control from here
            self.paused = False
        data, self.buffer = self.buffer, b""
        if data:
            inner.data_received(data)

    def _wait(self) -> None:
        """(Re)start the wait for the next request."""
        self._stop_waiting()
        self.idle = asyncio.get_running_loop().call_later(IDLE_S, self._idle)

    def _stop_waiting(self) -> None:
        if self.idle is not None:
            self.idle.cancel()
            self.idle = None

    def _idle(self) -> None:
        self.idle = None
        if self.buffer:
            self.hand_over()  # half a request: websockets' own time limit decides
        elif self.transport is not None:
            self.transport.close()

    def close(self) -> None:
        """Close a connection still kept alive here (the server is stopping)."""
        if not self.handed and self.transport is not None:
            self._stop_waiting()
            self.transport.close()

    def pause_writing(self) -> None:
        self.paused = True
        if self.transport is not None:
            self.transport.pause_reading()

    def resume_writing(self) -> None:
        self.paused = False
        if self.transport is not None and not self.transport.is_closing():
            self.transport.resume_reading()
            self._serve()

    def eof_received(self) -> bool | None:
        return None  # the transport closes itself

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        self.transport = None
        self.gone(self)


class Fronts:
    """The :class:`Front` of every connection of one port still kept alive here: made by
    websockets' ``create_connection`` hook (:meth:`connection`), closed with the port."""

    def __init__(self, answer: FileAnswer) -> None:
        self.answer = answer
        self.open: set[Front] = set()

    def connection(self, protocol: Any, server: Any, **kwargs: Any) -> Any:
        """websockets' ``create_connection``: a Front, which makes websockets' own
        :class:`ServerConnection` (with these arguments) only if it hands the connection over."""
        front = Front(
            self.answer,
            lambda: ServerConnection(protocol, server, **kwargs),
            self.open.discard,
        )
        self.open.add(front)
        return front

    def close(self) -> None:
        for front in list(self.open):
            front.close()
        self.open.clear()
