"""Rematches over the wire: dealt only to the racers connected, over as soon as they are done,
and every refused host action answered with a reason."""

from __future__ import annotations

from typing import Any

from server.app import App
from tests.server.conftest import Client, Connect
from tests.server.pushes import no_push, push


async def welcomed(connect: Connect, name: str) -> tuple[Client, int]:
    client = await connect()
    return client, (await client.hello(name))["player"]["id"]


def connected(message: dict[str, Any]) -> dict[int, bool]:
    return {p["id"]: p["connected"] for p in message["room"]["players"]}


def games(room: dict[str, Any]) -> dict[int, str | None]:
    return {p["id"]: p["game"] for p in room["players"]}


async def resign_all(clients: list[Client], started: list[dict[str, Any]]) -> None:
    for client, message in zip(clients, started, strict=True):
        game = message["game"]
        assert (await client.request("resign", game=game["id"], ply=game["ply"]))["type"] == "game"


async def test_a_rematch_deals_only_to_connected_racers_and_ends_when_they_are_done(
    server: App, connect: Connect
) -> None:
    alice, a = await welcomed(connect, "alice")
    bob, b = await welcomed(connect, "bob")
    carol, c = await welcomed(connect, "carol")
    code = (await alice.request("create_room", variant="freecell"))["room"]["code"]
    for client in (bob, carol):
        await client.request("join_room", code=code)
    await alice.request("start_race", code=code)
    first = [await push(x, "race_started", code=code) for x in (alice, bob, carol)]
    await resign_all([alice, bob, carol], first)
    await push(alice, "race_over", code=code)

    await carol.ws.close()  # carol has gone: the rematch does not wait for her
    await push(alice, "room", check=lambda m: connected(m) == {a: True, b: True, c: False})
    assert (await alice.request("start_race", code=code))["type"] == "ok"
    second = [await push(x, "race_started", code=code) for x in (alice, bob)]
    assert all(m["game"]["ply"] == 0 for m in second)
    room = (await bob.request("join_room", code=code))["room"]
    assert room["state"] == "racing" and room["race"] == 2
    assert games(room)[c] is None  # a member still, with no game in this race
    assert {games(room)[a], games(room)[b]} == {m["game"]["id"] for m in second}

    # Every racer dealt a game is done: the race is over at once, not at its time limit.
    await resign_all([alice, bob], second)
    over = await push(alice, "race_over", code=code)
    assert {s["player"] for s in over["standings"]} == {a, b}
    assert server.rooms.rooms[code].state == "over"
    assert (await bob.request("join_room", code=code))["room"]["state"] == "over"


async def test_every_refused_host_action_says_why(server: App, connect: Connect) -> None:
    alice, _ = await welcomed(connect, "alice")
    bob, _ = await welcomed(connect, "bob")
    stranger, _ = await welcomed(connect, "stranger")
    code = (await alice.request("create_room", variant="gypsy"))["room"]["code"]
    await bob.request("join_room", code=code)

    refused = await bob.request("start_race", code=code)
    assert refused["code"] == "not_host" and f"only the host of room '{code}'" in refused["message"]
    refused = await stranger.request("start_race", code=code)
    assert refused["code"] == "not_in_room" and "you are not in room" in refused["message"]
    refused = await alice.request("start_race", code="ZZZZZZ")
    assert refused["code"] == "not_found" and "no room 'ZZZZZZ'" in refused["message"]

    assert (await alice.request("start_race", code=code))["type"] == "ok"
    during = await alice.request("start_race", code=code)  # in the countdown, then racing
    assert during["code"] == "race_in_progress" and "already racing" in during["message"]
    started = [await push(x, "race_started", code=code) for x in (alice, bob)]
    during = await alice.request("start_race", code=code)
    assert during["code"] == "race_in_progress" and "wait for race_over" in during["message"]
    await resign_all([alice, bob], started)
    await push(bob, "race_over", code=code)

    # Over: a rematch is still the host's alone, and needs a racer connected.
    refused = await bob.request("start_race", code=code)
    assert refused["code"] == "not_host" and "only the host" in refused["message"]
    await bob.request("leave_room", code=code)
    sam, _ = await welcomed(connect, "sam")
    await sam.request("join_room", code=code, role="spectator")
    await alice.request("leave_room", code=code)  # sam, a spectator, hosts now
    refused = await sam.request("start_race", code=code)
    assert refused["code"] == "no_racers" and "nobody in room" in refused["message"]
    assert "connected to race" in refused["message"]
    await no_push(sam, "race_countdown")
