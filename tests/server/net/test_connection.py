"""A connection's frames: the server's own framing is websockets' byte for byte."""

from __future__ import annotations

import pytest
from websockets.frames import Frame, Opcode

from server.net.connection import server_frame
from tests.server.conftest import Connect


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 1000, 65535, 65536, 70000])
def test_a_server_frame_is_what_websockets_builds(size: int) -> None:
    data = bytes(range(256)) * (size // 256) + bytes(range(size % 256))
    assert len(data) == size
    assert server_frame(data) == Frame(Opcode.BINARY, data).serialize(mask=False)


async def test_replies_sent_back_to_back_reach_the_client_whole(connect: Connect) -> None:
    """Replies written with the server's framing (game views, a list, an error) are read by a
    real client as the messages they are, in order."""
    client = await connect()
    await client.hello("framer")
    game = await client.start("freecell", seed=617)
    kinds = ["get_game"] * 5 + ["games", "no_such_type"]
    for n, kind in enumerate(kinds, 100):
        await client.send({"type": kind, "id": n, "game": game["id"]})
    replies = [await client.recv() for _ in kinds]
    assert [(r["type"], r["re"]) for r in replies] == [
        *(("game", n) for n in range(100, 105)),
        ("games", 105),
        ("error", 106),
    ]
    assert all(r["game"] == game for r in replies[:5])
