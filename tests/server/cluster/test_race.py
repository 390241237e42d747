"""A race whose members are on two nodes: room changes, countdown, start, progress, boards for a
watcher on the other node, standings and a rematch reach everyone."""

from __future__ import annotations

from typing import Any

from tests.server.cluster.conftest import StartNode
from tests.server.conftest import Client, open_client
from tests.server.pushes import push


async def welcomed(app: Any, name: str) -> tuple[Client, int]:
    client = await open_client(app)
    reply = await client.hello(name)
    return client, reply["player"]["id"]


def racers(message: dict[str, Any]) -> dict[int, bool]:
    return {p["id"]: p["connected"] for p in message["room"]["players"]}


async def test_a_race_across_two_nodes_with_a_watcher_on_the_other_node(nodes: StartNode) -> None:
    a, b = await nodes("a"), await nodes("b")
    alice, alice_id = await welcomed(a, "alice")
    bob, bob_id = await welcomed(b, "bob")
    carol, carol_id = await welcomed(b, "carol")

    created = await alice.request("create_room", variant="freecell", seed=617, options={})
    code = created["room"]["code"]
    assert code in a.rooms.rooms and code not in b.rooms.rooms  # node a owns it

    joined = await bob.request("join_room", code=code)  # asked of b, run by a
    assert joined["type"] == "room", joined
    assert racers(joined) == {alice_id: True, bob_id: True}
    seen = await push(alice, "room")
    assert racers(seen) == {alice_id: True, bob_id: True}
    watching = await carol.request("join_room", code=code, role="spectator")
    assert [p["role"] for p in watching["room"]["players"]] == ["racer", "racer", "spectator"]
    assert len((await push(bob, "room"))["room"]["players"]) == 3  # pushed by a, through b

    assert (await bob.request("start_race", code=code))["code"] == "not_host"  # a's answer
    assert (await alice.request("start_race", code=code))["type"] == "ok"
    for client in (alice, bob, carol):
        assert (await push(client, "race_countdown"))["start_in_ms"] == 60
    game_a = (await push(alice, "race_started"))["game"]
    game_b = (await push(bob, "race_started"))["game"]
    assert "game" not in await push(carol, "race_started")
    assert game_a["id"] != game_b["id"]

    # carol (on b) watches alice (on a); then bob, on her own node
    board = await carol.request("watch", code=code, player=alice_id)
    assert (board["type"], board["player"], board["game"]["id"]) == ("game", alice_id, game_a["id"])
    moved = await alice.move(game_a, game_a["legal"][0])
    assert moved["type"] == "game", moved
    game_a = moved["game"]
    followed = await push(carol, "game", player=alice_id)
    assert followed["game"]["ply"] == 1 and followed["code"] == code
    progress = await push(bob, "progress", player=alice_id)
    assert (progress["ply"], progress["state"]) == (1, "playing")

    await carol.request("watch", code=code, player=bob_id)
    moved = await bob.move(game_b, game_b["legal"][0])
    assert moved["type"] == "game", moved
    assert (await push(carol, "game", player=bob_id))["game"]["ply"] == 1
    assert (await push(alice, "progress", player=bob_id))["ply"] == 1  # from b, through a

    # a racer watches the others only once their own game has ended: a's rule, asked from b
    refused = await bob.request("watch", code=code, player=alice_id)
    assert refused["code"] == "race_in_progress", refused

    resigned = await bob.request("resign", game=game_b["id"], ply=1)
    assert resigned["game"]["state"] == "resigned"
    assert (await push(alice, "progress", player=bob_id))["state"] == "resigned"
    await alice.request("resign", game=game_a["id"], ply=game_a["ply"])
    for client in (alice, bob, carol):
        over = await push(client, "race_over")
        assert sorted(s["player"] for s in over["standings"]) == [alice_id, bob_id]
    assert await push(bob, "room", check=lambda m: m["room"]["state"] == "over")

    # the rematch reaches everyone too; bob leaves on b and everyone sees it
    assert (await alice.request("start_race", code=code))["type"] == "ok"
    for client in (alice, bob, carol):
        await push(client, "race_countdown")
        await push(client, "race_started")
    assert (await bob.request("leave_room", code=code))["type"] == "ok"
    left = await push(carol, "room", check=lambda m: len(m["room"]["players"]) == 2)
    assert bob_id not in racers(left)

    # carol's last connection closes on b: a shows her gone
    await carol.ws.close()
    gone = await push(alice, "room", check=lambda m: not racers(m).get(carol_id, True))
    assert racers(gone)[carol_id] is False
    for client in (alice, bob):
        await client.ws.close()


async def test_a_racer_on_another_node_gets_hints_only_where_the_room_allows_them(
    nodes: StartNode,
) -> None:
    a, b = await nodes("a"), await nodes("b")
    alice, _ = await welcomed(a, "alice")
    bob, _ = await welcomed(b, "bob")
    games = {}
    for hints in (True, False):
        room = await alice.request("create_room", variant="freecell", hints=hints)
        code = room["room"]["code"]
        await bob.request("join_room", code=code)
        await alice.request("start_race", code=code)
        games[hints] = (await push(bob, "race_started", code=code))["game"]
    allowed = await bob.request("hint", game=games[True]["id"])  # b knows it from a's news
    assert allowed["type"] == "hint", allowed
    refused = await bob.request("hint", game=games[False]["id"])
    assert refused["code"] == "hints_off"
    for client in (alice, bob):
        await client.ws.close()


async def test_a_rated_race_on_two_nodes_shows_no_board_before_it_is_over(
    nodes: StartNode,
) -> None:
    """Every path a board takes is the owner's to refuse: the watch asked from the other node,
    and the boards of a racer playing there (told to the owner in race_action)."""
    a, b = await nodes("a"), await nodes("b")
    alice, _ = await welcomed(a, "alice")
    bob, bob_id = await welcomed(b, "bob")
    sam, _ = await welcomed(b, "sam")  # a second account, on bob's node
    dan, _ = await welcomed(a, "dan")  # a spectator on the owner's node
    created = await alice.request("create_room", variant="gypsy", rated=True)
    code = created["room"]["code"]
    assert code in a.rooms.rooms and created["room"]["boards"] == "hidden"
    await bob.request("join_room", code=code)
    for spectator in (sam, dan):
        await spectator.request("join_room", code=code, role="spectator")
    assert (await alice.request("start_race", code=code))["type"] == "ok"
    game_a = (await push(alice, "race_started"))["game"]
    game_b = (await push(bob, "race_started"))["game"]
    for spectator in (sam, dan):
        await push(spectator, "race_started")
        refused = await spectator.request("watch", code=code, player=bob_id)
        assert refused["code"] == "race_in_progress", refused

    game_b = (await bob.move(game_b, game_b["legal"][0]))["game"]
    for spectator in (sam, dan):
        assert (await push(spectator, "progress", player=bob_id))["ply"] == game_b["ply"]
    await bob.request("resign", game=game_b["id"], ply=game_b["ply"])
    await alice.request("resign", game=game_a["id"], ply=game_a["ply"])
    for spectator in (sam, dan):
        await push(spectator, "race_over")
        assert not [m for m in spectator.received if m["type"] == "game"]
    board = await sam.request("watch", code=code, player=bob_id)
    assert (board["type"], board["game"]["state"]) == ("game", "resigned")
    for c in (alice, bob, sam, dan):
        await c.ws.close()
