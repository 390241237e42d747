"""A ban stored by an operator closes the player's connections on every node, and the room's
owner, on another node, resigns them from its race and hands the room on."""

from __future__ import annotations

import pytest

from server.config import Config
from tests.server.cluster.conftest import StartNode
from tests.server.conftest import open_client
from tests.server.players.test_changes import closed_within
from tests.server.pushes import admin, push


async def test_a_ban_closes_connections_on_both_nodes_and_the_owner_resigns_the_racer(
    capsys: pytest.CaptureFixture[str], config: Config, nodes: StartNode
) -> None:
    a, b = await nodes("a"), await nodes("b")
    alice = await open_client(a)
    alice_id = (await alice.hello("alice"))["player"]["id"]
    mallory = await open_client(b)
    welcome = await mallory.hello("mallory")
    m = welcome["player"]["id"]
    second = await open_client(a)  # mallory's other connection, on node a
    await second.request("hello", protocol=2, client="t/1", token=welcome["token"])

    code = (await alice.request("create_room", variant="gypsy"))["room"]["code"]
    assert (await mallory.request("join_room", code=code))["type"] == "room"
    await alice.request("start_race", code=code)
    race_game = (await push(mallory, "race_started"))["game"]
    await push(alice, "race_started")

    assert (await admin(capsys, config, "ban", "mallory"))[0] == 0
    for client in (mallory, second):
        assert await closed_within(client, 3.0) == 1008
    gone = await push(alice, "progress", player=m)
    assert gone["state"] == "resigned"
    left = await push(alice, "room", check=lambda r: len(r["room"]["players"]) == 1)
    assert [p["id"] for p in left["room"]["players"]] == [alice_id]
    assert (await a.game_store.fresh(race_game["id"])).state == "resigned"
    refused = await (await open_client(b)).request(
        "hello", protocol=2, client="t/1", token=welcome["token"]
    )
    assert refused["code"] == "banned"
    await alice.ws.close()
