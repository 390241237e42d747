"""The handshake against a real server: the Origin rule and the address limits count."""

from __future__ import annotations

import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import InvalidStatus

from server.app import App
from tests.server.conftest import CLOSE_TIMEOUT_S, Client, ServeWith


async def open_from(app: App, **kwargs: object) -> Client:
    ws = await ws_connect(
        f"ws://127.0.0.1:{app.port}/ws",
        close_timeout=CLOSE_TIMEOUT_S,
        **kwargs,  # type: ignore[arg-type]
    )
    return Client(ws)


async def test_a_page_of_another_site_cannot_open_the_websocket(server: App) -> None:
    with pytest.raises(InvalidStatus) as refused:
        await open_from(server, origin="https://evil.example.com")
    assert refused.value.response.status_code == 403
    assert b"evil.example.com" in refused.value.response.body


async def test_the_servers_own_pages_and_clients_without_origin_connect(server: App) -> None:
    own = await open_from(server, origin=f"http://127.0.0.1:{server.port}")
    await own.hello("alice")
    bare = await open_from(server)  # the terminal client and the bot send no Origin
    await bare.hello("bob")


async def test_an_allowed_origin_connects_through_a_proxy_that_rewrote_host(
    serve_with: ServeWith,
) -> None:
    app = await serve_with(allowed_origins="https://club.example.org")
    client = await open_from(app, origin="https://club.example.org")
    await client.hello("carol")


async def test_a_trusted_proxys_clients_are_counted_one_by_one(serve_with: ServeWith) -> None:
    app = await serve_with(trusted_proxies="127.0.0.1", max_connections_per_ip=1)
    first = await open_from(app, additional_headers={"X-Forwarded-For": "198.51.100.1"})
    await first.hello("dave")
    other = await open_from(app, additional_headers={"X-Forwarded-For": "198.51.100.2"})
    await other.hello("erin")
    again = await open_from(app, additional_headers={"X-Forwarded-For": "198.51.100.1"})
    with pytest.raises(Exception):  # noqa: B017 (closed with 1013: too many from that address)
        await again.hello("frank")
    assert again.ws.close_code == 1013


async def test_without_trusted_proxies_a_forwarded_header_is_not_believed(
    serve_with: ServeWith,
) -> None:
    app = await serve_with(max_connections_per_ip=1)
    first = await open_from(app, additional_headers={"X-Forwarded-For": "198.51.100.1"})
    await first.hello("gina")
    liar = await open_from(app, additional_headers={"X-Forwarded-For": "198.51.100.2"})
    with pytest.raises(Exception):  # noqa: B017
        await liar.hello("hank")
    assert liar.ws.close_code == 1013
