"""``GET /metrics``: Prometheus text with connections, messages, moves, errors, commits, rooms."""

from __future__ import annotations

import asyncio

from prometheus_client.parser import text_string_to_metric_families

from server.app import App
from tests.server.conftest import Client, Connect, ServeWith


async def get(port: int, path: str) -> tuple[bytes, bytes]:
    """The head and body of ``GET path`` on a loopback port."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    return head, body


async def scrape(app: App) -> dict[str, float]:
    """Every sample of /metrics by name and labels, e.g. ``patience_errors_total{code=x}``."""
    assert app.metrics_port is not None
    head, body = await get(app.metrics_port, "/metrics")
    assert head.startswith(b"HTTP/1.1 200"), head
    assert b"text/plain" in head
    samples: dict[str, float] = {}
    for family in text_string_to_metric_families(body.decode()):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            samples[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return samples


async def test_metrics_count_what_the_server_does(server: App, connect: Connect) -> None:
    before = await scrape(server)
    assert before["patience_connections"] == 0
    assert before["patience_rooms"] == 0

    alice: Client = await connect()
    await alice.hello("alice")
    game = await alice.start("freecell", seed=617)
    await alice.move(game, game["legal"][0])
    await alice.request("frobnicate")
    await alice.request("move", game=game["id"], ply=0, move="t0>t1")  # stale
    await alice.request("create_room", variant="gypsy")

    after = await scrape(server)
    assert after["patience_connections"] == 1
    assert after["patience_players_online"] == 1
    assert after["patience_messages_total"] - before["patience_messages_total"] == 6
    assert after["patience_moves_total"] - before["patience_moves_total"] == 1
    assert after["patience_errors_total{code=unknown_type}"] == 1
    assert after["patience_errors_total{code=stale_ply}"] == 1
    assert after["patience_commit_seconds_count"] >= 2  # the new game and the move
    assert after["patience_commit_seconds_sum"] > 0
    assert after["patience_rooms"] == 1
    assert after["patience_races_running"] == 0


async def test_metrics_are_not_served_on_the_game_port(server: App) -> None:
    head, _ = await get(server.port, "/metrics")
    assert head.startswith(b"HTTP/1.1 404"), head
    assert server.metrics_port is not None and server.metrics_port != server.port


async def test_the_metrics_address_serves_nothing_else(server: App) -> None:
    assert server.metrics_port is not None
    head, _ = await get(server.metrics_port, "/")
    assert head.startswith(b"HTTP/1.1 404"), head


async def test_an_empty_metrics_host_serves_no_metrics(serve_with: ServeWith) -> None:
    app = await serve_with(metrics_host="")
    assert app.metrics_port is None
