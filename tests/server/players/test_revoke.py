"""A ban stops a connection's actions at once, even one whose replies are stuck unread."""

from __future__ import annotations

import asyncio
import contextlib
import socket

import msgpack
import pytest
from sqlalchemy import func, select
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from server.config import Config
from server.storage.models import GameAction
from tests.server.conftest import Client, ServeWith
from tests.server.pushes import admin, winning_line


async def stored_moves(app_db: object, game_id: str) -> int:
    async with app_db() as db:  # type: ignore[operator]
        count = await db.scalar(select(func.count()).where(GameAction.game_id == game_id))
    return int(count or 0)


@pytest.mark.sqlite_only  # the database plays no part in how a connection is cut
async def test_a_banned_client_that_stops_reading_plays_nothing_more(
    capsys: pytest.CaptureFixture[str], config: Config, serve_with: ServeWith
) -> None:
    app = await serve_with(send_queue=4096, send_timeout=10.0, rate_limit=1000, rate_burst=1000)
    # A client that reads as little as it can: a tiny receive buffer, one frame queued.
    sock = socket.create_connection(("127.0.0.1", app.port))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    ws = await ws_connect(f"ws://127.0.0.1:{app.port}/ws", sock=sock, max_queue=1)
    mallory = Client(ws)
    await mallory.hello("mallory")
    game = (await mallory.request("start_game", variant="freecell", seed=617))["game"]
    line = winning_line("freecell", 617)

    async def send(message: dict[str, object]) -> None:
        with contextlib.suppress(ConnectionClosed):  # the attacker goes on trying
            await ws.send(msgpack.packb(message))

    for n in range(220):  # replies the client will never read
        await send({"type": "get_game", "id": 1000 + n, "game": game["id"]})
    for ply, action in enumerate(line[:10]):
        await send({"type": "move", "id": ply, "game": game["id"], "ply": ply, "move": action})
    await asyncio.sleep(0.5)
    assert await stored_moves(app.db_sessions, game["id"]) == 10

    assert (await admin(capsys, config, "ban", "mallory"))[0] == 0
    await asyncio.sleep(2.5)  # the server reads the operators' changes every second
    for ply, action in enumerate(line[10:40], start=10):
        await send({"type": "move", "id": ply, "game": game["id"], "ply": ply, "move": action})
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)
    assert await stored_moves(app.db_sessions, game["id"]) == 10  # nothing after the ban

    async def gone() -> bool:
        return not any(c.player and c.player.name == "mallory" for c in app.connections)

    for _ in range(60):  # cut within the close's grace, not the slow-reader cut (10 s)
        if await gone():
            break
        await asyncio.sleep(0.05)
    assert await gone()
    sock.close()
