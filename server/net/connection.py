"""One client connection: who it is, its rate limit, its mistakes and its bounded send queue.

Every message to the client, reply or push, goes through :meth:`Connection.send`,
which never waits. When nothing is queued and the socket's buffer is below
its high-water mark, it writes the frame at once (most replies: no task
switch, no queue); otherwise it queues, and one sender task writes in order.
A client that reads too slowly fills the queue (or stalls one send past the
timeout) and is disconnected, so no reader can make the server buffer
without bound or stall the code that pushes to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode
from websockets.protocol import State

from server.net.batch import WriteBatch, socket_of
from server.net.limits import TokenBucket
from shared import protocol as p

if TYPE_CHECKING:
    from server.config import Config

log = logging.getLogger(__name__)

#: the connection's write buffer high-water mark (websockets ``write_limit``)
WRITE_LIMIT = 16 * 1024
#: seconds a revoked connection's client has to take the close before it is cut
CLOSE_GRACE_S = 1.0


def server_frame(data: bytes) -> bytes:
    """The WebSocket frame that carries ``data`` to any client: built once for a push to many.

    A server's frames are never masked (RFC 6455, 5.1) and this server
    negotiates no extension (no compression), so one unfragmented binary
    frame is the same bytes on every connection: what ``ws.send`` would
    build for each of them, built here once.
    """
    return Frame(Opcode.BINARY, data).serialize(mask=False)


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    id: int
    name: str
    bot: bool = False


@dataclass(frozen=True, slots=True)
class _Close:
    code: int
    reason: str


@dataclass(slots=True)
class _Latest:
    """A message waiting in the queue that a newer one of its ``slot`` replaces."""

    slot: object
    data: bytes


class Connection:
    """One client's WebSocket connection after its handshake: who it is, its limits, its sends."""

    def __init__(self, ws: ServerConnection, number: int, config: Config) -> None:
        self.ws = ws
        self.number = number
        peer = ws.remote_address
        self.ip: str = str(peer[0]) if peer else "?"
        self.player: PlayerInfo | None = None
        #: the hash of the token this connection said hello with (a new token closes it)
        self.token_hash: str | None = None
        self.faults = 0
        self.bucket = TokenBucket(config.rate_limit, config.rate_burst)
        self._queue: asyncio.Queue[bytes | _Close | _Latest] = asyncio.Queue(config.send_queue)
        #: the latest messages queued and not yet taken by the sender, by slot
        self._latest: dict[object, _Latest] = {}
        #: seconds one message may wait for the client to read it
        self.send_timeout = config.send_timeout
        #: items queued and not yet written (the one the sender holds included)
        self._queued = 0
        self._sender: asyncio.Task[None] | None = None
        #: replies being worked out while the connection goes on (hints)
        self._later: set[asyncio.Task[None]] = set()
        self.dropped = False
        #: set by :meth:`revoke`: nothing more read from this connection is taken
        self.revoked = False
        self._closer: asyncio.Task[None] | None = None
        #: the socket a push's :class:`WriteBatch` may write to directly (None: never)
        self._socket = socket_of(ws.transport)

    def __repr__(self) -> str:
        who = f"player {self.player.id}" if self.player else "no hello"
        return f"<Connection #{self.number} {self.ip} {who}>"

    @property
    def welcomed_player(self) -> PlayerInfo:
        """The player of a welcomed connection: the router lets only those reach most handlers."""
        assert self.player is not None, f"{self!r} has not been welcomed"
        return self.player

    def start(self) -> None:
        self._sender = asyncio.create_task(self._send_loop(), name=f"send-{self.number}")

    async def stop(self) -> None:
        for task in [*self._later, self._sender, self._closer]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    def reply_later(self, sending: Awaitable[None]) -> None:
        """Run ``sending`` (the Router's: it sends a reply once it is ready) beside the
        connection, which handles other messages meanwhile; cancelled at its close."""
        task = asyncio.ensure_future(sending)
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    def send(self, message: p.Message) -> None:
        """Queue a message; a reader too slow to make room is disconnected."""
        if self.dropped or self.revoked:
            return
        self.send_encoded(p.encode(message))

    def send_encoded(self, data: bytes) -> None:
        """Queue a message already encoded (a push another node sent: encoded once there)."""
        if self.dropped or self.revoked:
            return
        if not self._queued and self._write_now(data):
            return
        self._enqueue(data)

    def send_latest(
        self, slot: object, data: bytes, frame: bytes | None = None, batch: WriteBatch | None = None
    ) -> None:
        """Queue a message that the next one of the same ``slot`` supersedes (an arena's
        standings): written now when the connection takes it, else it waits in the queue
        once, its bytes replaced by each newer message until the sender takes it. A slow
        reader so gets the latest state when it catches up, never a backlog of stale ones.

        ``frame``: ``data``'s frame as :func:`server_frame` built it once for every
        follower, written as it is when the connection takes it now; into ``batch``
        when one is given (a push's chunk: its :meth:`WriteBatch.flush` writes them all)."""
        if self.dropped or self.revoked:
            return
        waiting = self._latest.get(slot)
        if waiting is not None:
            waiting.data = data
            return
        if not self._queued and self._write_now(data, frame, batch):
            return
        latest = _Latest(slot, data)
        self._latest[slot] = latest
        self._enqueue(latest)

    def _write_now(
        self, data: bytes, frame: bytes | None = None, batch: WriteBatch | None = None
    ) -> bool:
        """Write one frame without waiting, when the connection takes it now; else False.

        What ``ws.send`` does for an unfragmented message (websockets' own
        frame encoder, then its transport), minus the task switch and the
        drain: only while the buffer is below the high-water mark, so nothing
        here can wait or grow without bound. The server never fragments.
        A ``frame`` built beforehand (:func:`server_frame`) goes to the
        transport as it is, in the same conditions, when those bytes are the
        connection's own (:meth:`_frames_as_built`), or into ``batch``.
        """
        if not self._takes_now():
            return False
        ws = self.ws
        if frame is not None and self._frames_as_built():
            if batch is None:
                ws.transport.write(frame)
            else:
                batch.add(ws.transport, self._socket, frame)
            return True
        ws.protocol.send_binary(data)
        ws.send_data()
        return True

    def send_latest_together(
        self, messages: Sequence[tuple[object, bytes, bytes]], batch: WriteBatch | None = None
    ) -> None:
        """Several latest messages, (slot, data, its :func:`server_frame`) each, for one
        follower (a push's standings, then their own place): their frames in one socket
        write when the connection takes them now (into ``batch`` when one is given), else
        each as :meth:`send_latest` does."""
        if self.dropped or self.revoked:
            return
        if not self._queued and self._takes_now() and self._frames_as_built():
            frames = b"".join(frame for _, _, frame in messages)
            if batch is None:
                self.ws.transport.write(frames)
            else:
                batch.add(self.ws.transport, self._socket, frames)
            return
        for slot, data, frame in messages:
            self.send_latest(slot, data, frame)

    def _takes_now(self) -> bool:
        """The connection is open, no send of websockets' own is under way, and its buffer
        is below the high-water mark: a write now neither waits nor grows it without bound."""
        ws = self.ws
        return (
            ws.protocol.state is State.OPEN
            and ws.send_in_progress is None
            and not ws.transport.is_closing()
            and ws.transport.get_write_buffer_size() < WRITE_LIMIT
        )

    def _frames_as_built(self) -> bool:
        """Frames built once (:func:`server_frame`) are this connection's bytes as they are:
        no extension would change them, and websockets holds no bytes of its own not yet
        written (they would have to go first)."""
        protocol = self.ws.protocol
        return not (protocol.extensions or protocol.writes or protocol.expect_continuation_frame)

    def _enqueue(self, item: bytes | _Close | _Latest) -> None:
        try:
            self._queue.put_nowait(item)
        except asyncio.QueueFull:
            self.drop("send queue full: the client reads too slowly")
        else:
            self._queued += 1

    def close_after_sending(self, code: int, reason: str) -> None:
        """Close once what is queued has been sent (an error reply, then 1008)."""
        self._enqueue(_Close(code, reason))

    def revoke(self, code: int, reason: str) -> None:
        """Stop taking this connection's messages now, then close it (a ban, a new token, a
        removed account).

        From this call on nothing read from the connection is played (the router
        drops its frames) and nothing more is sent but the close: replies still
        queued for a client that does not read are dropped, since a close queued
        behind them would wait for the slow-reader cut (``send_timeout``) while
        the client's moves went on being taken. A client that does not take the
        close within :data:`CLOSE_GRACE_S` is cut.
        """
        if self.revoked or self.dropped:
            return
        self.revoked = True
        for task in [*self._later, self._sender]:
            if task is not None:
                task.cancel()
        while not self._queue.empty():
            self._queue.get_nowait()
            self._queued -= 1
        self._latest.clear()
        self._closer = asyncio.create_task(self._close(code, reason), name=f"close-{self.number}")

    async def _close(self, code: int, reason: str) -> None:
        try:
            async with asyncio.timeout(CLOSE_GRACE_S):
                await self.ws.close(code, reason)
        except TimeoutError:
            self.drop(f"the close ({code}) waited over {CLOSE_GRACE_S:g} s for the client")

    def drop(self, why: str) -> None:
        """Cut the connection now, without a closing handshake that could wait on the reader."""
        if self.dropped:
            return
        self.dropped = True
        log.warning("%r disconnected: %s", self, why)
        self.ws.transport.abort()

    async def _send_loop(self) -> None:
        timeout = self.send_timeout
        while True:
            item = await self._queue.get()
            try:
                if isinstance(item, _Close):
                    await self.ws.close(item.code, item.reason)
                    return
                if isinstance(item, _Latest):
                    del self._latest[item.slot]  # a newer one queues again from here
                    item = item.data
                if self.ws.transport.get_write_buffer_size() < WRITE_LIMIT:
                    await self.ws.send(item)  # below the high-water mark: no wait for the reader
                    continue
                async with asyncio.timeout(timeout):
                    await self.ws.send(item)
            except TimeoutError:
                self.drop(f"one message waited over {timeout:g} s for the client to read")
                return
            except ConnectionClosed:
                return
            finally:
                self._queued -= 1
