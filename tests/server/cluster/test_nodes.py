"""Nodes: a duplicate id is refused at start; a node that stops hands its rooms on at once;
/healthz says whether Redis is up."""

from __future__ import annotations

import asyncio
import json
import urllib.request

import pytest

from server.app import App
from server.cluster.node import ClusterError
from server.config import Config
from tests.server.cluster.conftest import StartNode, wait_for
from tests.server.conftest import open_client
from tests.server.pushes import push


def health(app: App) -> tuple[int, dict[str, str]]:
    with urllib.request.urlopen(f"http://127.0.0.1:{app.port}/healthz", timeout=5) as r:
        return r.status, json.loads(r.read())


async def test_a_second_live_node_with_the_same_id_is_refused(
    nodes: StartNode, config: Config
) -> None:
    await nodes("a")
    twin = App(config.replace(node_id="a"))
    with pytest.raises(ClusterError, match="'a' is in use by a live node"):
        await twin.start()
    assert twin._server is None  # it never listened


async def test_a_node_that_stops_releases_its_rooms_and_another_takes_them_at_once(
    nodes: StartNode,
) -> None:
    a, b = await nodes("a"), await nodes("b")
    status, body = await asyncio.to_thread(health, b)
    assert (status, body) == (200, {"status": "ok", "redis": "up"})
    host = await open_client(a)
    await host.hello("alice")
    bob = await open_client(b)
    bob_id = (await bob.hello("bob"))["player"]["id"]
    code = (await host.request("create_room", variant="gypsy"))["room"]["code"]
    await bob.request("join_room", code=code)
    assert code in a.rooms.rooms

    started = asyncio.get_running_loop().time()
    await a.stop()
    await wait_for(lambda: code in b.rooms.rooms, 3.0)
    # well before the lease would have expired by itself (5 s)
    assert asyncio.get_running_loop().time() - started < 3.0
    shown = await push(bob, "room")  # the node that took the room over shows it
    assert bob_id in [p["id"] for p in shown["room"]["players"]]
    left = await bob.request("leave_room", code=code)  # run by b now
    assert left["type"] == "ok"
    await bob.ws.close()
