"""The client's files on kept-alive connections, and the hand-over to websockets for the rest."""

from __future__ import annotations

import asyncio

import msgpack
import pytest
from websockets.asyncio.client import connect

import server.net.front as front
from server.app import App
from server.net.front import plain_get
from server.net.static import CLIENT_ROOT


async def open_raw(app: App) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", app.port)


def request(path: str, *extra: str) -> bytes:
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", *extra]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


async def response(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    """One response read off a connection: status, headers (lower case), body."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    fields = (line.partition(":") for line in lines[1:] if line)
    headers = {name.strip().lower(): value.strip() for name, _, value in fields}
    body = await asyncio.wait_for(reader.readexactly(int(headers.get("content-length", 0))), 5)
    return status, headers, body


async def test_files_come_one_after_another_on_one_connection(server: App) -> None:
    reader, writer = await open_raw(server)
    for path in ("/play/freecell", "/js/boot.js", "/js/main.js", "/css/app.css"):
        writer.write(request(path))
        status, headers, body = await response(reader)
        assert status == 200, path
        assert "close" not in headers.get("connection", ""), path
        if path.startswith("/js/"):
            assert body == (CLIENT_ROOT / path.lstrip("/")).read_bytes()
    # an unchanged file is 304 on the same connection too
    etag = headers["etag"]
    writer.write(request("/css/app.css", f"If-None-Match: {etag}"))
    assert (await response(reader))[0] == 304
    assert server._fronts is not None and len(server._fronts.open) == 1
    writer.close()


async def test_requests_sent_together_are_answered_in_order(server: App) -> None:
    reader, writer = await open_raw(server)
    paths = ["/js/store.js", "/js/dialect.js", "/js/ui.js"]
    writer.write(b"".join(request(p) for p in paths))
    for path in paths:
        status, _, body = await response(reader)
        assert (status, body) == (200, (CLIENT_ROOT / path.lstrip("/")).read_bytes())
    writer.close()


async def test_anything_else_goes_to_websockets_as_before(server: App) -> None:
    # after a file, /healthz on the same connection: websockets' answer, then its close
    reader, writer = await open_raw(server)
    writer.write(request("/js/ui.js") + request("/healthz"))
    assert (await response(reader))[0] == 200
    status, headers, _ = await response(reader)
    assert (status, headers["content-type"]) == (200, "application/json")
    assert await asyncio.wait_for(reader.read(), 5) == b""  # closed after it, as before
    # an unknown path: the JSON 404
    reader, writer = await open_raw(server)
    writer.write(request("/nothing.js"))
    status, headers, _ = await response(reader)
    assert (status, headers["content-type"]) == (404, "application/json")


async def test_a_websocket_after_files_on_the_same_connection_works(server: App) -> None:
    reader, writer = await open_raw(server)
    writer.write(request("/js/msgpack.js"))
    assert (await response(reader))[0] == 200
    writer.write(
        request(
            "/ws",
            "Upgrade: websocket",
            "Connection: Upgrade",
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version: 13",
        )
    )
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    assert head.startswith(b"HTTP/1.1 101 ")
    writer.close()
    # and the usual WebSocket, from a client that opens one
    async with connect(f"ws://127.0.0.1:{server.port}/ws") as ws:
        hello = {"type": "hello", "id": 1, "protocol": 2, "client": "t/1", "name": "frontal"}
        await ws.send(msgpack.packb(hello))
        assert msgpack.unpackb(await ws.recv())["type"] == "welcome"


async def test_connection_close_and_idle_connections_are_closed(
    server: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    reader, writer = await open_raw(server)
    writer.write(request("/js/ui.js", "Connection: close"))
    assert (await response(reader))[0] == 200
    assert await asyncio.wait_for(reader.read(), 5) == b""
    monkeypatch.setattr(front, "IDLE_S", 0.2)
    reader, writer = await open_raw(server)
    writer.write(request("/js/ui.js"))
    assert (await response(reader))[0] == 200
    assert await asyncio.wait_for(reader.read(), 5) == b""  # nothing asked for 0.2 s
    assert server._fronts is not None and not server._fronts.open


async def test_a_client_that_does_not_read_is_not_read_either(server: App) -> None:
    _, writer = await open_raw(server)
    writer.write(request("/js/i18n/en.js") * 2000)  # ~20 MB of answers asked for at once
    await asyncio.sleep(0.5)
    assert server._fronts is not None
    (kept,) = server._fronts.open
    assert kept.paused and kept.transport is not None
    assert kept.transport.get_write_buffer_size() < 1024 * 1024
    writer.close()


async def test_stopping_the_server_closes_kept_connections(server: App) -> None:
    reader, writer = await open_raw(server)
    writer.write(request("/js/ui.js"))
    assert (await response(reader))[0] == 200
    await server.stop()
    assert await asyncio.wait_for(reader.read(), 5) == b""


def test_only_a_plain_get_over_http_1_1_is_taken() -> None:
    ok = plain_get(b"GET /js/a.js HTTP/1.1\r\nHost: h\r\nAccept: */*")
    assert ok is not None and ok[0].path == "/js/a.js" and not ok[1]
    closing = plain_get(b"GET / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive, Close")
    assert closing is not None and closing[1]
    for head in (
        b"POST /js/a.js HTTP/1.1\r\nHost: h",
        b"GET /js/a.js HTTP/1.0\r\nHost: h",
        b"GET /js/a.js HTTP/1.1",  # no Host
        b"GET /js/a.js HTTP/1.1\r\nHost: h\r\nHost: i",
        b"GET /ws HTTP/1.1\r\nHost: h\r\nUpgrade: websocket",
        b"GET /js/a.js HTTP/1.1\r\nHost: h\r\nContent-Length: 3",
        b"GET /js/a.js HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked",
        b"GET /js/a.js HTTP/1.1\r\nHost: h\r\nBad Header: x",
        b"GET /js/a.js HTTP/1.1\r\nHost: h\r\n no-colon",
        "GET /js/\u00e9.js HTTP/1.1\r\nHost: h".encode(),
    ):
        assert plain_get(head) is None, head
