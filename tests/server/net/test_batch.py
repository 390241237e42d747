"""A push's batch of frames reaches every socket as the transports would have written them.

WriteBatch with the C ``send_each`` (where it was built) and without it (every frame
through its transport, as the pure build does): the same bytes, in the same order, on
real loopback connections, including a socket whose buffer fills mid-frame, a transport
that already holds bytes, and a peer that has gone.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from collections.abc import AsyncIterator

import pytest

from server.net.batch import SEND_EACH, SendEach, WriteBatch, socket_of

IMPLEMENTATIONS: list[SendEach | None] = [None]
if SEND_EACH is not None:
    IMPLEMENTATIONS.append(SEND_EACH)


def test_the_compiled_send_is_there_when_the_build_is() -> None:
    # make test's first pass expects the compiled build: then send_each must have been built
    if os.environ.get("PATIENCE_EXPECT_BUILD") != "compiled":
        pytest.skip("PATIENCE_EXPECT_BUILD is not 'compiled' (make test sets it)")
    assert SEND_EACH is not None, "server/net/_sendeach.c was not built"


class Kept(asyncio.Protocol):
    """A server side connection: its transport kept for the test to write to."""

    def __init__(self, transports: list[asyncio.Transport], lost: list[object]) -> None:
        self.transports = transports
        self.lost = lost

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transports.append(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost.append(exc)


class Pairs:
    """``n`` loopback connections: the server side's transports and the client side's readers."""

    def __init__(self) -> None:
        self.transports: list[asyncio.Transport] = []
        self.lost: list[object] = []
        self.readers: list[asyncio.StreamReader] = []
        self.writers: list[asyncio.StreamWriter] = []


@pytest.fixture
async def pairs() -> AsyncIterator[Pairs]:
    loop = asyncio.get_running_loop()
    kept = Pairs()
    server = await loop.create_server(lambda: Kept(kept.transports, kept.lost), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    for _ in range(6):
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 24)
        kept.readers.append(reader)
        kept.writers.append(writer)
    while len(kept.transports) < 6:
        await asyncio.sleep(0.01)
    yield kept
    for writer in kept.writers:
        writer.close()
    for transport in kept.transports:
        transport.close()
    server.close()
    await server.wait_closed()


async def read_exactly(reader: asyncio.StreamReader, n: int) -> bytes:
    return await asyncio.wait_for(reader.readexactly(n), 10)


@pytest.mark.parametrize("send_each", IMPLEMENTATIONS, ids=lambda f: "c" if f else "transports")
async def test_every_frame_arrives_in_order(pairs: Pairs, send_each: SendEach | None) -> None:
    batch = WriteBatch(send_each)
    frames = [bytes([i]) * (10 + i) for i in range(6)]
    # the first transport already holds bytes: the batch's must come after them
    first = pairs.transports[0]
    first.write(b"before")
    for transport, frame in zip(pairs.transports, frames, strict=True):
        batch.add(transport, socket_of(transport), frame)
    batch.add(pairs.transports[1], socket_of(pairs.transports[1]), b"second")  # two for one
    assert len(batch) == 7
    straight = batch.flush()
    assert len(batch) == 0
    assert straight == (6 if send_each else 0)
    assert await read_exactly(pairs.readers[0], 6 + len(frames[0])) == b"before" + frames[0]
    assert await read_exactly(pairs.readers[1], len(frames[1]) + 6) == frames[1] + b"second"
    for reader, frame in zip(pairs.readers[2:], frames[2:], strict=True):
        assert await read_exactly(reader, len(frame)) == frame


@pytest.mark.parametrize("send_each", IMPLEMENTATIONS, ids=lambda f: "c" if f else "transports")
async def test_what_the_socket_does_not_take_is_buffered_behind_what_it_took(
    pairs: Pairs, send_each: SendEach | None
) -> None:
    transport = pairs.transports[0]
    sock = transport.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    big = bytes(range(256)) * 4_000  # 1 MB: far more than the socket takes at once
    batch = WriteBatch(send_each)
    batch.add(transport, socket_of(transport), big)
    batch.add(transport, socket_of(transport), b"tail")
    assert batch.flush() == 0  # not all of it went straight
    assert transport.get_write_buffer_size() > 0
    # a frame added later queues behind the buffered rest, through the transport
    later = WriteBatch(send_each)
    later.add(transport, socket_of(transport), b"later")
    later.flush()
    got = await read_exactly(pairs.readers[0], len(big) + 4 + 5)
    assert got == big + b"tail" + b"later"


@pytest.mark.parametrize("send_each", IMPLEMENTATIONS, ids=lambda f: "c" if f else "transports")
async def test_a_peer_gone_is_reported_by_its_transport_and_the_others_still_get_theirs(
    pairs: Pairs, send_each: SendEach | None
) -> None:
    gone = pairs.writers[0]
    gone.transport.abort()  # a reset: the server side's sends fail
    await asyncio.sleep(0.05)
    for _ in range(3):  # until the server side has met the reset
        batch = WriteBatch(send_each)
        for transport in pairs.transports:
            batch.add(transport, socket_of(transport), b"x" * 100)
        batch.flush()  # never raises for one connection's failure
        await asyncio.sleep(0.05)
        if pairs.lost:
            break
    assert pairs.lost, "the transport of the gone peer did not report its loss"
    for reader in pairs.readers[1:]:
        assert (await read_exactly(reader, 100))[:1] == b"x"


def test_send_each_refuses_bad_input_before_sending() -> None:
    if SEND_EACH is None:
        pytest.skip("server/net/_sendeach.c is not built here")
    a, b = socket.socketpair()
    try:
        a.setblocking(False)
        with pytest.raises(ValueError):
            SEND_EACH([a.fileno()], [])
        with pytest.raises(TypeError):
            SEND_EACH([a.fileno()], ["text"])  # type: ignore[list-item]
        with pytest.raises(ValueError):
            SEND_EACH([-1], [b"x"])
        with pytest.raises(TypeError):
            SEND_EACH(["3"], [b"x"])  # type: ignore[list-item]
        b.setblocking(False)
        with pytest.raises(BlockingIOError):
            b.recv(10)  # nothing was sent by the refused calls
        assert SEND_EACH([a.fileno(), 1_000_000], [b"ok", b"x"])[0] == 2
        assert SEND_EACH([1_000_000], [b"x"]) == [-9]  # EBADF, as minus the errno
        assert b.recv(10) == b"ok"
    finally:
        a.close()
        b.close()


def test_the_pure_switch_leaves_send_each_out() -> None:
    # the module reads the switch when it is imported: the pure build never loads the C
    code = "import server.net.batch as b, sys; sys.exit(0 if b.SEND_EACH is None else 1)"
    env = {**os.environ, "PATIENCE_PURE": "1"}
    assert subprocess.run([sys.executable, "-c", code], env=env, check=False).returncode == 0
