"""Frames for many connections, written in one go: one push to thousands of followers.

Why it exists: an arena's standings push writes a frame to each of 2,000
followers. Through asyncio each write is a ``socket.send`` that releases the
GIL and takes it back, and while the group-commit writer's thread runs Python
(SQLAlchemy, about 0.2 ms of CPU a stored write) every taking back waits for it,
up to the interpreter's switch interval: a push of 10 ms of CPU took 50 ms of
wall time on an idle machine (docs/operating.md, "Arena benchmark"). A
:class:`WriteBatch` gathers a chunk's frames and hands the ones that can go
straight to their sockets to ``send_each`` (``_sendeach.c``): one release of the
GIL for the whole chunk, the sends beside the other threads instead of between
them.

What goes straight to a socket is exactly what the transport would have sent at
once itself: a plain (not TLS) socket transport, open, with nothing buffered.
Whatever the kernel did not take (a full socket buffer, an error) goes to the
transport as it is, which buffers it behind the part already sent or reports
the error as it would have. Everything else, and everything where the C module
was not built (no C compiler, the pure build), is written through the transport
as before: the same bytes, in the same order, either way
(tests/server/net/test_batch.py).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from typing import Protocol

#: send_each(fds, frames) from _sendeach.c, or None where it was not built (or in the pure build)
SendEach = Callable[[list[int], list[bytes]], list[int]]
SEND_EACH: SendEach | None = None
if os.environ.get("PATIENCE_PURE", "") in ("", "0"):
    try:
        from server.net import _sendeach
    except ImportError:  # not built here: every frame goes through its transport
        pass
    else:
        SEND_EACH = _sendeach.send_each


class Socket(Protocol):
    """What a batch needs of a transport's socket (asyncio hands out a wrapper of it)."""

    def fileno(self) -> int: ...


def socket_of(transport: asyncio.BaseTransport) -> Socket | None:
    """The socket a batch may write to for ``transport``: a plain socket transport's
    (asyncio's wrapper of it, whose ``fileno()`` is -1 once it is closed), None for any
    other transport (TLS: the socket's bytes are not the frame's)."""
    if transport.get_extra_info("sslcontext") is not None:
        return None
    sock = transport.get_extra_info("socket")
    return sock if callable(getattr(sock, "fileno", None)) else None


class WriteBatch:
    """The frames of one chunk of a push, by transport, written by :meth:`flush`.

    ``send_each``: the C function, or None to write every frame through its transport
    (what the pure build does; tests pass both)."""

    __slots__ = ("_added", "_direct", "_send_each", "_through")

    def __init__(self, send_each: SendEach | None = SEND_EACH) -> None:
        self._send_each = send_each
        #: transport -> [socket, frames]: to go straight to the socket if still possible
        self._direct: dict[asyncio.WriteTransport, tuple[Socket, list[bytes]]] = {}
        #: (transport, frame) to write through the transport, in order
        self._through: list[tuple[asyncio.WriteTransport, bytes]] = []
        self._added = 0

    def add(self, transport: asyncio.WriteTransport, sock: Socket | None, frame: bytes) -> None:
        """Write ``frame`` to ``transport`` at :meth:`flush`; ``sock`` its socket if it is
        a plain one (:func:`socket_of`), else None."""
        self._added += 1
        entry = self._direct.get(transport)
        if entry is not None:
            entry[1].append(frame)
        elif self._send_each is not None and sock is not None:
            self._direct[transport] = (sock, [frame])
        else:
            self._through.append((transport, frame))

    def __len__(self) -> int:
        """Frames added and not yet written."""
        return self._added

    def flush(self) -> int:
        """Write everything added, then forget it; how many transports' frames went
        straight to their socket."""
        direct, through = self._direct, self._through
        self._direct, self._through, self._added = {}, [], 0
        for transport, frame in through:
            transport.write(frame)
        if not direct:
            return 0
        send_each = self._send_each
        assert send_each is not None
        transports: list[asyncio.WriteTransport] = []
        fds: list[int] = []
        frames: list[bytes] = []
        for transport, (sock, parts) in direct.items():
            data = parts[0] if len(parts) == 1 else b"".join(parts)
            fd = sock.fileno()
            if fd < 0 or transport.is_closing() or transport.get_write_buffer_size():
                transport.write(data)  # the transport's own order and errors
                continue
            transports.append(transport)
            fds.append(fd)
            frames.append(data)
        results = send_each(fds, frames) if fds else []
        straight = 0
        for transport, data, sent in zip(transports, frames, results, strict=True):
            if sent == len(data):
                straight += 1
            elif sent >= 0:
                transport.write(data[sent:])  # buffered behind the part the kernel took
            else:  # nothing taken: buffered (EAGAIN), or the transport meets the error itself
                transport.write(data)
        return straight
