"""The board rule against a real server: a second account spectating a racer sees nothing of a
rated race's boards before the race ends for everyone, a delayed board comes
``board_delay_s`` behind, a hidden one never while racing; rated rooms deal keyed deals to
human racers only."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from server.config import Config
from tests.server.conftest import Client, Connect, FakeClock
from tests.server.pushes import no_push, push
from tests.server.races.conftest import races_config

DELAY_S = 60


@pytest.fixture
def config(db_url: str) -> Config:
    return dataclasses.replace(races_config(db_url), board_delay_s=DELAY_S)


async def welcomed(connect: Connect, name: str) -> tuple[Client, int]:
    client = await connect()
    reply = await client.hello(name)
    return client, reply["player"]["id"]


async def race(connect: Connect, **room: Any) -> tuple[dict[str, Any], Client, Client, Client]:
    """alice and bob race in a new room (``room``: create_room's fields), sam (a second
    account of bob, say) spectates; the room as created, and the three clients."""
    alice, _ = await welcomed(connect, "alice")
    bob, _ = await welcomed(connect, "bob")
    sam, _ = await welcomed(connect, "sam")
    created = (await alice.request("create_room", variant="gypsy", **room))["room"]
    code = created["code"]
    await bob.request("join_room", code=code)
    await sam.request("join_room", code=code, role="spectator")
    assert (await alice.request("start_race", code=code))["type"] == "ok"
    for c in (alice, bob, sam):
        await push(c, "race_started", code=code)
    return created, alice, bob, sam


async def own_game(c: Client, room: dict[str, Any], player: int) -> dict[str, Any]:
    game_id = {m["id"]: m["game"] for m in room["players"]}[player]
    return (await c.request("get_game", game=game_id))["game"]


async def test_nobody_sees_a_rated_races_boards_before_it_is_over(connect: Connect) -> None:
    created, alice, bob, sam = await race(connect, rated=True)
    code = created["code"]
    assert (created["rated"], created["boards"]) == (True, "hidden")
    room = (await sam.request("join_room", code=code))["room"]
    a, b = room["host"], next(m["id"] for m in room["players"] if m["name"] == "bob")
    mine = await own_game(alice, room, a)
    assert set(mine["deal"]) == {"commitment"}  # keyed, drawn by the server

    refused = await sam.request("watch", code=code, player=a)
    assert refused["code"] == "race_in_progress", refused
    moved = await alice.move(mine, mine["legal"][0])
    progress = await push(sam, "progress", player=a)  # progress only
    assert progress["ply"] == moved["game"]["ply"]
    await no_push(sam, "game")

    theirs = await own_game(bob, room, b)
    await bob.request("resign", game=theirs["id"], ply=theirs["ply"])
    # a racer whose own game has ended does not see the others' either, in a rated race
    assert (await bob.request("watch", code=code, player=a))["code"] == "race_in_progress"
    await no_push(bob, "game")

    await alice.request("resign", game=mine["id"], ply=moved["game"]["ply"])
    await push(sam, "race_over", code=code)
    after = await sam.request("watch", code=code, player=a)
    assert after["type"] == "game" and after["game"]["id"] == mine["id"]
    assert after["game"]["state"] == "resigned"
    for c in (alice, bob, sam):
        await c.ws.close()


async def test_a_rated_room_deals_keyed_deals_to_people_only(connect: Connect) -> None:
    alice, _ = await welcomed(connect, "alice")
    seeded = await alice.request("create_room", variant="gypsy", rated=True, seed=617)
    assert seeded["code"] == "not_ratable"
    code = (await alice.request("create_room", variant="gypsy", rated=True))["room"]["code"]
    assert (await alice.request("start_race", code=code, seed=5))["code"] == "not_ratable"
    robot = await connect()
    welcome = await robot.request("hello", protocol=2, client="bot/1", name="robot", bot=True)
    assert welcome["type"] == "welcome" and welcome["player"]["bot"], welcome
    assert (await robot.request("join_room", code=code))["code"] == "not_ratable"
    spectating = await robot.request("join_room", code=code, role="spectator")
    assert spectating["type"] == "room"
    for c in (alice, robot):
        await c.ws.close()


async def test_delayed_boards_come_board_delay_s_behind(connect: Connect, clock: FakeClock) -> None:
    created, alice, bob, sam = await race(connect, boards="delayed")
    code = created["code"]
    assert (created["rated"], created["boards"]) == (False, "delayed")
    room = (await sam.request("join_room", code=code))["room"]
    a = room["host"]
    mine = await own_game(alice, room, a)
    early = await sam.request("watch", code=code, player=a)
    assert early["code"] == "race_in_progress"  # no board is a minute old yet

    clock.advance(DELAY_S * 1000)
    first = await sam.request("watch", code=code, player=a)
    assert (first["type"], first["game"]["ply"]) == ("game", 0)  # the board at the start
    game = mine
    for _ in range(2):
        game = (await alice.move(game, game["legal"][0]))["game"]
    await no_push(sam, "game", wait_s=0.3)  # played now: not shown yet
    again = await sam.request("watch", code=code, player=a)
    assert again["game"]["ply"] == 0

    clock.advance(DELAY_S * 1000 - 1)
    await no_push(sam, "game", wait_s=0.3)  # a millisecond short of the delay
    clock.advance(1)
    behind = await push(sam, "game", player=a)
    assert behind["game"]["ply"] == game["ply"]
    for c in (alice, bob, sam):
        await c.ws.close()


async def test_hidden_boards_are_never_shown_while_racing(
    connect: Connect, clock: FakeClock
) -> None:
    created, alice, bob, sam = await race(connect, boards="hidden")
    code = created["code"]
    assert (created["rated"], created["boards"]) == (False, "hidden")
    room = (await sam.request("join_room", code=code))["room"]
    a = room["host"]
    mine = await own_game(alice, room, a)
    game = (await alice.move(mine, mine["legal"][0]))["game"]
    clock.advance(10 * DELAY_S * 1000)
    assert (await sam.request("watch", code=code, player=a))["code"] == "race_in_progress"
    await no_push(sam, "game", wait_s=0.3)
    assert game["ply"] >= 1
    for c in (alice, bob, sam):
        await c.ws.close()
