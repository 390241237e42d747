"""Bad input and limits: the server answers clearly, stays up, and others are unaffected."""

from __future__ import annotations

import asyncio
import json
import random
import socket
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import msgpack
import pytest
from websockets.exceptions import ConnectionClosed

from server.app import App
from tests.server.conftest import Client, Connect, ServeWith, open_client


async def closed_code(client: Client) -> int | None:
    """Read until the server closes; the close code it sent."""
    with pytest.raises(ConnectionClosed):
        while True:
            await asyncio.wait_for(client.recv(), 10)
    return client.ws.close_code


async def still_serves(client: Client) -> None:
    game = await client.start("freecell", seed=5)
    assert (await client.move(game, game["legal"][0]))["type"] == "game"


async def test_a_frame_over_the_size_limit_closes_with_1009_and_others_play_on(
    connect: Connect, player: Client
) -> None:
    big = await connect()
    await big.send({"type": "hello", "id": 1, "protocol": 2, "client": "x" * 20_000, "name": "a"})
    assert await closed_code(big) == 1009
    await still_serves(player)


async def test_a_text_frame_is_bad_message_without_re_and_the_connection_stays(
    connect: Connect,
) -> None:
    client = await connect()
    await client.ws.send('{"type": "hello"}')
    reply = await client.recv()
    assert reply["type"] == "error" and reply["code"] == "bad_message" and "re" not in reply
    await client.hello("alice")
    await still_serves(client)


@pytest.mark.parametrize(
    "frame",
    [
        b"\xc1",  # never used in msgpack
        b"\x92\x01",  # an array cut short
        msgpack.packb([1, 2, 3]),
        msgpack.packb(7),
        msgpack.packb("hello"),
        msgpack.packb({1: "a"}),
        b"\xa3\xff\xfe\xfd",  # a string that is not UTF-8
        b"\x91" * 5000,  # deep nesting
    ],
)
async def test_frames_that_are_not_msgpack_maps_are_bad_message(
    player: Client, frame: bytes
) -> None:
    await player.ws.send(frame)
    reply = await player.recv()
    assert (reply["type"], reply["code"]) == ("error", "bad_message")
    await still_serves(player)


@pytest.mark.parametrize(
    ("message", "field"),
    [
        ({"id": 1}, "type"),
        ({"type": 5, "id": 1}, "type"),
        ({"type": "get_game", "id": "one", "game": "x"}, "id"),
        ({"type": "get_game", "id": 1}, "game"),
        ({"type": "get_game", "id": 1, "game": ["x"]}, "game"),
        ({"type": "get_game", "id": 1, "game": "x" * 1000}, "game"),
        ({"type": "start_game", "id": 1}, "variant"),
        ({"type": "start_game", "id": 1, "variant": "freecell", "seed": "617"}, "seed"),
        ({"type": "start_game", "id": 1, "variant": "freecell", "seed": 2**64 - 1}, "seed"),
        ({"type": "start_game", "id": 1, "variant": "freecell", "seed": 1.5}, "seed"),
        ({"type": "start_game", "id": 1, "variant": "freecell", "seed": True}, "seed"),
        ({"type": "start_game", "id": 1, "variant": "freecell", "options": []}, "options"),
        ({"type": "start_game", "id": 1, "variant": "freecell", "options": {"a": "b"}}, "options"),
        ({"type": "move", "id": 1, "game": "g", "ply": -1, "move": "t0>t1"}, "ply"),
        ({"type": "move", "id": 1, "game": "g", "ply": 2**63, "move": "t0>t1"}, "ply"),
        ({"type": "move", "id": 1, "game": "g", "ply": None, "move": "t0>t1"}, "ply"),
        ({"type": "move", "id": 1, "game": "g", "ply": 0, "move": "up"}, "move"),
        ({"type": "move", "id": 1, "game": "g", "ply": 0, "move": b"t0>t1"}, "move"),
        ({"type": "move", "id": 1, "game": "g", "ply": 0}, "move"),
        ({"type": "undo", "id": 1, "game": "g"}, "ply"),
        ({"type": "resign", "id": 1, "game": 3, "ply": 0}, "game"),
        ({"type": "hint", "id": 1}, "game"),
    ],
)
async def test_missing_and_mistyped_fields_are_invalid_field_naming_the_field(
    player: Client, message: dict[str, Any], field: str
) -> None:
    await player.send(message)
    reply = await player.recv()
    assert reply["code"] == "invalid_field", reply
    assert f"'{field}'" in reply["message"]
    if isinstance(message.get("id"), int):
        assert reply["re"] == message["id"]


async def test_unknown_types_are_unknown_type(player: Client) -> None:
    reply = await player.request("teleport")
    assert reply["code"] == "unknown_type"


async def test_the_twentieth_client_error_is_answered_then_closed_with_1008(
    connect: Connect, player: Client
) -> None:
    client = await connect()
    for n in range(1, 20):
        reply = await client.request("teleport")
        assert reply["code"] == "unknown_type", n
    await client.send({"type": "teleport", "id": 99})
    last = await client.recv()
    assert (last["code"], last["re"]) == ("unknown_type", 99)
    assert await closed_code(client) == 1008
    await still_serves(player)


async def test_refusals_that_are_not_mistakes_do_not_count(player: Client) -> None:
    game = await player.start()
    for _ in range(25):
        assert (await player.move(game, "t0>t0"))["code"] == "illegal_move"
    await still_serves(player)


async def test_a_flood_is_rate_limited_and_others_are_unaffected(serve_with: ServeWith) -> None:
    app = await serve_with(rate_limit=5, rate_burst=10)
    flooder, other = await open_client(app), await open_client(app)
    await flooder.hello("flood")
    await other.hello("calm")
    for n in range(40):
        await flooder.send({"type": "get_game", "id": n, "game": "nope"})
    replies = [await flooder.recv() for _ in range(40)]
    codes = [r["code"] for r in replies]
    assert codes.count("not_found") <= 12
    assert codes.count("rate_limited") >= 28
    assert all(r["re"] == n for n, r in enumerate(replies))
    await still_serves(other)


async def test_past_max_connections_new_ones_are_closed_with_1013(serve_with: ServeWith) -> None:
    app = await serve_with(max_connections=3)
    clients = [await open_client(app) for _ in range(3)]
    await clients[0].hello("alice")
    extra = await open_client(app)
    assert await closed_code(extra) == 1013
    await clients[1].ws.close()
    await asyncio.sleep(0.1)
    again = await open_client(app)
    await again.hello("bob")


async def test_connections_per_address_are_limited(serve_with: ServeWith) -> None:
    app = await serve_with(max_connections_per_ip=2)
    first = [await open_client(app) for _ in range(2)]
    assert await closed_code(await open_client(app)) == 1013
    await first[0].hello("alice")
    await still_serves(first[0])


async def test_a_reader_that_never_reads_is_disconnected_and_others_play_on(
    serve_with: ServeWith,
) -> None:
    app = await serve_with(rate_limit=100_000, rate_burst=100_000, send_queue=8, send_timeout=1)
    other = await open_client(app)
    await other.hello("calm")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", app.port))
    slow = await open_client(app, sock=sock, max_queue=1)
    await slow.hello("slow")
    game = await slow.start()
    frame = msgpack.packb({"type": "get_game", "id": 1, "game": game["id"]})
    # Send far more than fits in the socket buffers and the queue, and never read.
    with pytest.raises(ConnectionClosed):
        for _ in range(20_000):
            await slow.ws.send(frame)
            await asyncio.sleep(0)
        await asyncio.sleep(5)
        await slow.ws.send(frame)
    assert len(app.connections) == 1
    await still_serves(other)


async def test_healthz_answers_json_on_the_same_port(server: App) -> None:
    def get(path: str) -> tuple[int, Any]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{server.port}{path}") as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    assert await asyncio.to_thread(get, "/healthz") == (200, {"status": "ok"})
    status, _ = await asyncio.to_thread(get, "/nowhere")
    assert status == 404


async def test_random_garbage_never_stops_the_server(
    serve_with: ServeWith,
) -> None:
    app = await serve_with(rate_limit=10_000, rate_burst=10_000)
    witness = await open_client(app)
    await witness.hello("witness")
    rng = random.Random(4)
    values: list[Any] = [None, True, -1, 0, 2**63 - 1, -(2**63), 1.5, "", "x" * 300]
    values += [b"\x00", [], {}, "t0>t1", "freecell"]
    kinds = ["hello", "start_game", "move", "undo", "resign", "get_game", "hint", "nope"]
    fields = ["id", "type", "game", "ply", "move", "seed", "variant", "options", "name", "token"]
    fields += ["protocol", "client"]
    client = await open_client(app)
    answered = 0
    for _ in range(300):
        message: dict[str, Any] = {"type": rng.choice(kinds)}
        for name in rng.sample(fields, rng.randint(0, 6)):
            message[name] = rng.choice(values)
        try:
            await client.send(message)
            reply = await asyncio.wait_for(client.recv(), 5)
        except ConnectionClosed:
            assert client.ws.close_code == 1008
            client = await open_client(app)
            continue
        answered += 1
        assert reply["type"] in ("error", "welcome", "game", "hint"), reply
    assert answered > 200
    await still_serves(witness)


async def test_healthz_is_503_while_the_database_is_gone(
    serve_with: ServeWith, tmp_path: Path
) -> None:
    app = await serve_with(db=f"sqlite+aiosqlite:///{tmp_path / 'vol' / 'h.db'}")

    def status() -> int:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{app.port}/healthz") as response:
                return int(response.status)
        except urllib.error.HTTPError as exc:
            assert json.loads(exc.read()) == {"status": "unavailable"}
            return exc.code

    assert await asyncio.to_thread(status) == 200
    await app.engine.dispose()  # drop pooled connections, as after a restart of the pool
    (tmp_path / "vol").rename(tmp_path / "unmounted")
    try:
        assert await asyncio.to_thread(status) == 503
    finally:
        (tmp_path / "unmounted").rename(tmp_path / "vol")
    assert await asyncio.to_thread(status) == 200


async def test_the_size_limit_is_exact(serve_with: ServeWith) -> None:
    app = await serve_with(max_message_bytes=1000)
    client = await open_client(app)
    await client.hello("alice")

    def frame(size: int) -> bytes:
        """A get_game of exactly ``size`` bytes (the padding's length prefix varies)."""
        for pad in range(size, 0, -1):
            data: bytes = msgpack.packb(
                {"type": "get_game", "id": 1, "game": "g", "pad": "x" * pad}
            )
            if len(data) == size:
                return data
        raise AssertionError(size)

    exact = frame(1000)
    assert len(exact) == 1000
    await client.ws.send(exact)
    assert (await client.recv())["code"] == "not_found"
    over = frame(1001)
    assert len(over) == 1001
    await client.ws.send(over)
    assert await closed_code(client) == 1009
