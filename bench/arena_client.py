"""A lean WebSocket client for bench/arena.py that notes when each message reached its socket.

The arena bench runs its 2,000 players in one Python process, on the same two
cores as the server. When a push goes out, 2,000 frames reach that process at
once and it reads them one after another: the time at which it reads the last
ones is mostly its own queue (tens of milliseconds of parsing the frames before
them), not the server's delivery, and a real follower has a device of their
own. So each read here asks the kernel when the bytes reached the socket
(``SO_TIMESTAMPNS``, taken as the packet arrives, read with ``recvmsg``) and
hands both times on: *arrived* (the kernel's: when the follower's machine had
the frame) and *read* (when this process got to it). The bench reports both.

The WebSocket protocol is websockets' own (its Sans-I/O ``ClientProtocol``:
handshake, masking, answers to pings, close), driven over a non-blocking
socket with the event loop's reader and writer callbacks.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
import time
from collections.abc import Callable

from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.uri import parse_uri

#: Linux's SO_TIMESTAMPNS (and its control message's type), which Python does not name
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
_ANCILLARY = socket.CMSG_SPACE(16)  # one struct timespec

#: what a message is handed to: its bytes, when it arrived at the socket, when it was read
OnMessage = Callable[[bytes, float, float], None]


class LeanConnection:
    """One client's WebSocket connection on a raw socket, each message with its arrival."""

    def __init__(self, sock: socket.socket, protocol: ClientProtocol, on_message: OnMessage):
        self.sock = sock
        self.protocol = protocol
        self.on_message = on_message
        self.loop = asyncio.get_running_loop()
        self._out = bytearray()
        self._opened: asyncio.Future[None] = self.loop.create_future()
        self.closed: asyncio.Future[None] = self.loop.create_future()

    @classmethod
    async def open(cls, port: int, on_message: OnMessage) -> LeanConnection:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        loop = asyncio.get_running_loop()
        await loop.sock_connect(sock, ("127.0.0.1", port))
        protocol = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/ws"), max_size=None)
        self = cls(sock, protocol, on_message)
        loop.add_reader(sock.fileno(), self._readable)
        protocol.send_request(protocol.connect())
        self._write()
        await self._opened
        return self

    def send(self, data: bytes) -> None:
        if self.protocol.state is not State.OPEN:
            raise ConnectionError("the connection is closed")
        self.protocol.send_binary(data)
        self._write()

    async def close(self) -> None:
        if self.protocol.state is State.OPEN:
            self.protocol.send_close()
            self._write()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self.closed), 5)
        self._lost()

    def _readable(self) -> None:
        try:
            data, ancillary, _, _ = self.sock.recvmsg(1 << 18, _ANCILLARY)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self._lost()
            return
        read = time.time()
        arrived = read
        for level, kind, raw in ancillary:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                seconds, nanoseconds = struct.unpack("qq", raw[:16])
                arrived = seconds + nanoseconds / 1e9
        if data:
            self.protocol.receive_data(data)
        else:
            self.protocol.receive_eof()
        for event in self.protocol.events_received():
            if isinstance(event, Response):
                if self.protocol.handshake_exc is not None:
                    self._opened.set_exception(self.protocol.handshake_exc)
                else:
                    self._opened.set_result(None)
            elif isinstance(event, Frame) and event.opcode in (Opcode.BINARY, Opcode.TEXT):
                assert event.fin, "the server does not fragment its messages"
                self.on_message(bytes(event.data), arrived, read)
        self._write()  # pongs, the close's answer
        if not data or self.protocol.state is State.CLOSED:
            self._lost()

    def _write(self) -> None:
        for data in self.protocol.data_to_send():
            if data:
                self._out += data
        if not self._out or self.sock.fileno() < 0:
            return
        try:
            sent = self.sock.send(self._out)
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError:
            self._lost()
            return
        del self._out[:sent]
        if self._out:
            self.loop.add_writer(self.sock.fileno(), self._writable)

    def _writable(self) -> None:
        self.loop.remove_writer(self.sock.fileno())
        self._write()

    def _lost(self) -> None:
        if self.sock.fileno() >= 0:
            self.loop.remove_reader(self.sock.fileno())
            self.loop.remove_writer(self.sock.fileno())
            self.sock.close()
        if not self._opened.done():
            self._opened.set_exception(ConnectionError("closed during the handshake"))
        if not self.closed.done():
            self.closed.set_result(None)
